// Label images written into the host image pool's page-locked blocks
// (cca/HostImageMemory.h) on the GPU: the direct DMA of 32-bit labels and the
// device-widened DMA of 64-bit ones give the same bytes as the staged copies
// into ordinary memory, for images of one, two and three widening slabs
// (8 M labels each) and a short last one. The pool locks a block the second
// time it comes back, with CUDA's cudaHostRegister here. CUDA only: exits 77
// (skipped) without a usable device.
#include "cca/Engine.h"
#include "cca/HostImageMemory.h"
#include "cca/RandomImages.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace
{

int failures = 0;

template <class Label>
void
Check(std::int64_t nx, std::int64_t ny, double density, int granularity, std::uint32_t seed)
{
  const std::size_t         pixels = static_cast<std::size_t>(nx * ny);
  std::vector<std::uint8_t> mask(pixels);
  cca::FillRandomBlockImage<std::uint8_t>(nx, ny, 1, density, granularity, seed, mask.data());
  cca::ImageView view;
  view.data = mask.data();
  view.dimension = 2;
  view.size[0] = nx;
  view.size[1] = ny;
  cca::Options options;
  options.backend = cca::Backend::Cuda;
  options.connectivity = cca::Connectivity::Full;
  options.labelImageType = sizeof(Label) == 4 ? cca::LabelImageType::UInt32 : cca::LabelImageType::UInt64;

  std::vector<Label> expected(pixels);
  options.labelImage = expected.data();
  cca::Engine engine;
  cca::Result reference = engine.Run(view, options);

  // The third use of a block finds it page-locked.
  const std::size_t bytes = pixels * sizeof(Label);
  void *            block = nullptr;
  for (int use = 0; use < 3; ++use)
  {
    cca::HostImageMemory::Release(block);
    cca::HostImageMemory::WaitForPinning();
    block = cca::HostImageMemory::Acquire(bytes);
  }
  const char * what = sizeof(Label) == 4 ? "32-bit labels" : "64-bit labels";
  if (block == nullptr || !cca::HostImageMemory::Pinned(block, bytes))
  {
    std::printf("FAILED: %s, %lld x %lld: no page-locked block of the pool\n",
                what,
                static_cast<long long>(nx),
                static_cast<long long>(ny));
    ++failures;
    cca::HostImageMemory::Release(block);
    return;
  }
  std::memset(block, 0xab, bytes); // what the engine does not write shows
  options.labelImage = block;
  cca::Result pooled = cca::Engine().Run(view, options);
  const bool  same = std::memcmp(block, expected.data(), bytes) == 0;
  // The widened labels cross the bus 8 bytes each when the block takes them by DMA.
  const bool widenedByDma = sizeof(Label) == 4 || pooled.bytesCopiedToHost >= static_cast<std::int64_t>(bytes);
  if (!same || pooled.componentCount != reference.componentCount || !widenedByDma)
  {
    std::printf("FAILED: %s, %lld x %lld, density %.2f, granularity %d, seed %u: %s (components %lld / %lld, "
                "bytes to the host %lld)\n",
                what,
                static_cast<long long>(nx),
                static_cast<long long>(ny),
                density,
                granularity,
                seed,
                !same ? "labels differ from the staged copy" : "not copied by DMA",
                static_cast<long long>(pooled.componentCount),
                static_cast<long long>(reference.componentCount),
                static_cast<long long>(pooled.bytesCopiedToHost));
    ++failures;
  }
  else
  {
    std::printf("ok: %s, %lld x %lld, %lld components\n",
                what,
                static_cast<long long>(nx),
                static_cast<long long>(ny),
                static_cast<long long>(pooled.componentCount));
  }
  cca::HostImageMemory::Release(block);
}

} // namespace

int
main()
{
  if (!cca::Engine::CudaAvailable())
  {
    std::printf("no usable CUDA device: skipped\n");
    return 77;
  }
  // 32-bit labels: one DMA (64 MiB and larger).
  Check<std::uint32_t>(4096, 4096, 0.5, 1, 11);
  Check<std::uint32_t>(4096, 4500, 0.3, 4, 12);
  // 64-bit labels widened on the device: one slab, two, three with a short last one.
  Check<std::uint64_t>(4096, 2048, 0.5, 1, 13);
  Check<std::uint64_t>(4096, 4096, 0.6, 2, 14);
  Check<std::uint64_t>(4096, 4100, 0.4, 1, 15);
  cca::HostImageMemory::Trim();
  if (failures != 0)
  {
    std::printf("%d failures\n", failures);
    return 1;
  }
  return 0;
}
