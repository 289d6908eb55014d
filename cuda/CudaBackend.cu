// The CUDA backend: FLSL run detection, lock-free union-find over runs, dense
// renumbering, feature voting with conflict detection, runs grouped by
// component and the label image, all on one stream with buffers kept across
// calls. The device building blocks live in the .cuh headers beside this file.
#include "BackendImplementation.h"
#include "Compaction.cuh"
#include "CudaBackendTesting.h"
#include "CudaCheck.h"
#include "DeviceMemory.h"
#include "FeatureUpdate.cuh"
#include "HostStaging.h"
#include "RunDetection.cuh"
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

namespace cca
{
namespace cuda
{

namespace
{
std::atomic<bool> forceWideRunIndex{ false };

/** Calls f(T{}) with T the C++ type of the pixel type. */
template <class F>
void
DispatchPixelType(PixelType type, F && f)
{
  switch (type)
  {
    case PixelType::UInt8:
      return f(std::uint8_t{});
    case PixelType::Int8:
      return f(std::int8_t{});
    case PixelType::UInt16:
      return f(std::uint16_t{});
    case PixelType::Int16:
      return f(std::int16_t{});
    case PixelType::UInt32:
      return f(std::uint32_t{});
    case PixelType::Int32:
      return f(std::int32_t{});
    case PixelType::UInt64:
      return f(std::uint64_t{});
    case PixelType::Int64:
      return f(std::int64_t{});
  }
  throw Error(Error::Kind::InvalidInput, "unknown pixel type");
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
  template <class Index>
  void
  RunWithIndex(const ImageView & image, const Options & options, Result & result);

  template <class Index>
  Index
  ReadScalar(const Index * device);

  template <class In, class Out>
  void
  ExclusiveSum(In in, Out out, std::int64_t count);

  int                          m_Device = 0;
  std::unique_ptr<Stream>      m_Stream;
  std::unique_ptr<Event>       m_Marks[5];
  std::unique_ptr<HostStaging> m_Staging;
  PinnedBuffer                 m_HostScalar;
  DeviceBuffer                 m_Image;
  DeviceBuffer                 m_RowCounts;
  DeviceBuffer                 m_RowOffsets;
  DeviceBuffer                 m_RunX;
  DeviceBuffer                 m_RunEnd;
  DeviceBuffer                 m_RunRow;
  DeviceBuffer                 m_Parent;
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
CudaBackend::Run(const ImageView & image, const Options & options, Result & result)
{
  Check(cudaSetDevice(m_Device), "selecting the CUDA device");
  // A run that threw may have left work in flight on buffers about to be reused.
  m_Stream->Synchronize("finishing earlier work");
  // 32-bit run indices while the run count (at most one per two pixels of a
  // row, rounded up) stays below 2^31, which keeps index arithmetic in range.
  const std::int64_t rows = image.size[1] * image.size[2];
  const std::int64_t runBound = rows * ((image.size[0] + 1) / 2);
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
  const cudaStream_t stream = m_Stream->Get();
  Geometry           geometry;
  geometry.width = image.size[0];
  geometry.height = image.size[1];
  geometry.depth = image.size[2];
  geometry.rows = geometry.height * geometry.depth;
  const std::int64_t pixels = geometry.rows * geometry.width;
  const std::size_t  pixelBytes = static_cast<std::size_t>(PixelTypeSize(image.pixelType));
  const bool         full = options.connectivity == Connectivity::Full;
  detail::Extent     extent;
  extent.width = static_cast<std::int32_t>(geometry.width);
  extent.height = static_cast<std::int32_t>(geometry.height);
  extent.depth = static_cast<std::int32_t>(geometry.depth);
  extent.hasZAxis = image.dimension == 3; // 2D images have no z faces

  // ---- upload ----
  m_Marks[0]->Record(stream);
  void * deviceImage = m_Image.Reserve(static_cast<std::size_t>(pixels) * pixelBytes, "the image");
  m_Staging->Upload(deviceImage, static_cast<std::size_t>(pixels) * pixelBytes, DensePixelProducer(image), stream);
  m_Marks[1]->Record(stream);

  // ---- labeling: runs, union-find ----
  auto * rowCounts = m_RowCounts.Reserve<Index>(geometry.rows + 1, "run counts");
  auto * rowOffsets = m_RowOffsets.Reserve<Index>(geometry.rows + 1, "row offsets");
  const unsigned rowBlocks = BlocksFor(geometry.rows, WarpsPerBlock);
  DispatchPixelType(image.pixelType, [&](auto zero) {
    using T = decltype(zero);
    const ForegroundTest<T> test{ static_cast<T>(options.foregroundValue),
                                  options.foregroundRule == ForegroundRule::EqualTo };
    CountRunsKernel<T, Index>
      <<<rowBlocks, BlockThreads, 0, stream>>>(static_cast<const T *>(deviceImage), geometry, test, rowCounts);
  });
  CheckLaunch("run counting kernel");
  Check(cudaMemsetAsync(rowCounts + geometry.rows, 0, sizeof(Index), stream), "clearing a count");
  ExclusiveSum(rowCounts, rowOffsets, geometry.rows + 1);
  const Index runCount = ReadScalar(rowOffsets + geometry.rows);

  RunArrays<Index> runs;
  runs.count = runCount;
  runs.rowOffsets = rowOffsets;
  runs.x = m_RunX.Reserve<std::int32_t>(runCount, "run starts");
  runs.end = m_RunEnd.Reserve<std::int32_t>(runCount, "run ends");
  runs.row = m_RunRow.Reserve<Index>(runCount, "run rows");
  auto *         parent = m_Parent.Reserve<Index>(runCount, "union-find parents");
  auto *         linked = m_Linked.Reserve<std::uint8_t>(runCount, "run link flags");
  const unsigned runBlocks = BlocksFor(static_cast<std::int64_t>(runCount), BlockThreads);
  if (runCount > 0)
  {
    DispatchPixelType(image.pixelType, [&](auto zero) {
      using T = decltype(zero);
      const ForegroundTest<T> test{ static_cast<T>(options.foregroundValue),
                                    options.foregroundRule == ForegroundRule::EqualTo };
      WriteRunsKernel<T, Index>
        <<<rowBlocks, BlockThreads, 0, stream>>>(static_cast<const T *>(deviceImage), geometry, test, runs, parent);
    });
    CheckLaunch("run writing kernel");
    Check(cudaMemsetAsync(linked, 0, runCount, stream), "clearing run link flags");
    LinkRunsKernel<Index><<<runBlocks, BlockThreads, 0, stream>>>(runs, geometry, full, parent, linked);
    CheckLaunch("union-find kernel");
    FlattenKernel<Index><<<runBlocks, BlockThreads, 0, stream>>>(runCount, parent);
    CheckLaunch("flatten kernel");
  }
  m_Marks[2]->Record(stream);

  // ---- features: numbering, votes, grouping, label image ----
  Index               componentCount = 0;
  ComponentFeatures * table = nullptr;
  cca::Run *          groupedRuns = nullptr;
  std::int64_t *      runOffsets = nullptr;
  void *              labels = nullptr;
  const std::size_t   labelBytes = options.labelImageType == LabelImageType::UInt64 ? 8 : 4;
  if (runCount > 0)
  {
    auto * rank = m_Rank.Reserve<Index>(runCount, "component numbers");
    auto   flags = thrust::make_transform_iterator(thrust::counting_iterator<Index>(0), RootFlag<Index>{ parent });
    ExclusiveSum(flags, rank, static_cast<std::int64_t>(runCount));
    auto * scalar = m_Scalar.Reserve<Index>(1, "a count");
    auto * label = m_Label.Reserve<Index>(runCount, "run labels"); // 0-based component of each run
    auto * rootOf = m_RootOf.Reserve<Index>(runCount, "component roots"); // room for the most components possible
    NumberComponentsKernel<Index>
      <<<runBlocks, BlockThreads, 0, stream>>>(runCount, rank, parent, label, rootOf, scalar);
    CheckLaunch("numbering kernel");
    componentCount = ReadScalar(scalar);

    if (options.labelImageType == LabelImageType::UInt32 &&
        static_cast<std::uint64_t>(componentCount) > std::numeric_limits<std::uint32_t>::max())
    {
      throw Error(Error::Kind::Overflow, "the image has " + std::to_string(componentCount) +
                                           " components, more than a uint32 label image can hold");
    }

    table = m_Table.Reserve<ComponentFeatures>(componentCount, "the feature table");
    const unsigned tableBlocks = BlocksFor(static_cast<std::int64_t>(componentCount), BlockThreads);
    PrepareTableKernel<Index>
      <<<BlocksFor(static_cast<std::int64_t>(componentCount), PrepareThreads), PrepareThreads, 0, stream>>>(
        runs, componentCount, rootOf, linked, geometry, extent, table);
    CheckLaunch("feature table kernel");
    // A resident grid: each block folds many tiles' votes for its hot component before touching memory.
    const unsigned voteBlocks = std::min(runBlocks, ResidentBlocks(AccumulateFeaturesKernel<Index>));
    AccumulateFeaturesKernel<Index>
      <<<voteBlocks, BlockThreads, 0, stream>>>(runs, linked, label, geometry, extent, table);
    CheckLaunch("feature vote kernel");
    FinalizeTableKernel<Index><<<tableBlocks, BlockThreads, 0, stream>>>(componentCount, rootOf, linked, table);
    CheckLaunch("feature finalizing kernel");

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
            in, geometry, test, rowOffsets, label, static_cast<std::uint64_t *>(labels));
        }
        else
        {
          WriteLabelImageKernel<T, Index, std::uint32_t><<<rowBlocks, BlockThreads, 0, stream>>>(
            in, geometry, test, rowOffsets, label, static_cast<std::uint32_t *>(labels));
        }
      });
      CheckLaunch("label image kernel");
    }

