// Throwaway probe: first-touch write bandwidth of fresh memory, as the download fills a new image.
#include <sys/mman.h>
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
using Clock = std::chrono::steady_clock;
static double
Now()
{
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}
int
main(int argc, char ** argv)
{
  const std::size_t gib = argc > 1 ? std::atoll(argv[1]) : 4;
  const int         threads = argc > 2 ? std::atoi(argv[2]) : 16;
  const std::size_t bytes = gib << 30, chunk = std::size_t{ 16 } << 20;
  std::vector<char> src(chunk * 4, 1);
  auto run = [&](const char * name, bool advise, bool chunked, std::size_t chunkBytes, bool reuse, char * reused) {
    char * dst = reused ? reused : static_cast<char *>(std::malloc(bytes));
    if (advise)
    {
      auto b = (reinterpret_cast<std::uintptr_t>(dst) + (2u << 20) - 1) & ~std::uintptr_t((2u << 20) - 1);
      auto e = (reinterpret_cast<std::uintptr_t>(dst) + bytes) & ~std::uintptr_t((2u << 20) - 1);
      madvise(reinterpret_cast<void *>(b), e - b, MADV_HUGEPAGE);
    }
    const double t0 = Now();
    if (chunked)
    {
      std::barrier             sync(threads);
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
          for (std::size_t off = 0; off < bytes; off += chunkBytes)
          {
            const std::size_t part = chunkBytes / threads;
            std::memcpy(dst + off + t * part, src.data(), part);
            sync.arrive_and_wait();
          }
        });
      for (auto & p : pool)
        p.join();
    }
    else
    {
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
          const std::size_t part = bytes / threads;
          for (std::size_t off = 0; off < part; off += chunk)
            std::memcpy(dst + t * part + off, src.data(), std::min(chunk, part - off));
        });
      for (auto & p : pool)
        p.join();
    }
    const double s = Now() - t0;
    std::printf("%-40s %6.1f GB/s (%.0f ms)\n", name, bytes / s / 1e9, s * 1e3);
    return dst;
  };
  std::free(run("fresh, 4K pages, 16 MiB chunks", false, true, chunk, false, nullptr));
  std::free(run("fresh, huge advice, 16 MiB chunks", true, true, chunk, false, nullptr));
  std::free(run("fresh, 4K pages, 64 MiB chunks", false, true, chunk * 4, false, nullptr));
  std::free(run("fresh, huge advice, 64 MiB chunks", true, true, chunk * 4, false, nullptr));
  std::free(run("fresh, 4K pages, contiguous parts", false, false, chunk, false, nullptr));
  std::free(run("fresh, huge advice, contiguous parts", true, false, chunk, false, nullptr));
  char * d = run("fresh, huge advice, 16 MiB chunks (again)", true, true, chunk, false, nullptr);
  run("faulted already, 16 MiB chunks", false, true, chunk, true, d);
  std::free(d);
  return 0;
}
