// The CUDA backend: the host sequence (HostSequence.cuh: upload, label the
// units, number the components, the feature table of the chosen compaction,
// the outputs, download) run by the stream device (StreamDevice.cuh) of one
// CUDA device, with buffers kept across calls. Device-memory input and label
// images (cca::MemorySpace::CudaDevice) are read and written in place, on the
// caller's stream when Options::useCallerStream says so. The strategies it runs are
// the rows of Strategies.cuh's table; this file compiles the fastest one's runs
// with 32-bit unit indices, two other files the rest (CudaHostSequence.cuh).
#include "BackendImplementation.h"
#include "CudaBackendTesting.h"
#include "CudaCheck.h"
#include "CudaHostSequence.cuh"
#include "IdlePool.h"
#include "StreamDevice.cuh"

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace cca
{
namespace cuda
{

namespace
{
std::atomic<bool>                 forceWideRunIndex{ false };
std::atomic<std::size_t>          uploadSlabBytes{ 0 };
std::atomic<BlockLabelingUse>     blockLabeling{ BlockLabelingUse::Automatic };
std::atomic<StripLabelingUse>     stripLabeling{ StripLabelingUse::Automatic };
std::atomic<std::size_t>          regionCopyBytes{ 0 };
std::atomic<std::size_t>          regionPieceBytes{ 0 };
std::atomic<std::size_t>          streamedUploadBytes{ 0 };
std::atomic<std::size_t>          streamedPieceBytes{ 0 };
std::atomic<std::int64_t>         treeMergeSecondCopies{ 0 };
std::atomic<double>               lastSampledForegroundFraction{ -1.0 };
std::atomic<std::int64_t>         numberingClimbingRuns{ -1 };
std::atomic<std::int64_t>         numberingOneBlockRootWords{ -1 };
std::atomic<std::int64_t>         linkFanIn{ 0 };
std::atomic<RowBitLinksUse>       rowBitLinks{ RowBitLinksUse::Automatic };
std::atomic<RunEndIndexUse>       runEndIndex{ RunEndIndexUse::Automatic };
std::atomic<bool>                 fullPairsAfterLabels{ false };
std::atomic<VoteOrderUse>         voteOrder{ VoteOrderUse::Automatic };
std::atomic<WholeComponentsUse>   wholeComponents{ WholeComponentsUse::Automatic };
std::atomic<NarrowTableUse>       narrowTable{ NarrowTableUse::Automatic };
std::atomic<PlanarTableUse>       planarTable{ PlanarTableUse::Automatic };
std::atomic<LargestApartUse>      largestApart{ LargestApartUse::Automatic };
std::atomic<LargestSubtractedUse> largestSubtracted{ LargestSubtractedUse::Automatic };
std::atomic<std::int64_t>         linkBlockRows{ 0 };
std::atomic<std::int32_t>         sharedLinkCapacity{ 0 };
std::atomic<bool>                 queuedMerges{ true };
std::atomic<bool>                 dependentLaunches{ true };
std::atomic<bool>                 sideStream{ true };
std::atomic<bool>                 narrowCubCounts{ true };
std::atomic<PinnedLabelWidening>  pinnedLabelWidening{ PinnedLabelWidening::Automatic };

/** The caller's current CUDA device is theirs: selected for a run, given back after it. */
class CurrentDeviceScope
{
public:
  explicit CurrentDeviceScope(int device)
  {
    Check(cudaGetDevice(&m_Previous), "querying the current CUDA device");
    Check(cudaSetDevice(device), "selecting the CUDA device");
  }
  ~CurrentDeviceScope() { cudaSetDevice(m_Previous); }
  CurrentDeviceScope(const CurrentDeviceScope &) = delete;
  CurrentDeviceScope &
  operator=(const CurrentDeviceScope &) = delete;

private:
  int m_Previous = 0;
};

/** What a backend runs with on its device: the stream device (its streams,
 *  events, staging and CUB's workspace) and the host sequence (every
 *  stage's buffers, at the sizes the runs so far grew them to). A backend
 *  gives it back to the process as it goes and the next backend on that
 *  device takes it, so that a new engine (a new filter per image) makes no
 *  stream or event and allocates no buffer that an engine before it had
 *  already grown: a fresh state's run on the 60000 balls made 27
 *  allocations from the device pool, 3 streams and 20 events
 *  (benchmark/results/h200-idle-device-states). As many states are kept as
 *  engines were alive at once; their device memory would otherwise stay in
 *  the device pool, whose release threshold keeps everything too.
 *  Engine::ReleaseCachedMemory, and an allocation that finds the device
 *  full, destroy the idle ones. */
struct DeviceState
{
  /** Made and destroyed with device current, as its buffers belong to it;
   *  destroyed with its work done. The members go in reverse order: the
   *  sequence's buffers before the stream device they are allocated on. */
  explicit DeviceState(int current)
    : device(current)
    , streamDevice(std::make_unique<StreamDevice>())
    , sequence(std::make_unique<HostSequence<StreamDevice>>())
  {}

  int                                         device;
  std::unique_ptr<StreamDevice>               streamDevice;
  std::unique_ptr<HostSequence<StreamDevice>> sequence;
};

class CudaBackend final : public BackendImplementation
{
public:
  explicit CudaBackend(int device);
  ~CudaBackend() override;

  void
  Run(const ImageView & image, const Options & options, Result & result) override;

  bool
  SupportsDeviceMemory() const override
  {
    return true;
  }

  /** Takes the lanes of large copies on this backend's device
   *  (HostStaging::PrepareRegionCopies); they go back to the process's pool
   *  with the backend. */
  void
  PrepareRegionCopies()
  {
    const CurrentDeviceScope deviceScope(m_Device);
    m_State->streamDevice->PrepareRegionCopies();
  }

private:
  int                          m_Device = 0;
  std::unique_ptr<DeviceState> m_State; ///< taken once the device is selected
  /** False from a run's start until it returns: a state that a failed run
   *  left is destroyed, not given to the next engine. */
  bool m_StateReusable = true;
};

/** The idle state of the device given back last, counted as held again;
 *  null if none. */
std::unique_ptr<DeviceState>
TakeIdleState(int device)
{
  std::unique_ptr<DeviceState> state(
    IdleObjects<DeviceState>().Take([device](const DeviceState & idle) { return idle.device == device; }));
  if (state)
  {
    CountSlotBuffers(state->streamDevice->Slot(), true);
  }
  return state;
}

CudaBackend::CudaBackend(int device)
{
  int               count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
  {
    cudaGetLastError();
    throw Error(Error::Kind::NoDevice,
                std::string("the CUDA backend found no usable device (") +
                  (status != cudaSuccess ? cudaGetErrorString(status) : "no device") + ")");
  }
  if (device < 0)
  {
    Check(cudaGetDevice(&m_Device), "querying the current CUDA device");
  }
  else if (device >= count)
  {
    throw Error(Error::Kind::NoDevice,
                "CUDA device " + std::to_string(device) + " does not exist (" + std::to_string(count) + " present)");
  }
  else
  {
    m_Device = device;
  }
  m_State = TakeIdleState(m_Device);
  if (!m_State)
  {
    // The streams and events belong to the device current when they are made.
    const CurrentDeviceScope deviceScope(m_Device);
    m_State = std::make_unique<DeviceState>(m_Device);
  }
}

CudaBackend::~CudaBackend()
{
  if (!m_State)
  {
    return;
  }
  int previous = 0;
  cudaGetDevice(&previous);
  cudaSetDevice(m_Device);
  // Its work done: the next engine finds it so, as a run's Begin would, or
  // nothing in flight writes into the buffers freed below.
  const bool idle = cudaStreamSynchronize(m_State->streamDevice->Stream()) == cudaSuccess;
  cudaGetLastError();
  if (m_StateReusable && idle)
  {
    CountSlotBuffers(m_State->streamDevice->Slot(), false);
    IdleObjects<DeviceState>().Give(m_State.release());
  }
  else
  {
    m_State.reset();
  }
  cudaSetDevice(previous);
}

/** Options::useCallerStream for the length of one run. */
class CallerStreamScope
{
public:
  CallerStreamScope(StreamDevice & device, const Options & options)
    : m_Device(options.useCallerStream ? &device : nullptr)
  {
    if (m_Device != nullptr)
    {
      m_Device->UseCallerStream(reinterpret_cast<cudaStream_t>(options.cudaStream));
    }
  }
  ~CallerStreamScope()
  {
    if (m_Device != nullptr)
    {
      m_Device->StopUsingCallerStream();
    }
  }
  CallerStreamScope(const CallerStreamScope &) = delete;
  CallerStreamScope &
  operator=(const CallerStreamScope &) = delete;

private:
  StreamDevice * m_Device;
};

/** Refuses a pointer said to be device memory that is not memory of this
 *  device: reading it would fault or read another device's data. */
void
CheckDevicePointer(const void * pointer, int device, const char * what)
{
  cudaPointerAttributes attributes{};
  const cudaError_t     status = cudaPointerGetAttributes(&attributes, pointer);
  if (status != cudaSuccess)
  {
    cudaGetLastError();
    throw Error(Error::Kind::InvalidInput,
                std::string(what) +
                  " is said to be CUDA device memory, but CUDA does not "
                  "know the pointer (" +
                  cudaGetErrorString(status) + ")");
  }
  const bool deviceMemory = attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
  if (!deviceMemory || attributes.device != device)
  {
    throw Error(
      Error::Kind::InvalidInput,
      std::string(what) + " is said to be memory of CUDA device " + std::to_string(device) + ", but it is " +
        (deviceMemory ? "memory of CUDA device " + std::to_string(attributes.device) : std::string("host memory")));
  }
}

void
CudaBackend::Run(const ImageView & image, const Options & options, Result & result)
{
  const CurrentDeviceScope deviceScope(m_Device);
  if (image.memory == MemorySpace::CudaDevice)
  {
    CheckDevicePointer(image.data, m_Device, "the image");
  }
  if (options.intensity.Requested() && options.intensity.featureImage.memory == MemorySpace::CudaDevice)
  {
    CheckDevicePointer(options.intensity.featureImage.data, m_Device, "the feature image");
  }
  if (options.labelImageType != LabelImageType::None && options.labelImageMemory == MemorySpace::CudaDevice)
  {
    CheckDevicePointer(options.labelImage, m_Device, "the label image destination");
  }
  StreamDevice &               device = *m_State->streamDevice;
  HostSequence<StreamDevice> & sequence = *m_State->sequence;
  m_StateReusable = false;
  const CallerStreamScope streamScope(device, options);
  sequence.Paths().SetForceWideIndex(ForceWideRunIndex());
  sequence.SetSlabBytes(UploadSlabBytes());
  sequence.Paths().SetBlockLabeling(BlockLabeling());
  sequence.Paths().SetStripLabeling(stripLabeling);
  sequence.SetNumberingClimbingRuns(numberingClimbingRuns);
  sequence.SetNumberingOneBlockRootWords(numberingOneBlockRootWords);
  sequence.SetLinkFanIn(linkFanIn);
  sequence.SetRowBitLinks(rowBitLinks);
  sequence.SetRunEndIndex(runEndIndex);
  sequence.SetFullPairsAfterLabels(fullPairsAfterLabels);
  sequence.Paths().SetVoteOrder(voteOrder);
  sequence.Paths().SetWholeComponents(wholeComponents);
  sequence.Paths().SetNarrowTable(narrowTable);
  sequence.Paths().SetPlanarTable(planarTable);
  sequence.Paths().SetLargestApart(largestApart);
  sequence.Paths().SetLargestSubtracted(largestSubtracted);
  sequence.SetBlockRows(linkBlockRows);
  sequence.SetSharedLinkCapacity(sharedLinkCapacity);
  sequence.SetQueuedMerges(queuedMerges);
  device.SetRegionCopies(regionCopyBytes, regionPieceBytes);
  device.SetStreamedUploads(streamedUploadBytes, streamedPieceBytes);
  device.SetDependentLaunches(dependentLaunches);
  device.SetSideWork(sideStream);
  device.SetNarrowCubCounts(narrowCubCounts);
  const PinnedLabelWidening widening = pinnedLabelWidening;
  device.SetPinnedLabelsWidenedOnDevice(widening == PinnedLabelWidening::OnDevice ||
                                        (widening == PinnedLabelWidening::Automatic && !StreamingStoresAvailable()));
  const std::int64_t secondCopies = sequence.TreeMergeSecondCopies();
  sequence.Run(device, image, options, result);
  treeMergeSecondCopies += sequence.TreeMergeSecondCopies() - secondCopies;
  lastSampledForegroundFraction = sequence.Labeling().CountedForegroundFraction();
  m_StateReusable = true;
}

} // namespace

void
ReleaseIdleDeviceStates(int device)
{
  const auto    fits = [device](const DeviceState & idle) { return device < 0 || idle.device == device; };
  DeviceState * idle = IdleObjects<DeviceState>().Take(fits);
  if (idle == nullptr)
  {
    return; // no CUDA call: a machine without a device may call this
  }
  int previous = 0;
  cudaGetDevice(&previous);
  for (; idle != nullptr; idle = IdleObjects<DeviceState>().Take(fits))
  {
    cudaSetDevice(idle->device);
    delete idle; // its work was done when it went idle
  }
  cudaSetDevice(previous);
  cudaGetLastError(); // nothing here is the next call's error
}

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

void
SetUploadSlabBytes(std::size_t bytes)
{
  uploadSlabBytes = bytes;
}

std::size_t
UploadSlabBytes()
{
  return uploadSlabBytes;
}

void
SetRegionCopies(std::size_t fromBytes, std::size_t pieceBytes)
{
  regionCopyBytes = fromBytes;
  regionPieceBytes = pieceBytes;
}

void
SetStreamedUploads(std::size_t fromBytes, std::size_t pieceBytes)
{
  streamedUploadBytes = fromBytes;
  streamedPieceBytes = pieceBytes;
}

std::int64_t
StreamedUploadsMade()
{
  return HostStaging::StreamedUploadsMade();
}

void
SetBlockLabeling(BlockLabelingUse use)
{
  blockLabeling = use;
}

BlockLabelingUse
BlockLabeling()
{
  return blockLabeling;
}

void
SetStripLabeling(StripLabelingUse use)
{
  stripLabeling = use;
}

void
SetNumberingClimbingRuns(std::int64_t units)
{
  numberingClimbingRuns = units;
}

void
SetNumberingOneBlockRootWords(std::int64_t words)
{
  numberingOneBlockRootWords = words;
}

void
SetLinkFanIn(std::int64_t fanIn)
{
  linkFanIn = fanIn;
}

void
SetRowBitLinks(RowBitLinksUse use)
{
  rowBitLinks = use;
}

void
SetRunEndIndex(RunEndIndexUse use)
{
  runEndIndex = use;
}

void
SetFullPairsAfterLabels(bool afterLabels)
{
  fullPairsAfterLabels = afterLabels;
}

void
SetVoteOrder(VoteOrderUse use)
{
  voteOrder = use;
}

void
SetWholeComponents(WholeComponentsUse use)
{
  wholeComponents = use;
}

void
SetNarrowTable(NarrowTableUse use)
{
  narrowTable = use;
}

void
SetPlanarTable(PlanarTableUse use)
{
  planarTable = use;
}

void
SetLargestApart(LargestApartUse use)
{
  largestApart = use;
}

void
SetLargestSubtracted(LargestSubtractedUse use)
{
  largestSubtracted = use;
}

// The update-counting tests know narrow entries' blocks by one size.
static_assert(VoteBlockThreads<PlanarFeatures> == VoteBlockThreads<NarrowFeatures>,
              "planar and narrow entries vote in blocks of one size");

int
FeatureVoteBlockThreads(bool narrowEntries)
{
  return narrowEntries ? VoteBlockThreads<NarrowFeatures> : VoteBlockThreads<ComponentFeatures>;
}

void
SetLinkBlockRows(std::int64_t rows)
{
  linkBlockRows = rows;
}

void
SetSharedLinkCapacity(std::int32_t capacity)
{
  sharedLinkCapacity = capacity;
}

void
SetQueuedMerges(bool queued)
{
  queuedMerges = queued;
}

void
SetDependentLaunches(bool dependent)
{
  dependentLaunches = dependent;
}

void
SetSideStream(bool side)
{
  sideStream = side;
}

void
SetNarrowCubCounts(bool narrow)
{
  narrowCubCounts = narrow;
}

void
SetPinnedLabelWidening(PinnedLabelWidening where)
{
  pinnedLabelWidening = where;
}

double
LastSampledForegroundFraction()
{
  return lastSampledForegroundFraction;
}

std::int64_t
TreeMergeSecondCopies()
{
  return treeMergeSecondCopies;
}

namespace
{
struct SixteenBytes
{
  std::uint64_t low;
  std::uint64_t high;
};

/** Stores the values of read k after about delay clock cycles, so that a
 *  read queued after it has to wait. */
__global__ void
StoreReadValuesLateKernel(std::uint64_t   k,
                          long long       delay,
                          std::uint64_t * wide,
                          std::uint32_t * narrow,
                          SixteenBytes *  pair)
{
  AwaitPrecedingKernel(); // launched ordinarily: a no-op, kept for the rule every kernel follows
  const long long start = clock64();
  while (clock64() - start < delay)
  {}
  *wide = 0x9e3779b97f4a7c15ull * (k + 1);
  *narrow = static_cast<std::uint32_t>(k * 2654435761u + 1u);
  *pair = SixteenBytes{ ~k, k << 3 };
}
} // namespace

DeviceReadsChecked
CheckDeviceReads(int readsPerDevice)
{
  DeviceReadsChecked checked;
  void *             values = nullptr;
  Check(cudaMalloc(&values, 64), "allocating the read test's values");
  auto * const  wide = static_cast<std::uint64_t *>(values);
  auto * const  narrow = reinterpret_cast<std::uint32_t *>(wide + 1);
  auto * const  pair = reinterpret_cast<SixteenBytes *>(wide + 2);
  std::uint64_t k = 0;
  for (int d = 0; d < 2; ++d)
  {
    StreamDevice device;
    checked.fromMappedMemory = device.ReadsFromMappedMemory();
    for (int i = 0; i < readsPerDevice; ++i, ++k)
    {
      StoreReadValuesLateKernel<<<1, 1, 0, device.Stream()>>>(k, 20000 * (i % 4), wide, narrow, pair);
      Check(cudaGetLastError(), "the read test's kernel");
      const std::uint64_t one = device.Read(wide, "read test");
      const auto          two = device.Read(narrow, wide, "read test");
      const SixteenBytes  sixteen = device.Read(pair, "read test");
      checked.reads += 4;
      checked.wrong += (one != 0x9e3779b97f4a7c15ull * (k + 1)) +
                       (two.first != static_cast<std::uint32_t>(k * 2654435761u + 1u)) + (two.second != one) +
                       (sixteen.low != ~k || sixteen.high != k << 3);
    }
    // The next device takes this one's host slot from the process's cache
    // (when no other idle block of its size is there), with the numbers of
    // this one's reads in it.
  }
  Check(cudaFree(values), "freeing the read test's values");
  return checked;
}

} // namespace cuda

std::unique_ptr<BackendImplementation>
MakeCudaBackend(int device)
{
  return std::make_unique<cuda::CudaBackend>(device);
}

void
StartCudaDevice(int device)
{
  try
  {
    // A backend made and run once on a small image: the context, the
    // default strategy's kernels (loaded at their first launch), memory of
    // the device pool, the pinned staging buffers and the copy threads; the
    // backend gives them back to the process's pools for the next engine.
    // Then the lanes of large copies (HostStaging::PrepareRegionCopies).
    auto                       backend = std::make_unique<cuda::CudaBackend>(device);
    constexpr std::int64_t     side = 64;
    std::vector<std::uint8_t>  image(side * side);
    std::vector<std::uint32_t> labels(image.size());
    for (std::size_t i = 0; i < image.size(); ++i)
    {
      image[i] = static_cast<std::uint8_t>((i * 2654435761u >> 7) & 1);
    }
    ImageView view;
    view.data = image.data();
    view.size[0] = side;
    view.size[1] = side;
    Options options;
    options.backend = Backend::Cuda;
    options.labelImageType = LabelImageType::UInt32;
    options.labelImage = labels.data();
    Result result;
    backend->Run(view, options, result);
    // With the backend's own copy threads and device, not a second set.
    backend->PrepareRegionCopies();
  }
  catch (const std::exception &)
  {
    // Nothing is lost: the first Run starts CUDA itself and reports the
    // error. Nor is the error left for the next launch's check to find.
    cudaGetLastError();
  }
}

void
ReleaseCudaCachedMemory()
{
  cuda::ReleaseCachedMemory();
}

std::int64_t
CudaDeviceBytesHeld()
{
  return static_cast<std::int64_t>(cuda::DeviceBytesHeld());
}

std::int64_t
CudaDeviceBytesPeak()
{
  return static_cast<std::int64_t>(cuda::DeviceBytesPeak());
}

void
ResetCudaDeviceBytesPeak()
{
  cuda::ResetDeviceBytesPeak();
}

} // namespace cca
