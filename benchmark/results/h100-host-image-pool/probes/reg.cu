// Throwaway probe: cudaHostRegister cost by flags and size, memory touched first by 16 threads in 2 MiB-aligned parts.
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
static double
Now()
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
#define CK(x)                                                                        \
  do                                                                                 \
  {                                                                                  \
    cudaError_t e = (x);                                                             \
    if (e != cudaSuccess)                                                            \
    {                                                                                \
      std::printf("CUDA error %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)
int
main()
{
  CK(cudaFree(0));
  for (size_t bytes : { size_t(9947600000ull), size_t(18790481920ull) })
    for (unsigned flags : { 0u, 1u, 2u })
    {
      size_t n = (bytes + (2u << 20) - 1) & ~size_t((2u << 20) - 1);
      void * p = mmap(nullptr, n + (2u << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      char * a = (char *)(((uintptr_t)p + (2u << 20) - 1) & ~uintptr_t((2u << 20) - 1));
      madvise(a, n, MADV_HUGEPAGE);
      double t0 = Now();
      {
        std::vector<std::thread> pool;
        size_t                   part = (n / 16 + (2u << 20) - 1) & ~size_t((2u << 20) - 1);
        for (int t = 0; t < 16; ++t)
          pool.emplace_back([&, t] {
            for (size_t o = t * part; o < std::min(n, (t + 1) * part); o += 4096)
              a[o] = 0;
          });
        for (auto & th : pool)
          th.join();
      }
      double tt = Now() - t0;
      t0 = Now();
      CK(cudaHostRegister(a, n, flags));
      double tr = Now() - t0;
      t0 = Now();
      CK(cudaHostUnregister(a));
      double tu = Now() - t0;
      t0 = Now();
      munmap(p, n + (2u << 20));
      double tm = Now() - t0;
      FILE * f = fopen("/proc/meminfo", "r");
      char   line[256];
      long   anonHuge = -1;
      while (fgets(line, 256, f))
        sscanf(line, "AnonHugePages: %ld", &anonHuge);
      fclose(f);
      std::printf("%.2f GB flags %u: touch %.0f ms (%.1f GB/s), register %.0f ms (%.1f GB/s), unregister %.0f ms, "
                  "munmap %.0f ms\n",
                  n / 1e9,
                  flags,
                  tt * 1e3,
                  n / tt / 1e9,
                  tr * 1e3,
                  n / tr / 1e9,
                  tu * 1e3,
                  tm * 1e3);
      std::fflush(stdout);
    }
  return 0;
}
