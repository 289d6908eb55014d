// The CUDA backend: FLSL run detection, lock-free union-find over runs, dense
// renumbering, feature voting with conflict detection, runs grouped by
// component and the label image, all on one stream with buffers kept across
// calls. The device building blocks live in the .cuh headers beside this file;
// Strategies.cuh composes them into the algorithms of cca::Algorithm.
#include "BackendImplementation.h"
#include "PixelTypeDispatch.h"
#include "Compaction.cuh"
#include "CudaBackendTesting.h"
#include "CudaCheck.h"
#include "DeviceMemory.h"
#include "FeatureUpdate.cuh"
#include "HostStaging.h"
#include "OnTheFlyMerge.cuh"
#include "RunDetection.cuh"
#include "PixelLabeling.cuh"
#include "Strategies.cuh"
#include "StreamDevice.cuh"
#include "TreeMergeCompaction.cuh"
#include "UnionFind.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cca
{
namespace cuda
{

namespace
{
std::atomic<bool>         forceWideRunIndex{ false };
std::atomic<std::int64_t> treeMergeSecondCopies{ 0 };

/** TMK's first copy before the backend has seen a frame (the paper's
 *  user-provided object count), and the next guess after count valid nodes:
 *  the count plus a safety margin. */
constexpr std::int64_t InitialTreeCopyGuess = 1024;
std::int64_t
NextTreeCopyGuess(std::int64_t count)
{
  return count + count / 4 + 16;
}

/** The features of the compacted tree nodes in order of their labels (root
 *  units, so raster order of the components: the scan's numbering). An LSD
 *  radix sort of (label, node) pairs, 11 bits a pass. */
void
FeaturesInLabelOrder(const std::vector<CompactedFeatureNode> & nodes, std::vector<ComponentFeatures> & features)
{
  const std::size_t          n = nodes.size();
  std::vector<std::uint64_t> keys(n), sortedKeys(n);
  std::vector<std::size_t>   order(n), sortedOrder(n);
  std::uint64_t              largest = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    keys[i] = static_cast<std::uint64_t>(nodes[i].label);
    order[i] = i;
    largest = std::max(largest, keys[i]);
  }
  constexpr int            Bits = 11;
  constexpr std::uint64_t  Mask = (std::uint64_t{ 1 } << Bits) - 1;
  std::vector<std::size_t> start(std::size_t{ 1 } << Bits);
  for (int shift = 0; shift < 64 && (largest >> shift) != 0; shift += Bits)
  {
    std::fill(start.begin(), start.end(), 0);
    for (const std::uint64_t key : keys)
    {
      ++start[(key >> shift) & Mask];
    }
    std::size_t sum = 0;
    for (std::size_t & b : start)
    {
      const std::size_t c = b;
      b = sum;
      sum += c;
    }
    for (std::size_t k = 0; k < n; ++k)
    {
      const std::size_t to = start[(keys[k] >> shift) & Mask]++;
      sortedKeys[to] = keys[k];
      sortedOrder[to] = order[k];
    }
    keys.swap(sortedKeys);
    order.swap(sortedOrder);
  }
  features.resize(n);
  for (std::size_t k = 0; k < n; ++k)
  {
    features[k] = nodes[order[k]].record;
  }
}

/** Blocks of BlockThreads threads of kernel that fit on the device at once. */
template <class Kernel>
unsigned
ResidentBlocks(Kernel kernel)
{
  int device = 0;
  int processors = 0;
  int perProcessor = 0;
  Check(cudaGetDevice(&device), "querying the current CUDA device");
  Check(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device), "querying the device");
  Check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perProcessor, kernel, BlockThreads, 0),
        "querying kernel occupancy");
  return static_cast<unsigned>(std::max(1, processors * std::max(1, perProcessor)));
}

/** Number of bits needed for values 0 .. n - 1 (at least 1). */
int
BitsFor(std::uint64_t n)
{
  int bits = 1;
  while (bits < 64 && (std::uint64_t{ 1 } << bits) < n)
  {
    ++bits;
  }
  return bits;
}

class CudaBackend final : public BackendImplementation
{
public:
  explicit CudaBackend(int device);
  ~CudaBackend() override;

  void
  Run(const ImageView & image, const Options & options, Result & result) override;

private:
  /** Device buffers of one run (unit) table. */
  struct RunBuffers
  {
    DeviceBuffer counts;
    DeviceBuffer offsets;
    DeviceBuffer x;
    DeviceBuffer end;
    DeviceBuffer row;
    DeviceBuffer parent;
  };

  template <class Index>
  void
  RunWithIndex(const ImageView & image, const Options & options, Result & result);

  template <class Index, class S>
  void
  RunStrategy(const ImageView & image, const Options & options, Result & result);

  /** Run (unit) detection: count per row, scan, compressed store. Fills
   *  parent with the union-find initialisation. */
  template <class Index, class Units>
  RunArrays<Index>
  DetectRuns(const ImageView & image, const Options & options, const Geometry & geometry, const void * deviceImage,
             RunBuffers & buffers, Index *& parent);

