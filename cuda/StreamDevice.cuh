// The CUDA device of the host sequence (HostSequence.cuh says what a device
// does): everything runs in order on one stream the device owns (or the
// caller's); scans and sorts are CUB's, copies to and from the host go
// through pinned staging buffers (HostStaging.h): small uploads on a second
// stream slab by slab, so that the work of a slab overlaps the copy of the
// next, large copies by regions, one per copy thread; stage times come from
// CUDA events. Its memory comes from the process's
// pools (DeviceMemory.h): a new device allocates nothing. The
// emulation tests have a CPU twin with the same members
// (test/gpu/emulation/EmulatedDevice.h). Include from .cu files only (CUB).
#ifndef cca_cuda_StreamDevice_cuh
#define cca_cuda_StreamDevice_cuh

#include "CudaCheck.h"
#include "DeviceGeometry.cuh"
#include "DeviceMemory.h"
#include "FirstWrites.h"
#include "HostStaging.h"
#include "Milestones.h"
#include "NarrowFeatures.h"
#include "StreamingStores.h"

#include "cca/HostImageMemory.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace cca
{
namespace cuda
{

/** out[i] = in[i] for i < count: 32-bit labels as the 64-bit ones a host
 *  image holds, on the device, so that a page-locked image takes them by DMA. */
static __global__ void
WidenLabelsKernel(const std::uint32_t * in, std::uint64_t * out, std::int64_t count)
{
  AwaitPrecedingKernel();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    out[i] = in[i];
  }
}

/** The host slot of a read (StreamDevice::Read): its sequence number in
 *  these first bytes, then the values. */
constexpr std::size_t ReadSequenceBytes = 8;

/** Read's kernel: bytes [0, firstBytes) of first then [0, secondBytes) of
 *  second into slot + ReadSequenceBytes, page-locked host memory that the
 *  device writes (slot: its device address), then sequence into the slot's
 *  first bytes, which the host polls. An ordinary launch: it follows all
 *  earlier work. */
static __global__ void
PublishToHostKernel(const unsigned char * first,
                    unsigned              firstBytes,
                    const unsigned char * second,
                    unsigned              secondBytes,
                    unsigned char *       slot,
                    std::uint64_t         sequence)
{
  AwaitPrecedingKernel(); // launched ordinarily: a no-op, kept for the rule every kernel follows
  unsigned char * values = slot + ReadSequenceBytes;
  for (unsigned i = 0; i < firstBytes; ++i)
  {
    values[i] = first[i];
  }
  for (unsigned i = 0; i < secondBytes; ++i)
  {
    values[firstBytes + i] = second[i];
  }
  __threadfence_system(); // the values reach the host before the number
  *reinterpret_cast<volatile std::uint64_t *>(slot) = sequence;
}

class StreamDevice
{
public:
  /** Device memory kept across runs (it only grows). */
  using Buffer = DeviceBuffer;
  static constexpr int ScratchSlots = 6;
  static constexpr int SideLanes = 2; ///< BeginSideWork's lanes

  /** On the current CUDA device. */
  StreamDevice()
    : m_DependentLaunchesSupported(DependentLaunchesSupported())
    , m_DependentLaunches(m_DependentLaunchesSupported)
  {
    m_Slot.stream = m_Stream.Get();
    for (auto & mark : m_Milestones)
    {
      mark = std::make_unique<Event>(true);
    }
  }

  ~StreamDevice()
  {
    for (const cuda::Stream & side : m_SideStreams)
    {
      cudaStreamSynchronize(side.Get()); // a failed run's side work may use the buffers given back below
    }
    if (StreamSlot::Current() == &m_Slot)
    {
      StreamSlot::SetCurrent(nullptr);
    }
  }
  StreamDevice(const StreamDevice &) = delete;
  StreamDevice &
  operator=(const StreamDevice &) = delete;

  /** The stream work is queued on: a side stream between BeginSideWork
   *  and EndSideWork, else the run's (RunStream). */
  cudaStream_t
  Stream() const
  {
    return m_OnSide >= 0 ? m_SideStreams[m_OnSide].Get() : RunStream();
  }

  /** The slot its buffers are allocated on (and counted by). */
  StreamSlot &
  Slot()
  {
    return m_Slot;
  }

  /** The stream of the current run: the caller's (UseCallerStream) or the device's own. */
  cudaStream_t
  RunStream() const
  {
    return m_UseCallerStream ? m_CallerStream : m_Stream.Get();
  }

  /** Work queued from here to EndSideWork goes to the side stream of lane
   *  (0 or 1; SideLanes), after all the work queued so far, and runs beside
   *  the work queued on the run's stream after it, and beside the other
   *  lane's, until JoinSideWork(lane) makes the run's stream wait for it.
   *  Its buffers are allocated on that stream. The device's own stream has
   *  the greater priority: the GPU dispatches the blocks of its kernels
   *  first, and the side work's fill the slots they leave (without it, the
   *  side work's large grids went first and nothing overlapped:
   *  benchmark/results/h200-g1-features calls 3 and 4). With side work off
   *  (SetSideWork) all three keep every kernel in order on one stream. */
  void
  BeginSideWork(int lane = 0)
  {
    if (!m_SideWork || m_OnSide >= 0)
    {
      return;
    }
    m_SideMayStart.Record(RunStream());
    Check(cudaStreamWaitEvent(m_SideStreams[lane].Get(), m_SideMayStart.Get(), 0), "ordering the side work");
    m_OnSide = lane;
    m_Slot.stream = m_SideStreams[lane].Get();
  }

  /** Back to the run's stream; the side work queued so far runs on. */
  void
  EndSideWork()
  {
    if (m_OnSide < 0)
    {
      return;
    }
    const int lane = m_OnSide;
    m_OnSide = -1;
    m_Slot.stream = RunStream();
    m_SideDone[lane].Record(m_SideStreams[lane].Get());
    m_SidePending[lane] = true;
  }

  /** The run's stream waits for the side work of lane (EndSideWork first). */
  void
  JoinSideWork(int lane = 0)
  {
    EndSideWork();
    if (m_SidePending[lane])
    {
      m_SidePending[lane] = false;
      Check(cudaStreamWaitEvent(RunStream(), m_SideDone[lane].Get(), 0), "waiting for the side work");
    }
  }

  /** Tests and benchmarks: queue the side work on its own stream (true, the
   *  default) or in order on the run's stream (false). */
  void
  SetSideWork(bool side)
  {
    m_SideWork = side;
  }

  /** Tests and benchmarks: hand CUB 32-bit counts where they fit (true,
   *  the default; RunCub) or always 64-bit ones (false), the path
   *  of counts from 2^31 on. */
  void
  SetNarrowCubCounts(bool narrow)
  {
    m_NarrowCubCounts = narrow;
  }

  /** Whether DownloadWidened widens labels bound for a page-locked block on
   *  the device and copies them in place by DMA, or on the host from
   *  staging as for any memory (CudaBackendTesting.h's
   *  SetPinnedLabelWidening says when each). */
  void
  SetPinnedLabelsWidenedOnDevice(bool onDevice)
  {
    m_PinnedLabelsWidenedOnDevice = onDevice;
  }

  /** Runs until StopUsingCallerStream go to the caller's stream, after the
   *  work already queued there (so device input made on it is complete
   *  first); the device neither creates nor destroys it. 0 is CUDA's legacy
   *  default stream. */
  void
  UseCallerStream(cudaStream_t stream)
  {
    m_UseCallerStream = true;
    m_CallerStream = stream;
    m_Slot.stream = stream;
  }
  /** Back to the own stream; work a failed run left on the caller's stream
   *  is finished first, since it may still use the device's buffers. */
  void
  StopUsingCallerStream() noexcept
  {
    LeaveSideWork();
    if (m_UseCallerStream)
    {
      cudaStreamSynchronize(m_CallerStream);
    }
    m_UseCallerStream = false;
    m_CallerStream = nullptr;
    m_Slot.stream = m_Stream.Get();
  }

  /** Before a run: work still in flight (a run that threw may have left
   *  some on buffers about to be reused) is finished, the byte count cleared. */
  void
  Begin()
  {
    m_BytesToHost = 0;
    LeaveSideWork();
    m_Stream.Synchronize("finishing earlier work");
    m_Staging.DropUnfinished();      // a failed run's
    StreamSlot::SetCurrent(&m_Slot); // the buffers of the run are allocated on its stream
  }

  /** kernel<<<blocks, threads>>>(args...) on the stream; what names it in
   *  errors. On the device's own stream of a GPU of compute capability 9.0
   *  or later, as a programmatic dependent launch (DependentLaunch.cuh): the
   *  kernel's blocks may be scheduled while the kernel before it finishes,
   *  and wait for it in AwaitPrecedingKernel. A caller's stream keeps
   *  ordinary launches: the kernels queued there around a run are not ours. */
  template <class... Params, class... Args>
  void
  Launch(const char * what, unsigned blocks, unsigned threads, void (*kernel)(Params...), Args &&... args)
  {
    if (!m_DependentLaunches || m_UseCallerStream)
    {
      LaunchAllBlocksTogether(what, blocks, threads, kernel, std::forward<Args>(args)...); // the ordinary launch
      return;
    }
    cudaLaunchAttribute overlap{};
    overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    overlap.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.stream = Stream();
    config.attrs = &overlap;
    config.numAttrs = 1;
    Check(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...), what);
  }

  /** The ordinary launch, kernel<<<blocks, threads>>>(args...) on the
   *  stream. Launch takes it where launches are not dependent, and a grid of
   *  resident blocks (ResidentBlocks) that split the work in fixed shares
   *  always does, so that every block starts once the kernel before it has
   *  left the device. Launched early, the blocks that found their slots
   *  still held started late, and the grid waited for them (H200, full
   *  table, g = 1, 4-connected planes: the feature votes' stage 3-4 %
   *  slower). */
  template <class... Params, class... Args>
  void
  LaunchAllBlocksTogether(const char * what,
                          unsigned     blocks,
                          unsigned     threads,
                          void (*kernel)(Params...),
                          Args &&... args)
  {
    kernel<<<blocks, threads, 0, Stream()>>>(std::forward<Args>(args)...);
    CheckLaunch(what);
  }

  /** Tests and benchmarks: launch every kernel the ordinary way (false), or
   *  as programmatic dependent launches where the GPU has them (true, the default). */
  void
  SetDependentLaunches(bool dependent)
  {
    m_DependentLaunches = dependent && m_DependentLaunchesSupported;
  }

  /** Blocks of threads threads of kernel that fit on the device at once
   *  (the grid of kernels that keep their blocks resident), asked of CUDA
   *  once a kernel and device: the occupancy query costs the host
   *  microseconds that the launches of a short run wait on. */
  template <class... Params>
  unsigned
  ResidentBlocks(void (*kernel)(Params...), unsigned threads)
  {
    int device = 0;
    Check(cudaGetDevice(&device), "querying the current CUDA device");
    const auto key = reinterpret_cast<const void *>(kernel);
    for (const ResidentGrid & known : m_ResidentGrids)
    {
      if (known.kernel == key && known.threads == threads && known.device == device)
      {
        return known.blocks;
      }
    }
    int processors = 0;
    int perProcessor = 0;
    Check(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device), "querying the device");
    Check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perProcessor, kernel, static_cast<int>(threads), 0),
          "querying kernel occupancy");
    const auto blocks = static_cast<unsigned>(std::max(1, processors * std::max(1, perProcessor)));
    m_ResidentGrids.push_back(ResidentGrid{ key, threads, device, blocks });
    return blocks;
  }

  void
  Fill(void * destination, int byte, std::size_t bytes, const char * what)
  {
    Check(cudaMemsetAsync(destination, byte, bytes, Stream()), what);
  }

  /** Waits for the work so far and returns *source. */
  template <class T>
  T
  Read(const T * source, const char * what)
  {
    T value;
    ReadBytes(source, sizeof(T), nullptr, 0, &value, what);
    return value;
  }

  /** Waits for the work so far and returns *first and *second: one wait
   *  for both (each waits for the GPU to run dry). */
  template <class A, class B>
  std::pair<A, B>
  Read(const A * first, const B * second, const char * what)
  {
    unsigned char bytes[sizeof(A) + sizeof(B)];
    ReadBytes(first, sizeof(A), second, sizeof(B), bytes, what);
    A a;
    B b;
    std::memcpy(&a, bytes, sizeof(A));
    std::memcpy(&b, bytes + sizeof(A), sizeof(B));
    return { a, b };
  }

  /** Whether Read takes its values from host memory that the device writes
   *  (the fast way) rather than by a copy and a stream synchronization. */
  bool
  ReadsFromMappedMemory()
  {
    return MappedReadSlot(0, "a host slot for reads") != nullptr;
  }

  /** Scratch slot 0 .. ScratchSlots - 1: count elements of T, contents undefined. */
  template <class T>
  T *
  Scratch(int slot, std::size_t count, const char * what)
  {
    return m_Scratch[slot].Reserve<T>(count, what);
  }

  /** out[i] = in[0] + ... + in[i - 1] for i < count (CUB). */
  template <class T>
  void
  ExclusiveSum(const char * what, const T * in, T * out, std::int64_t count)
  {
    ExclusiveSumOver(what, in, out, count);
  }

  /** out[i] = f(0) + ... + f(i - 1) for i < count (CUB over a transform of the indices). */
  template <class T, class F>
  void
  ExclusiveSumOf(const char * what, F f, T * out, std::int64_t count)
  {
    ExclusiveSumOver(what, thrust::make_transform_iterator(thrust::counting_iterator<T>(0), f), out, count);
  }

  /** The count (key, value) pairs ordered by key, stably; keys are below
   *  2^endBit (CUB's radix sort of bits [0, endBit)). */
  template <class Key, class Value>
  void
  SortPairs(const char *  what,
            const Key *   keysIn,
            Key *         keysOut,
            const Value * valuesIn,
            Value *       valuesOut,
            std::int64_t  count,
            int           endBit)
  {
    RunCub(what, "sort workspace", count, [&](void * temp, std::size_t & bytes, auto n) {
      return cub::DeviceRadixSort::SortPairs(temp, bytes, keysIn, keysOut, valuesIn, valuesOut, n, 0, endBit, Stream());
    });
  }

  /** The count keys in increasing order (CUB's radix sort of bits [0, endBit)). */
  template <class Key>
  void
  SortKeys(const char * what, const Key * keysIn, Key * keysOut, std::int64_t count, int endBit)
  {
    RunCub(what, "sort workspace", count, [&](void * temp, std::size_t & bytes, auto n) {
      return cub::DeviceRadixSort::SortKeys(temp, bytes, keysIn, keysOut, n, 0, endBit, Stream());
    });
  }

  /** Copies bytes made on the host by produce to device memory, slab by
   *  slab (slabBytes each, the last one shorter), and calls
   *  onSlab(begin, end) once bytes [begin, end) are queued: work queued then
   *  runs once that slab is there, while the next slabs are copied. A large
   *  upload goes by regions instead, as one slab. */
  void
  Upload(void *                                                          device,
         std::size_t                                                     bytes,
         const BytesProducer &                                           produce,
         std::size_t                                                     slabBytes,
         const std::function<void(std::size_t begin, std::size_t end)> & onSlab)
  {
    if (m_Staging.UploadsByRegions(bytes))
    {
      // One piece of work per copy thread instead of slabs that all threads
      // share and wait for each other on; the kernels then start on the
      // whole image at once.
      m_Staging.UploadByRegions(device, bytes, produce, Stream());
      onSlab(0, bytes);
      return;
    }
    // The copies start once the destination's allocation, in order on the
    // run's stream, is done.
    m_CopiesMayStart.Record(Stream());
    Check(cudaStreamWaitEvent(m_CopyStream.Get(), m_CopiesMayStart.Get(), 0), "ordering the copies");
    auto * destination = static_cast<unsigned char *>(device);
    for (std::size_t begin = 0; begin < bytes; begin += slabBytes)
    {
      const std::size_t count = std::min(slabBytes, bytes - begin);
      m_Staging.Upload(
        destination + begin,
        count,
        [&](std::size_t offset, std::size_t n, void * to) { produce(begin + offset, n, to); },
        m_CopyStream.Get());
      m_SlabArrived.Record(m_CopyStream.Get());
      Check(cudaStreamWaitEvent(Stream(), m_SlabArrived.Get(), 0), "waiting for a slab of the image");
      onSlab(begin, begin + count);
    }
  }

  /** Whether an upload of bytes may be streamed (UploadStreamed). */
  bool
  StreamsUploads(std::size_t bytes) const
  {
    return m_Staging.StreamsUploads(bytes);
  }

  /** An upload that a kernel reads from page-locked host memory while the
   *  copy threads produce it (HostStaging::UploadStreamed): launch(upload)
   *  queues that kernel on the run's stream as the copy threads start
   *  producing; work queued after the call sees its results. False, with
   *  nothing done, where HostStaging::UploadStreamed cannot stream. */
  template <class LaunchReader>
  bool
  UploadStreamed(std::size_t bytes, const BytesProducer & produce, LaunchReader && launch)
  {
    return m_Staging.UploadStreamed(bytes, produce, Stream(), [&](const StreamedUpload & upload) { launch(upload); });
  }

  /** Tests and benchmarks: uploads of at least fromBytes are streamed, in
   *  pieces of pieceBytes (HostStaging::SetStreamedUploads). */
  void
  SetStreamedUploads(std::size_t fromBytes, std::size_t pieceBytes)
  {
    m_Staging.SetStreamedUploads(fromBytes, pieceBytes);
  }

  /** Takes the lanes of large copies now (start-up), not at the first one. */
  void
  PrepareRegionCopies()
  {
    m_Staging.PrepareRegionCopies();
  }

  /** Tests: copies of at least fromBytes go by regions, in pieces of
   *  pieceBytes (HostStaging); 0, 0: the defaults. */
  void
  SetRegionCopies(std::size_t fromBytes, std::size_t pieceBytes)
  {
    m_Staging.SetRegionCopies(fromBytes, fromBytes, pieceBytes);
  }

  /** Copies device memory to the host; returns when host holds it. */
  void
  Download(void * host, const void * device, std::size_t bytes)
  {
    if (HostImageMemory::Pinned(host, bytes))
    {
      // A page-locked block of the host image pool: DMA at the bus's speed,
      // no staging buffer, no host thread touching the bytes.
      CopyIntoPinned(host, device, bytes, Stream());
      Synchronize(Stream(), "copying results to the host");
      m_BytesToHost += static_cast<std::int64_t>(bytes);
      return;
    }
    m_Staging.Download(device, bytes, Stream(), CopyingInto(host, bytes));
    m_BytesToHost += static_cast<std::int64_t>(bytes);
  }

  /** What writes a staged download into host memory that is not
   *  page-locked: huge pages advised for the destination, each staged piece
   *  copied into place with the stores StoresFor gives its size. */
  static BytesConsumer
  CopyingInto(void * host, std::size_t bytes)
  {
    AdviseHugePages(host, bytes);
    auto * const     destination = static_cast<unsigned char *>(host);
    const HostStores stores = StoresFor(bytes);
    return [destination, stores](std::size_t offset, std::size_t n, const void * staged) {
      CopyBytes(destination + offset, staged, n, stores);
    };
  }

  /** Downloads from this size on are written by the host with streaming
   *  stores (StreamingStores.h); smaller ones, which their caller reads at
   *  once, stay in the caches. */
  static constexpr std::size_t StreamedDownloadBytes = std::size_t{ 8 } << 20;

  static HostStores
  StoresFor(std::size_t bytes)
  {
    return bytes >= StreamedDownloadBytes ? HostStores::Streaming : HostStores::Cached;
  }

  /** Queues a copy of device memory to the host, which holds it once
   *  FinishDownloads returns (the host memory is not to be used before).
   *  Such copies cross the bus back to back and the host writes each out of
   *  staging while the next ones cross: one wait for all, where each
   *  Download waits for its own. Small ones go through one gather buffer
   *  (CT-like masks: 230 us for the table, the run offsets and 6 MB of
   *  runs, against 120 us on the bus; benchmark/results/h200-small-mask-stages),
   *  larger ones by regions, all together (HostStaging::DownloadLater).
   *  Page-locked, the copy is made at once. */
  void
  DownloadLater(void * host, const void * device, std::size_t bytes)
  {
    if (HostImageMemory::Pinned(host, bytes))
    {
      Download(host, device, bytes);
      return;
    }
    if (!m_Staging.GatherLater(host, device, bytes, Stream()))
    {
      m_Staging.DownloadLater(device, bytes, CopyingInto(host, bytes));
    }
    m_BytesToHost += static_cast<std::int64_t>(bytes);
  }

  /** Returns when the copies of DownloadLater and
   *  DownloadWidenedFeaturesLater are on the host. */
  void
  FinishDownloads()
  {
    // The large ones first: the gathered ones crossed before them.
    m_Staging.FinishQueued(Stream());
    m_Staging.FinishGathered();
  }

  /** Copies count 32-bit values to the host as 64-bit ones, widened there:
   *  half the bytes cross the bus. Into a page-locked block, widened on the
   *  device and copied by DMA instead where SetPinnedLabelsWidenedOnDevice
   *  says so: with streaming stores the host widens faster than twice the
   *  bytes cross the bus (2.35 G labels on the H200 machine: 206-215 ms
   *  against 352-356 ms, benchmark/results/h200-batched-downloads call 4).
   *  Returns when host holds them. */
  void
  DownloadWidened(std::uint64_t * host, const std::uint32_t * device, std::size_t count)
  {
    const bool pinned = HostImageMemory::Pinned(host, count * sizeof(std::uint64_t));
    if (pinned && m_PinnedLabelsWidenedOnDevice)
    {
      DownloadWidenedByDma(host, device, count);
      return;
    }
    if (!pinned)
    {
      AdviseHugePages(host, count * sizeof(std::uint64_t));
    }
    const HostStores stores = StoresFor(count * sizeof(std::uint64_t));
    m_Staging.Download(device,
                       count * sizeof(std::uint32_t),
                       Stream(),
                       [host, stores](std::size_t offset, std::size_t n, const void * staged) {
                         WidenLabels(static_cast<const std::uint32_t *>(staged),
                                     host + offset / sizeof(std::uint32_t),
                                     n / sizeof(std::uint32_t),
                                     stores);
                       });
    m_BytesToHost += static_cast<std::int64_t>(count * sizeof(std::uint32_t));
  }

  /** Queues the copy of the count entries of a narrow feature table
   *  (NarrowFeatures, PlanarFeatures) to the host, widened there into
   *  ComponentFeatures as each staged piece arrives (pieces of whole
   *  entries): 160 or 96 bytes an entry cross the bus instead of 216, and
   *  the host writes what it would have copied anyway. The host holds them
   *  once FinishDownloads returns (as DownloadLater). */
  template <class Narrow>
  void
  DownloadWidenedFeaturesLater(ComponentFeatures * host, const Narrow * device, std::size_t count)
  {
    AdviseHugePages(host, count * sizeof(ComponentFeatures));
    const HostStores stores = StoresFor(count * sizeof(ComponentFeatures));
    m_Staging.DownloadLater(
      device,
      count * sizeof(Narrow),
      [host, stores](std::size_t offset, std::size_t n, const void * staged) {
        WidenNarrowEntries<Narrow>(staged, host + offset / sizeof(Narrow), n / sizeof(Narrow), stores);
      },
      sizeof(Narrow));
    m_BytesToHost += static_cast<std::int64_t>(count * sizeof(Narrow));
  }

  /** Queues the copy of bytes into a page-locked block of the host image
   *  pool on stream, one copy per chunk of the block (CUDA refuses a copy
   *  across two page-locked ranges). */
  static void
  CopyIntoPinned(void * host, const void * device, std::size_t bytes, cudaStream_t stream)
  {
    auto *       to = static_cast<unsigned char *>(host);
    const auto * from = static_cast<const unsigned char *>(device);
    for (std::size_t done = 0; done < bytes;)
    {
      const std::size_t extent = HostImageMemory::PinnedExtent(to + done);
      if (extent == 0)
      {
        ThrowCudaError(cudaErrorInvalidValue, "copying results to the host: the page-locked image was given back");
      }
      const std::size_t n = std::min(bytes - done, extent);
      Check(cudaMemcpyAsync(to + done, from + done, n, cudaMemcpyDeviceToHost, stream), "copying results to the host");
      done += n;
    }
  }

  /** DownloadWidened into page-locked memory: the device widens slab after
   *  slab into one of two buffers, and each slab goes by DMA straight into
   *  place while the next is widened. Twice the bytes cross the bus, yet no
   *  host thread touches them: 53 GB/s on the H100 machine against 15-28
   *  GB/s staged and widened on the host with plain stores
   *  (benchmark/results/h100-host-image-pool/); with streaming stores the
   *  host's widening is the faster one (DownloadWidened). */
  void
  DownloadWidenedByDma(std::uint64_t * host, const std::uint32_t * device, std::size_t count)
  {
    constexpr std::size_t slabCount = std::size_t{ 8 } << 20; // 64 MiB of 64-bit labels
    const std::size_t     slab = std::min(count, slabCount);
    std::uint64_t *       slabs[2] = { m_WidenSlabs[0].Reserve<std::uint64_t>(slab, "widened labels"),
                                       m_WidenSlabs[1].Reserve<std::uint64_t>(slab, "widened labels") };
    constexpr unsigned    threads = 256;
    const auto            blocks = static_cast<unsigned>(std::min<std::size_t>((slab + threads - 1) / threads, 4096));
    std::size_t           k = 0;
    for (std::size_t begin = 0; begin < count; begin += slab, ++k)
    {
      const int         b = static_cast<int>(k % 2);
      const std::size_t n = std::min(slab, count - begin);
      if (k >= 2) // the slab's buffer is free once its last copy is done
      {
        Check(cudaStreamWaitEvent(Stream(), m_WidenCopied[b].Get(), 0), "ordering the label copies");
      }
      Launch(
        "widening labels", blocks, threads, WidenLabelsKernel, device + begin, slabs[b], static_cast<std::int64_t>(n));
      m_Widened[b].Record(Stream());
      Check(cudaStreamWaitEvent(m_CopyStream.Get(), m_Widened[b].Get(), 0), "ordering the label copies");
      CopyIntoPinned(host + begin, slabs[b], n * sizeof(std::uint64_t), m_CopyStream.Get());
      m_WidenCopied[b].Record(m_CopyStream.Get());
    }
    m_CopyStream.Synchronize("copying labels to the host");
    m_WidenSlabs[0].Release();
    m_WidenSlabs[1].Release();
    m_BytesToHost += static_cast<std::int64_t>(count * sizeof(std::uint64_t));
  }

  /** Marks the point the work on the stream has reached, for Milliseconds. */
  void
  Record(Milestone milestone)
  {
    m_Milestones[static_cast<int>(milestone)]->Record(Stream());
  }

  /** Waits until the work enqueued so far is done. */
  void
  Wait()
  {
    Synchronize(Stream(), "waiting for the device");
  }

  /** Between two recorded milestones, once the later one is done. */
  double
  Milliseconds(Milestone from, Milestone to) const
  {
    return m_Milestones[static_cast<int>(to)]->MillisecondsSince(*m_Milestones[static_cast<int>(from)]);
  }

  /** Device-to-host bytes since Begin. */
  std::int64_t
  BytesToHost() const
  {
    return m_BytesToHost;
  }

