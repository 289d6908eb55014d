// Owning wrappers for device memory, pinned host memory, streams and events.
// Buffers only grow, so that repeated Engine::Run calls on images of similar
// size allocate nothing.
#ifndef cca_cuda_DeviceMemory_h
#define cca_cuda_DeviceMemory_h

#include "CudaCheck.h"

#include <cstddef>
#include <utility>

namespace cca
{
namespace cuda
{

/** Device memory of at least the requested size; contents are not kept on growth. */
class DeviceBuffer
{
public:
  DeviceBuffer() = default;
  ~DeviceBuffer() { Release(); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &
  operator=(const DeviceBuffer &) = delete;

  /** Returns a buffer of at least bytes bytes (never null, even for 0 bytes). */
  void *
  Reserve(std::size_t bytes, const char * what)
  {
    if (bytes == 0)
    {
      bytes = 1;
    }
    if (bytes > m_Capacity)
    {
      Release();
      // Grow by a quarter more than asked so that slowly growing inputs do not reallocate every call.
      const std::size_t capacity = bytes + bytes / 4;
      void *            pointer = nullptr;
      cudaError_t       status = cudaMalloc(&pointer, capacity);
      if (status == cudaErrorMemoryAllocation)
      {
        cudaGetLastError();
        status = cudaMalloc(&pointer, bytes);
        if (status == cudaSuccess)
        {
          m_Pointer = pointer;
          m_Capacity = bytes;
          return m_Pointer;
        }
      }
      if (status != cudaSuccess)
      {
        ThrowCudaError(status, (std::string("allocating device memory for ") + what + " (" +
                                std::to_string(bytes) + " bytes)")
                                 .c_str());
      }
      m_Pointer = pointer;
      m_Capacity = capacity;
    }
    return m_Pointer;
  }

  template <class T>
  T *
  Reserve(std::size_t count, const char * what)
  {
    return static_cast<T *>(Reserve(count * sizeof(T), what));
  }

  void
  Release()
  {
    if (m_Pointer != nullptr)
    {
      cudaFree(m_Pointer); // never throws: called from destructors
      m_Pointer = nullptr;
      m_Capacity = 0;
    }
  }

private:
  void *      m_Pointer = nullptr;
  std::size_t m_Capacity = 0;
};

/** Page-locked host memory, for asynchronous copies at full bus speed. */
class PinnedBuffer
{
public:
  PinnedBuffer() = default;
  ~PinnedBuffer() { Release(); }
  PinnedBuffer(const PinnedBuffer &) = delete;
  PinnedBuffer &
  operator=(const PinnedBuffer &) = delete;

  void *
  Reserve(std::size_t bytes, const char * what)
  {
    if (bytes > m_Capacity)
    {
      Release();
      void * pointer = nullptr;
      Check(cudaHostAlloc(&pointer, bytes, cudaHostAllocDefault), what);
      m_Pointer = pointer;
      m_Capacity = bytes;
    }
    return m_Pointer;
  }

  void
  Release()
  {
    if (m_Pointer != nullptr)
    {
      cudaFreeHost(m_Pointer);
      m_Pointer = nullptr;
      m_Capacity = 0;
    }
  }

private:
  void *      m_Pointer = nullptr;
  std::size_t m_Capacity = 0;
};

class Stream
{
public:
  Stream() { Check(cudaStreamCreateWithFlags(&m_Stream, cudaStreamNonBlocking), "creating a CUDA stream"); }
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
