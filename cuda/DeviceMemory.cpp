// The memory pools of the process behind DeviceBuffer and PinnedBuffer
// (DeviceMemory.h): a CUDA memory pool per device, and a cache of pinned
// host blocks. Both live until the process ends (never destroyed: CUDA may
// already be shut down when static destructors run). And the count of the
// device bytes that buffers hold, with its high-water mark.
#include "DeviceMemory.h"

#include "BackendImplementation.h"
#include "HostImagePinning.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#ifdef __linux__
#  include <sys/mman.h>
#endif

namespace cca
{
namespace cuda
{

namespace
{
thread_local StreamSlot * currentSlot = nullptr;

class DevicePools
{
public:
  cudaMemPool_t
  Get(int device)
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    if (device >= static_cast<int>(m_Pools.size()))
    {
      m_Pools.resize(static_cast<std::size_t>(device) + 1, nullptr);
    }
    if (m_Pools[device] == nullptr)
    {
      cudaMemPoolProps properties{};
      properties.allocType = cudaMemAllocationTypePinned;
      properties.location.type = cudaMemLocationTypeDevice;
      properties.location.id = device;
      cudaMemPool_t pool = nullptr;
      Check(cudaMemPoolCreate(&pool, &properties), "creating the device memory pool");
      // Memory given back stays in the pool for the next engine (until
      // Engine::ReleaseCachedMemory trims it).
      std::uint64_t keep = std::numeric_limits<std::uint64_t>::max();
      Check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "configuring the memory pool");
      m_Pools[device] = pool;
    }
    return m_Pools[device];
  }

  void
  Trim()
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    for (cudaMemPool_t pool : m_Pools)
    {
      if (pool != nullptr)
      {
        cudaMemPoolTrimTo(pool, 0);
      }
    }
  }

private:
  std::mutex                 m_Mutex;
  std::vector<cudaMemPool_t> m_Pools;
};

DevicePools &
Pools()
{
  static auto * pools = new DevicePools;
  return *pools;
}

/** Idle pinned blocks by size. A block is taken when it is at least as large
 *  as asked and at most twice; up to IdleLimit bytes are kept idle. */
class PinnedCache
{
public:
  static constexpr std::size_t IdleLimit = std::size_t{ 1 } << 30;

  void *
  Take(std::size_t bytes, std::size_t & capacity, const char * what)
  {
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      auto                        block = m_Idle.lower_bound(bytes);
      if (block != m_Idle.end() && block->first <= 2 * bytes)
      {
        capacity = block->first;
        void * pointer = block->second;
        m_IdleBytes -= block->first;
        m_Idle.erase(block);
        return pointer;
      }
    }
    void * pointer = Registered(bytes);
    if (pointer == nullptr)
    {
      cudaError_t status = cudaHostAlloc(&pointer, bytes, cudaHostAllocPortable | cudaHostAllocMapped);
      if (status != cudaSuccess) // a device that cannot map host memory: copies only
      {
        cudaGetLastError();
        status = cudaHostAlloc(&pointer, bytes, cudaHostAllocPortable);
      }
      if (status != cudaSuccess)
      {
        ThrowCudaError(
          status,
          (std::string("allocating pinned host memory for ") + what + " (" + std::to_string(bytes) + " bytes)")
            .c_str());
      }
      std::lock_guard<std::mutex> lock(m_Mutex);
      m_HostAllocated.insert(pointer);
    }
    capacity = bytes;
    return pointer;
  }

  void
  Give(void * pointer, std::size_t bytes)
  {
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      if (m_IdleBytes + bytes <= IdleLimit)
      {
        m_Idle.emplace(bytes, pointer);
        m_IdleBytes += bytes;
        return;
      }
    }
    Free(pointer);
  }

  void
  Trim()
  {
    std::multimap<std::size_t, void *> idle;
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      idle.swap(m_Idle);
      m_IdleBytes = 0;
    }
    for (const auto & block : idle)
    {
      Free(block.second);
    }
  }

private:
  /** Page-locked memory of the process's own, registered with CUDA
   *  (portable), or null where that fails or is not available. On the H100
   *  machine the 112 MiB of staging buffers that CUDA start-up prepares took
   *  24-41 ms this way against 57-108 ms by cudaHostAlloc, with the same
   *  copy bandwidth (benchmark/results/h100-cuda-start-up/). */
  static void *
  Registered(std::size_t bytes)
  {
#ifdef __linux__
    constexpr std::size_t page = std::size_t{ 4 } << 10;
    constexpr std::size_t hugePage = std::size_t{ 2 } << 20;
    const std::size_t     alignment = bytes >= hugePage ? hugePage : page;
    const std::size_t     rounded = (bytes + alignment - 1) / alignment * alignment;
    void *                pointer = nullptr;
    if (posix_memalign(&pointer, alignment, rounded) != 0)
    {
      return nullptr;
    }
    if (alignment == hugePage)
    {
      madvise(pointer, rounded, MADV_HUGEPAGE); // a hint: failure changes nothing
    }
    // The registration faults the pages in and locks them; mapped, kernels
    // may write them too (StreamDevice::Read's values), where the device can.
    const auto locked = [&](unsigned flags) {
      if (cudaHostRegister(pointer, rounded, flags) == cudaSuccess)
      {
        return true;
      }
      cudaGetLastError(); // the fallback's to answer, not the next call's
      return false;
    };
    if (!locked(cudaHostRegisterPortable | cudaHostRegisterMapped) && !locked(cudaHostRegisterPortable))
    {
      std::free(pointer);
      return nullptr;
    }
    return pointer;
#else
    (void)bytes;
    return nullptr;
#endif
  }

  void
  Free(void * pointer)
  {
    bool hostAllocated = false;
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      hostAllocated = m_HostAllocated.erase(pointer) != 0;
    }
    if (hostAllocated)
    {
      cudaFreeHost(pointer);
      return;
    }
    cudaHostUnregister(pointer);
    std::free(pointer);
  }

  std::mutex                         m_Mutex;
  std::multimap<std::size_t, void *> m_Idle;
  std::size_t                        m_IdleBytes = 0;
  std::set<void *>                   m_HostAllocated; ///< blocks of the cudaHostAlloc fallback
};

