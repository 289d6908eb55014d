#include "HostStaging.h"

#include "IdlePool.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

namespace cca
{
namespace cuda
{

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
HostStaging::Split(std::size_t                                                        count,
                   const std::function<void(std::size_t offset, std::size_t count)> & task,
                   std::size_t                                                        granule)
{
  constexpr std::size_t splitAbove = std::size_t{ 1 } << 20;
  const std::size_t     parts = static_cast<std::size_t>(m_Workers->Parts());
  if (count < splitAbove || parts == 1)
  {
    task(0, count);
    return;
  }
  // Parts are whole multiples of the granule (8 bytes: whole pixels of any
  // type), and together cover count (hence the rounding up).
  const std::size_t part = ((count + parts - 1) / parts + granule - 1) / granule * granule;
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

namespace
{
std::atomic<std::int64_t> streamedUploadsMade{ 0 };
} // namespace

std::int64_t
HostStaging::StreamedUploadsMade()
{
  return streamedUploadsMade.load();
}

void
HostStaging::SetStreamedUploads(std::size_t fromBytes, std::size_t pieceBytes)
{
  m_StreamedUploadBytes = fromBytes == 0 ? DefaultStreamedUploadBytes : fromBytes;
  m_StreamedPieceBytes = pieceBytes == 0 ? DefaultStreamedPieceBytes : (pieceBytes + 15) / 16 * 16;
}

bool
HostStaging::UploadStreamed(std::size_t                                         bytes,
                            const Producer &                                    produce,
                            cudaStream_t                                        stream,
                            const std::function<void(const StreamedUpload &)> & launch)
{
  // With no worker beside the caller, the pieces could only be produced
  // after the launch: no overlap, and a launch that blocks would wait for
  // them forever.
  if (m_Workers->Parts() < 2)
  {
    return false;
  }
  const std::size_t piece = m_StreamedPieceBytes;
  const std::size_t pieces = std::max<std::size_t>(1, (bytes + piece - 1) / piece);
  // The last streamed upload's kernel reads these buffers until it ends.
  m_StreamedRead.Synchronize();
  // Always whole capacities, as PrepareRegionCopies takes them: the
  // process's pinned cache then hands the same blocks to every engine.
  auto * host = static_cast<unsigned char *>(
    m_StreamedBytes.Reserve(std::max(bytes, StreamedUploadCapacity), "the pinned bytes of a streamed upload"));
  auto * ready = static_cast<unsigned *>(m_StreamedReady.Reserve(
    std::max(pieces * sizeof(unsigned), StreamedReadyCapacity), "the pinned flags of a streamed upload"));
  void * deviceBytes = nullptr;
  void * deviceReady = nullptr;
  if (cudaHostGetDevicePointer(&deviceBytes, host, 0) != cudaSuccess ||
      cudaHostGetDevicePointer(&deviceReady, ready, 0) != cudaSuccess)
  {
    cudaGetLastError(); // not mapped (a pinned block of the fallback): no error of the run's
    return false;
  }
  std::memset(ready, 0, pieces * sizeof(unsigned));
  StreamedUpload upload;
  upload.bytes = static_cast<const unsigned char *>(deviceBytes);
  upload.ready = static_cast<const unsigned *>(deviceReady);
  upload.size = static_cast<std::int64_t>(bytes);
  upload.pieceBytes = static_cast<std::int64_t>(piece);
  upload.pieces = static_cast<std::int64_t>(pieces);
  std::atomic<std::size_t> next{ 0 };
  std::mutex               errorMutex;
  std::exception_ptr       error;
  const auto               keep = [&](std::exception_ptr e) {
    std::lock_guard<std::mutex> lock(errorMutex);
    if (!error)
    {
      error = std::move(e);
    }
  };
  m_Workers->Run([&](int part) {
    if (part == 0)
    {
      // The caller launches the kernel once the workers are woken, and then
      // produces pieces too (StreamedUpload.h: a launch that blocks).
      try
      {
        launch(upload);
      }
      catch (...)
      {
        keep(std::current_exception()); // the workers still raise every flag; no kernel reads them
      }
    }
    for (std::size_t k = next++; k < pieces; k = next++)
    {
      const std::size_t at = k * piece;
      try
      {
        if (at < bytes)
        {
          produce(at, std::min(piece, bytes - at), host + at);
        }
      }
      catch (...)
      {
        keep(std::current_exception()); // the flag still goes up, so that the kernel ends
      }
      // A full fence, not only the flag's release: it also orders the
      // producer's streaming stores, if it made any, before the flag.
      std::atomic_thread_fence(std::memory_order_seq_cst);
      __atomic_store_n(ready + k, 1u, __ATOMIC_RELEASE);
    }
  });
  m_StreamedRead.Record(stream); // after the kernel, before anything the caller queues next
  ++streamedUploadsMade;
  if (error)
  {
    std::rethrow_exception(error);
  }
  return true;
}

bool
HostStaging::GatherLater(void * host, const void * device, std::size_t bytes, cudaStream_t stream)
{
  const std::size_t offset = m_Gathered.empty() ? 0 : (m_Gathered.back().offset + m_Gathered.back().bytes + 7) / 8 * 8;
  if (bytes == 0 || offset + bytes > GatherBytes || bytes >= m_RegionDownloadBytes)
  {
    return bytes == 0;
  }
  auto *            gather = static_cast<unsigned char *>(m_Gather.Reserve(GatherBytes, "the pinned gather buffer"));
  const std::size_t k = m_Gathered.size();
  if (m_GatherCopied.size() == k)
  {
    m_GatherCopied.push_back(std::make_unique<Event>(false));
  }
  Check(cudaMemcpyAsync(gather + offset, device, bytes, cudaMemcpyDeviceToHost, stream), "copying results to the host");
  m_GatherCopied[k]->Record(stream);
  m_Gathered.push_back({ host, offset, bytes });
  return true;
}

void
HostStaging::FinishGathered()
{
  if (m_Gathered.empty())
  {
    return;
  }
  const auto * gather = static_cast<const unsigned char *>(m_Gather.Reserve(GatherBytes, "the pinned gather buffer"));
  for (std::size_t k = 0; k < m_Gathered.size(); ++k)
  {
    const Gathered & g = m_Gathered[k];
    m_GatherCopied[k]->Synchronize();
    auto * destination = static_cast<unsigned char *>(g.host);
    Split(g.bytes,
          [&](std::size_t from, std::size_t n) { std::memcpy(destination + from, gather + g.offset + from, n); });
  }
  m_Gathered.clear();
}

void
GiveBackCopyLanes::operator()(CopyLanes * lanes) const
{
  IdleObjects<CopyLanes>().Give(lanes);
}

void
HostStaging::SetRegionCopies(std::size_t uploadFromBytes, std::size_t downloadFromBytes, std::size_t pieceBytes)
{
  m_RegionUploadBytes = uploadFromBytes == 0 ? DefaultRegionUploadBytes : uploadFromBytes;
  m_RegionDownloadBytes = downloadFromBytes == 0 ? DefaultRegionDownloadBytes : downloadFromBytes;
  m_RegionPieceBytes = pieceBytes == 0 ? DefaultRegionPieceBytes : (pieceBytes + 7) / 8 * 8;
}

int
HostStaging::PrepareRegionCopies()
{
  int cudaDevice = 0;
  Check(cudaGetDevice(&cudaDevice), "finding the current CUDA device");
  if (!m_Lanes || m_Lanes->device != cudaDevice)
  {
    CopyLanes * idle = IdleObjects<CopyLanes>().Take([&](const CopyLanes & l) { return l.device == cudaDevice; });
    if (idle == nullptr)
    {
      idle = new CopyLanes;
      idle->device = cudaDevice;
    }
    m_Lanes.reset(idle);
  }
  const auto parts = static_cast<std::size_t>(m_Workers->Parts());
  while (m_Lanes->lanes.size() < parts)
  {
    m_Lanes->lanes.push_back(std::make_unique<CopyLanes::Lane>());
  }
  for (std::size_t p = 0; p < parts; ++p)
  {
    for (auto & buffer : m_Lanes->lanes[p]->buffers)
    {
      buffer.Reserve(m_RegionPieceBytes, "a pinned staging buffer");
    }
  }
  m_Gather.Reserve(GatherBytes, "the pinned gather buffer");
  if (m_StreamedUploadBytes <= StreamedUploadCapacity)
  {
    m_StreamedBytes.Reserve(StreamedUploadCapacity, "the pinned bytes of a streamed upload");
    m_StreamedReady.Reserve(StreamedReadyCapacity, "the pinned flags of a streamed upload");
  }
  return cudaDevice;
}

std::size_t
HostStaging::RegionBytes(std::size_t bytes, bool wholeHugePages) const
{
  constexpr std::size_t hugePage = std::size_t{ 2 } << 20;
  const auto            parts = static_cast<std::size_t>(m_Workers->Parts());
  const std::size_t     share = (bytes + parts - 1) / parts;
  return wholeHugePages && share >= hugePage ? (share + hugePage - 1) / hugePage * hugePage : (share + 7) / 8 * 8;
}

void
HostStaging::OnLanes(cudaStream_t stream, const std::function<void(CopyLanes::Lane &, std::size_t part)> & copy)
{
  const int  cudaDevice = PrepareRegionCopies();
  const auto parts = static_cast<std::size_t>(m_Workers->Parts());
  // The copies start once the work queued on stream so far is done.
  m_RegionsMayStart.Record(stream);
  for (std::size_t p = 0; p < parts; ++p)
  {
    Check(cudaStreamWaitEvent(m_Lanes->lanes[p]->stream.Get(), m_RegionsMayStart.Get(), 0), "ordering the copies");
  }
  std::mutex         errorMutex;
  std::exception_ptr error;
  m_Workers->Run([&](int part) {
    try
    {
      // The CUDA runtime's current device is the thread's own.
      Check(cudaSetDevice(cudaDevice), "selecting the CUDA device");
      copy(*m_Lanes->lanes[static_cast<std::size_t>(part)], static_cast<std::size_t>(part));
    }
    catch (...)
    {
      std::lock_guard<std::mutex> lock(errorMutex);
      if (!error)
      {
        error = std::current_exception();
      }
    }
  });
  if (error)
  {
    std::rethrow_exception(error);
  }
}

void
HostStaging::UploadByRegions(void * device, std::size_t bytes, const Producer & produce, cudaStream_t stream)
{
  auto *            destination = static_cast<unsigned char *>(device);
  const std::size_t piece = m_RegionPieceBytes;
  const std::size_t region = RegionBytes(bytes, true);
  OnLanes(stream, [&](CopyLanes::Lane & lane, std::size_t part) {
    const std::size_t begin = std::min(bytes, part * region);
    const std::size_t end = std::min(bytes, begin + region);
    const Event *     last = nullptr;
    for (std::size_t k = 0, at = begin; at < end; ++k, at += piece)
    {
      const int         b = static_cast<int>(k % 2);
      const std::size_t count = std::min(piece, end - at);
      lane.copied[b].Synchronize(); // the buffer's last copy, of this call or an earlier one
      void * staging = lane.buffers[b].Reserve(piece, "a pinned staging buffer");
      produce(at, count, staging);
      Check(cudaMemcpyAsync(destination + at, staging, count, cudaMemcpyHostToDevice, lane.stream.Get()),
            "copying the image to the device");
      lane.copied[b].Record(lane.stream.Get());
      last = &lane.copied[b];
    }
    // Work queued on stream once every lane is done sees the bytes: the
    // lane's last copy ends after its others (one stream). Each lane makes
    // stream wait itself, as it finishes: 32 waits made by the caller after
    // the last lane took 30 us before the first kernel's launch.
    if (last != nullptr)
    {
      Check(cudaStreamWaitEvent(stream, last->Get(), 0), "waiting for the image's copies");
    }
  });
}

void
HostStaging::DownloadLater(const void * device, std::size_t bytes, BytesConsumer consume, std::size_t granule)
{
  if (bytes > 0)
  {
    m_Queued.push_back({ device, bytes, std::move(consume), granule });
  }
}

void
HostStaging::FinishQueued(cudaStream_t stream)
{
  if (m_Queued.empty())
  {
    return;
  }
  // Cleared whatever happens: a failed download is not made again.
  const std::vector<QueuedDownload> queued = std::move(m_Queued);
  m_Queued.clear();
  DownloadByRegions(queued, stream);
}

void
HostStaging::DownloadByRegions(const std::vector<QueuedDownload> & downloads, cudaStream_t stream)
{
  // The downloads end to end: download d holds bytes [start[d], start[d + 1]).
  std::vector<std::size_t> start(downloads.size() + 1, 0);
  bool                     bytesOnly = true; // no records wider than 8 bytes, whose edges move
  for (std::size_t d = 0; d < downloads.size(); ++d)
  {
    start[d + 1] = start[d] + downloads[d].bytes;
    bytesOnly = bytesOnly && downloads[d].granule == 8;
  }
  const std::size_t total = start.back();
  const std::size_t region = RegionBytes(total, bytesOnly);
  // Where a region's edge at x (of all the bytes) falls in download d: the
  // same function for both regions beside the edge, so that each download
  // is covered once, in pieces of whole granules.
  auto edgeIn = [&](std::size_t d, std::size_t x) {
    const std::size_t granule = downloads[d].granule;
    const std::size_t local = std::min(downloads[d].bytes, x - std::min(x, start[d]));
    return std::min(downloads[d].bytes, (local + granule - 1) / granule * granule);
  };
  struct Piece
  {
    std::size_t download, offset, count;
  };
  OnLanes(stream, [&](CopyLanes::Lane & lane, std::size_t part) {
    const std::size_t  first = std::min(total, part * region);
    const std::size_t  last = std::min(total, first + region);
    std::vector<Piece> pieces;
    for (std::size_t d = 0; d < downloads.size(); ++d)
    {
      const std::size_t granule = downloads[d].granule;
      const std::size_t piece = std::max(granule, m_RegionPieceBytes / granule * granule);
      for (std::size_t at = edgeIn(d, first), end = edgeIn(d, last); at < end; at += piece)
      {
        pieces.push_back({ d, at, std::min(piece, end - at) });
      }
    }
    auto issue = [&](std::size_t k) {
      const int     b = static_cast<int>(k % 2);
      const Piece & p = pieces[k];
      Check(cudaMemcpyAsync(lane.buffers[b].Reserve(m_RegionPieceBytes, "a pinned staging buffer"),
                            static_cast<const unsigned char *>(downloads[p.download].device) + p.offset,
                            p.count,
                            cudaMemcpyDeviceToHost,
                            lane.stream.Get()),
            "copying results to the host");
      lane.copied[b].Record(lane.stream.Get());
    };
    for (std::size_t k = 0; k < std::min<std::size_t>(pieces.size(), 2); ++k)
    {
      issue(k);
    }
    for (std::size_t k = 0; k < pieces.size(); ++k)
    {
      const int b = static_cast<int>(k % 2);
      lane.copied[b].Synchronize();
      const Piece & p = pieces[k];
      downloads[p.download].consume(
        p.offset, p.count, lane.buffers[b].Reserve(m_RegionPieceBytes, "a pinned staging buffer"));
      if (k + 2 < pieces.size())
      {
        issue(k + 2);
      }
    }
  });
}

void
HostStaging::Download(const void *          device,
                      std::size_t           bytes,
                      cudaStream_t          stream,
                      const BytesConsumer & consume,
                      std::size_t           granule)
{
  if (bytes == 0)
  {
    return;
  }
  if (bytes >= m_RegionDownloadBytes && m_Workers->Parts() > 1)
  {
    DownloadByRegions({ { device, bytes, consume, granule } }, stream);
    return;
  }
  const auto *             source = static_cast<const unsigned char *>(device);
  const std::size_t        chunkBytes = m_ChunkBytes / granule * granule; // whole records
  const std::size_t        chunks = (bytes + chunkBytes - 1) / chunkBytes;
  const unsigned long long first = m_NextBuffer;
  m_NextBuffer += chunks;
  auto bufferOf = [&](std::size_t chunk) { return static_cast<int>((first + chunk) % Buffers); };
  auto issue = [&](std::size_t chunk) {
    const int         b = bufferOf(chunk);
    const std::size_t offset = chunk * chunkBytes;
    const std::size_t count = std::min(chunkBytes, bytes - offset);
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
    const std::size_t offset = chunk * chunkBytes;
    const std::size_t count = std::min(chunkBytes, bytes - offset);
    m_Done[b].Synchronize();
    const auto * staged = static_cast<const unsigned char *>(Buffer(b, count));
    Split(
      count, [&](std::size_t from, std::size_t n) { consume(offset + from, n, staged + from); }, granule);
    if (chunk + Buffers < chunks)
    {
      issue(chunk + Buffers);
    }
  }
}

} // namespace cuda
} // namespace cca
