// Host <-> device copies through pinned staging buffers: the host fills (or
// drains) one buffer, split over copy threads, while the DMA engine copies
// another, so caller memory never has to be page-locked (pinning a buffer in
// place costs about three times its transfer; measured in
// docs/results.md) and large images stream at bus speed. The buffers come
// from the process's pinned cache and the copy threads from a pool of the
// process, so a new engine costs neither.
#ifndef cca_cuda_HostStaging_h
#define cca_cuda_HostStaging_h

#include "CopyWorkers.h"
#include "DeviceMemory.h"
#include "DensePixels.h"

#include "cca/Types.h"

#include <cstddef>
#include <functional>
#include <memory>

namespace cca
{
namespace cuda
{

/** Writes staged bytes [offset, offset + count) of a download, held at
 *  staged, to their destination; offsets and counts are multiples of 8. */
using BytesConsumer = std::function<void(std::size_t offset, std::size_t count, const void * staged)>;

/** Advises the kernel to back the page-aligned inside of a large host range
 *  with huge pages before it is first written: first writes of fresh memory
 *  then run at about 1.7 times the speed (Linux; elsewhere nothing). */
void
AdviseHugePages(void * host, std::size_t bytes);

/** Per copy worker: a stream, two pinned buffers and their copies' events,
 *  for HostStaging's large downloads; from a pool of the process. */
struct DownloadLanes;
struct GiveBackDownloadLanes
{
  void
  operator()(DownloadLanes * lanes) const;
};

class HostStaging
{
public:
  /** Producer of bytes [offset, offset + count) of the upload stream into dst. */
  using Producer = BytesProducer;

  explicit HostStaging(std::size_t chunkBytes = std::size_t{ 16 } << 20);

  /** Copies bytes produced on the host to device memory on stream: returns
   *  once the last copy is queued (kernels queued later on stream see the
   *  data). Calls may follow each other: the staging pipeline goes on. */
  void
  Upload(void * device, std::size_t bytes, const Producer & produce, cudaStream_t stream);

  /** Copies device memory to the host, ordered on stream; consume writes
   *  each staged piece to its place (from several threads at once, pieces
   *  apart). Returns when all is consumed. */
  void
  Download(const void * device, std::size_t bytes, cudaStream_t stream, const BytesConsumer & consume);

  /** Downloads of at least fromBytes go by regions (DownloadByRegions), in
   *  pieces of pieceBytes (a multiple of 8); 0: the defaults. */
  void
  SetRegionDownloads(std::size_t fromBytes, std::size_t pieceBytes);

  static constexpr std::size_t DefaultRegionDownloadBytes = std::size_t{ 64 } << 20;
  static constexpr std::size_t DefaultRegionPieceBytes = std::size_t{ 2 } << 20;

private:
  static constexpr int Buffers = 3;

  /** A large download: each copy worker drains its own contiguous region of
   *  the bytes through a stream and two pinned buffers of its own. The
   *  destination is often fresh memory (a new image), whose first write
   *  faults its pages in: in whole huge pages, each written by one thread,
   *  that ran at 30 GB/s on the H100 machine (16 threads), the speed of
   *  memory written before, against 12.7 GB/s when each 16 MiB chunk is
   *  split among the threads (two threads in one huge page, the threads
   *  waiting for each other after every chunk). */
  void
  DownloadByRegions(const void * device, std::size_t bytes, cudaStream_t stream, const BytesConsumer & consume);


  /** task(offset, count, pointer + offset) split over the copy workers when large. */
  void
  Split(std::size_t count, const std::function<void(std::size_t offset, std::size_t count)> & task);

  void *
  Buffer(int b, std::size_t bytes);

  std::size_t        m_ChunkBytes;
  CopyWorkers::Lease m_Workers;
  PinnedBuffer       m_Buffers[Buffers];
  Event              m_Done[Buffers]{ Event(false), Event(false), Event(false) };
  unsigned long long m_NextBuffer = 0;                           ///< the upload pipeline's next buffer, across calls
  std::unique_ptr<DownloadLanes, GiveBackDownloadLanes> m_Lanes; ///< taken at the first large download
  Event                                                 m_RegionsMayStart{ false };
  std::size_t                                           m_RegionDownloadBytes = DefaultRegionDownloadBytes;
  std::size_t                                           m_RegionPieceBytes = DefaultRegionPieceBytes;
};

} // namespace cuda
} // namespace cca

#endif
