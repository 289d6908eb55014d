// Host <-> device copies through pinned staging buffers: the host fills (or
// drains) one buffer, split over copy threads, while the DMA engine copies
// another, so caller memory never has to be page-locked (pinning a buffer in
// place costs about three times its transfer; measured in
// docs/results-history.md) and large images stream at bus speed. The buffers come
// from the process's pinned cache and the copy threads from a pool of the
// process, so a new engine costs neither.
#ifndef cca_cuda_HostStaging_h
#define cca_cuda_HostStaging_h

#include "CopyWorkers.h"
#include "DeviceMemory.h"
#include "DensePixels.h"
#include "StreamedUpload.h"

#include "cca/Types.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace cca
{
namespace cuda
{

/** Writes staged bytes [offset, offset + count) of a download, held at
 *  staged, to their destination; offsets and counts are multiples of 8. */
using BytesConsumer = std::function<void(std::size_t offset, std::size_t count, const void * staged)>;

/** Per copy worker: a stream, two pinned buffers and the events of their
 *  last copies, for HostStaging's copies by regions; the sets of lanes come
 *  from a pool of the process, so a new engine creates no streams. */
struct CopyLanes
{
  struct Lane
  {
    Stream       stream;
    PinnedBuffer buffers[2];
    Event        copied[2]{ Event(false), Event(false) };
  };
  int                                device = 0; ///< the CUDA device of the streams and events
  std::vector<std::unique_ptr<Lane>> lanes;
};
struct GiveBackCopyLanes
{
  void
  operator()(CopyLanes * lanes) const;
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
   *  apart). Every piece begins and ends at a multiple of granule bytes (a
   *  multiple of 8 that divides bytes), so that records of that size reach
   *  consume whole. Returns when all is consumed. */
  void
  Download(const void *          device,
           std::size_t           bytes,
           cudaStream_t          stream,
           const BytesConsumer & consume,
           std::size_t           granule = 8);

  /** Queues a copy of bytes of device memory, ordered on stream, into the
   *  gather buffer, for FinishGathered to write to host; false (nothing
   *  queued) where they do not fit in what is left of the buffer, or are
   *  large enough to go by regions (SetRegionCopies). */
  bool
  GatherLater(void * host, const void * device, std::size_t bytes, cudaStream_t stream);

  /** Writes each gathered copy to its host memory as soon as its own copy is
   *  done, while the later ones still cross the bus; returns when all are
   *  there. */
  void
  FinishGathered();

  /** Queues a download that FinishQueued makes: bytes of device memory
   *  that consume writes to the host in pieces of whole granules (as
   *  Download). The copies of every queued download then cross the bus back
   *  to back, while the host writes out the pieces that have arrived: made
   *  one after another, each download's last pieces left the bus idle while
   *  the host wrote them (300-550 us between a table and its runs,
   *  benchmark/results/h200-batched-downloads). */
  void
  DownloadLater(const void * device, std::size_t bytes, BytesConsumer consume, std::size_t granule = 8);

  /** Makes the downloads queued by DownloadLater, ordered on stream after
   *  the work queued so far, by regions (DownloadByRegions); returns when
   *  all are consumed. */
  void
  FinishQueued(cudaStream_t stream);

  /** Forgets gathered and queued copies not finished (a run that failed);
   *  the stream must be idle. */
  void
  DropUnfinished()
  {
    m_Queued.clear();
    m_Gathered.clear();
  }

  /** Whether an upload of bytes goes by regions (UploadByRegions). */
  bool
  UploadsByRegions(std::size_t bytes) const
  {
    return bytes >= m_RegionUploadBytes && m_Workers->Parts() > 1;
  }

  /** An upload by regions, as DownloadByRegions below: each copy worker
   *  produces its own contiguous region of the bytes and copies it through
   *  its own stream and two pinned buffers; no worker waits for another
   *  between pieces. Work queued on stream after the call sees the bytes. */
  void
  UploadByRegions(void * device, std::size_t bytes, const Producer & produce, cudaStream_t stream);

  /** Whether an upload of bytes may be streamed (UploadStreamed): from the
   *  size that goes by regions otherwise up to StreamedUploadCapacity. */
  bool
  StreamsUploads(std::size_t bytes) const
  {
    return bytes >= m_StreamedUploadBytes && bytes <= StreamedUploadCapacity;
  }

  /** An upload that the device reads from page-locked host memory while
   *  the copy workers produce it (StreamedUpload.h): they take its pieces
   *  in increasing order, raising each piece's flag once its bytes are
   *  written. launch(upload) queues, on stream, the kernel that reads the
   *  pieces as their flags come up; the caller makes it as the workers
   *  wake, so that the device's reads overlap the host's production.
   *  Returns once every piece is produced (false, with nothing done, where
   *  the pinned memory is not mapped into the device's address space or
   *  there is no worker beside the caller); work queued on stream after
   *  launch's kernel sees the kernel's results. A producer or launch that
   *  throws still leaves every flag raised, so that a kernel ends, and its
   *  exception is rethrown. */
  bool
  UploadStreamed(std::size_t                                         bytes,
                 const Producer &                                    produce,
                 cudaStream_t                                        stream,
                 const std::function<void(const StreamedUpload &)> & launch);

  /** Uploads of at least fromBytes are streamed (UploadStreamed), in pieces
   *  of pieceBytes (rounded up to a multiple of 16); 0, 0: the defaults
   *  (DefaultStreamedUploadBytes); NeverStreamed: never. */
  void
  SetStreamedUploads(std::size_t fromBytes, std::size_t pieceBytes);

  /** Streamed uploads made by every HostStaging of the process (tests). */
  static std::int64_t
  StreamedUploadsMade();

  static constexpr std::size_t NeverStreamed = ~std::size_t{ 0 };
  /** Streamed from where the copies would go by regions
   *  (DefaultRegionUploadBytes, which a static_assert below ties to it):
   *  on an H100 the engine alone took 5-11 % less on the CT-like masks,
   *  5 % on a 512^3 volume and the same on 8192^2 planes
   *  (benchmark/results/h100-streamed-uploads). */
  static constexpr std::size_t DefaultStreamedUploadBytes = std::size_t{ 4 } << 20;
  /** The pinned block of streamed uploads, taken at start-up with the copy
   *  lanes (PrepareRegionCopies) where streaming is on, so that no run
   *  waits for memory to be locked: the foreground bits of 256 M pixels (a 512^3 volume's are 16
   *  MiB); larger uploads go by regions, where a copy's fixed costs weigh
   *  less. */
  static constexpr std::size_t StreamedUploadCapacity = std::size_t{ 32 } << 20;
  static constexpr std::size_t StreamedReadyCapacity = std::size_t{ 64 } << 10;
  static constexpr std::size_t DefaultStreamedPieceBytes = std::size_t{ 64 } << 10;

  /** Takes the lanes of copies by regions (streams, events, pinned buffers)
   *  on the current CUDA device, from the process's pool or new (they go
   *  back to the pool with this object), and the gather buffer. Start-up
   *  calls it, so that the first large copy of a process creates nothing.
   *  Returns the device. */
  int
  PrepareRegionCopies();

  /** Uploads of at least uploadFromBytes and downloads of at least
   *  downloadFromBytes go by regions, in pieces of pieceBytes (rounded up
   *  to a multiple of 8); 0: the defaults. */
  void
  SetRegionCopies(std::size_t uploadFromBytes, std::size_t downloadFromBytes, std::size_t pieceBytes);

  static constexpr std::size_t DefaultRegionUploadBytes = std::size_t{ 4 } << 20;
  static_assert(DefaultStreamedUploadBytes == DefaultRegionUploadBytes, "streaming starts where regions would");
  static constexpr std::size_t DefaultRegionDownloadBytes = std::size_t{ 64 } << 20;
  static constexpr std::size_t DefaultRegionPieceBytes = std::size_t{ 2 } << 20;

  /** The gather buffer of GatherLater: the objects of a few hundred
   *  thousand runs (CT-like masks: 6.6 MB); larger downloads go alone. */
  static constexpr std::size_t GatherBytes = std::size_t{ 8 } << 20;

private:
  static constexpr int Buffers = 3;

  /** A download of DownloadLater, or one of Download made by regions. */
  struct QueuedDownload
  {
    const void *  device;
    std::size_t   bytes;
    BytesConsumer consume;
    std::size_t   granule;
  };

  /** Calls copy(lane, part) on each copy worker with its own lane, once the
   *  work queued on stream so far is done. */
  void
  OnLanes(cudaStream_t stream, const std::function<void(CopyLanes::Lane &, std::size_t part)> & copy);

  /** The bytes of each copy worker's region when bytes are shared among
   *  them: whole huge pages (2 MiB, a multiple of the 8 bytes a piece must
   *  be) where asked and the bytes allow, so that one thread writes each
   *  page; else a multiple of 8. */
  std::size_t
  RegionBytes(std::size_t bytes, bool wholeHugePages) const;

  /** Large downloads: the bytes of all of them, end to end, shared among
   *  the copy workers in contiguous regions, each drained through a
   *  stream and two pinned buffers of its own. The destination is often
   *  fresh memory (a new image), whose first write faults its pages in: in
   *  whole huge pages, each written by one thread, that ran at 30 GB/s on
   *  the H100 machine (16 threads), the speed of memory written before,
   *  against 12.7 GB/s when each 16 MiB chunk is split among the threads
   *  (two threads in one huge page, the threads waiting for each other
   *  after every chunk). */
  void
  DownloadByRegions(const std::vector<QueuedDownload> & downloads, cudaStream_t stream);

  /** task(offset, count) split over the copy workers when large, in parts
   *  of whole multiples of granule bytes. */
  void
  Split(std::size_t                                                        count,
        const std::function<void(std::size_t offset, std::size_t count)> & task,
        std::size_t                                                        granule = 8);

  void *
  Buffer(int b, std::size_t bytes);

  std::size_t                                   m_ChunkBytes;
  CopyWorkers::Lease                            m_Workers;
  PinnedBuffer                                  m_Buffers[Buffers];
  Event                                         m_Done[Buffers]{ Event(false), Event(false), Event(false) };
  unsigned long long                            m_NextBuffer = 0; ///< the upload pipeline's next buffer, across calls
  std::unique_ptr<CopyLanes, GiveBackCopyLanes> m_Lanes;          ///< taken at the first copy by regions
  Event                                         m_RegionsMayStart{ false };
  struct Gathered
  {
    void *      host;
    std::size_t offset; ///< in the gather buffer
    std::size_t bytes;
  };
  PinnedBuffer                        m_Gather;                ///< GatherBytes, taken with the copy lanes
  std::vector<Gathered>               m_Gathered;              ///< queued, not yet written to the host
  std::vector<std::unique_ptr<Event>> m_GatherCopied;          ///< per gathered copy: done
  std::vector<QueuedDownload>         m_Queued;                ///< DownloadLater's, not yet made
  PinnedBuffer                        m_StreamedBytes;         ///< a streamed upload's bytes, mapped
  PinnedBuffer                        m_StreamedReady;         ///< its pieces' flags, mapped
  Event                               m_StreamedRead{ false }; ///< the last streamed upload's kernel done
  std::size_t                         m_StreamedUploadBytes = DefaultStreamedUploadBytes;
  std::size_t                         m_StreamedPieceBytes = DefaultStreamedPieceBytes;
  std::size_t                         m_RegionUploadBytes = DefaultRegionUploadBytes;
  std::size_t                         m_RegionDownloadBytes = DefaultRegionDownloadBytes;
  std::size_t                         m_RegionPieceBytes = DefaultRegionPieceBytes;
};

} // namespace cuda
} // namespace cca

#endif
