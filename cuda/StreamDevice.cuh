// The host side of a multi-kernel algorithm, written once for the GPU and
// for the CPU emulation test: kernels are launched, memory filled and read,
// and scratch buffers handed out through a Device. StreamDevice is the CUDA
// one (everything on the backend's stream; buffers kept across calls); the
// emulation test has a CPU twin with the same members.
#ifndef cca_cuda_StreamDevice_cuh
#define cca_cuda_StreamDevice_cuh

#include "CudaCheck.h"
#include "DeviceMemory.h"

#include <cstddef>
#include <cstdint>
#include <utility>

namespace cca
{
namespace cuda
{

class StreamDevice
{
public:
  static constexpr int ScratchSlots = 6;

  /** bytesRead, when given, is increased by the bytes Read copies to the host. */
  StreamDevice(const Stream & stream, DeviceBuffer (&scratch)[ScratchSlots], PinnedBuffer & hostScalar,
               std::int64_t * bytesRead = nullptr)
    : m_Stream(stream)
    , m_Scratch(scratch)
    , m_HostScalar(hostScalar)
    , m_BytesRead(bytesRead)
  {}

  /** kernel<<<blocks, threads>>>(args...) on the stream; what names it in errors. */
  template <class... Params, class... Args>
  void
  Launch(const char * what, unsigned blocks, unsigned threads, void (*kernel)(Params...), Args &&... args)
  {
    kernel<<<blocks, threads, 0, m_Stream.Get()>>>(std::forward<Args>(args)...);
    CheckLaunch(what);
  }

  void
  Fill(void * destination, int byte, std::size_t bytes, const char * what)
  {
    Check(cudaMemsetAsync(destination, byte, bytes, m_Stream.Get()), what);
  }

  /** Waits for the work so far and returns *source. */
  template <class T>
  T
  Read(const T * source, const char * what)
  {
    auto * host = static_cast<T *>(m_HostScalar.Reserve(sizeof(T), what));
    Check(cudaMemcpyAsync(host, source, sizeof(T), cudaMemcpyDeviceToHost, m_Stream.Get()), what);
    m_Stream.Synchronize(what);
    if (m_BytesRead != nullptr)
    {
      *m_BytesRead += static_cast<std::int64_t>(sizeof(T));
    }
    return *host;
  }

  /** Scratch slot 0 .. ScratchSlots - 1: count elements of T, contents undefined. */
  template <class T>
  T *
  Scratch(int slot, std::size_t count, const char * what)
  {
    return m_Scratch[slot].Reserve<T>(count, what);
  }

private:
  const Stream & m_Stream;
  DeviceBuffer (&m_Scratch)[ScratchSlots];
  PinnedBuffer & m_HostScalar;
  std::int64_t * m_BytesRead;
};

} // namespace cuda
} // namespace cca

#endif