private:
  /** After a run that threw: back to the run's stream, the side work done
   *  (it may still use buffers about to be reused or given back). */
  void
  LeaveSideWork() noexcept
  {
    m_OnSide = -1;
    m_Slot.stream = RunStream();
    for (int lane = 0; lane < SideLanes; ++lane)
    {
      m_SidePending[lane] = false;
      cudaStreamSynchronize(m_SideStreams[lane].Get());
    }
  }

  /** Whether kernels may be programmatic dependent launches: the current
   *  device has them (compute capability 9.0 and later), and the kernels
   *  it runs were compiled for it, with the wait in AwaitPrecedingKernel. A
   *  build for older GPUs runs on a newer one by compiling its PTX there,
   *  and that code has no wait; every kernel of the backend is compiled
   *  with the same flags, so one kernel's PTX version tells. */
  static bool
  DependentLaunchesSupported()
  {
    int device = 0;
    int major = 0;
    Check(cudaGetDevice(&device), "querying the current CUDA device");
    Check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "querying the device");
    cudaFuncAttributes compiled{};
    Check(cudaFuncGetAttributes(&compiled, WidenLabelsKernel), "querying a kernel's attributes");
    return major >= 9 && compiled.ptxVersion >= 90;
  }

  static void
  Synchronize(cudaStream_t stream, const char * what)
  {
    Check(cudaStreamSynchronize(stream), what);
  }

  template <class In, class T>
  void
  ExclusiveSumOver(const char * what, In in, T * out, std::int64_t count)
  {
    RunCub(what, "scan workspace", count, [&](void * temp, std::size_t & bytes, auto n) {
      return cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, Stream());
    });
  }

  /** A CUB device algorithm over count items, call(temp, bytes, n)
   *  returning its cudaError_t: asked for its workspace size (temp null),
   *  then run in the device's workspace. n is count as a 32-bit integer
   *  where it fits, else 64-bit: CUB picks its offset type from n's, and
   *  its tuning from that (with 32-bit offsets the radix sort of (label,
   *  index) pairs takes 23 items a thread instead of 17, and ran 9-11 %
   *  faster: H200, 14 M and 40 M pairs of 19 to 24 key bits,
   *  benchmark/results/h200-sort-offsets). */
  template <class Call>
  void
  RunCub(const char * what, const char * workspace, std::int64_t count, Call && call)
  {
    const auto run = [&](auto n) {
      std::size_t bytes = 0;
      Check(call(nullptr, bytes, n), what);
      Check(call(m_Temp.Reserve(bytes, workspace), bytes, n), what);
    };
    if (m_NarrowCubCounts && count <= std::int64_t{ INT32_MAX })
    {
      run(static_cast<std::int32_t>(count));
    }
    else
    {
      run(count);
    }
  }

  /** Bytes [0, firstBytes) of first then [0, secondBytes) of second, once
   *  the work so far is done, into out. A host read after a stream
   *  synchronization left the H200 idle 15 us between two kernels (a copy
   *  engine's transfer, then the wait); a one-thread kernel that writes the
   *  values into page-locked host memory and then a sequence number, which
   *  the host polls, left it idle 2.6 us
   *  (benchmark/results/h200-host-waits/read-wait-probe.cu). The full table
   *  reads two counts a run. */
  void
  ReadBytes(const void * first,
            std::size_t  firstBytes,
            const void * second,
            std::size_t  secondBytes,
            void *       out,
            const char * what)
  {
    const std::size_t bytes = firstBytes + secondBytes;
    unsigned char *   device = MappedReadSlot(bytes, what);
    auto *            host = static_cast<unsigned char *>(m_MappedHost); // the block MappedReadSlot reserved
    if (device != nullptr)
    {
      auto *              published = reinterpret_cast<std::uint64_t *>(host);
      const std::uint64_t sequence = ++m_ReadSequence;
      // A block from the process's cache may hold another device's number.
      __atomic_store_n(published, std::uint64_t{ 0 }, __ATOMIC_RELEASE);
      PublishToHostKernel<<<1, 1, 0, Stream()>>>(static_cast<const unsigned char *>(first),
                                                 static_cast<unsigned>(firstBytes),
                                                 static_cast<const unsigned char *>(second),
                                                 static_cast<unsigned>(secondBytes),
                                                 device,
                                                 sequence);
      CheckLaunch(what);
      AwaitPublished(published, sequence, what);
    }
    else
    {
      Check(cudaMemcpyAsync(host + ReadSequenceBytes, first, firstBytes, cudaMemcpyDeviceToHost, Stream()), what);
      if (secondBytes != 0)
      {
        Check(
          cudaMemcpyAsync(host + ReadSequenceBytes + firstBytes, second, secondBytes, cudaMemcpyDeviceToHost, Stream()),
          what);
      }
      Synchronize(Stream(), what);
    }
    std::memcpy(out, host + ReadSequenceBytes, bytes);
    m_BytesToHost += static_cast<std::int64_t>(bytes);
  }

  /** Returns once *published is sequence. Polls for up to ReadSpinLimit,
   *  as the runtime's own spinning wait would; then, or if the kernel
   *  failed, the stream's synchronization reports the error or blocks as
   *  the device's scheduling flags say. */
  void
  AwaitPublished(const std::uint64_t * published, std::uint64_t sequence, const char * what)
  {
    const auto start = std::chrono::steady_clock::now();
    for (unsigned polls = 1;; ++polls)
    {
      if (__atomic_load_n(published, __ATOMIC_ACQUIRE) == sequence)
      {
        return;
      }
      if (polls % 1024 == 0 && std::chrono::steady_clock::now() - start > ReadSpinLimit)
      {
        break;
      }
    }
    Synchronize(Stream(), what);
    if (__atomic_load_n(published, __ATOMIC_ACQUIRE) != sequence)
    {
      throw Error(Error::Kind::Cuda, std::string(what) + ": the device finished without publishing the value");
    }
  }

  /** Reserves the host slot of a read of bytes (m_MappedHost: the sequence
   *  number, then the values) and returns its device address, or null
   *  where page-locked memory is not mapped into the device's address
   *  space. */
  unsigned char *
  MappedReadSlot(std::size_t bytes, const char * what)
  {
    void * host = m_HostScalar.Reserve(ReadSlotBytes(bytes), what);
    if (host != m_MappedHost)
    {
      void * device = nullptr;
      if (cudaHostGetDevicePointer(&device, host, 0) != cudaSuccess)
      {
        cudaGetLastError(); // not mapped: Read copies instead
        device = nullptr;
      }
      m_MappedHost = host;
      m_MappedDevice = static_cast<unsigned char *>(device);
    }
    return m_MappedDevice;
  }

  /** One host block for every read of up to 56 bytes. */
  static constexpr std::size_t
  ReadSlotBytes(std::size_t bytes)
  {
    return std::max<std::size_t>(64, ReadSequenceBytes + bytes);
  }
  static constexpr auto ReadSpinLimit = std::chrono::milliseconds(2);

  // Declared before the buffers: these outlive them (buffers are given
  // back on the slot's stream).
  // The device's own stream: its blocks are dispatched ahead of the side work's.
  cuda::Stream           m_Stream{ cuda::Stream::Prioritized{} };
  cuda::Stream           m_CopyStream;             ///< the uploads, beside the work on the run's stream
  cuda::Stream           m_SideStreams[SideLanes]; ///< BeginSideWork's, a lane each
  StreamSlot             m_Slot;                   ///< the run's stream: m_Stream or the caller's
  bool                   m_UseCallerStream = false;
  bool                   m_DependentLaunchesSupported = false;
  bool                   m_DependentLaunches = false; ///< Launch: programmatic dependent launches
  cudaStream_t           m_CallerStream = nullptr;
  std::unique_ptr<Event> m_Milestones[NumberOfMilestones];
  Event                  m_CopiesMayStart{ false };
  Event                  m_SlabArrived{ false };
  Event                  m_SideMayStart{ false };
  Event                  m_SideDone[SideLanes]{ Event{ false }, Event{ false } };
  bool                   m_SideWork = true;
  bool                   m_NarrowCubCounts = true;
  bool                   m_PinnedLabelsWidenedOnDevice = false;
  int                    m_OnSide = -1;                 ///< the lane of the side work being queued, or -1
  bool                   m_SidePending[SideLanes] = {}; ///< side work not yet joined, a lane each
  HostStaging            m_Staging;
  PinnedBuffer           m_HostScalar;           ///< Read's sequence number and values
  void *                 m_MappedHost = nullptr; ///< the m_HostScalar block that m_MappedDevice maps
  unsigned char *        m_MappedDevice = nullptr;
  std::uint64_t          m_ReadSequence = 0;
  DeviceBuffer           m_Temp{ m_Slot }; ///< CUB's workspace
  DeviceBuffer           m_Scratch[ScratchSlots];
  DeviceBuffer m_WidenSlabs[2]{ DeviceBuffer(m_Slot), DeviceBuffer(m_Slot) }; ///< held during DownloadWidenedByDma only
  Event        m_Widened[2]{ Event(false), Event(false) };
  Event        m_WidenCopied[2]{ Event(false), Event(false) };
  std::int64_t m_BytesToHost = 0;

  /** ResidentBlocks' answers so far. */
  struct ResidentGrid
  {
    const void * kernel;
    unsigned     threads;
    int          device;
    unsigned     blocks;
  };
  std::vector<ResidentGrid> m_ResidentGrids;
};

} // namespace cuda
} // namespace cca

#endif
