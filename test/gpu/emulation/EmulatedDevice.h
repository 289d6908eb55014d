// StreamDevice's CPU twin (cuda/StreamDevice.cuh; cuda/HostSequence.cuh says
// what a device does): device memory is host memory, kernels run on emulated
// threads (CudaEmulation.h), scans and sorts are the standard library's with
// CUB's contract, stage times come from the host clock. Stricter than the
// GPU where that finds bugs: every Reserve poisons the buffer it returns
// (kernels must write what they read), and SortPairs checks that the keys
// fit in the bits it is told to sort, and DownloadLater copies nothing
// before FinishDownloads. Side work (StreamDevice's second
// stream) runs in order, or, where a test defers it, once it is joined:
// after the work the run's stream took meanwhile, the other extreme of the
// orders a GPU may take, so that a missing wait shows as wrong results.
#ifndef cca_emulation_EmulatedDevice_h
#define cca_emulation_EmulatedDevice_h

#include "CudaEmulation.h"
#include "DensePixels.h"
#include "Milestones.h"
#include "NarrowFeatures.h"
#include "StreamedUpload.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace emulation
{

class Device
{
public:
  static constexpr int ScratchSlots = 6;
  static constexpr int SideLanes = 2; ///< BeginSideWork's lanes

  /** Host memory standing for device memory; 8-byte aligned. */
  class Buffer
  {
  public:
    void *
    Reserve(std::size_t bytes, const char *)
    {
      const std::size_t words = std::max<std::size_t>(1, (bytes + 7) / 8);
      if (m_Words.size() < words)
      {
        m_Words.resize(words);
      }
      std::memset(m_Words.data(), Poison, words * 8);
      return m_Words.data();
    }

  private:
    std::vector<std::uint64_t> m_Words;
  };

  /** The byte every buffer holds after Reserve. */
  static constexpr int Poison = 0x5a;

  /** The grid ResidentBlocks reports (a large GPU by default; tests lower it
   *  to make each block of a resident-grid kernel handle several tiles). */
  void
  SetResidentBlocks(unsigned blocks)
  {
    m_ResidentBlocks = blocks;
  }

  void
  Begin()
  {
    m_BytesToHost = 0;
    m_OnSide = -1;
    for (auto & side : m_Side)
    {
      side.clear(); // a failed run's
    }
    m_Later.clear(); // the same
  }

  /** Side work (StreamDevice::BeginSideWork): with deferral set, launches
   *  and fills queued until JoinSideWork of their lane; any other work on
   *  the side is the sequence's error. */
  void
  BeginSideWork(int lane = 0)
  {
    if (m_OnSide < 0)
    {
      m_OnSide = lane;
    }
  }
  void
  EndSideWork()
  {
    m_OnSide = -1;
  }
  void
  JoinSideWork(int lane = 0)
  {
    EndSideWork();
    std::vector<std::function<void()>> side;
    side.swap(m_Side[lane]);
    for (const auto & work : side)
    {
      work();
    }
  }
  /** Tests: run side work once it is joined (true) or in order (false, the default). */
  void
  SetDeferredSideWork(bool defer)
  {
    m_DeferSide = defer;
  }

  template <class... Params, class... Args>
  void
  Launch(const char *, unsigned blocks, unsigned threads, void (*kernel)(Params...), Args &&... args)
  {
    if (m_OnSide >= 0 && m_DeferSide)
    {
      m_Side[m_OnSide].push_back([=] { emulation::Launch(blocks, threads, [&] { kernel(args...); }); });
      return;
    }
    emulation::Launch(blocks, threads, [&] { kernel(args...); });
  }

  /** Launch: the emulation has no programmatic dependent launches. */
  template <class... Params, class... Args>
  void
  LaunchAllBlocksTogether(const char * what,
                          unsigned     blocks,
                          unsigned     threads,
                          void (*kernel)(Params...),
                          Args &&... args)
  {
    Launch(what, blocks, threads, kernel, std::forward<Args>(args)...);
  }

  template <class... Params>
  unsigned
  ResidentBlocks(void (*)(Params...), unsigned)
  {
    return m_ResidentBlocks;
  }

  void
  Fill(void * destination, int byte, std::size_t bytes, const char *)
  {
    if (m_OnSide >= 0 && m_DeferSide)
    {
      m_Side[m_OnSide].push_back([=] { std::memset(destination, byte, bytes); });
      return;
    }
    std::memset(destination, byte, bytes);
  }

  template <class T>
  T
  Read(const T * source, const char * what)
  {
    RunStreamOnly(what);
    m_BytesToHost += static_cast<std::int64_t>(sizeof(T));
    return *source;
  }

  template <class A, class B>
  std::pair<A, B>
  Read(const A * first, const B * second, const char * what)
  {
    RunStreamOnly(what);
    m_BytesToHost += static_cast<std::int64_t>(sizeof(A) + sizeof(B));
    return { *first, *second };
  }

  template <class T>
  T *
  Scratch(int slot, std::size_t count, const char * what)
  {
    return static_cast<T *>(m_Scratch[slot].Reserve(count * sizeof(T), what));
  }

  template <class T>
  void
  ExclusiveSum(const char * what, const T * in, T * out, std::int64_t count)
  {
    RunStreamOnly(what);
    std::exclusive_scan(in, in + count, out, T{ 0 });
  }

  template <class T, class F>
  void
  ExclusiveSumOf(const char * what, F f, T * out, std::int64_t count)
  {
    RunStreamOnly(what);
    T sum{ 0 };
    for (std::int64_t i = 0; i < count; ++i)
    {
      out[i] = sum;
      sum += f(static_cast<T>(i));
    }
  }

  template <class Key, class Value>
  void
  SortPairs(const char *  what,
            const Key *   keysIn,
            Key *         keysOut,
            const Value * valuesIn,
            Value *       valuesOut,
            std::int64_t  count,
            int           endBit)
  {
    RunStreamOnly(what);
    for (std::int64_t i = 0; i < count; ++i)
    {
      if (endBit < 64 && static_cast<std::uint64_t>(keysIn[i]) >> endBit != 0)
      {
        std::fprintf(stderr,
                     "emulation: %s: key %llu has bits above bit %d, which a radix sort would ignore\n",
                     what,
                     static_cast<unsigned long long>(keysIn[i]),
                     endBit);
        std::abort();
      }
    }
    std::vector<std::int64_t> order(static_cast<std::size_t>(count));
    std::iota(order.begin(), order.end(), std::int64_t{ 0 });
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return keysIn[a] < keysIn[b]; });
    for (std::int64_t k = 0; k < count; ++k)
    {
      keysOut[k] = keysIn[order[k]];
      valuesOut[k] = valuesIn[order[k]];
    }
  }

  template <class Key>
  void
  SortKeys(const char * what, const Key * keysIn, Key * keysOut, std::int64_t count, int endBit)
  {
    RunStreamOnly(what);
    for (std::int64_t i = 0; i < count; ++i)
    {
      if (endBit < 64 && static_cast<std::uint64_t>(keysIn[i]) >> endBit != 0)
      {
        std::fprintf(stderr,
                     "emulation: %s: key %llu has bits above bit %d, which a radix sort would ignore\n",
                     what,
                     static_cast<unsigned long long>(keysIn[i]),
                     endBit);
        std::abort();
      }
    }
    std::copy(keysIn, keysIn + count, keysOut);
    std::sort(keysOut, keysOut + count);
  }

  /** Slab by slab, each in pieces of at most 4 KiB from its start, as the
   *  staging buffers take the stream in chunks; onSlab after each slab. */
  template <class OnSlab>
  void
  Upload(void * device, std::size_t bytes, const cca::BytesProducer & produce, std::size_t slabBytes, OnSlab && onSlab)
  {
    RunStreamOnly("the upload");
    constexpr std::size_t piece = 4096;
    for (std::size_t begin = 0; begin < bytes; begin += slabBytes)
    {
      const std::size_t end = std::min(bytes, begin + slabBytes);
      for (std::size_t offset = begin; offset < end; offset += piece)
      {
        produce(offset, std::min(piece, end - offset), static_cast<unsigned char *>(device) + offset);
      }
      ++m_Slabs;
      onSlab(begin, end);
    }
  }

  void
  Download(void * host, const void * device, std::size_t bytes)
  {
    RunStreamOnly("a download");
    if (bytes > 0)
    {
      std::memcpy(host, device, bytes);
    }
    m_BytesToHost += static_cast<std::int64_t>(bytes);
  }

  /** Made at FinishDownloads, as the GPU makes its queued copies only then
   *  (HostStaging::DownloadLater): a device buffer reused, or a host
   *  destination read, before FinishDownloads shows as wrong results. */
  void
  DownloadLater(void * host, const void * device, std::size_t bytes)
  {
    RunStreamOnly("a download");
    if (bytes > 0)
    {
      m_Later.push_back([=] { std::memcpy(host, device, bytes); });
    }
    m_BytesToHost += static_cast<std::int64_t>(bytes);
  }

  void
  FinishDownloads()
  {
    std::vector<std::function<void()>> later;
    later.swap(m_Later);
    for (const auto & copy : later)
    {
      copy();
    }
  }

  void
  DownloadWidened(std::uint64_t * host, const std::uint32_t * device, std::size_t count)
  {
    RunStreamOnly("a widened download");
    std::copy(device, device + count, host);
    m_BytesToHost += static_cast<std::int64_t>(count * sizeof(std::uint32_t));
  }

  template <class Narrow>
  void
  DownloadWidenedFeaturesLater(cca::ComponentFeatures * host, const Narrow * device, std::size_t count)
  {
    RunStreamOnly("a widened table download");
    m_Later.push_back([=] { cca::WidenNarrowEntries<Narrow>(device, host, count); });
    m_BytesToHost += static_cast<std::int64_t>(count * sizeof(Narrow));
  }

  /** Tests: whether uploads are streamed (StreamDevice::UploadStreamed),
   *  in pieces of pieceBytes (a multiple of 16). */
  void
  SetStreamedUploads(bool streamed, std::size_t pieceBytes)
  {
    m_Streamed = streamed;
    m_StreamedPieceBytes = pieceBytes;
  }

  bool
  StreamsUploads(std::size_t) const
  {
    return m_Streamed;
  }

  /** Every piece produced and its flag raised, then launch's kernel: the
   *  other extreme of the GPU's order, where the kernel waits for each
   *  piece. The bytes past the upload are poisoned. */
  template <class LaunchReader>
  bool
  UploadStreamed(std::size_t bytes, const cca::BytesProducer & produce, LaunchReader && launch)
  {
    RunStreamOnly("a streamed upload");
    const auto         piece = static_cast<std::int64_t>(m_StreamedPieceBytes);
    const std::int64_t pieces = std::max<std::int64_t>(1, (static_cast<std::int64_t>(bytes) + piece - 1) / piece);
    m_StreamedBytes.assign(static_cast<std::size_t>(pieces * piece), static_cast<unsigned char>(Poison));
    m_StreamedReady.assign(static_cast<std::size_t>(pieces), 0u);
    for (std::int64_t k = 0; k < pieces; ++k)
    {
      const std::int64_t at = k * piece;
      if (at < static_cast<std::int64_t>(bytes))
      {
        const auto count = std::min(static_cast<std::size_t>(piece), bytes - static_cast<std::size_t>(at));
        produce(static_cast<std::size_t>(at), count, m_StreamedBytes.data() + at);
      }
      m_StreamedReady[static_cast<std::size_t>(k)] = 1;
    }
    cca::StreamedUpload upload;
    upload.bytes = m_StreamedBytes.data();
    upload.ready = m_StreamedReady.data();
    upload.size = static_cast<std::int64_t>(bytes);
    upload.pieceBytes = piece;
    upload.pieces = pieces;
    launch(upload);
    ++m_StreamedUploads;
    return true;
  }

  /** Uploads streamed over all runs. */
  std::int64_t
  StreamedUploads() const
  {
    return m_StreamedUploads;
  }

  /** Slabs uploaded over all runs (tests check that small slabs were taken). */
  std::int64_t
  UploadedSlabs() const
  {
    return m_Slabs;
  }

  void
  Record(cca::Milestone milestone)
  {
    RunStreamOnly("a milestone");
    m_Milestones[static_cast<int>(milestone)] = std::chrono::steady_clock::now();
  }

  void
  Wait()
  {
    RunStreamOnly("a wait");
  }

  double
  Milliseconds(cca::Milestone from, cca::Milestone to) const
  {
    return std::chrono::duration<double, std::milli>(m_Milestones[static_cast<int>(to)] -
                                                     m_Milestones[static_cast<int>(from)])
      .count();
  }

  std::int64_t
  BytesToHost() const
  {
    return m_BytesToHost;
  }

private:
  /** What only the run's stream takes (StreamDevice's side work is
   *  launches and fills). */
  void
  RunStreamOnly(const char * what) const
  {
    if (m_OnSide >= 0)
    {
      throw std::logic_error(std::string("emulation: ") + what + " queued as side work");
    }
  }

  Buffer                                m_Scratch[ScratchSlots];
  std::vector<std::function<void()>>    m_Side[SideLanes]; ///< deferred side work, a lane each
  std::vector<std::function<void()>>    m_Later;           ///< DownloadLater's copies, made at FinishDownloads
  int                                   m_OnSide = -1;     ///< the lane of the side work being queued, or -1
  bool                                  m_DeferSide = false;
  std::chrono::steady_clock::time_point m_Milestones[cca::NumberOfMilestones];
  unsigned                              m_ResidentBlocks = 1024;
  std::int64_t                          m_BytesToHost = 0;
  std::int64_t                          m_Slabs = 0;
  bool                                  m_Streamed = false;
  std::size_t                           m_StreamedPieceBytes = 16;
  std::vector<unsigned char>            m_StreamedBytes;
  std::vector<unsigned>                 m_StreamedReady;
  std::int64_t                          m_StreamedUploads = 0;
};

} // namespace emulation

#endif
