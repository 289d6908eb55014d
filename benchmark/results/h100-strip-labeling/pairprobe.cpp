// How much a labeling of 2-row strips could save on planes under full
// connectivity (the BKE idea, Allegretti 2019, on runs): any two foreground
// pixels of a 2 x 2 block touch under 8-connectivity, so the runs of the OR
// of rows 2p and 2p + 1 are connected sets. Labeling those strips halves the
// rows and, near the threshold, the runs a row has. This probe times the
// engine's labels only (8-conn., image and labels in device memory, median
// of 5 after a warm-up) on each protocol image of 8192^2 and on its OR'd
// 8192 x 4096 strip image: the strips' links are a superset of the true ones
// (a real strip labeling must check the facing rows' pixels), so the second
// time is the floor of the strips' run detection, links and numbering, with
// half the label image.
#include "RandomImages.h"
#include "cca/Engine.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <vector>

namespace
{
using namespace ccabench;

double
KernelMs(cca::Engine & engine, const void * image, std::int64_t width, std::int64_t height, void * labels)
{
  cca::ImageView view;
  view.data = image;
  view.memory = cca::MemorySpace::CudaDevice;
  view.pixelType = cca::PixelType::UInt8;
  view.dimension = 2;
  view.size[0] = width;
  view.size[1] = height;
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
  using namespace ccabench;
  const std::int64_t        n = 8192;
  cca::Engine               engine;
  std::vector<std::uint8_t> image, strips(static_cast<std::size_t>(n * n / 2));
  void *                    deviceImage = nullptr;
  void *                    deviceStrips = nullptr;
  void *                    labels = nullptr;
  cudaMalloc(&deviceImage, n * n);
  cudaMalloc(&deviceStrips, n * n / 2);
  cudaMalloc(&labels, n * n * 4);
  std::printf("g density rows_ms strips_ms\n");
  double sumRows[17] = {}, sumStrips[17] = {};
  for (const ImageCase & c : ProtocolCases(0.1))
  {
    MakeImage(n, c, image);
    for (std::int64_t p = 0; p < n / 2; ++p)
      for (std::int64_t x = 0; x < n; ++x)
        strips[p * n + x] = image[2 * p * n + x] | image[(2 * p + 1) * n + x];
    cudaMemcpy(deviceImage, image.data(), image.size(), cudaMemcpyHostToDevice);
    cudaMemcpy(deviceStrips, strips.data(), strips.size(), cudaMemcpyHostToDevice);
    const double rows = KernelMs(engine, deviceImage, n, n, labels);
    const double half = KernelMs(engine, deviceStrips, n, n / 2, labels);
    const int    key = c.allForeground ? 0 : c.g;
    sumRows[key] += rows;
    sumStrips[key] += half;
    std::printf("%s %.1f %.4f %.4f\n", c.GName().c_str(), c.density, rows, half);
  }
  for (int key : { 1, 4, 16, 0 })
  {
    const double images = key == 0 ? 1 : 11;
    std::printf("summed g=%d: rows %.3f ms (%.1f Gpix/s), strips %.3f ms (%.1f Gpix/s of the full image)\n",
                key,
                sumRows[key],
                images * n * n / (sumRows[key] * 1e6),
                sumStrips[key],
                images * n * n / (sumStrips[key] * 1e6));
  }
  return 0;
}