  /** AccumulateFeaturesKernel with the vote policy, instrumented or not. */
  template <class Index, class Votes>
  void
  LaunchVotes(bool counting, unsigned blocks, const RunArrays<Index> & units, const std::uint8_t * linked,
              const Index * label, const Geometry & geometry, const detail::ImageFaces & faces, ComponentFeatures * table,
              UpdateCounter counter, bool full);

  /** sum_l U_l and sum_l U_l^2 over the per-entry update counts. */
  void
  ReadUpdateCounts(std::int64_t entries, Result & result);

  template <class Index>
  Index
  ReadScalar(const Index * device);

  template <class In, class Out>
  void
  ExclusiveSum(In in, Out out, std::int64_t count);

  /** HostStaging::Download, counted in m_BytesToHost. */
  void
  Download(void * host, const void * device, std::size_t bytes);

  /** FeatureCompaction::TreeMerge (TreeMergeCompaction.cuh): builds, sizes
   *  and balances the feature tree of the units; returns the compacted nodes
   *  on the device (valid ones first). */
  template <class Index, class Units>
  const CompactedFeatureNode *
  BuildFeatureTree(const RunArrays<Index> & units, const Index * label, const Index * rootUnit,
                   const Geometry & geometry, const detail::ImageFaces & faces, bool full);

  /** The valid nodes copied into m_HostNodes: a guessed count, then the
   *  rest if the root says there are more. */
  void
  DownloadFeatureTree(const CompactedFeatureNode * nodes, std::int64_t capacity, std::int64_t componentCount);

  int                          m_Device = 0;
  std::unique_ptr<Stream>      m_Stream;
  std::unique_ptr<Event>       m_Marks[5];
  std::unique_ptr<HostStaging> m_Staging;
  PinnedBuffer                 m_HostScalar;
  DeviceBuffer                 m_Image;
  RunBuffers                   m_Units;    ///< the labeling units (the runs, for FLSL)
  RunBuffers                   m_FullRuns; ///< the runs, for strategies whose units are smaller
  DeviceBuffer                 m_RunLabel;
  DeviceBuffer                 m_UnitFeatures;
  DeviceBuffer                 m_UpdateCounts;
  DeviceBuffer                 m_Linked;
  DeviceBuffer                 m_Label;
  DeviceBuffer                 m_RootOf;
  DeviceBuffer                 m_Rank;
  DeviceBuffer                 m_Scalar;
  DeviceBuffer                 m_Table;
  DeviceBuffer                 m_SortValuesIn;
  DeviceBuffer                 m_SortValuesOut;
  DeviceBuffer                 m_RunsOut;
  DeviceBuffer                 m_Offsets;
  DeviceBuffer                 m_Labels;
  DeviceBuffer                 m_Temp;
  DeviceBuffer                 m_PixelLabels; ///< the label grid of pixel labelings
  DeviceBuffer                 m_UnitAt;      ///< pixel -> unit, for pixel labelings
  DeviceBuffer                 m_LabelingScratch[StreamDevice::ScratchSlots];
  DeviceBuffer                 m_SparseIndex;  ///< FeatureCompaction::None: entry i belongs to root unit i
  DeviceBuffer                 m_TreeNodes;    ///< FeatureCompaction::TreeMerge: one node per unit
  DeviceBuffer                 m_TreeRoots[2]; ///< the root of each segment, per span (double-buffered)
  DeviceBuffer                 m_TreeOut;      ///< the balanced nodes, valid ones first
  std::vector<ComponentFeatures>    m_HostSparse; ///< FeatureCompaction::None: the whole sparse table
  std::vector<CompactedFeatureNode> m_HostNodes;
  std::int64_t                 m_TreeCopyGuess = InitialTreeCopyGuess;
  std::int64_t                 m_BytesToHost = 0; ///< device-to-host bytes of the current run
};

CudaBackend::CudaBackend(int device)
{
  int               count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
  {
    cudaGetLastError();
    throw Error(Error::Kind::NoDevice, std::string("the CUDA backend found no usable device (") +
                                         (status != cudaSuccess ? cudaGetErrorString(status) : "no device") + ")");
  }
  if (device < 0)
  {
    Check(cudaGetDevice(&m_Device), "querying the current CUDA device");
  }
  else if (device >= count)
  {
    throw Error(Error::Kind::NoDevice, "CUDA device " + std::to_string(device) + " does not exist (" +
                                         std::to_string(count) + " present)");
  }
  else
  {
    m_Device = device;
  }
  Check(cudaSetDevice(m_Device), "selecting the CUDA device");
  m_Stream = std::make_unique<Stream>();
  for (auto & mark : m_Marks)
  {
    mark = std::make_unique<Event>(true);
  }
  m_Staging = std::make_unique<HostStaging>();
}

CudaBackend::~CudaBackend()
{
  // Work still in flight would write into buffers freed below.
  cudaSetDevice(m_Device);
  if (m_Stream)
  {
    cudaStreamSynchronize(m_Stream->Get());
  }
}

