// Where CUDA start-up time goes on the machine: each step in a fresh
// process (argv[1] picks the sequence), wall clock.
#include "cca/Engine.h"
#include "DeviceMemory.h"
#include <cuda_runtime_api.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>
#include <vector>
using Clock = std::chrono::steady_clock;
static double
Ms(Clock::time_point a, Clock::time_point b)
{
  return std::chrono::duration<double, std::milli>(b - a).count();
}
int
main(int argc, char ** argv)
{
  const std::string mode = argc > 1 ? argv[1] : "engine";
  auto              t0 = Clock::now();
  if (mode == "engine")
  {
    const bool available = cca::Engine::CudaAvailable();
    auto       t1 = Clock::now();
    cca::Engine::StartCuda();
    double grow = 0;
    if (argc > 2) // pre-grow the engine's device pool by argv[2] MiB
    {
      auto g0 = Clock::now();
      int  dev = 0;
      cudaGetDevice(&dev);
      cudaMemPool_t pool = cca::cuda::DeviceMemoryPool(dev);
      void *        p = nullptr;
      cudaMallocFromPoolAsync(&p, std::size_t(std::atoi(argv[2])) << 20, pool, 0);
      cudaFreeAsync(p, 0);
      cudaStreamSynchronize(0);
      grow = Ms(g0, Clock::now());
    }
    auto                      t2 = Clock::now();
    std::vector<std::uint8_t> image(512 * 512);
    for (std::size_t i = 0; i < image.size(); ++i)
      image[i] = (i * 2654435761u >> 9) & 1;
    std::vector<std::uint32_t> labels(image.size());
    cca::ImageView             view;
    view.data = image.data();
    view.size[0] = 512;
    view.size[1] = 512;
    cca::Options o;
    o.backend = cca::Backend::Cuda;
    o.labelImageType = cca::LabelImageType::UInt32;
    o.labelImage = labels.data();
    std::vector<std::uint8_t> ct;
    if (std::getenv("CT"))
    {
      image.assign(std::size_t(512) * 512 * 400, 0);
      for (std::size_t i = 0; i < image.size(); ++i)
        image[i] = ((i * 2654435761u) >> 13) % 7 == 0;
      labels.resize(image.size());
      view.data = image.data();
      view.size[2] = 400;
      o.labelImage = labels.data();
    }
    cca::Engine e;
    cca::Result r = e.Run(view, o);
    auto        t3 = Clock::now();
    o.labelImageType = cca::LabelImageType::None;
    o.labelImage = nullptr;
    o.computeFeatures = true;
    o.computeRuns = true;
    cca::Result r2 = e.Run(view, o);
    auto        t4 = Clock::now();
    std::printf("engine (pool grown by %s MiB in %.1f ms): CudaAvailable %.1f ms (%d), StartCuda+grow %.1f ms, first "
                "labels run %.1f ms, first table run %.1f ms, total %.1f ms\n",
                argc > 2 ? argv[2] : "0",
                grow,
                Ms(t0, t1),
                available,
                Ms(t1, t2),
                Ms(t2, t3),
                Ms(t3, t4),
                Ms(t0, t4));
  }
  else
  {
    int n = 0;
    cudaGetDeviceCount(&n);
    auto t1 = Clock::now();
    cudaFree(nullptr);
    auto                t2 = Clock::now();
    std::vector<void *> pinned;
    for (int i = 0; i < 32; ++i)
    {
      void * p = nullptr;
      cudaHostAlloc(&p, 2u << 20, cudaHostAllocDefault);
      pinned.push_back(p);
    }
    auto t3 = Clock::now();
    for (int i = 0; i < 3; ++i)
    {
      void * p = nullptr;
      cudaHostAlloc(&p, 16u << 20, cudaHostAllocDefault);
      pinned.push_back(p);
    }
    auto                      t4 = Clock::now();
    std::vector<cudaStream_t> streams(17);
    for (auto & s : streams)
      cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    std::vector<cudaEvent_t> events(40);
    for (auto & e : events)
      cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    auto   t5 = Clock::now();
    void * d = nullptr;
    cudaMallocAsync(&d, 64u << 20, streams[0]);
    cudaStreamSynchronize(streams[0]);
    auto t6 = Clock::now();
    std::printf("raw: device count %.1f ms, context (cudaFree 0) %.1f ms, 32 x 2 MiB pinned %.1f ms, 3 x 16 MiB pinned "
                "%.1f ms, 17 streams + 40 events %.1f ms, first 64 MiB cudaMallocAsync %.1f ms\n",
                Ms(t0, t1),
                Ms(t1, t2),
                Ms(t2, t3),
                Ms(t3, t4),
                Ms(t4, t5),
                Ms(t5, t6));
  }
}
