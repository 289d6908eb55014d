#include "HostStaging.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace cca
{
namespace cuda
{

CopyWorkers::CopyWorkers()
{
  const unsigned hardware = std::thread::hardware_concurrency();
  const int      helpers = static_cast<int>(std::min(7u, hardware > 1 ? hardware - 1 : 0u));
  for (int i = 0; i < helpers; ++i)
  {
    m_Threads.emplace_back([this, i] { Work(i + 1); });
  }
}

CopyWorkers::~CopyWorkers()
{
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Stop = true;
  }
  m_Wake.notify_all();
  for (auto & t : m_Threads)
  {
    t.join();
  }
}

void
CopyWorkers::Work(int part)
{
  unsigned long long seen = 0;
  for (;;)
  {
    const std::function<void(int)> * task = nullptr;
    {
      std::unique_lock<std::mutex> lock(m_Mutex);
      m_Wake.wait(lock, [&] { return m_Stop || m_Generation != seen; });
      if (m_Stop)
      {
        return;
      }
      seen = m_Generation;
      task = m_Task;
    }
    (*task)(part);
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      if (--m_Pending == 0)
      {
        m_Done.notify_one();
      }
    }
  }
}

void
CopyWorkers::Run(const std::function<void(int part)> & task)
{
  if (m_Threads.empty())
  {
    task(0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Task = &task;
    m_Pending = static_cast<int>(m_Threads.size());
    ++m_Generation;
  }
  m_Wake.notify_all();
  task(0);
  std::unique_lock<std::mutex> lock(m_Mutex);
  m_Done.wait(lock, [&] { return m_Pending == 0; });
}

HostStaging::HostStaging(std::size_t chunkBytes)
  : m_ChunkBytes(chunkBytes)
{}

void
HostStaging::Split(std::size_t offset, std::size_t count, unsigned char * dst, const Producer & produce)
{
  constexpr std::size_t splitAbove = std::size_t{ 4 } << 20;
  if (count < splitAbove || m_Workers.Parts() == 1)
  {
    produce(offset, count, dst);
    return;
  }
  const std::size_t parts = static_cast<std::size_t>(m_Workers.Parts());
  // Parts are whole multiples of 8 bytes, so they hold whole pixels of any
  // type, and together cover count (hence the rounding up before the 8s).
  const std::size_t part = ((count + parts - 1) / parts + 7) / 8 * 8;
  m_Workers.Run([&](int p) {
    const std::size_t begin = std::min(count, static_cast<std::size_t>(p) * part);
    const std::size_t end = std::min(count, begin + part);
    if (end > begin)
    {
      produce(offset + begin, end - begin, dst + begin);
    }
  });
}

void
HostStaging::Upload(void * device, std::size_t bytes, const Producer & produce, cudaStream_t stream)
{
  auto *      destination = static_cast<unsigned char *>(device);
  std::size_t chunk = 0;
  for (std::size_t offset = 0; offset < bytes; offset += m_ChunkBytes, ++chunk)
  {
    const std::size_t count = std::min(m_ChunkBytes, bytes - offset);
    const int         b = static_cast<int>(chunk % 2);
    // The copy that last used this buffer (this call or an earlier one) must be done.
    m_Done[b].Synchronize();
    void * staging = m_Buffers[b].Reserve(std::min(m_ChunkBytes, bytes), "allocating a pinned upload buffer");
    Split(offset, count, static_cast<unsigned char *>(staging), produce);
    Check(cudaMemcpyAsync(destination + offset, staging, count, cudaMemcpyHostToDevice, stream),
          "copying the image to the device");
    m_Done[b].Record(stream);
  }
}

void
HostStaging::Download(void * host, const void * device, std::size_t bytes, cudaStream_t stream)
{
  if (bytes == 0)
  {
    return;
  }
  auto *            destination = static_cast<unsigned char *>(host);
  const auto *      source = static_cast<const unsigned char *>(device);
  const std::size_t chunks = (bytes + m_ChunkBytes - 1) / m_ChunkBytes;
  const std::size_t bufferBytes = std::min(m_ChunkBytes, bytes);
  auto              issue = [&](std::size_t chunk) {
    const int         b = static_cast<int>(chunk % 2);
    const std::size_t offset = chunk * m_ChunkBytes;
    const std::size_t count = std::min(m_ChunkBytes, bytes - offset);
    m_Done[b].Synchronize(); // an earlier upload may still read this buffer
    void * staging = m_Buffers[b].Reserve(bufferBytes, "allocating a pinned download buffer");
    Check(cudaMemcpyAsync(staging, source + offset, count, cudaMemcpyDeviceToHost, stream),
          "copying results to the host");
    m_Done[b].Record(stream);
  };
  issue(0);
  if (chunks > 1)
  {
    issue(1);
  }
  for (std::size_t chunk = 0; chunk < chunks; ++chunk)
  {
    const int         b = static_cast<int>(chunk % 2);
    const std::size_t offset = chunk * m_ChunkBytes;
    const std::size_t count = std::min(m_ChunkBytes, bytes - offset);
    m_Done[b].Synchronize();
    const auto * staged = static_cast<const unsigned char *>(m_Buffers[b].Reserve(bufferBytes, "pinned buffer"));
    Split(0, count, destination + offset, [staged](std::size_t from, std::size_t n, void * to) {
      std::memcpy(to, staged + from, n);
    });
    if (chunk + 2 < chunks)
    {
      issue(chunk + 2);
    }
  }
}

} // namespace cuda
} // namespace cca