template <class Index>
Index
CudaBackend::ReadScalar(const Index * device)
{
  auto * host = static_cast<Index *>(m_HostScalar.Reserve(sizeof(Index) * 2, "allocating a pinned scalar"));
  Check(cudaMemcpyAsync(host, device, sizeof(Index), cudaMemcpyDeviceToHost, m_Stream->Get()),
        "reading a count from the device");
  m_BytesToHost += static_cast<std::int64_t>(sizeof(Index));
  m_Stream->Synchronize("waiting for a count from the device");
  return *host;
}

template <class In, class Out>
void
CudaBackend::ExclusiveSum(In in, Out out, std::int64_t count)
{
  std::size_t bytes = 0;
  Check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, count, m_Stream->Get()), "sizing a scan");
  void * temp = m_Temp.Reserve(bytes, "scan workspace");
  Check(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, count, m_Stream->Get()), "scan");
}

void
CudaBackend::Download(void * host, const void * device, std::size_t bytes)
{
  m_Staging->Download(host, device, bytes, m_Stream->Get());
  m_BytesToHost += static_cast<std::int64_t>(bytes);
}

template <class Index, class Units>
const CompactedFeatureNode *
CudaBackend::BuildFeatureTree(const RunArrays<Index> & units, const Index * label, const Index * rootUnit,
                              const Geometry & geometry, const detail::ImageFaces & faces, bool full)
{
  const cudaStream_t stream = m_Stream->Get();
  const Index        count = units.count;
  const unsigned     nodeBlocks = BlocksFor(static_cast<std::int64_t>(count), BlockThreads);
  auto *             nodes = m_TreeNodes.Reserve<FeatureTreeNode<Index>>(count, "feature tree nodes");
  Index              segments = (count + TileNodes - 1) / TileNodes;
  Index *            rootIn = m_TreeRoots[0].Reserve<Index>(segments, "feature tree roots");
  Index *            rootOut = m_TreeRoots[1].Reserve<Index>((segments + 1) / 2, "feature tree roots");
  // The leaf records: every unit votes (no single-unit shortcut), pairs with units of its component.
  using TreeVotes = VotePolicy<VoteFolding::None, SingleUnitComponents::Voted, Units, PairVotes::All>;
  BuildTileTreesKernel<Index, TreeVotes><<<BlocksFor(static_cast<std::int64_t>(count), TileNodes), TileNodes, 0,
                                           stream>>>(units, label, rootUnit, geometry, faces, full, nodes, rootIn);
  CheckLaunch("tree tile kernel");
  for (Index span = TileNodes; segments > 1; span *= 2, segments = (segments + 1) / 2)
  {
    MergeTreesKernel<Index><<<nodeBlocks, BlockThreads, 0, stream>>>(nodes, count, rootIn, rootOut, span);
    CheckLaunch("tree merge kernel");
    std::swap(rootIn, rootOut);
  }
  UpdateTreeSizesKernel<Index><<<nodeBlocks, BlockThreads, 0, stream>>>(nodes, count);
  CheckLaunch("tree size kernel");
  auto * compacted = m_TreeOut.Reserve<CompactedFeatureNode>(count, "compacted tree nodes");
  BalanceTreeKernel<Index><<<nodeBlocks, BlockThreads, 0, stream>>>(nodes, count, rootIn, compacted);
  CheckLaunch("tree balancing kernel");
  return compacted;
}

void
CudaBackend::DownloadFeatureTree(const CompactedFeatureNode * nodes, std::int64_t capacity,
                                 std::int64_t componentCount)
{
  const std::int64_t first = std::max<std::int64_t>(1, std::min(m_TreeCopyGuess, capacity));
  m_HostNodes.resize(static_cast<std::size_t>(first));
  Download(m_HostNodes.data(), nodes, m_HostNodes.size() * sizeof(CompactedFeatureNode));
  const std::int64_t valid = m_HostNodes[0].treeSize; // the root comes first
  if (valid < 1 || valid > capacity || valid != componentCount)
  {
    throw Error(Error::Kind::Cuda, "the tree merge compaction found " + std::to_string(valid) + " nodes for " +
                                     std::to_string(componentCount) + " components");
  }
  if (valid > first)
  {
    m_HostNodes.resize(static_cast<std::size_t>(valid));
    Download(m_HostNodes.data() + first, nodes + first,
             static_cast<std::size_t>(valid - first) * sizeof(CompactedFeatureNode));
    ++treeMergeSecondCopies;
  }
  m_HostNodes.resize(static_cast<std::size_t>(valid));
  m_TreeCopyGuess = NextTreeCopyGuess(valid);
}

