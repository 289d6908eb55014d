// Where a process's first run goes beyond its later ones. In a fresh
// process: CUDA's context (cudaFree(0)), Engine::StartCuda (it runs a
// 64 x 64 plane), then with mode "warm3d" an 8 x 8 x 8 volume as the 512^3
// runs ask (labels, table, runs, 32-bit label image), then four runs of the
// 512^3 g = 4 mask of the end-to-end table, each with a new engine, each
// with its stage times. cudaDriverGetVersion between the phases marks them
// in a CUPTI timeline (CUDA_INJECTION64_PATH). Usage: firstrun-probe [plain|warm3d]
#include "cca/Engine.h"
#include "cca/RandomImages.h"

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace
{
double
Ms(std::chrono::steady_clock::time_point a)
{
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count();
}

void
Mark()
{
  int version = 0;
  cudaDriverGetVersion(&version);
}

cca::ImageView
Volume(const std::vector<std::uint8_t> & image, std::int64_t side)
{
  cca::ImageView view;
  view.data = image.data();
  view.dimension = 3;
  view.size[0] = view.size[1] = view.size[2] = side;
  view.stride[0] = 1;
  view.stride[1] = side;
  view.stride[2] = side * side;
  return view;
}
} // namespace

int
main(int argc, char ** argv)
{
  const std::string mode = argc > 1 ? argv[1] : "plain";
  auto              t = std::chrono::steady_clock::now();
  cudaFree(nullptr);
  std::printf("context %.1f ms; ", Ms(t));
  Mark();
  t = std::chrono::steady_clock::now();
  cca::Engine::StartCuda();
  std::printf("StartCuda %.1f ms; ", Ms(t));
  Mark();
  const std::vector<std::uint8_t> image = cca::RandomBlockImage(512, 512, 512, 0.3, 4, 3);
  std::vector<std::uint32_t>      labels(image.size());
  cca::Options                    options;
  options.backend = cca::Backend::Cuda;
  options.labelImageType = cca::LabelImageType::UInt32;
  if (mode == "warm3d")
  {
    const std::vector<std::uint8_t> small = cca::RandomBlockImage(8, 8, 8, 0.3, 1, 3);
    std::vector<std::uint32_t>      smallLabels(small.size());
    options.labelImage = smallLabels.data();
    t = std::chrono::steady_clock::now();
    cca::Engine engine;
    cca::Result result;
    engine.Run(Volume(small, 8), options, result);
    std::printf("8^3 %.1f ms; ", Ms(t));
    Mark();
  }
  options.labelImage = labels.data();
  for (int k = 0; k < 4; ++k)
  {
    cca::Engine engine;
    cca::Result result;
    t = std::chrono::steady_clock::now();
    engine.Run(Volume(image, 512), options, result);
    const cca::StageTimes & s = result.times;
    std::printf("run %.1f ms (upload %.1f label %.1f features %.1f download %.1f); ",
                Ms(t),
                s.uploadMs,
                s.labelMs,
                s.featuresMs,
                s.downloadMs);
    Mark();
  }
  std::printf("\n");
  return 0;
}
