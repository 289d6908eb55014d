// Plain C++ types of the connected-component analysis engine.
// Nothing here depends on ITK or CUDA: the engine is usable from any host code.
#ifndef cca_Types_h
#define cca_Types_h

#include <cstdint>
#include <stdexcept>
#include <string>
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
  Int64
};

/** Size in bytes of one pixel of the given type. */
int
PixelTypeSize(PixelType type);
const char *
PixelTypeName(PixelType type);

/** Face: pixels sharing a face are neighbours (4 in 2D, 6 in 3D).
 *  Full: edges and corners too (8 in 2D, 26 in 3D). */
enum class Connectivity : std::uint8_t
{
  Face,
  Full
};

enum class ForegroundRule : std::uint8_t
{
  EqualTo,   ///< foreground = pixel == value
  NotEqualTo ///< foreground = pixel != value
};

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
  Default, ///< the fastest: FLSL_CD
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
 *  and differ in unit and feature merge (Naive .. FLSL_CD; Default, an alias
 *  of FLSL_CD, excluded): the strategies Lemaitre 2021's Table 1 compares. */
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

struct Options
{
  ForegroundRule foregroundRule = ForegroundRule::NotEqualTo;
  /** Compared with each pixel after conversion to the pixel type (bit pattern for 64-bit types). */
  std::int64_t foregroundValue = 0;
  Connectivity connectivity = Connectivity::Face;
  Backend      backend = Backend::Auto;
  bool         computeRuns = true; ///< fill Result::runs / runOffsets
  /** Label image destination: dense, x fastest, NumberOfPixels() elements of
   *  labelImageType, owned by the caller. 0 = background, components 1..N. */
  LabelImageType labelImageType = LabelImageType::None;
  void *         labelImage = nullptr;
  /** Where labelImage lives. CudaDevice: device memory of the device the CUDA
   *  backend runs on (the image's device for device input, else cudaDevice),
   *  written there by the CUDA backend without a copy through the host; the
   *  CPU backend refuses it, and Backend::Auto then means CUDA. */
  MemorySpace labelImageMemory = MemorySpace::Host;
  int            numberOfThreads = 0; ///< CPU backend; 0 = all hardware threads
  int            cudaDevice = -1;     ///< CUDA backend; -1 = current device (the image's device for device input)
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
  std::int64_t                   componentCount = 0;
  std::vector<ComponentFeatures> features; ///< componentCount entries; label L is features[L-1]
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
  /** Bytes of the image copied from the host to a device: 0 for device-memory
   *  input and for the CPU backend; -1 when the backend did not report it. */
  std::int64_t bytesCopiedToDevice = -1;
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
