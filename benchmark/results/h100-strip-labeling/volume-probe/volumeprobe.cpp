// Whether 26-connected volumes could gain from strips as planes did: the
// engine's labels only (26-conn., image and labels in device memory, median
// of 5 after a warm-up) on each protocol volume of 512^3 as users get it
// (runs or blocks, by the engine's choice), by the runs alone, and by the
// runs alone on two OR'd volumes: pairs of rows (512 x 256 x 512, the
// strips) and 2 x 2 rows across slices (512 x 256 x 256, tubes; the voxels
// of a 2 x 2 x 2 block all touch). Links between the OR'd runs are not
// checked, so those times are floors of what a strip or tube labeling
// could take (the planes' checked strips took about 1.6x their floor).
#include "CudaBackendTesting.h"
#include "RandomImages.h"
#include "cca/Engine.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <vector>

namespace
{
using namespace ccabench;

double
KernelMs(cca::Engine & engine, const void * image, std::int64_t nx, std::int64_t ny, std::int64_t nz, void * labels)
{
  cca::ImageView view;
  view.data = image;
  view.memory = cca::MemorySpace::CudaDevice;
  view.pixelType = cca::PixelType::UInt8;
  view.dimension = 3;
  view.size[0] = nx;
  view.size[1] = ny;
  view.size[2] = nz;
  cca::Options options;
  options.connectivity = cca::Connectivity::Full;
  options.backend = cca::Backend::Cuda;
  options.computeRuns = false;
  options.computeFeatures = false;
  options.labelImageType = cca::LabelImageType::UInt32;
  options.labelImage = labels;
  options.labelImageMemory = cca::MemorySpace::CudaDevice;
  cca::Result         r;
  std::vector<double> ms;
  for (int i = 0; i < 6; ++i)
  {
    engine.Run(view, options, r);
    if (i > 0)
      ms.push_back(r.times.uploadMs + r.times.labelMs + r.times.featuresMs);
  }
  return Median(ms);
}
} // namespace

int
main()
{
  const std::int64_t        n = 512;
  cca::Engine               engine;
  std::vector<std::uint8_t> image, strips(static_cast<std::size_t>(n * n * n / 2)),
    tubes(static_cast<std::size_t>(n * n * n / 4));
  void * deviceImage = nullptr;
  void * deviceStrips = nullptr;
  void * deviceTubes = nullptr;
  void * labels = nullptr;
  cudaMalloc(&deviceImage, n * n * n);
  cudaMalloc(&deviceStrips, n * n * n / 2);
  cudaMalloc(&deviceTubes, n * n * n / 4);
  cudaMalloc(&labels, n * n * n * 4);
  std::printf("g density auto_ms runs_ms strips_ms tubes_ms\n");
  double sum[4][17] = {};
  for (const ImageCase & c : ProtocolCases(0.1))
  {
    MakeImage(n, c, image, 3);
    const auto at = [&](std::int64_t x, std::int64_t y, std::int64_t z) { return image[(z * n + y) * n + x]; };
    for (std::int64_t z = 0; z < n; ++z)
      for (std::int64_t p = 0; p < n / 2; ++p)
        for (std::int64_t x = 0; x < n; ++x)
          strips[(z * (n / 2) + p) * n + x] = at(x, 2 * p, z) | at(x, 2 * p + 1, z);
    for (std::int64_t q = 0; q < n / 2; ++q)
      for (std::int64_t p = 0; p < n / 2; ++p)
        for (std::int64_t x = 0; x < n; ++x)
          tubes[(q * (n / 2) + p) * n + x] =
            strips[((2 * q) * (n / 2) + p) * n + x] | strips[((2 * q + 1) * (n / 2) + p) * n + x];
    cudaMemcpy(deviceImage, image.data(), image.size(), cudaMemcpyHostToDevice);
    cudaMemcpy(deviceStrips, strips.data(), strips.size(), cudaMemcpyHostToDevice);
    cudaMemcpy(deviceTubes, tubes.data(), tubes.size(), cudaMemcpyHostToDevice);
    cca::cuda::SetBlockLabeling(cca::cuda::BlockLabelingUse::Automatic);
    const double automatic = KernelMs(engine, deviceImage, n, n, n, labels);
    cca::cuda::SetBlockLabeling(cca::cuda::BlockLabelingUse::Never);
    const double runs = KernelMs(engine, deviceImage, n, n, n, labels);
    const double onStrips = KernelMs(engine, deviceStrips, n, n / 2, n, labels);
    const double onTubes = KernelMs(engine, deviceTubes, n, n / 2, n / 2, labels);
    const int    key = c.allForeground ? 0 : c.g;
    const double t[4] = { automatic, runs, onStrips, onTubes };
    for (int k = 0; k < 4; ++k)
      sum[k][key] += t[k];
    std::printf("%s %.1f %.4f %.4f %.4f %.4f\n", c.GName().c_str(), c.density, automatic, runs, onStrips, onTubes);
  }
  for (int key : { 1, 4, 16, 0 })
  {
    const double voxels = (key == 0 ? 1 : 11) * static_cast<double>(n * n * n);
    std::printf("summed g=%d Gvox/s: auto %.1f, runs %.1f, strip floor %.1f, tube floor %.1f\n",
                key,
                voxels / (sum[0][key] * 1e6),
                voxels / (sum[1][key] * 1e6),
                voxels / (sum[2][key] * 1e6),
                voxels / (sum[3][key] * 1e6));
  }
  return 0;
}