    if (options.computeRuns)
    {
      // A stable radix sort of run indices by component keeps raster order within each component.
      auto * valuesIn = m_SortValuesIn.Reserve<Index>(runCount, "run order");
      auto * valuesOut = m_SortValuesOut.Reserve<Index>(runCount, "sorted run order");
      auto * keysOut = rank; // the ranks are no longer needed
      IotaKernel<Index><<<runBlocks, BlockThreads, 0, stream>>>(runCount, valuesIn);
      CheckLaunch("iota kernel");
      const int         endBit = BitsFor(static_cast<std::uint64_t>(componentCount));
      const std::int64_t n = static_cast<std::int64_t>(runCount);
      std::size_t       bytes = 0;
      Check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, label, keysOut, valuesIn, valuesOut, n, 0, endBit, stream),
            "sizing the run sort");
      void * temp = m_Temp.Reserve(bytes, "sort workspace");
      Check(cub::DeviceRadixSort::SortPairs(temp, bytes, label, keysOut, valuesIn, valuesOut, n, 0, endBit, stream),
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
  result.features.resize(components);
  m_Staging->Download(result.features.data(), table, components * sizeof(ComponentFeatures), stream);
  result.runs.clear();
  result.runOffsets.clear();
  if (options.computeRuns)
  {
    result.runs.resize(static_cast<std::size_t>(runCount));
    m_Staging->Download(result.runs.data(), groupedRuns, result.runs.size() * sizeof(cca::Run), stream);
    result.runOffsets.assign(components + 1, 0);
    if (components > 0)
    {
      m_Staging->Download(result.runOffsets.data(), runOffsets, result.runOffsets.size() * sizeof(std::int64_t),
                          stream);
    }
  }
  if (options.labelImageType != LabelImageType::None)
  {
    const std::size_t bytes = static_cast<std::size_t>(pixels) * labelBytes;
    if (labels != nullptr)
    {
      m_Staging->Download(options.labelImage, labels, bytes, stream);
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

} // namespace cuda

std::unique_ptr<BackendImplementation>
MakeCudaBackend(int device)
{
  return std::make_unique<cuda::CudaBackend>(device);
}

} // namespace cca