void
CudaBackend::Run(const ImageView & image, const Options & options, Result & result)
{
  Check(cudaSetDevice(m_Device), "selecting the CUDA device");
  m_BytesToHost = 0;
  // A run that threw may have left work in flight on buffers about to be reused.
  m_Stream->Synchronize("finishing earlier work");
  // 32-bit run indices while the run count (at most one per two pixels of a
  // row, rounded up) stays below 2^31, which keeps index arithmetic in range.
  const std::int64_t rows = image.size[1] * image.size[2];
  // Units smaller than runs (pixels, HA sub-runs) can be as many as the pixels.
  const bool         fullRunUnits = options.algorithm == Algorithm::Default || options.algorithm == Algorithm::FLSL ||
                            options.algorithm == Algorithm::FLSL_CD || options.algorithm == Algorithm::FLSL_OTF;
  const std::int64_t runBound = fullRunUnits ? rows * ((image.size[0] + 1) / 2) : rows * image.size[0];
  if (runBound < (std::int64_t{ 1 } << 31) && !ForceWideRunIndex())
  {
    RunWithIndex<std::uint32_t>(image, options, result);
  }
  else
  {
    RunWithIndex<unsigned long long>(image, options, result);
  }
}

template <class Index>
void
CudaBackend::RunWithIndex(const ImageView & image, const Options & options, Result & result)
{
  switch (options.algorithm)
  {
    case Algorithm::Default:
    case Algorithm::FLSL_CD:
      return RunStrategy<Index, FlslCdStrategy>(image, options, result);
    case Algorithm::FLSL:
      return RunStrategy<Index, FlslStrategy>(image, options, result);
    case Algorithm::FLSL_OTF:
      return RunStrategy<Index, FlslOtfStrategy>(image, options, result);
    case Algorithm::HA:
      return RunStrategy<Index, HaStrategy>(image, options, result);
    case Algorithm::HA_CD:
      return RunStrategy<Index, HaCdStrategy>(image, options, result);
    case Algorithm::HA_OTF:
      return RunStrategy<Index, HaOtfStrategy>(image, options, result);
    case Algorithm::Naive:
      return RunStrategy<Index, NaiveStrategy>(image, options, result);
    case Algorithm::DLP:
      return RunStrategy<Index, DlpStrategy>(image, options, result);
    case Algorithm::LE_Early:
      return RunStrategy<Index, LeEarlyStrategy>(image, options, result);
    case Algorithm::LE_Late:
      return RunStrategy<Index, LeLateStrategy>(image, options, result);
    case Algorithm::TM_Early:
      return RunStrategy<Index, TmEarlyStrategy>(image, options, result);
    case Algorithm::TM_Late:
      return RunStrategy<Index, TmLateStrategy>(image, options, result);
  }
  throw Error(Error::Kind::InvalidInput, "unknown algorithm");
}

template <class Index, class Units>
RunArrays<Index>
CudaBackend::DetectRuns(const ImageView & image, const Options & options, const Geometry & geometry,
                        const void * deviceImage, RunBuffers & buffers, Index *& parent)
{
  const cudaStream_t stream = m_Stream->Get();
  auto *             rowCounts = buffers.counts.Reserve<Index>(geometry.rows + 1, "run counts");
  auto *             rowOffsets = buffers.offsets.Reserve<Index>(geometry.rows + 1, "row offsets");
  const unsigned     rowBlocks = BlocksFor(geometry.rows, WarpsPerBlock);
  DispatchPixelType(image.pixelType, [&](auto zero) {
    using T = decltype(zero);
    const ForegroundTest<T> test{ static_cast<T>(options.foregroundValue),
                                  options.foregroundRule == ForegroundRule::EqualTo };
    CountRunsKernel<T, Index, Units>
      <<<rowBlocks, BlockThreads, 0, stream>>>(static_cast<const T *>(deviceImage), geometry, test, rowCounts);
  });
  CheckLaunch("run counting kernel");
  Check(cudaMemsetAsync(rowCounts + geometry.rows, 0, sizeof(Index), stream), "clearing a count");
  ExclusiveSum(rowCounts, rowOffsets, geometry.rows + 1);
  const Index runCount = ReadScalar(rowOffsets + geometry.rows);

  RunArrays<Index> runs;
  runs.count = runCount;
  runs.rowOffsets = rowOffsets;
  runs.x = buffers.x.Reserve<std::int32_t>(runCount, "run starts");
  runs.end = buffers.end.Reserve<std::int32_t>(runCount, "run ends");
  runs.row = buffers.row.Reserve<Index>(runCount, "run rows");
  parent = buffers.parent.Reserve<Index>(runCount, "union-find parents");
  if (runCount > 0)
  {
    DispatchPixelType(image.pixelType, [&](auto zero) {
      using T = decltype(zero);
      const ForegroundTest<T> test{ static_cast<T>(options.foregroundValue),
                                    options.foregroundRule == ForegroundRule::EqualTo };
      WriteRunsKernel<T, Index, Units>
        <<<rowBlocks, BlockThreads, 0, stream>>>(static_cast<const T *>(deviceImage), geometry, test, runs, parent);
    });
    CheckLaunch("run writing kernel");
  }
  return runs;
}

