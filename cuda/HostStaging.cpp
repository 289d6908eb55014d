#include "HostStaging.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#ifdef __linux__
#  include <sys/mman.h>
#endif

namespace cca
{
namespace cuda
{

void
AdviseHugePages(void * host, std::size_t bytes)
{
#ifdef __linux__
  constexpr std::uintptr_t hugePage = std::uintptr_t{ 2 } << 20;
  if (bytes < 16 * hugePage)
  {
    return;
  }
  const auto begin = (reinterpret_cast<std::uintptr_t>(host) + hugePage - 1) & ~(hugePage - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(host) + bytes) & ~(hugePage - 1);
  if (end > begin)
  {
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE); // a hint: failure changes nothing
  }
#else
  (void)host;
  (void)bytes;
#endif
}

HostStaging::HostStaging(std::size_t chunkBytes)
  : m_ChunkBytes(chunkBytes)
  , m_Workers(CopyWorkers::Take())
{}

void *
HostStaging::Buffer(int b, std::size_t bytes)
{
  // Always a whole chunk: the cache then hands the same blocks to every engine.
  (void)bytes;
  return m_Buffers[b].Reserve(m_ChunkBytes, "a pinned staging buffer");
}

void
HostStaging::Split(std::size_t count, const std::function<void(std::size_t offset, std::size_t count)> & task)
{
  constexpr std::size_t splitAbove = std::size_t{ 1 } << 20;
  const std::size_t     parts = static_cast<std::size_t>(m_Workers->Parts());
  if (count < splitAbove || parts == 1)
  {
    task(0, count);
    return;
  }
  // Parts are whole multiples of 8 bytes, so they hold whole pixels of any
  // type, and together cover count (hence the rounding up before the 8s).
  const std::size_t part = ((count + parts - 1) / parts + 7) / 8 * 8;
  m_Workers->Run([&](int p) {
    const std::size_t begin = std::min(count, static_cast<std::size_t>(p) * part);
    const std::size_t end = std::min(count, begin + part);
    if (end > begin)
    {
      task(begin, end - begin);
    }
  });
}

void
HostStaging::Upload(void * device, std::size_t bytes, const Producer & produce, cudaStream_t stream)
{
  auto * destination = static_cast<unsigned char *>(device);
  for (std::size_t offset = 0; offset < bytes; offset += m_ChunkBytes)
  {
    const std::size_t count = std::min(m_ChunkBytes, bytes - offset);
    const int         b = static_cast<int>(m_NextBuffer++ % Buffers);
    // The copy that last used this buffer (this call or an earlier one) must be done.
    m_Done[b].Synchronize();
    auto * staging = static_cast<unsigned char *>(Buffer(b, count));
    Split(count, [&](std::size_t from, std::size_t n) { produce(offset + from, n, staging + from); });
    Check(cudaMemcpyAsync(destination + offset, staging, count, cudaMemcpyHostToDevice, stream),
          "copying the image to the device");
    m_Done[b].Record(stream);
  }
}

void
HostStaging::Download(const void * device, std::size_t bytes, cudaStream_t stream, const BytesConsumer & consume)
{
  if (bytes == 0)
  {
    return;
  }
  const auto *             source = static_cast<const unsigned char *>(device);
  const std::size_t        chunks = (bytes + m_ChunkBytes - 1) / m_ChunkBytes;
  const unsigned long long first = m_NextBuffer;
  m_NextBuffer += chunks;
  auto bufferOf = [&](std::size_t chunk) { return static_cast<int>((first + chunk) % Buffers); };
  auto issue = [&](std::size_t chunk) {
    const int         b = bufferOf(chunk);
    const std::size_t offset = chunk * m_ChunkBytes;
    const std::size_t count = std::min(m_ChunkBytes, bytes - offset);
    m_Done[b].Synchronize(); // an earlier copy may still use this buffer
    void * staging = Buffer(b, count);
    Check(cudaMemcpyAsync(staging, source + offset, count, cudaMemcpyDeviceToHost, stream),
          "copying results to the host");
    m_Done[b].Record(stream);
  };
  for (std::size_t chunk = 0; chunk < std::min<std::size_t>(chunks, Buffers); ++chunk)
  {
    issue(chunk);
  }
  for (std::size_t chunk = 0; chunk < chunks; ++chunk)
  {
    const int         b = bufferOf(chunk);
    const std::size_t offset = chunk * m_ChunkBytes;
    const std::size_t count = std::min(m_ChunkBytes, bytes - offset);
    m_Done[b].Synchronize();
    const auto * staged = static_cast<const unsigned char *>(Buffer(b, count));
    Split(count, [&](std::size_t from, std::size_t n) { consume(offset + from, n, staged + from); });
    if (chunk + Buffers < chunks)
    {
      issue(chunk + Buffers);
    }
  }
}

} // namespace cuda
} // namespace cca
