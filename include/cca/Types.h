// Plain C++ types of the connected-component analysis engine.
// Nothing here depends on ITK or CUDA: the engine is usable from any host code.
#ifndef cca_Types_h
#define cca_Types_h

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cca
{

enum class PixelType : std::uint8_t
{
  UInt8,
  Int8,
  UInt16,
  Int16,
  UInt32,
  Int32,
  UInt64,
  Int64,
  Float32, ///< feature images only: the image that is labeled is integer
  Float64  ///< feature images only
};

/** The PixelType of the C++ arithmetic type TPixel (one of the ten above:
 *  8- to 64-bit integers, float, double). */
template <typename TPixel>
constexpr PixelType
PixelTypeOf()
{
  static_assert(std::is_arithmetic_v<TPixel> && sizeof(TPixel) <= 8, "a scalar pixel type of at most 64 bits");
  if constexpr (std::is_floating_point_v<TPixel>)
  {
    return sizeof(TPixel) == 4 ? PixelType::Float32 : PixelType::Float64;
  }
  else
  {
    constexpr bool isSigned = std::is_signed_v<TPixel>;
    switch (sizeof(TPixel))
    {
      case 1:
        return isSigned ? PixelType::Int8 : PixelType::UInt8;
      case 2:
        return isSigned ? PixelType::Int16 : PixelType::UInt16;
      case 4:
        return isSigned ? PixelType::Int32 : PixelType::UInt32;
      default:
        return isSigned ? PixelType::Int64 : PixelType::UInt64;
    }
  }
}

/** Size in bytes of one pixel of the given type. */
int
PixelTypeSize(PixelType type);
const char *
PixelTypeName(PixelType type);
constexpr bool
IsRealPixelType(PixelType type)
{
  return type == PixelType::Float32 || type == PixelType::Float64;
}

/** Face: pixels sharing a face are neighbours (4 in 2D, 6 in 3D).
 *  Full: edges and corners too (8 in 2D, 26 in 3D). */
enum class Connectivity : std::uint8_t
{
  Face,
  Full
};

enum class ForegroundRule : std::uint8_t
{
  EqualTo,    ///< foreground = pixel == value
  NotEqualTo, ///< foreground = pixel != value
  All         ///< every pixel is foreground (a label image whose every value is an object)
};

/** What the objects of a run are. Object pixels are the foreground pixels
 *  (Options::foregroundRule) in every case. */
enum class Objects : std::uint8_t
{
  /** Connected components of the foreground, numbered in raster order of
   *  their first pixels (ConnectedComponentImageFilter,
   *  BinaryImageToShapeLabelMapFilter). The default. */
  ForegroundComponents,
  /** Each value of an integer label image is one object, connected or not,
   *  numbered in increasing order of the values (LabelImageToShapeLabelMapFilter
   *  keeps the values as labels; Result::labelValues holds them). */
  LabelValues,
  /** The connected components of each value of a label image: pixels are
   *  neighbours only when their values are equal (ScalarConnectedComponentImageFilter
   *  with DistanceThreshold 0), numbered in raster order of their first
   *  pixels; Result::labelValues holds the value of each. */
  LabelValueComponents
};
const char *
ObjectsName(Objects objects);

enum class Backend : std::uint8_t
{
  Auto, ///< CUDA when a device is present, else CPU
  Cpu,
  Cuda
};
const char *
BackendName(Backend backend);

/** Labeling and feature-accumulation strategy of the CUDA backend. All give
 *  the same Result; the CPU backend has one algorithm and ignores this.
 *  Papers: docs/references.md.
 *  - Units joined by a lock-free union-find, then their features voted into
 *    a table (Lemaitre, Hennequin, Lacassagne 2021 and their GTC 2021 talk;
 *    HA after Hennequin 2018). The name says the labeling unit (Naive:
 *    pixels; HA: sub-runs inside 32-pixel warp blocks; FLSL: full runs) and
 *    the feature merge (none: plain atomics; CD: warp conflict detection;
 *    OTF: features moved along the unions);
 *  - DLP: pixels labeled by Distanceless Label Propagation in shared-memory
 *    tiles, then border merging (Cabaret, Lacassagne, Etiemble 2017), then
 *    the conflict-detection votes;
 *  - LE, TM: pixels labeled by Label Equivalence or Tile Merging (Asad,
 *    Marroquim, Souza 2019) with Early (properties merged during labeling)
 *    or Late (sequential relabeling, then accumulation) property computation. */
enum class Algorithm : std::uint8_t
{
  Default, ///< the fastest: FLSL_CD's strategy with two changes of its own (cuda/Strategies.cuh)
  Naive,
  HA,
  HA_CD,
  HA_OTF,
  FLSL,
  FLSL_OTF,
  FLSL_CD,
  DLP,
  LE_Early,
  LE_Late,
  TM_Early,
  TM_Late
};
const char *
AlgorithmName(Algorithm algorithm);

/** Every value of Algorithm, Default first: for tests and benchmarks. */
inline constexpr Algorithm AllAlgorithms[] = { Algorithm::Default,  Algorithm::Naive,   Algorithm::HA,
                                               Algorithm::HA_CD,    Algorithm::HA_OTF,  Algorithm::FLSL,
                                               Algorithm::FLSL_OTF, Algorithm::FLSL_CD, Algorithm::DLP,
                                               Algorithm::LE_Early, Algorithm::LE_Late, Algorithm::TM_Early,
                                               Algorithm::TM_Late };

/** The seven algorithms that join their units by the lock-free union-find
 *  and differ in unit and feature merge (Naive .. FLSL_CD; Default, FLSL_CD's
 *  strategy with changes of its own, excluded): the strategies Lemaitre
 *  2021's Table 1 compares. */
constexpr bool
JoinsUnitsByUnionFind(Algorithm algorithm)
{
  return algorithm >= Algorithm::Naive && algorithm <= Algorithm::FLSL_CD;
}

/** How the CUDA backend compacts the feature table before the copy to the
 *  host. Every mode gives the same Result. */
enum class FeatureCompaction : std::uint8_t
{
  Scan,      ///< default: components numbered by a scan of root flags, the table written dense on the device
  TreeMerge, ///< Windisch 2023's tree merge kernel (TMK): valid records moved to the front of the array
  None       ///< the sparse per-root table is copied whole and compacted on the host (Windisch 2023's HA4 baseline)
};
const char *
FeatureCompactionName(FeatureCompaction compaction);

/** Where a buffer lives. */
enum class MemorySpace : std::uint8_t
{
  Host,      ///< host memory (pageable or pinned)
  CudaDevice ///< CUDA device memory (or managed memory) of one device
};
const char *
MemorySpaceName(MemorySpace memory);

enum class LabelImageType : std::uint8_t
{
  None, ///< no label image is written
  UInt32,
  UInt64
};

/** A read-only 2D or 3D pixel buffer. Strides are in pixels (not bytes) and
 *  may be 0 to mean "dense": stride[0] = 1, stride[1] = size[0], stride[2] = size[0]*size[1].
 *  Otherwise every stride of an axis longer than 1 is non-zero; strides may be
 *  negative (data then points at pixel (0, 0, 0), as NumPy's and DLPack's
 *  data pointers do for reversed views). */
struct ImageView
{
  const void * data = nullptr;
  PixelType    pixelType = PixelType::UInt8;
  int          dimension = 2;           ///< 2 or 3
  std::int64_t size[3] = { 0, 0, 1 };   ///< x, y, z; size[2] must be 1 in 2D
  std::int64_t stride[3] = { 0, 0, 0 }; ///< pixels between neighbours along x, y, z
  /** Where data lives. CudaDevice: a device pointer of CUDA device
   *  deviceOrdinal, read in place by the CUDA backend (no copy through the
   *  host); the CPU backend refuses it. Backend::Auto then means CUDA. */
  MemorySpace memory = MemorySpace::Host;
  int         deviceOrdinal = 0; ///< with MemorySpace::CudaDevice: the device that holds data

  /** size[0] * size[1] * size[2]; throws cca::Error (Kind::Overflow) when the
   *  product does not fit in 64 bits, so a wrapped count never reaches an
   *  allocation. */
  std::int64_t
  NumberOfPixels() const;
};

/** Histogram of the feature values of each object, binned as ITK's
 *  Statistics::Histogram<double> does (its Initialize(size, lower, upper):
 *  bin edges from a float interval; its GetIndex: a value on an edge goes
 *  to the upper bin, the upper bound into the last bin). Sparse: only the
 *  bins an object has pixels in. Costs a sort of every object pixel. */
struct HistogramOptions
{
  std::uint32_t bins = 0; ///< number of bins; 0: no histogram and no median
  /** true: lower and upper are the minimum and maximum of the whole feature
   *  image (StatisticsLabelMapFilter's rule); false: the values below. */
  bool   rangeOfFeatureImage = true;
  double lower = 0; ///< lower bound of the first bin
  double upper = 0; ///< upper bound of the last bin
  /** ITK's ClipBinsAtEnds: values outside [lower, upper] are left out
   *  (LabelStatisticsImageFilter); else they fall into the first and last
   *  bins (StatisticsLabelMapFilter). */
  bool clipBinsAtEnds = false;
  bool median = true; ///< ObjectIntensity::median, StatisticsLabelMapFilter's rule
  bool keep = false;  ///< Result::histogramBins / histogramCounts / histogramOffsets
};

/** StatisticsLabelMapFilter's histogram for a feature image of the given
 *  type: bins 0 takes its default (2^8 or 2^16 bins for 8- and 16-bit
 *  integers, else 128); an integer type with one bin per value gets bounds
 *  half a value beyond the type's range (bin centres on the integers), any
 *  other the range of the feature image. The median is on, keep off. */
HistogramOptions
StatisticsLabelMapHistogram(PixelType featureType, std::uint32_t bins = 0);

/** The intensity group of the feature table: statistics of a second image,
 *  the feature image, over the pixels of each object. */
struct IntensityOptions
{
  /** Same size as the labeled image, any pixel type (real ones included);
   *  host memory, or CUDA device memory for the CUDA backend (read in place,
   *  on the image's device when the image is there too; beside a host image
   *  it decides the device). data == nullptr: no intensity group (nothing
   *  is paid). */
  ImageView featureImage{};
  /** Also the first and second moments of the positions weighted by the
   *  feature values (ObjectIntensity::weightedCentroid, weightedCovariance). */
  bool             weightedMoments = true;
  HistogramOptions histogram{};

  bool
  Requested() const
  {
    return featureImage.data != nullptr;
  }
};

/** Which objects the result keeps and how they are numbered, decided before
 *  anything leaves the device: removed objects cost no transfer. Sizes are
 *  pixel counts. Ties in size keep the objects' order (the lower number
 *  first), as RelabelComponentImageFilter sorts them. */
struct Selection
{
  std::int64_t minimumPixels = 0;         ///< objects with fewer pixels are removed
  std::int64_t maximumPixels = INT64_MAX; ///< objects with more pixels are removed
  std::int64_t keepLargest = 0;           ///< > 0: only the keepLargest largest of the others
  bool         orderBySize = false;       ///< number the objects by decreasing size

  bool
  Active() const
  {
    return minimumPixels > 0 || maximumPixels != INT64_MAX || keepLargest > 0 || orderBySize;
  }
};

struct Options
{
  ForegroundRule foregroundRule = ForegroundRule::NotEqualTo;
  /** Compared with each pixel after conversion to the pixel type (bit pattern for 64-bit types). */
  std::int64_t foregroundValue = 0;
  Connectivity connectivity = Connectivity::Face;
  Backend      backend = Backend::Auto;
  bool         computeRuns = true; ///< fill Result::runs / runOffsets
  /** false: labels only. No feature table is built (Result::features stays
   *  empty; componentCount, the label image and the runs are as usual): the
   *  labeling of a caller that wants only the label image, at the speed of
   *  the labeling alone. The selection and a feature image need the table. */
  bool computeFeatures = true;
  /** Label image destination: dense, x fastest, NumberOfPixels() elements of
   *  labelImageType, owned by the caller. 0 = background, components 1..N. */
  LabelImageType labelImageType = LabelImageType::None;
  void *         labelImage = nullptr;
  /** Where labelImage lives. CudaDevice: device memory of the device the CUDA
   *  backend runs on (the image's device for device input, else cudaDevice),
   *  written there by the CUDA backend without a copy through the host; the
   *  CPU backend refuses it, and Backend::Auto then means CUDA. */
  MemorySpace labelImageMemory = MemorySpace::Host;
  /** Host threads of the CPU backend, and of the CUDA backend's host work
   *  on a result; 0 = all hardware threads. */
  int numberOfThreads = 0;
  int cudaDevice = -1; ///< CUDA backend; -1 = current device (the image's device for device input)
  /** CUDA backend: run on the caller's CUDA stream instead of the engine's
   *  own. Then every copy and kernel of the run is queued on cudaStream after
   *  the work already there (so device input produced on it is complete
   *  first), and Run returns once the run's work on it is done. A flag, not
   *  a null handle, says so because 0 is a real stream: CUDA's legacy default
   *  stream, which PyTorch and CuPy use by default. Without it the engine's
   *  own stream does not wait for other streams: device input must then be
   *  complete (synchronized) before Run. */
  bool useCallerStream = false;
  /** With useCallerStream: the caller's cudaStream_t as an integer (0 = the
   *  legacy default stream, 2 = cudaStreamPerThread), on the device the run uses. */
  std::uintptr_t cudaStream = 0;
  Algorithm      algorithm = Algorithm::Default; ///< CUDA backend only (the CPU backend has one algorithm)
  /** CUDA backend: count atomic feature updates and estimate their conflicts
   *  (Result::atomicFeatureUpdates, estimatedConflicts); costs time, off by default. */
  bool countAtomicUpdates = false;
  /** CUDA backend: how the feature table is compacted before its copy to the host. */
  FeatureCompaction featureCompaction = FeatureCompaction::Scan;
  /** What an object is: connected components of the foreground (default),
   *  or the values of a label image, or their connected components. */
  Objects objects = Objects::ForegroundComponents;
  /** Optional feature groups beyond the shape table (always computed). */
  IntensityOptions intensity{};
  /** Size filters and numbering by size (Result::sourceNumbers). */
  Selection selection{};
  /** Called once by a successful Run, on its thread, as soon as the result
   *  holds every object output (componentCount, objectsFound, features,
   *  runs, runOffsets, labelValues, sourceNumbers, intensity) and before
   *  the label image is copied into labelImage: a caller may then start
   *  work that reads those, on another thread, while the copy runs (the ITK
   *  filter builds its LabelMap meanwhile). Run still returns only once the
   *  label image is there, and sets the result's other members (times,
   *  warnings, backendUsed, byte and atomic update counts) after the call. Once it was
   *  called, an error ends Run: no fallback to the CPU rewrites the result.
   *  It must not throw. */
  std::function<void()> objectsReady;
};

/** Index of the neighbour-direction class used by ITK's perimeter: bit 0 = x,
 *  bit 1 = y, bit 2 = z; slot = mask - 1 (x=0, y=1, xy=2, z=3, xz=4, yz=5, xyz=6). */
constexpr int
InterceptSlot(bool x, bool y, bool z)
{
  return (x ? 1 : 0) + (y ? 2 : 0) + (z ? 4 : 0) - 1;
}
constexpr int NumberOfInterceptSlots = 7;

/** Exact integer features of one component. Coordinates are 0-based buffer
 *  coordinates (the caller adds its region index). */
struct ComponentFeatures
{
  std::int64_t  pixelCount;
  std::int32_t  boundingBoxMin[3];
  std::int32_t  boundingBoxMax[3];
  std::int64_t  coordinateSum[3];        ///< sum x, sum y, sum z
  std::uint64_t coordinateProductSum[6]; ///< sum xx, yy, zz, xy, xz, yz
  std::int64_t  pixelsOnBorder;          ///< distinct pixels on any face of the image
  std::int64_t  pixelsOnFace[6];         ///< x=0, x=max, y=0, y=max, z=0, z=max
  /** For each direction class v (see InterceptSlot): the number of (pixel, step)
   *  pairs, step in {-1,0,1}^3 with |step_i| = v_i, whose neighbour is outside
   *  the component. These are the intercept counts of ITK's ShapeLabelMapFilter
   *  perimeter. Classes with a z bit are meaningless for 2D images. */
  std::int64_t interceptCounts[NumberOfInterceptSlots];
};

/** Statistics of the feature values v over the pixels of one object
 *  (IntensityOptions). Integer feature images of up to 32 bits are summed
 *  exactly in integers (order-free, identical on every backend) and each
 *  quantity below is formed from the exact sums and rounded once; 64-bit
 *  integer and real feature images are summed in double (the CUDA backend's
 *  double atomics add in a varying order: the last bits may change from run
 *  to run and differ from the CPU backend's). Positions are 0-based buffer
 *  coordinates, as in ComponentFeatures. */
struct ObjectIntensity
{
  double       minimum;
  double       maximum;
  std::int32_t minimumIndex[3]; ///< the last pixel in raster order holding the minimum (ITK's rule)
  std::int32_t maximumIndex[3]; ///< the last pixel in raster order holding the maximum
  double       sum;             ///< sum of v
  /** sum of (v - mean)^k for k = 2, 3, 4: variance, skewness and kurtosis follow. */
  double centralMoments[3];
  /** With IntensityOptions::weightedMoments: c = sum(v p) / sum(v), and
   *  sum(v (p - c)(p - c)^T) / sum(v) as xx, yy, zz, xy, xz, yz; all 0 when
   *  sum(v) is 0. */
  double weightedCentroid[3];
  double weightedCovariance[6];
  /** With a histogram and HistogramOptions::median: the median by
   *  StatisticsLabelMapFilter's rule (the centre of the bin where the
   *  cumulative count reaches half, the mean of two bin centres when it ends
   *  exactly at half of an even count); else 0. */
  double median;
};

/** One run-length line of a component: pixels x .. x+length-1 of row (y, z). */
struct Run
{
  std::int32_t x;
  std::int32_t y;
  std::int32_t z;
  std::int32_t length;
};

struct StageTimes
{
  double uploadMs = 0;   ///< host to device copy (CUDA only)
  double labelMs = 0;    ///< run detection and union-find
  double featuresMs = 0; ///< feature accumulation, renumbering, compaction
  double downloadMs = 0; ///< device to host copy (CUDA only)
  double totalMs = 0;    ///< wall-clock time of Engine::Run
};

struct Result
{
  std::int64_t componentCount = 0;
  /** componentCount entries (none when Options::computeFeatures is false); label L is features[L-1]. */
  std::vector<ComponentFeatures> features;
  /** Runs grouped by component (label 1 first), raster order within one component. */
  std::vector<Run>          runs;
  std::vector<std::int64_t> runOffsets; ///< componentCount + 1 entries into runs
  Backend                   backendUsed = Backend::Cpu;
  StageTimes                times;
  std::vector<std::string>  warnings; ///< e.g. a fall-back from CUDA to the CPU
  /** With Options::countAtomicUpdates on the CUDA backend: the number of
   *  atomic merges of a feature record into a table entry (one per vote that
   *  reaches memory, or per on-the-fly move), and the conflicts estimated as
   *  in Lemaitre 2021 section 4.1, sum_l U_l^2 / sum_l U_l over the updates U_l of
   *  each entry l. -1 when not measured. */
  std::int64_t atomicFeatureUpdates = -1;
  double       estimatedConflicts = -1;
  /** CUDA backend: bytes copied from the device to the host (table, runs, label image, counts). */
  std::int64_t bytesCopiedToHost = 0;
  /** Bytes of the image copied from the host to a device: its foreground
   *  bits (a byte per 8 pixels of a row) when the objects are the
   *  foreground's components, else its pixels (and a feature image's); 0 for
   *  device-memory input and for the CPU backend; -1 when the backend did not
   *  report it. */
  std::int64_t bytesCopiedToDevice = -1;

  /** Objects::LabelValues and LabelValueComponents: the label value of each
   *  object (the pixel value as int64; uint64 values keep their bits). */
  std::vector<std::int64_t> labelValues;
  /** With an active Options::selection: the number (1-based) each object had
   *  before the selection, in the order Options::objects defines; objectsFound
   *  counts the objects before it. Without a selection sourceNumbers is empty
   *  (object L is object L) and objectsFound == componentCount. */
  std::vector<std::int64_t> sourceNumbers;
  std::int64_t              objectsFound = 0;

  /** The intensity group (Options::intensity): componentCount entries. */
  std::vector<ObjectIntensity> intensity;
  /** The bin edges the histograms used (ITK's Initialize bounds). */
  double histogramLower = 0;
  double histogramUpper = 0;
  /** With HistogramOptions::keep: object L's non-empty bins are entries
   *  histogramOffsets[L-1] .. histogramOffsets[L]-1, bins increasing. */
  std::vector<std::int64_t>  histogramOffsets;
  std::vector<std::uint32_t> histogramBins;
  std::vector<std::int64_t>  histogramCounts;
};

/** Every failure of the engine. Kind lets callers react (for example fall back to the CPU). */
class Error : public std::runtime_error
{
public:
  enum class Kind
  {
    InvalidInput,
    Overflow,
    NoDevice,
    OutOfMemory,
    Cuda
  };
  Error(Kind kind, const std::string & message)
    : std::runtime_error(message)
    , m_Kind(kind)
  {}
  Kind
  GetKind() const
  {
    return m_Kind;
  }

private:
  Kind m_Kind;
};

} // namespace cca

#endif