template <class Index, class Votes>
void
CudaBackend::LaunchVotes(bool counting, unsigned blocks, const RunArrays<Index> & units, const std::uint8_t * linked,
                         const Index * label, const Geometry & geometry, const detail::ImageFaces & faces,
                         ComponentFeatures * table, UpdateCounter counter, bool full)
{
  const cudaStream_t stream = m_Stream->Get();
  // A resident grid: each block folds many tiles' votes for its hot component before touching memory.
  // The instrumented kernel is a separate instantiation: the production one carries no counting code.
  if (counting)
  {
    const unsigned grid = std::min(blocks, ResidentBlocks(AccumulateFeaturesKernel<Index, Votes, UpdateCounting::On>));
    AccumulateFeaturesKernel<Index, Votes, UpdateCounting::On>
      <<<grid, BlockThreads, 0, stream>>>(units, linked, label, geometry, faces, table, counter, full);
  }
  else
  {
    const unsigned grid = std::min(blocks, ResidentBlocks(AccumulateFeaturesKernel<Index, Votes, UpdateCounting::Off>));
    AccumulateFeaturesKernel<Index, Votes, UpdateCounting::Off>
      <<<grid, BlockThreads, 0, stream>>>(units, linked, label, geometry, faces, table, counter, full);
  }
  CheckLaunch("feature vote kernel");
}

void
CudaBackend::ReadUpdateCounts(std::int64_t entries, Result & result)
{
  const cudaStream_t stream = m_Stream->Get();
  auto * totals = m_Scalar.Reserve<unsigned long long>(2, "update totals");
  Check(cudaMemsetAsync(totals, 0, 2 * sizeof(unsigned long long), stream), "clearing update totals");
  if (entries > 0)
  {
    const auto * counts = static_cast<const unsigned long long *>(m_UpdateCounts.Reserve(0, "update counts"));
    UpdateTotalsKernel<<<BlocksFor(entries, BlockThreads), BlockThreads, 0, stream>>>(entries, counts, totals);
    CheckLaunch("update totals kernel");
  }
  auto * host = static_cast<unsigned long long *>(m_HostScalar.Reserve(2 * sizeof(unsigned long long), "totals"));
  Check(cudaMemcpyAsync(host, totals, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream),
        "reading update totals");
  m_BytesToHost += static_cast<std::int64_t>(2 * sizeof(unsigned long long));
  m_Stream->Synchronize("waiting for update totals");
  result.atomicFeatureUpdates = static_cast<std::int64_t>(host[0]);
  result.estimatedConflicts = host[0] == 0 ? 0.0 : static_cast<double>(host[1]) / static_cast<double>(host[0]);
}

