// What a host read of one device count costs the GPU: the idle time between
// a kernel that produces a count and the next kernel, when the host reads the
// count in between (memcpy + stream synchronize, as StreamDevice::Read), by
// each scheduling flag, against the same kernels queued back to back.
// nvcc -O2 -arch=sm_90 read-wait-probe.cu -o read-wait-probe
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                          \
  do                                                      \
  {                                                       \
    cudaError_t e = (x);                                  \
    if (e != cudaSuccess)                                 \
    {                                                     \
      std::printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      std::exit(1);                                       \
    }                                                     \
  } while (0)

__global__ void
Produce(unsigned * count, long long spin, volatile unsigned * mapped)
{
  long long start = clock64();
  while (clock64() - start < spin)
  {}
  if (blockIdx.x == 0 && threadIdx.x == 0)
  {
    *count = 12345u;
    if (mapped != nullptr)
    {
      __threadfence_system();
      *mapped = 1u;
    }
  }
}
__global__ void
Consume(unsigned * count, long long spin)
{
  long long start = clock64();
  while (clock64() - start < spin)
  {}
  if (blockIdx.x == 0 && threadIdx.x == 0)
    *count += 1;
}

int
main(int argc, char ** argv)
{
  const char * mode = argc > 1 ? argv[1] : "auto";
  unsigned     flags = cudaDeviceScheduleAuto;
  if (!std::strcmp(mode, "spin"))
    flags = cudaDeviceScheduleSpin;
  if (!std::strcmp(mode, "yield"))
    flags = cudaDeviceScheduleYield;
  if (!std::strcmp(mode, "blocking"))
    flags = cudaDeviceScheduleBlockingSync;
  CHECK(cudaSetDeviceFlags(flags | cudaDeviceMapHost));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  unsigned * count;
  CHECK(cudaMalloc(&count, 16));
  unsigned * host;
  CHECK(cudaHostAlloc(&host, 16, cudaHostAllocMapped));
  unsigned * mappedDev;
  CHECK(cudaHostGetDevicePointer(&mappedDev, host, 0));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  const long long spin = 20000; // about 10 us
  const int       n = 2000;
  for (int variant = 0; variant < 3; ++variant)
  {
    std::vector<float> gaps;
    auto               t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i)
    {
      host[4] = 0;
      Produce<<<132, 128, 0, s>>>(
        count, spin, variant == 2 ? reinterpret_cast<volatile unsigned *>(mappedDev + 4) : nullptr);
      CHECK(cudaEventRecord(a, s));
      if (variant == 1)
      {
        CHECK(cudaMemcpyAsync(host, count, 4, cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamSynchronize(s));
      }
      else if (variant == 2)
      {
        while (reinterpret_cast<volatile unsigned *>(host)[4] == 0)
        {}
      }
      CHECK(cudaEventRecord(b, s));
      Consume<<<132, 128, 0, s>>>(count, spin);
      if (variant != 0 || i % 64 == 63)
      {
        CHECK(cudaStreamSynchronize(s));
      }
      if (variant != 0)
      {
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        gaps.push_back(ms * 1000.f);
      }
    }
    CHECK(cudaStreamSynchronize(s));
    double wall = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / n;
    std::sort(gaps.begin(), gaps.end());
    const char * names[] = { "back to back", "memcpy + stream sync", "mapped flag polled" };
    if (gaps.empty())
      std::printf("%-8s %-22s wall %.1f us an iteration\n", mode, names[variant], wall);
    else
      std::printf("%-8s %-22s wall %.1f us an iteration; gap between the kernels: median %.1f, p10 %.1f, p90 %.1f us\n",
                  mode,
                  names[variant],
                  wall,
                  gaps[gaps.size() / 2],
                  gaps[gaps.size() / 10],
                  gaps[gaps.size() * 9 / 10]);
  }
  return 0;
}