PinnedCache &
Pinned()
{
  static auto * cache = new PinnedCache;
  return *cache;
}

/** Device bytes held by DeviceBuffer objects, and their high-water mark. */
std::atomic<std::size_t> bytesHeld{ 0 };
std::atomic<std::size_t> bytesPeak{ 0 };

void
CountHeld(std::size_t bytes)
{
  const std::size_t held = bytesHeld.fetch_add(bytes) + bytes;
  std::size_t       peak = bytesPeak.load();
  // A failed exchange reloads peak: stop once it is at least this count.
  while (held > peak && !bytesPeak.compare_exchange_weak(peak, held))
  {}
}
} // namespace

StreamSlot *
StreamSlot::Current()
{
  return currentSlot;
}

void
StreamSlot::SetCurrent(StreamSlot * slot)
{
  currentSlot = slot;
}

cudaMemPool_t
DeviceMemoryPool(int device)
{
  return Pools().Get(device);
}

void
CountSlotBuffers(StreamSlot & slot, bool held)
{
  if (slot.counted == held)
  {
    return;
  }
  slot.counted = held;
  if (held)
  {
    CountHeld(slot.bufferBytes);
  }
  else
  {
    bytesHeld.fetch_sub(slot.bufferBytes);
  }
}

void
ReleaseCachedMemory()
{
  ReleaseIdleDeviceStates(-1);
  Pools().Trim();
  Pinned().Trim();
}

std::size_t
DeviceBytesHeld()
{
  return bytesHeld.load();
}

std::size_t
DeviceBytesPeak()
{
  return bytesPeak.load();
}

void
ResetDeviceBytesPeak()
{
  bytesPeak.store(bytesHeld.load());
}

void *
DeviceBuffer::Reserve(std::size_t bytes, const char * what)
{
  if (bytes == 0)
  {
    bytes = 1;
  }
  if (bytes <= m_Capacity)
  {
    return m_Pointer;
  }
  if (m_Slot == nullptr)
  {
    m_Slot = StreamSlot::Current();
    if (m_Slot == nullptr)
    {
      throw Error(Error::Kind::Cuda,
                  std::string("CUDA backend: device memory for ") + what + " was asked for outside a run");
    }
  }
  Release();
  int device = 0;
  Check(cudaGetDevice(&device), "querying the current CUDA device");
  cudaMemPool_t      pool = DeviceMemoryPool(device);
  const cudaStream_t stream = m_Slot->stream;
  // What is asked, large buffers in whole 2 MiB pages: a buffer that must
  // grow goes back to the pool, which keeps it for later requests, so spare
  // capacity here would only raise the engine's footprint (a quarter more
  // than asked made labels only hold 6.25 bytes a pixel instead of 5). If
  // the pool is short, again once the pools gave their idle memory back.
  constexpr std::size_t page = std::size_t{ 2 } << 20;
  const std::size_t     capacity = bytes < page ? bytes : (bytes + page - 1) / page * page;
  void *                pointer = nullptr;
  cudaError_t           status = cudaMallocFromPoolAsync(&pointer, capacity, pool, stream);
  if (status == cudaErrorMemoryAllocation)
  {
    cudaGetLastError();
    ReleaseIdleDeviceStates(device);
    Pools().Trim();
    status = cudaMallocFromPoolAsync(&pointer, capacity, pool, stream);
  }
  if (status != cudaSuccess)
  {
    ThrowCudaError(
      status, (std::string("allocating device memory for ") + what + " (" + std::to_string(bytes) + " bytes)").c_str());
  }
  m_Pointer = pointer;
  m_Capacity = capacity;
  m_Slot->bufferBytes += capacity;
  if (m_Slot->counted)
  {
    CountHeld(capacity);
  }
  return m_Pointer;
}

void
DeviceBuffer::Release()
{
  if (m_Pointer != nullptr)
  {
    cudaFreeAsync(m_Pointer, m_Slot->stream);
    m_Slot->bufferBytes -= m_Capacity;
    if (m_Slot->counted)
    {
      bytesHeld.fetch_sub(m_Capacity);
    }
    m_Pointer = nullptr;
    m_Capacity = 0;
  }
}

void *
PinnedBuffer::Reserve(std::size_t bytes, const char * what)
{
  if (bytes > m_Capacity)
  {
    Release();
    m_Pointer = Pinned().Take(bytes, m_Capacity, what);
  }
  return m_Pointer;
}

void
PinnedBuffer::Release()
{
  if (m_Pointer != nullptr)
  {
    Pinned().Give(m_Pointer, m_Capacity);
    m_Pointer = nullptr;
    m_Capacity = 0;
  }
}

} // namespace cuda

HostImagePinning
CudaHostImagePinning()
{
  if (!CudaDeviceUsable())
  {
    return {};
  }
  HostImagePinning pinning;
  // Portable: any device's copies see the block as page-locked.
  pinning.pin = [](void * memory, std::size_t bytes) {
    const bool pinned = cudaHostRegister(memory, bytes, cudaHostRegisterPortable) == cudaSuccess;
    cudaGetLastError(); // a failure (no memory to lock) is the answer, not an error for the next call
    return pinned;
  };
  pinning.unpin = [](void * memory) {
    cudaHostUnregister(memory);
    cudaGetLastError();
  };
  return pinning;
}

} // namespace cca