template <class Index, class S>
void
CudaBackend::RunStrategy(const ImageView & image, const Options & options, Result & result)
{
  if constexpr (S::LabelsPixels)
  {
    if (image.dimension == 3 && !S::Labeling::Supports3D)
    {
      throw Error(Error::Kind::InvalidInput, std::string("the algorithm ") + AlgorithmName(options.algorithm) +
                                               " labels 2D images only");
    }
  }
  const cudaStream_t stream = m_Stream->Get();
  Geometry           geometry;
  geometry.width = image.size[0];
  geometry.height = image.size[1];
  geometry.depth = image.size[2];
  geometry.rows = geometry.height * geometry.depth;
  const std::int64_t pixels = geometry.rows * geometry.width;
  const std::size_t  pixelBytes = static_cast<std::size_t>(PixelTypeSize(image.pixelType));
  const bool         full = options.connectivity == Connectivity::Full;
  detail::ImageFaces     faces;
  faces.width = static_cast<std::int32_t>(geometry.width);
  faces.height = static_cast<std::int32_t>(geometry.height);
  faces.depth = static_cast<std::int32_t>(geometry.depth);
  faces.hasZAxis = image.dimension == 3; // 2D images have no z faces

  // ---- upload ----
  m_Marks[0]->Record(stream);
  void * deviceImage = m_Image.Reserve(static_cast<std::size_t>(pixels) * pixelBytes, "the image");
  m_Staging->Upload(deviceImage, static_cast<std::size_t>(pixels) * pixelBytes, DensePixelProducer(image), stream);
  m_Marks[1]->Record(stream);

  // ---- labeling: units (runs for FLSL), union-find ----
  Index *                parent = nullptr;
  const RunArrays<Index> units =
    DetectRuns<Index, typename S::Units>(image, options, geometry, deviceImage, m_Units, parent);
  const Index    unitCount = units.count;
  auto *         linked = m_Linked.Reserve<std::uint8_t>(unitCount, "run link flags");
  const unsigned unitBlocks = BlocksFor(static_cast<std::int64_t>(unitCount), BlockThreads);
  // Instrumentation: one counter per unit (on-the-fly moves land on units),
  // then one per component (votes) after them.
  const std::int64_t   counterEntries = options.countAtomicUpdates ? 2 * static_cast<std::int64_t>(unitCount) : 0;
  unsigned long long * updateCounts = nullptr;
  if (options.countAtomicUpdates)
  {
    updateCounts =
      m_UpdateCounts.Reserve<unsigned long long>(static_cast<std::size_t>(counterEntries), "update counts");
    Check(cudaMemsetAsync(updateCounts, 0, static_cast<std::size_t>(counterEntries) * sizeof(unsigned long long),
                          stream),
          "clearing update counts");
  }
  const UpdateCounter  moveCounter{ updateCounts };
  const UpdateCounter  voteCounter{ updateCounts != nullptr ? updateCounts + unitCount : nullptr };
  ComponentFeatures *  unitFeatures = nullptr;
  if (unitCount > 0)
  {
    Check(cudaMemsetAsync(linked, 0, unitCount, stream), "clearing run link flags");
    if constexpr (S::Merge == FeatureMerge::OnTheFly)
    {
      unitFeatures = m_UnitFeatures.Reserve<ComponentFeatures>(unitCount, "unit features");
      InitUnitFeaturesKernel<Index, typename S::Units>
        <<<unitBlocks, BlockThreads, 0, stream>>>(units, geometry, faces, full, unitFeatures);
      CheckLaunch("unit feature kernel");
    }
    if constexpr (S::LabelsPixels)
    {
      // The grid of the papers: raster indices in, first pixels of the components out.
      auto * grid = m_PixelLabels.Reserve<Index>(static_cast<std::size_t>(pixels), "the pixel label grid");
      auto * unitAt = m_UnitAt.Reserve<Index>(static_cast<std::size_t>(pixels), "the unit of each pixel");
      Check(cudaMemsetAsync(grid, 0xff, static_cast<std::size_t>(pixels) * sizeof(Index), stream),
            "clearing the pixel label grid");
      PrelabelFromUnitsKernel<Index><<<unitBlocks, BlockThreads, 0, stream>>>(units, geometry, grid, unitAt);
      CheckLaunch("prelabel kernel");
      const PixelLabelingProblem<Index> problem{ geometry, full, image.dimension == 3, grid, unitFeatures, unitAt,
                                                 moveCounter };
      StreamDevice device(*m_Stream, m_LabelingScratch, m_HostScalar, &m_BytesToHost);
      S::Labeling::template Label<Index, S::Merge == FeatureMerge::OnTheFly>(problem, device);
      ParentsFromLabelsKernel<Index>
        <<<unitBlocks, BlockThreads, 0, stream>>>(units, geometry, grid, unitAt, parent, linked);
      CheckLaunch("parent kernel");
    }
    else
    {
      if constexpr (S::Merge == FeatureMerge::OnTheFly)
      {
        LinkRunsKernel<Index, OnTheFlyUnion, typename S::Units><<<unitBlocks, BlockThreads, 0, stream>>>(
          units, geometry, full, parent, linked, OnTheFlyUnion{ unitFeatures, moveCounter });
      }
      else
      {
        LinkRunsKernel<Index, PlainUnion, typename S::Units>
          <<<unitBlocks, BlockThreads, 0, stream>>>(units, geometry, full, parent, linked);
      }
      CheckLaunch("union-find kernel");
      FlattenKernel<Index><<<unitBlocks, BlockThreads, 0, stream>>>(unitCount, parent);
      CheckLaunch("flatten kernel");
    }
  }
  // The run grouping and the label image work on full runs: units smaller
  // than runs need the runs detected too.
  RunArrays<Index> runs = units;
  if constexpr (S::SplitUnits)
  {
    Index * unusedParent = nullptr;
    runs = DetectRuns<Index, FullRuns>(image, options, geometry, deviceImage, m_FullRuns, unusedParent);
  }
  const Index    runCount = runs.count;
  const unsigned runBlocks = BlocksFor(static_cast<std::int64_t>(runCount), BlockThreads);
  const unsigned rowBlocks = BlocksFor(geometry.rows, WarpsPerBlock);
  m_Marks[2]->Record(stream);

  // ---- features: numbering, votes, grouping, label image ----
  const FeatureCompaction      compaction = options.featureCompaction;
  Index                        componentCount = 0;
  ComponentFeatures *          table = nullptr;     ///< Scan: dense; None: sparse (one entry per unit)
  const CompactedFeatureNode * treeNodes = nullptr; ///< TreeMerge
  cca::Run *          groupedRuns = nullptr;
  std::int64_t *      runOffsets = nullptr;
  void *              labels = nullptr;
  const std::size_t   labelBytes = options.labelImageType == LabelImageType::UInt64 ? 8 : 4;
  if (unitCount > 0)
  {
    auto * rank = m_Rank.Reserve<Index>(unitCount, "component numbers");
    auto   flags = thrust::make_transform_iterator(thrust::counting_iterator<Index>(0), RootFlag<Index>{ parent });
    ExclusiveSum(flags, rank, static_cast<std::int64_t>(unitCount));
    auto * scalar = m_Scalar.Reserve<Index>(1, "a count");
    auto * label = m_Label.Reserve<Index>(unitCount, "run labels"); // 0-based component of each unit
    auto * rootOf = m_RootOf.Reserve<Index>(unitCount, "component roots"); // room for the most components possible
    NumberComponentsKernel<Index>
      <<<unitBlocks, BlockThreads, 0, stream>>>(unitCount, rank, parent, label, rootOf, scalar);
    CheckLaunch("numbering kernel");
    componentCount = ReadScalar(scalar);

    if (options.labelImageType == LabelImageType::UInt32 &&
        static_cast<std::uint64_t>(componentCount) > std::numeric_limits<std::uint32_t>::max())
    {
      throw Error(Error::Kind::Overflow, "the image has " + std::to_string(componentCount) +
                                           " components, more than a uint32 label image can hold");
    }

    if (compaction == FeatureCompaction::TreeMerge)
    {
      // TMK does the feature accumulation itself, from the units' records.
      treeNodes = BuildFeatureTree<Index, typename S::Units>(units, label, parent, geometry, faces, full);
    }
    else
    {
      // Scan: a dense table, entry c for component c (rootOf[c] its root
      // unit), votes keyed by label. None (the HA4 baseline): a sparse table,
      // entry i for root unit i (the identity as rootOf), votes keyed by the
      // root units (the flattened parents); entries of non-roots keep no pixels.
      const bool    sparse = compaction == FeatureCompaction::None;
      const Index   entries = sparse ? unitCount : componentCount;
      const Index * entryRoot = rootOf;
      const Index * voteKey = label;
      if (sparse)
      {
        auto * identity = m_SparseIndex.Reserve<Index>(unitCount, "sparse table roots");
        IotaKernel<Index><<<unitBlocks, BlockThreads, 0, stream>>>(unitCount, identity);
        CheckLaunch("iota kernel");
        entryRoot = identity;
        voteKey = parent;
      }
      table = m_Table.Reserve<ComponentFeatures>(entries, "the feature table");
      const unsigned tableBlocks = BlocksFor(static_cast<std::int64_t>(entries), BlockThreads);
      if constexpr (S::Merge == FeatureMerge::OnTheFly)
      {
        GatherRootFeaturesKernel<Index>
          <<<tableBlocks, BlockThreads, 0, stream>>>(entries, entryRoot, unitFeatures, table);
        CheckLaunch("root feature kernel");
        if (!full)
        {
          // Face connectivity: units that only touch diagonally may or may not
          // share a component; their pairs are voted now that labels exist.
          using Conditional =
            VotePolicy<VoteFolding::None, SingleUnitComponents::Voted, typename S::Units, PairVotes::Conditional>;
          LaunchVotes<Index, Conditional>(options.countAtomicUpdates, unitBlocks, units, linked, voteKey, geometry,
                                          faces, table, voteCounter, full);
        }
        FinalizeTableKernel<Index, SingleUnitComponents::Voted>
          <<<tableBlocks, BlockThreads, 0, stream>>>(entries, entryRoot, linked, table);
        CheckLaunch("feature finalizing kernel");
      }
      else
      {
        using Votes = typename S::Votes;
        PrepareTableKernel<Index, Votes::Singles>
          <<<BlocksFor(static_cast<std::int64_t>(entries), PrepareThreads), PrepareThreads, 0, stream>>>(
            units, entries, entryRoot, linked, geometry, faces, table);
        CheckLaunch("feature table kernel");
        LaunchVotes<Index, Votes>(options.countAtomicUpdates, unitBlocks, units, linked, voteKey, geometry, faces,
                                  table, voteCounter, full);
        FinalizeTableKernel<Index, Votes::Singles>
          <<<tableBlocks, BlockThreads, 0, stream>>>(entries, entryRoot, linked, table);
        CheckLaunch("feature finalizing kernel");
      }
    }

    // The component of each full run.
    Index * runLabel = label;
    if constexpr (S::SplitUnits)
    {
      runLabel = m_RunLabel.Reserve<Index>(runCount, "full run labels");
      RunLabelsFromUnitsKernel<Index><<<runBlocks, BlockThreads, 0, stream>>>(runs, units, label, runLabel);
      CheckLaunch("run label kernel");
    }

    if (options.labelImageType != LabelImageType::None)
    {
      labels = m_Labels.Reserve(static_cast<std::size_t>(pixels) * labelBytes, "the label image");
      DispatchPixelType(image.pixelType, [&](auto zero) {
        using T = decltype(zero);
        const ForegroundTest<T> test{ static_cast<T>(options.foregroundValue),
                                      options.foregroundRule == ForegroundRule::EqualTo };
        const auto * in = static_cast<const T *>(deviceImage);
        if (labelBytes == 8)
        {
          WriteLabelImageKernel<T, Index, std::uint64_t><<<rowBlocks, BlockThreads, 0, stream>>>(
            in, geometry, test, runs.rowOffsets, runLabel, static_cast<std::uint64_t *>(labels));
        }
        else
        {
          WriteLabelImageKernel<T, Index, std::uint32_t><<<rowBlocks, BlockThreads, 0, stream>>>(
            in, geometry, test, runs.rowOffsets, runLabel, static_cast<std::uint32_t *>(labels));
        }
      });
      CheckLaunch("label image kernel");
    }

    if (options.computeRuns)
    {
      // A stable radix sort of run indices by component keeps raster order within each component.
      auto * valuesIn = m_SortValuesIn.Reserve<Index>(runCount, "run order");
      auto * valuesOut = m_SortValuesOut.Reserve<Index>(runCount, "sorted run order");
      auto * keysOut = rank; // the ranks are no longer needed (at least as many as the runs)
      IotaKernel<Index><<<runBlocks, BlockThreads, 0, stream>>>(runCount, valuesIn);
      CheckLaunch("iota kernel");
      const int          endBit = BitsFor(static_cast<std::uint64_t>(componentCount));
      const std::int64_t n = static_cast<std::int64_t>(runCount);
      std::size_t        bytes = 0;
      Check(
        cub::DeviceRadixSort::SortPairs(nullptr, bytes, runLabel, keysOut, valuesIn, valuesOut, n, 0, endBit, stream),
        "sizing the run sort");
      void * temp = m_Temp.Reserve(bytes, "sort workspace");
      Check(cub::DeviceRadixSort::SortPairs(temp, bytes, runLabel, keysOut, valuesIn, valuesOut, n, 0, endBit, stream),
            "sorting runs by component");
      groupedRuns = m_RunsOut.Reserve<cca::Run>(runCount, "grouped runs");
      runOffsets = m_Offsets.Reserve<std::int64_t>(static_cast<std::size_t>(componentCount) + 1, "run offsets");
      GatherRunsKernel<Index><<<runBlocks, BlockThreads, 0, stream>>>(runs, geometry, valuesOut, keysOut,
                                                                      componentCount, groupedRuns, runOffsets);
      CheckLaunch("run gathering kernel");
    }
  }
  m_Marks[3]->Record(stream);

  // ---- download ----
  const auto components = static_cast<std::size_t>(componentCount);
  result.componentCount = static_cast<std::int64_t>(componentCount);
  // TreeMerge and None: copies here, host compaction after the timing marks.
  if (compaction == FeatureCompaction::TreeMerge)
  {
    m_HostNodes.clear();
    if (components > 0)
    {
      DownloadFeatureTree(treeNodes, static_cast<std::int64_t>(unitCount), result.componentCount);
    }
  }
  else if (compaction == FeatureCompaction::None)
  {
    m_HostSparse.resize(static_cast<std::size_t>(unitCount));
    Download(m_HostSparse.data(), table, m_HostSparse.size() * sizeof(ComponentFeatures));
  }
  else
  {
    result.features.resize(components);
    Download(result.features.data(), table, components * sizeof(ComponentFeatures));
  }
  result.runs.clear();
  result.runOffsets.clear();
  if (options.computeRuns)
  {
    result.runs.resize(static_cast<std::size_t>(runCount));
    Download(result.runs.data(), groupedRuns, result.runs.size() * sizeof(cca::Run));
    result.runOffsets.assign(components + 1, 0);
    if (components > 0)
    {
      Download(result.runOffsets.data(), runOffsets, result.runOffsets.size() * sizeof(std::int64_t));
    }
  }
  if (options.labelImageType != LabelImageType::None)
  {
    const std::size_t bytes = static_cast<std::size_t>(pixels) * labelBytes;
    if (labels != nullptr)
    {
      Download(options.labelImage, labels, bytes);
    }
    else
    {
      std::memset(options.labelImage, 0, bytes); // no foreground at all
    }
  }
  m_Marks[4]->Record(stream);
  m_Marks[4]->Synchronize();

  result.times.uploadMs = m_Marks[1]->MillisecondsSince(*m_Marks[0]);
  result.times.labelMs = m_Marks[2]->MillisecondsSince(*m_Marks[1]);
  result.times.featuresMs = m_Marks[3]->MillisecondsSince(*m_Marks[2]);
  result.times.downloadMs = m_Marks[4]->MillisecondsSince(*m_Marks[3]);
  if (compaction == FeatureCompaction::TreeMerge)
  {
    FeaturesInLabelOrder(m_HostNodes, result.features);
  }
  else if (compaction == FeatureCompaction::None)
  {
    // Entries of roots hold pixels, the others none; root order is the scan's numbering.
    result.features.clear();
    result.features.reserve(components);
    for (const ComponentFeatures & entry : m_HostSparse)
    {
      if (entry.pixelCount > 0)
      {
        result.features.push_back(entry);
      }
    }
    if (result.features.size() != components)
    {
      throw Error(Error::Kind::Cuda, "the sparse feature table holds " + std::to_string(result.features.size()) +
                                       " components instead of " + std::to_string(components));
    }
  }
  if (options.countAtomicUpdates)
  {
    ReadUpdateCounts(counterEntries, result);
  }
  result.bytesCopiedToHost = m_BytesToHost;
}

} // namespace

void
SetForceWideRunIndex(bool force)
{
  forceWideRunIndex = force;
}

bool
ForceWideRunIndex()
{
  return forceWideRunIndex;
}

std::int64_t
TreeMergeSecondCopies()
{
  return treeMergeSecondCopies;
}

} // namespace cuda

std::unique_ptr<BackendImplementation>
MakeCudaBackend(int device)
{
  return std::make_unique<cuda::CudaBackend>(device);
}

} // namespace cca
