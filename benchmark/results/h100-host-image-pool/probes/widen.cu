// Throwaway probe: 32-bit device labels into a 64-bit pinned host image: zero-copy kernel stores against device
// widening + DMA in slabs.
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
__global__ void
Widen(const unsigned * in, unsigned long long * out, size_t n)
{
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}
__global__ void
Widen2(const uint2 * in, ulonglong2 * out, size_t pairs)
{ // 16-byte stores
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < pairs; i += size_t(gridDim.x) * blockDim.x)
  {
    uint2 v = in[i];
    out[i] = make_ulonglong2(v.x, v.y);
  }
}
int
main(int argc, char ** argv)
{
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2348810240ull;
  const size_t bytes = n * 8;
  unsigned *   dev;
  CK(cudaMalloc(&dev, n * 4));
  CK(cudaMemset(dev, 0, n * 4));
  void * p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  madvise(p, bytes, MADV_HUGEPAGE);
  {
    std::vector<std::thread> pool;
    for (int t = 0; t < 16; ++t)
      pool.emplace_back([&, t] {
        size_t part = bytes / 16;
        char * c = (char *)p;
        for (size_t o = t * part; o < (t + 1) * part; o += 4096)
          c[o] = 0;
      });
    for (auto & th : pool)
      th.join();
  }
  double t0 = Now();
  CK(cudaHostRegister(p, bytes, cudaHostRegisterMapped));
  std::printf("register %.2f GB: %.0f ms\n", bytes / 1e9, (Now() - t0) * 1e3);
  unsigned long long * hostDev;
  CK(cudaHostGetDevicePointer((void **)&hostDev, p, 0));
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int sms;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int blocksPerSm : { 2, 8, 32 })
    for (int rep = 0; rep < 2; ++rep)
    {
      t0 = Now();
      Widen<<<sms * blocksPerSm, 256, 0, s>>>(dev, hostDev, n);
      CK(cudaStreamSynchronize(s));
      double t = Now() - t0;
      std::printf("zero-copy widen, 8-byte stores, %d blocks/SM: %.0f ms (%.1f GB/s written)\n",
                  blocksPerSm,
                  t * 1e3,
                  bytes / t / 1e9);
      t0 = Now();
      Widen2<<<sms * blocksPerSm, 256, 0, s>>>((const uint2 *)dev, (ulonglong2 *)hostDev, n / 2);
      CK(cudaStreamSynchronize(s));
      t = Now() - t0;
      std::printf("zero-copy widen, 16-byte stores, %d blocks/SM: %.0f ms (%.1f GB/s written)\n",
                  blocksPerSm,
                  t * 1e3,
                  bytes / t / 1e9);
    }
  for (size_t slab : { size_t(16) << 20, size_t(64) << 20, size_t(256) << 20 })
  { // device widening into two slabs, DMA each
    unsigned long long * scratch[2];
    CK(cudaMalloc(&scratch[0], slab));
    CK(cudaMalloc(&scratch[1], slab));
    cudaStream_t cs;
    CK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking));
    cudaEvent_t widened[2], copied[2];
    for (int b = 0; b < 2; ++b)
    {
      CK(cudaEventCreateWithFlags(&widened[b], cudaEventDisableTiming));
      CK(cudaEventCreateWithFlags(&copied[b], cudaEventDisableTiming));
      CK(cudaEventRecord(copied[b], cs));
    }
    const size_t per = slab / 8;
    t0 = Now();
    for (size_t k = 0, b = 0; k * per < n; ++k, b ^= 1)
    {
      size_t m = std::min(per, n - k * per);
      CK(cudaStreamWaitEvent(s, copied[b], 0));
      Widen2<<<sms * 8, 256, 0, s>>>((const uint2 *)(dev + k * per), (ulonglong2 *)scratch[b], m / 2);
      CK(cudaEventRecord(widened[b], s));
      CK(cudaStreamWaitEvent(cs, widened[b], 0));
      CK(cudaMemcpyAsync((char *)p + k * per * 8, scratch[b], m * 8, cudaMemcpyDeviceToHost, cs));
      CK(cudaEventRecord(copied[b], cs));
    }
    CK(cudaStreamSynchronize(cs));
    double t = Now() - t0;
    std::printf("device widen + DMA, %zu MiB slabs: %.0f ms (%.1f GB/s)\n", slab >> 20, t * 1e3, bytes / t / 1e9);
    cudaFree(scratch[0]);
    cudaFree(scratch[1]);
  }
  t0 = Now();
  CK(cudaMemcpyAsync(p, dev, n * 4, cudaMemcpyDeviceToHost, s));
  CK(cudaStreamSynchronize(s));
  double t = Now() - t0;
  std::printf("plain DMA of the 32-bit labels: %.0f ms (%.1f GB/s)\n", t * 1e3, n * 4 / t / 1e9);
  // correctness spot check of the zero-copy result
  CK(cudaMemset(dev, 0x5a, n * 4));
  Widen2<<<sms * 8, 256, 0, s>>>((const uint2 *)dev, (ulonglong2 *)hostDev, n / 2);
  CK(cudaStreamSynchronize(s));
  std::printf("check %s\n", ((unsigned long long *)p)[n / 3] == 0x5a5a5a5aull ? "ok" : "WRONG");
  return 0;
}
