// Probe: what a first 64-bit label image costs the host when it is written
// the way the CUDA backend's download writes it (each of 16 copy threads
// its own contiguous region; 32-bit labels staged 1 MiB at a time, widened
// into 2 MiB of fresh memory with huge-page advice), and which way of
// writing fresh memory is fastest. One mode a process, so that no mode
// finds pages another freed:
//   copy            the staged bytes copied as they are (the old probe's pattern)
//   widen-stream    widened with streaming stores (the engine today)
//   widen-plain     widened with ordinary stores
//   touch-stream    each 2 MiB piece faulted by one byte first, then widened streaming
//   prefault-stream every piece faulted first by all threads (timed apart), then widened streaming
// Each mode then widens into the same memory again (a reused block).
// Usage: fresh-widening-probe MODE [GB = 18.8] [threads = 16]
#include <immintrin.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace
{
double
Now()
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr std::size_t Piece = std::size_t{ 2 } << 20; // output bytes a staged piece fills

std::uint64_t *
FreshBlock(std::size_t bytes)
{
  const std::size_t mapped = bytes + Piece;
  void *            p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
  {
    std::perror("mmap");
    std::exit(1);
  }
  const auto aligned = (reinterpret_cast<std::uintptr_t>(p) + Piece - 1) & ~(std::uintptr_t{ Piece } - 1);
  madvise(reinterpret_cast<void *>(aligned), bytes, MADV_HUGEPAGE);
  return reinterpret_cast<std::uint64_t *>(aligned);
}

std::string
AnonHuge()
{
  std::ifstream in("/proc/self/smaps_rollup");
  for (std::string line; std::getline(in, line);)
  {
    if (line.rfind("AnonHugePages", 0) == 0)
    {
      return line;
    }
  }
  return "AnonHugePages: ?";
}

__attribute__((target("avx2"))) void
WidenStreaming(const std::uint32_t * in, std::uint64_t * out, std::size_t count)
{
  std::size_t i = 0;
  for (; i + 8 <= count; i += 8)
  {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + i));
    _mm256_stream_si256(reinterpret_cast<__m256i *>(out + i), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
    _mm256_stream_si256(reinterpret_cast<__m256i *>(out + i + 4),
                        _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
  }
  for (; i < count; ++i)
  {
    out[i] = in[i];
  }
  _mm_sfence();
}

void
WidenPlain(const std::uint32_t * in, std::uint64_t * out, std::size_t count)
{
  for (std::size_t i = 0; i < count; ++i)
  {
    out[i] = in[i];
  }
}

/** Each thread runs work(t, begin, end) over its contiguous part of count labels. */
template <class Work>
double
Parts(int threads, std::size_t count, Work work)
{
  constexpr std::size_t    perPiece = Piece / sizeof(std::uint64_t);
  const std::size_t        part = (count / threads + perPiece - 1) / perPiece * perPiece;
  const double             t0 = Now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
  {
    pool.emplace_back([&, t] {
      const std::size_t begin = std::min(count, t * part);
      work(t, begin, std::min(count, begin + part));
    });
  }
  for (auto & p : pool)
  {
    p.join();
  }
  return Now() - t0;
}
} // namespace

int
main(int argc, char ** argv)
{
  if (argc < 2)
  {
    std::fprintf(stderr, "usage: %s MODE [GB] [threads]\n", argv[0]);
    return 2;
  }
  const std::string     mode = argv[1];
  const double          gb = argc > 2 ? std::atof(argv[2]) : 18.8;
  const int             threads = argc > 3 ? std::atoi(argv[3]) : 16;
  const std::size_t     count = static_cast<std::size_t>(gb * 1e9) / sizeof(std::uint64_t);
  const std::size_t     bytes = count * sizeof(std::uint64_t);
  constexpr std::size_t perPiece = Piece / sizeof(std::uint64_t);
  // Each thread's staging: one 1 MiB piece of 32-bit labels (its values vary).
  std::vector<std::vector<std::uint32_t>> staging(threads, std::vector<std::uint32_t>(perPiece));
  for (int t = 0; t < threads; ++t)
  {
    for (std::size_t i = 0; i < perPiece; ++i)
    {
      staging[t][i] = static_cast<std::uint32_t>(i * 2654435761u + t);
    }
  }
  std::vector<std::vector<unsigned char>> bytesStaging(threads, std::vector<unsigned char>(Piece, 7));
  std::uint64_t *                         out = FreshBlock(bytes);
  auto                                    write = [&](const std::string & how) {
    return Parts(threads, count, [&](int t, std::size_t begin, std::size_t end) {
      for (std::size_t at = begin; at < end; at += perPiece)
      {
        const std::size_t n = std::min(perPiece, end - at);
        if (how == "copy")
        {
          std::memcpy(out + at, bytesStaging[t].data(), n * sizeof(std::uint64_t));
          continue;
        }
        if (how == "touch-stream")
        {
          *reinterpret_cast<volatile unsigned char *>(out + at) = 0;
        }
        if (how == "widen-plain")
        {
          WidenPlain(staging[t].data(), out + at, n);
        }
        else
        {
          WidenStreaming(staging[t].data(), out + at, n);
        }
      }
    });
  };
  double      prefault = 0;
  std::string how = mode;
  if (mode == "prefault-stream")
  {
    prefault = Parts(threads, count, [&](int, std::size_t begin, std::size_t end) {
      for (std::size_t at = begin; at < end; at += 4096 / sizeof(std::uint64_t))
      {
        *reinterpret_cast<volatile unsigned char *>(out + at) = 0;
      }
    });
    how = "widen-stream";
  }
  const double      first = write(how);
  const std::string huge = AnonHuge();
  const double      again = write(how);
  std::printf("%-16s %5.1f GB %2d threads: first %7.1f ms (%5.1f GB/s)",
              mode.c_str(),
              bytes / 1e9,
              threads,
              first * 1e3,
              bytes / first / 1e9);
  if (prefault > 0)
  {
    std::printf(" after faulting in %7.1f ms (both %7.1f ms)", prefault * 1e3, (prefault + first) * 1e3);
  }
  std::printf("; again %6.1f ms (%5.1f GB/s); %s\n", again * 1e3, bytes / again / 1e9, huge.c_str());
  return 0;
}
