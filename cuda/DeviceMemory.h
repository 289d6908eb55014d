// Owning wrappers for device memory, pinned host memory, streams and events.
// Buffers only grow, so that repeated Engine::Run calls on images of similar
// size allocate nothing; and the memory itself comes from pools of the
// process, so that a new engine (a new filter per image) allocates nothing
// either: device memory from CUDA's stream-ordered allocator on a pool per
// device that keeps what is given back, pinned host memory from a cache.
#ifndef cca_cuda_DeviceMemory_h
#define cca_cuda_DeviceMemory_h

#include "CudaCheck.h"

#include <cstddef>
#include <utility>

namespace cca
{
namespace cuda
{

/** The stream that the work of a device goes to now (the stream of the run
 *  in progress: its own or the caller's), which its device buffers are
 *  allocated and given back on, in stream order. */
struct StreamSlot
{
  cudaStream_t stream = nullptr;
  /** The capacities of the buffers allocated on this slot now, and whether
   *  they count as held by an engine (DeviceBytesHeld). A device's state
   *  that the process keeps idle for its next engine (CudaBackend.cu)
   *  holds them uncounted, as the device pool holds its idle memory. Only
   *  the owner of the slot's device changes them. */
  std::size_t bufferBytes = 0;
  bool        counted = true;

  /** The slot of the device running on this thread (StreamDevice::Begin
   *  sets it), for buffers that were not given one; null before any run. */
  static StreamSlot *
  Current();
  static void
  SetCurrent(StreamSlot * slot);
};

/** Counts the slot's buffers off DeviceBytesHeld (held = false: their device
 *  state goes idle) or on again (a new engine takes it; the peak follows). */
void
CountSlotBuffers(StreamSlot & slot, bool held);

/** Destroys the device states kept idle for the next engines on the device
 *  (every device: -1), so that their buffers go back to the device pool
 *  (CudaBackend.cu). */
void
ReleaseIdleDeviceStates(int device);

/** The process's pool of device memory of one CUDA device: buffers given
 *  back stay in it (its release threshold is unlimited) for the next
 *  allocation, of any engine, on any stream. */
cudaMemPool_t
DeviceMemoryPool(int device);

/** Gives the idle memory of the device pools and the pinned host cache back
 *  to the system (Engine::ReleaseCachedMemory). */
void
ReleaseCachedMemory();

/** Bytes of device memory that DeviceBuffer objects of the process hold now
 *  (their capacities, on every device), and the most they held at once since
 *  the process started or ResetDeviceBytesPeak (Engine::DeviceMemoryInUse). */
std::size_t
DeviceBytesHeld();
std::size_t
DeviceBytesPeak();
/** Starts a new high-water mark at the bytes held now. */
void
ResetDeviceBytesPeak();

/** Device memory of at least the requested size, from the device's pool, in
 *  stream order; contents are not kept on growth. */
class DeviceBuffer
{
public:
  /** Allocates on the stream of the device running on this thread. */
  DeviceBuffer() = default;
  /** Allocates on the stream slot's stream. */
  explicit DeviceBuffer(StreamSlot & slot)
    : m_Slot(&slot)
  {}
  ~DeviceBuffer() { Release(); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &
  operator=(const DeviceBuffer &) = delete;

  /** Returns a buffer of at least bytes bytes (never null, even for 0 bytes). */
  void *
  Reserve(std::size_t bytes, const char * what);

  template <class T>
  T *
  Reserve(std::size_t count, const char * what)
  {
    return static_cast<T *>(Reserve(count * sizeof(T), what));
  }

  /** Gives the memory back to the pool once the work queued so far on the
   *  slot's stream is done (never throws: called from destructors). */
  void
  Release();

private:
  StreamSlot * m_Slot = nullptr;
  void *       m_Pointer = nullptr;
  std::size_t  m_Capacity = 0;
};

/** Page-locked host memory, for asynchronous copies at full bus speed, from
 *  the process's cache of pinned blocks (locking memory costs more than
 *  copying it: 24-41 ms for 112 MiB, more than copying a CT volume).
 *  Portable: usable with any device; mapped: kernels may address it
 *  (cudaHostGetDevicePointer). */
class PinnedBuffer
{
public:
  PinnedBuffer() = default;
  ~PinnedBuffer() { Release(); }
  PinnedBuffer(const PinnedBuffer &) = delete;
  PinnedBuffer &
  operator=(const PinnedBuffer &) = delete;

  void *
  Reserve(std::size_t bytes, const char * what);

  void
  Release();

private:
  void *      m_Pointer = nullptr;
  std::size_t m_Capacity = 0;
};

class Stream
{
public:
  Stream() { Check(cudaStreamCreateWithFlags(&m_Stream, cudaStreamNonBlocking), "creating a CUDA stream"); }
  /** One priority above the default (the least): where its kernels and
   *  those of default-priority streams wait for the same multiprocessors,
   *  the GPU dispatches its blocks first. One step only, so that a
   *  caller's streams of higher priority keep theirs. */
  struct Prioritized
  {};
  explicit Stream(Prioritized)
  {
    int least = 0;
    int greatest = 0;
    Check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "querying stream priorities");
    // Greater priorities are lower numbers.
    const int priority = least > greatest ? least - 1 : least;
    Check(cudaStreamCreateWithPriority(&m_Stream, cudaStreamNonBlocking, priority), "creating a CUDA stream");
  }
  ~Stream() { cudaStreamDestroy(m_Stream); }
  Stream(const Stream &) = delete;
  Stream &
  operator=(const Stream &) = delete;
  cudaStream_t
  Get() const
  {
    return m_Stream;
  }
  void
  Synchronize(const char * what) const
  {
    Check(cudaStreamSynchronize(m_Stream), what);
  }

private:
  cudaStream_t m_Stream = nullptr;
};

class Event
{
public:
  explicit Event(bool timing = true)
  {
    Check(cudaEventCreateWithFlags(&m_Event, timing ? cudaEventDefault : cudaEventDisableTiming),
          "creating a CUDA event");
  }
  ~Event() { cudaEventDestroy(m_Event); }
  Event(const Event &) = delete;
  Event &
  operator=(const Event &) = delete;
  cudaEvent_t
  Get() const
  {
    return m_Event;
  }
  void
  Record(cudaStream_t stream)
  {
    Check(cudaEventRecord(m_Event, stream), "recording a CUDA event");
  }
  void
  Synchronize() const
  {
    Check(cudaEventSynchronize(m_Event), "waiting for a CUDA event");
  }
  /** Milliseconds from start to this event (both recorded and complete). */
  double
  MillisecondsSince(const Event & start) const
  {
    float ms = 0;
    Check(cudaEventElapsedTime(&ms, start.m_Event, m_Event), "reading a CUDA event timer");
    return ms;
  }

private:
  cudaEvent_t m_Event = nullptr;
};

} // namespace cuda
} // namespace cca

#endif
