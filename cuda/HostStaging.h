// Host <-> device copies through two pinned staging buffers: the host fills
// (or drains) one buffer while the DMA engine copies the other, so caller
// memory never has to be page-locked and large images stream at bus speed.
#ifndef cca_cuda_HostStaging_h
#define cca_cuda_HostStaging_h

#include "DeviceMemory.h"
#include "DensePixels.h"

#include "cca/Types.h"

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cca
{
namespace cuda
{

/** A few persistent threads that split large host copies: one thread moves
 *  (and first-touches) memory at only a fraction of the memory bandwidth. */
class CopyWorkers
{
public:
  CopyWorkers();
  ~CopyWorkers();
  CopyWorkers(const CopyWorkers &) = delete;
  CopyWorkers &
  operator=(const CopyWorkers &) = delete;

  /** Calls task(part) for part in [0, Parts()) on the workers and the caller; returns when all are done. */
  void
  Run(const std::function<void(int part)> & task);
  int
  Parts() const
  {
    return static_cast<int>(m_Threads.size()) + 1;
  }

private:
  void
  Work(int part);

  std::vector<std::thread>          m_Threads;
  std::mutex                        m_Mutex;
  std::condition_variable           m_Wake;
  std::condition_variable           m_Done;
  const std::function<void(int)> *  m_Task = nullptr;
  unsigned long long                m_Generation = 0;
  int                               m_Pending = 0;
  bool                              m_Stop = false;
};

class HostStaging
{
public:
  /** Producer of bytes [offset, offset + count) of the upload stream into dst. */
  using Producer = BytesProducer;

  explicit HostStaging(std::size_t chunkBytes = std::size_t{ 32 } << 20);

  /** Copies bytes produced on the host to device memory; the copies are
   *  ordered on stream (kernels enqueued later on it see the data). */
  void
  Upload(void * device, std::size_t bytes, const Producer & produce, cudaStream_t stream);

  /** Copies device memory to host memory; returns when host holds the data. */
  void
  Download(void * host, const void * device, std::size_t bytes, cudaStream_t stream);

private:
  /** produce(offset, count, dst) split over the copy workers when large. */
  void
  Split(std::size_t offset, std::size_t count, unsigned char * dst, const Producer & produce);

  std::size_t  m_ChunkBytes;
  CopyWorkers  m_Workers;
  PinnedBuffer m_Buffers[2];
  Event        m_Done[2]{ Event(false), Event(false) };
};

} // namespace cuda
} // namespace cca

#endif
