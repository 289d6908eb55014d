// Probe: how fast the host fills fresh memory, as the download of a first
// label image into a new block of the host image pool does (each copy
// thread its own contiguous region, 2 MiB pieces copied from its own
// staging buffers), against memory already faulted in, and what populating
// the pages first (MADV_POPULATE_WRITE) costs. Usage:
// fresh-memory-probe [GiB = 16] [threads = 16]
#include <sys/mman.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#ifndef MADV_POPULATE_WRITE
#  define MADV_POPULATE_WRITE 23
#endif

namespace
{
double
Now()
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

constexpr std::size_t Piece = std::size_t{ 2 } << 20;

char *
Fresh(std::size_t bytes, bool huge)
{
  void * p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
  {
    std::perror("mmap");
    std::exit(1);
  }
  if (huge)
  {
    madvise(p, bytes, MADV_HUGEPAGE);
  }
  return static_cast<char *>(p);
}

std::string
AnonHuge()
{
  std::ifstream in("/proc/self/smaps_rollup");
  std::string   line;
  while (std::getline(in, line))
  {
    if (line.rfind("AnonHugePages", 0) == 0)
    {
      return line;
    }
  }
  return "AnonHugePages: ?";
}

/** Each of threads threads runs work(t, begin, end) on its contiguous part. */
template <class Work>
double
Parts(int threads, std::size_t bytes, Work work)
{
  const std::size_t        part = (bytes / threads + Piece - 1) / Piece * Piece;
  const double             t0 = Now();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
  {
    pool.emplace_back([&, t] {
      const std::size_t begin = std::min(bytes, t * part);
      work(t, begin, std::min(bytes, begin + part));
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
  const std::size_t bytes = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 16) << 30;
  const int         most = argc > 2 ? std::atoi(argv[2]) : 16;
  // Each thread's two staging buffers, as the copy lanes hold them.
  std::vector<std::vector<char>> staging(most, std::vector<char>(2 * Piece, 7));
  auto                           copy = [&](char * dst) {
    return [&, dst](int t, std::size_t begin, std::size_t end) {
      for (std::size_t at = begin, k = 0; at < end; at += Piece, ++k)
      {
        std::memcpy(dst + at, staging[t].data() + (k % 2) * Piece, std::min(Piece, end - at));
      }
    };
  };
  auto populate = [&](char * dst) {
    return [dst](int, std::size_t begin, std::size_t end) {
      if (madvise(dst + begin, end - begin, MADV_POPULATE_WRITE) != 0)
      {
        std::perror("madvise(MADV_POPULATE_WRITE)");
      }
    };
  };
  auto report = [&](const char * what, int threads, double s) {
    std::printf("%-58s %2d threads %6.1f GB/s (%6.1f ms)\n", what, threads, bytes / s / 1e9, s * 1e3);
    std::fflush(stdout);
  };
  for (int threads : { most / 2, most })
  {
    {
      char * d = Fresh(bytes, true);
      report("fresh, huge-page advice: copy (the first download)", threads, Parts(threads, bytes, copy(d)));
      std::printf("  %s\n", AnonHuge().c_str());
      report("  the same memory again: copy (a reused block)", threads, Parts(threads, bytes, copy(d)));
      munmap(d, bytes);
    }
    {
      char * d = Fresh(bytes, true);
      report("fresh, huge-page advice: populate", threads, Parts(threads, bytes, populate(d)));
      report("  then copy", threads, Parts(threads, bytes, copy(d)));
      munmap(d, bytes);
    }
    {
      char * d = Fresh(bytes, false);
      report("fresh, 4 KiB pages: copy", threads, Parts(threads, bytes, copy(d)));
      munmap(d, bytes);
    }
    {
      char *       d = Fresh(bytes, true);
      const double s = Parts(threads, bytes, [&](int t, std::size_t begin, std::size_t end) {
        // populate a piece ahead of the copy, as a lane could while its DMA runs
        for (std::size_t at = begin, k = 0; at < end; at += Piece, ++k)
        {
          const std::size_t n = std::min(Piece, end - at);
          madvise(d + at, n, MADV_POPULATE_WRITE);
          std::memcpy(d + at, staging[t].data() + (k % 2) * Piece, n);
        }
      });
      report("fresh, huge-page advice: populate each piece, then copy it", threads, s);
      munmap(d, bytes);
    }
  }
  for (const char * f : { "/sys/kernel/mm/transparent_hugepage/enabled", "/sys/kernel/mm/transparent_hugepage/defrag" })
  {
    std::ifstream in(f);
    std::string   line;
    std::getline(in, line);
    std::printf("%s: %s\n", f, line.c_str());
  }
  return 0;
}
