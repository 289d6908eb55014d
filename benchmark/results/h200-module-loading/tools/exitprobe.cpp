// What CUDA's teardown at a process's exit costs, and whether releasing CUDA
// earlier on a thread of its own takes it off the exit. Modes:
//   context   cudaFree(0) only
//   start     Engine::StartCuda()
//   run       StartCuda, then one run of the 512^3 g = 4 mask (labels, table, runs, label image)
//   release   run, then Engine::ReleaseCachedMemory() (timed)
//   reset     run, ReleaseCachedMemory, cudaDeviceReset() (timed)
//   beside    run, then ReleaseCachedMemory + cudaDeviceReset on a thread while
//             the main thread waits 300 ms (the outputs' write), not joined
// The last line before _Exit prints CLOCK_REALTIME in ns; the caller times the exit.
#include "cca/Engine.h"
#include "cca/RandomImages.h"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

static double
Ms(std::chrono::steady_clock::time_point a)
{
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

int
main(int argc, char ** argv)
{
  const std::string mode = argc > 1 ? argv[1] : "run";
  auto              t = std::chrono::steady_clock::now();
  if (mode == "phased")
  {
    cudaFree(nullptr);
    std::printf("context %.1f ms; ", Ms(t));
    t = std::chrono::steady_clock::now();
    cca::Engine::StartCuda();
    std::printf("StartCuda after it %.1f ms\n", Ms(t));
  }
  else if (mode == "context")
  {
    cudaFree(nullptr);
    std::printf("context %.1f ms\n", Ms(t));
  }
  else
  {
    cca::Engine::StartCuda();
    std::printf("StartCuda %.1f ms\n", Ms(t));
  }
  std::vector<std::uint8_t>  image;
  std::vector<std::uint32_t> labels;
  if (mode != "context" && mode != "start")
  {
    image = cca::RandomBlockImage(512, 512, 512, 0.3, 4, 3);
    labels.resize(image.size());
    cca::ImageView view;
    view.data = image.data();
    view.dimension = 3;
    view.size[0] = view.size[1] = view.size[2] = 512;
    view.stride[0] = 1;
    view.stride[1] = 512;
    view.stride[2] = 512 * 512;
    cca::Options options;
    options.backend = cca::Backend::Cuda;
    options.labelImageType = cca::LabelImageType::UInt32;
    options.labelImage = labels.data();
    cca::Engine engine;
    cca::Result result;
    t = std::chrono::steady_clock::now();
    engine.Run(view, options, result);
    std::printf("run %.1f ms, %lld components\n", Ms(t), static_cast<long long>(result.componentCount));
    if (mode == "phased")
    {
      for (int k = 0; k < 2; ++k)
      {
        cca::Engine second;
        t = std::chrono::steady_clock::now();
        second.Run(view, options, result);
        std::printf("a later run with a new engine %.1f ms\n", Ms(t));
      }
    }
  }
  if (mode == "release" || mode == "reset")
  {
    t = std::chrono::steady_clock::now();
    cca::Engine::ReleaseCachedMemory();
    std::printf("ReleaseCachedMemory %.1f ms\n", Ms(t));
  }
  if (mode == "reset")
  {
    t = std::chrono::steady_clock::now();
    const cudaError_t e = cudaDeviceReset();
    std::printf("cudaDeviceReset %.1f ms (%s)\n", Ms(t), cudaGetErrorString(e));
  }
  if (mode == "beside")
  {
    std::thread([] {
      const auto s = std::chrono::steady_clock::now();
      cca::Engine::ReleaseCachedMemory();
      cudaDeviceReset();
      std::printf("beside: release and reset %.1f ms\n", Ms(s));
      std::fflush(stdout);
    }).detach();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
  if (std::getenv("PROBE_NORMAL_EXIT") != nullptr)
  {
    return 0; // atexit handlers run (a CUPTI injection writes its timeline then)
  }
  timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  std::printf("stamp %lld\n", static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec);
  std::fflush(stdout);
  std::_Exit(0);
}
