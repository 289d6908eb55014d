// Throwaway probe: what a download into fresh host memory costs when the memory is pinned in place.
#include <cuda_runtime.h>
#include <sys/mman.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#ifndef MADV_POPULATE_WRITE
#  define MADV_POPULATE_WRITE 23
#endif
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
static const int T = 16;
static char *
Fresh(size_t n, bool huge)
{
  void * p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
  {
    std::printf("mmap failed\n");
    std::exit(1);
  }
  if (huge)
    madvise(p, n, MADV_HUGEPAGE);
  return static_cast<char *>(p);
}
template <class F>
static void
Par(int threads, F f)
{
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back(f, t);
  for (auto & p : pool)
    p.join();
}
static void
Touch(char * p, size_t n, int threads)
{
  Par(threads, [&](int t) {
    size_t part = (n / threads + 4095) & ~size_t(4095);
    size_t b = t * part, e = std::min(n, b + part);
    for (size_t o = b; o < e; o += 4096)
      p[o] = 0;
  });
}
int
main(int argc, char ** argv)
{
  const size_t N = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 9947600000ull;
  char *       dev;
  CK(cudaMalloc(&dev, N));
  CK(cudaMemset(dev, 1, N));
  CK(cudaDeviceSynchronize());
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  auto D2H = [&](void * h, size_t n) {
    double t = Now();
    CK(cudaMemcpyAsync(h, dev, n, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    return Now() - t;
  };
  std::printf("bytes %zu (%.2f GB)\n", N, N / 1e9);
  std::fflush(stdout);
  const bool skip = std::getenv("SKIP_ABC");
  if (!skip)
  { // A: pinned reference, 1 GB
    void * h;
    size_t n = std::min(N, size_t(1) << 30);
    CK(cudaHostAlloc(&h, n, 0));
    D2H(h, n);
    double best = 1e9;
    for (int i = 0; i < 3; ++i)
      best = std::min(best, D2H(h, n));
    double tu = Now();
    CK(cudaMemcpyAsync(dev, h, n, cudaMemcpyHostToDevice, s));
    CK(cudaStreamSynchronize(s));
    tu = Now() - tu;
    std::printf("A pinned reference 1 GiB: D2H %.1f GB/s, H2D %.1f GB/s\n", n / best / 1e9, n / tu / 1e9);
    CK(cudaFreeHost(h));
  }
  if (!skip)
  { // B: cudaHostAlloc the whole destination
    void * h;
    double t0 = Now();
    CK(cudaHostAlloc(&h, N, 0));
    double ta = Now() - t0;
    double td = D2H(h, N);
    double td2 = D2H(h, N);
    t0 = Now();
    CK(cudaFreeHost(h));
    double tf = Now() - t0;
    std::printf("B cudaHostAlloc %.0f ms, D2H %.0f ms (%.1f GB/s), again %.0f ms (%.1f GB/s), cudaFreeHost %.0f ms\n",
                ta * 1e3,
                td * 1e3,
                N / td / 1e9,
                td2 * 1e3,
                N / td2 / 1e9,
                tf * 1e3);
  }
  std::fflush(stdout);
  for (int huge = skip ? 2 : 0; huge < 2; ++huge)
  { // C: register untouched memory
    char * p = Fresh(N, huge);
    double t0 = Now();
    CK(cudaHostRegister(p, N, 0));
    double tr = Now() - t0;
    double td = D2H(p, N);
    t0 = Now();
    CK(cudaHostUnregister(p));
    double tu = Now() - t0;
    t0 = Now();
    munmap(p, N);
    double tm = Now() - t0;
    std::printf(
      "C%s register untouched %.0f ms, D2H %.0f ms (%.1f GB/s), unregister %.0f ms, munmap %.0f ms, total %.0f ms\n",
      huge ? " huge" : " 4K",
      tr * 1e3,
      td * 1e3,
      N / td / 1e9,
      tu * 1e3,
      tm * 1e3,
      (tr + td + tu) * 1e3);
    std::fflush(stdout);
  }
  for (int huge = 0; huge < 2; ++huge)
  { // D: touch in parallel, then register in one call / in parallel calls
    for (int parReg = 0; parReg < 2; ++parReg)
    {
      char * p = Fresh(N, huge);
      double t0 = Now();
      Touch(p, N, T);
      double tt = Now() - t0;
      t0 = Now();
      size_t part = ((N / T) + (2u << 20) - 1) & ~size_t((2u << 20) - 1);
      if (parReg)
        Par(T, [&](int t) {
          size_t b = t * part;
          if (b < N)
            CK(cudaHostRegister(p + b, std::min(part, N - b), 0));
        });
      else
        CK(cudaHostRegister(p, N, 0));
      double tr = Now() - t0;
      double td;
      if (parReg)
      {
        td = Now();
        for (int t = 0; t < T; ++t)
        {
          size_t b = t * part;
          if (b < N)
            CK(cudaMemcpyAsync(p + b, dev + b, std::min(part, N - b), cudaMemcpyDeviceToHost, s));
        }
        CK(cudaStreamSynchronize(s));
        td = Now() - td;
      }
      else
        td = D2H(p, N);
      t0 = Now();
      if (parReg)
        Par(T, [&](int t) {
          size_t b = t * part;
          if (b < N)
            CK(cudaHostUnregister(p + b));
        });
      else
        CK(cudaHostUnregister(p));
      double tu = Now() - t0;
      t0 = Now();
      munmap(p, N);
      double tm = Now() - t0;
      std::printf("D%s touch %.0f ms (%.1f GB/s), register%s %.0f ms, D2H %.0f ms (%.1f GB/s), unregister %.0f ms, "
                  "munmap %.0f ms, total %.0f ms\n",
                  huge ? " huge" : " 4K",
                  tt * 1e3,
                  N / tt / 1e9,
                  parReg ? " x16" : "",
                  tr * 1e3,
                  td * 1e3,
                  N / td / 1e9,
                  tu * 1e3,
                  tm * 1e3,
                  (tt + tr + td + tu) * 1e3);
      std::fflush(stdout);
    }
  }
  { // E: MADV_POPULATE_WRITE in parallel
    char *           p = Fresh(N, true);
    double           t0 = Now();
    std::atomic<int> bad{ 0 };
    Par(T, [&](int t) {
      size_t part = ((N / T) + (2u << 20) - 1) & ~size_t((2u << 20) - 1);
      size_t b = t * part;
      if (b < N && madvise(p + b, std::min(part, N - b), MADV_POPULATE_WRITE))
        bad++;
    });
    double tp = Now() - t0;
    std::printf("E populate-write x16 %.0f ms (%.1f GB/s)%s\n", tp * 1e3, N / tp / 1e9, bad ? " FAILED" : "");
    munmap(p, N);
  }
  for (size_t region : { size_t(64) << 20, size_t(256) << 20 })
    for (int perWorkerStream = 0; perWorkerStream < 2; ++perWorkerStream)
    { // F: pipelined
      char *                        p = Fresh(N, true);
      size_t                        regions = (N + region - 1) / region;
      std::vector<std::atomic<int>> ready(regions);
      for (auto & r : ready)
        r = 0;
      std::vector<cudaStream_t> streams(T);
      for (auto & st : streams)
        CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
      std::atomic<size_t> next{ 0 };
      double              t0 = Now();
      std::thread         dma;
      if (!perWorkerStream)
        dma = std::thread([&] {
          for (size_t k = 0; k < regions; ++k)
          {
            while (!ready[k].load(std::memory_order_acquire))
              std::this_thread::yield();
            size_t b = k * region;
            CK(cudaMemcpyAsync(p + b, dev + b, std::min(region, N - b), cudaMemcpyDeviceToHost, s));
          }
          CK(cudaStreamSynchronize(s));
        });
      Par(T, [&](int t) {
        for (;;)
        {
          size_t k = next++;
          if (k >= regions)
            break;
          size_t b = k * region, n = std::min(region, N - b);
          CK(cudaHostRegister(p + b, n, 0));
          if (perWorkerStream)
            CK(cudaMemcpyAsync(p + b, dev + b, n, cudaMemcpyDeviceToHost, streams[t]));
          else
            ready[k].store(1, std::memory_order_release);
        }
        if (perWorkerStream)
          CK(cudaStreamSynchronize(streams[t]));
      });
      if (dma.joinable())
        dma.join();
      double tc = Now() - t0;
      t0 = Now();
      Par(T, [&](int t) {
        for (size_t k = t; k < regions; k += T)
          CK(cudaHostUnregister(p + k * region));
      });
      double tu = Now() - t0;
      munmap(p, N);
      std::printf("F pipelined register+DMA, %zu MiB regions, %s: %.0f ms (%.1f GB/s), unregister x16 %.0f ms, total "
                  "%.0f ms (%.1f GB/s)\n",
                  region >> 20,
                  perWorkerStream ? "stream per worker" : "one DMA stream",
                  tc * 1e3,
                  N / tc / 1e9,
                  tu * 1e3,
                  (tc + tu) * 1e3,
                  N / (tc + tu) / 1e9);
      std::fflush(stdout);
      for (auto & st : streams)
        cudaStreamDestroy(st);
    }
  for (size_t n : { size_t(6600000), size_t(130) << 20 })
  { // small: register-in-place cost for a results buffer
    char * p = Fresh(n, n > (64u << 20));
    double t0 = Now();
    Touch(p, n, 1);
    double tt = Now() - t0;
    t0 = Now();
    CK(cudaHostRegister(p, n, 0));
    double tr = Now() - t0;
    double td = D2H(p, n);
    t0 = Now();
    CK(cudaHostUnregister(p));
    double tu = Now() - t0;
    munmap(p, n);
    std::printf("S %.1f MB: touch %.2f ms, register %.2f ms, D2H %.2f ms (%.1f GB/s), unregister %.2f ms\n",
                n / 1e6,
                tt * 1e3,
                tr * 1e3,
                td * 1e3,
                n / td / 1e9,
                tu * 1e3);
  }
  return 0;
}
