// Pinned staging memory at start-up: cudaHostAlloc against memory of our
// own (2 MiB aligned, huge-page advice, written once) registered with
// cudaHostRegister; then the copy bandwidth of each. Fresh process per mode.
#include <cuda_runtime_api.h>
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
using Clock = std::chrono::steady_clock;
static double
Ms(Clock::time_point a, Clock::time_point b)
{
  return std::chrono::duration<double, std::milli>(b - a).count();
}
static void *
Own(std::size_t bytes, bool touch)
{
  void * p = nullptr;
  if (posix_memalign(&p, 2u << 20, bytes) != 0)
    return nullptr;
  madvise(p, bytes, MADV_HUGEPAGE);
  if (touch)
    std::memset(p, 0, bytes);
  return p;
}
int
main(int argc, char ** argv)
{
  const std::string mode = argc > 1 ? argv[1] : "alloc";
  cudaFree(nullptr);
  std::vector<std::size_t> sizes(32, 2u << 20);
  sizes.push_back(16u << 20);
  sizes.push_back(16u << 20);
  sizes.push_back(16u << 20);
  std::vector<void *> blocks;
  auto                t0 = Clock::now();
  if (mode == "alloc")
    for (auto s : sizes)
    {
      void * p;
      cudaHostAlloc(&p, s, cudaHostAllocPortable);
      blocks.push_back(p);
    }
  else if (mode == "register" || mode == "register-untouched")
    for (auto s : sizes)
    {
      void * p = Own(s, mode == "register");
      cudaHostRegister(p, s, cudaHostRegisterPortable);
      blocks.push_back(p);
    }
  else if (mode == "register-one")
  {
    std::size_t total = 0;
    for (auto s : sizes)
      total += s;
    char * p = static_cast<char *>(Own(total, true));
    cudaHostRegister(p, total, cudaHostRegisterPortable);
    for (auto s : sizes)
    {
      blocks.push_back(p);
      p += s;
    }
  }
  auto        t1 = Clock::now();
  cudaError_t e = cudaGetLastError();
  // bandwidth: 16 MiB blocks each way, 20 times
  void * d = nullptr;
  cudaMalloc(&d, 16u << 20);
  cudaStream_t st;
  cudaStreamCreate(&st);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  float h2d = 0, d2h = 0;
  for (int dir = 0; dir < 2; ++dir)
  {
    for (int warm = 0; warm < 2; ++warm)
    {
      cudaEventRecord(a, st);
      for (int i = 0; i < 20; ++i)
        for (int k = 32; k < 35; ++k)
          dir == 0 ? cudaMemcpyAsync(d, blocks[k], 16u << 20, cudaMemcpyHostToDevice, st)
                   : cudaMemcpyAsync(blocks[k], d, 16u << 20, cudaMemcpyDeviceToHost, st);
      cudaEventRecord(b, st);
      cudaEventSynchronize(b);
      float ms;
      cudaEventElapsedTime(&ms, a, b);
      (dir == 0 ? h2d : d2h) = 60.0f * 16.0f * 1.048576f / ms; // GB/s (MB/ms)
    }
  }
  std::printf(
    "%-18s 32 x 2 MiB + 3 x 16 MiB pinned in %7.1f ms (%s); copies of 16 MiB blocks H2D %.1f GB/s, D2H %.1f GB/s\n",
    mode.c_str(),
    Ms(t0, t1),
    cudaGetErrorString(e),
    h2d,
    d2h);
}
