// Label images written into the host image pool's page-locked blocks
// (cca/HostImageMemory.h) on the GPU: the direct DMA of 32-bit labels, and
// 64-bit ones widened either on the device and copied by DMA or on the host
// from staging (SetPinnedLabelWidening: each, and the default, which the
// bytes on the bus tell apart), give the same bytes as the staged copies
// into ordinary memory, for images of one, two and three widening slabs
// (8 M labels each) and a short last one. The pool locks a block the second
// time it comes back, with CUDA's cudaHostRegister here. First, CUDA runs
// into new blocks, whose pages the engine writes before the copy (the
// process's first beside CUDA's start-up), against the CPU backend. CUDA
// only: exits 77 (skipped) without a usable device.
#include "cca/Engine.h"
#include "cca/HostImageMemory.h"
#include "cca/RandomImages.h"

#include "CudaBackendTesting.h"
#include "StreamingStores.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace
{

int failures = 0;

using cca::cuda::PinnedLabelWidening;

const char *
NameOf(PinnedLabelWidening where)
{
  switch (where)
  {
    case PinnedLabelWidening::OnHost:
      return "widened on the host";
    case PinnedLabelWidening::OnDevice:
      return "widened on the device";
    default:
      return "widened where the default puts it";
  }
}

/** A random 2D mask of the project's protocol in mask, and its view. */
cca::ImageView
RandomMask(std::vector<std::uint8_t> & mask,
           std::int64_t                nx,
           std::int64_t                ny,
           double                      density,
           int                         granularity,
           std::uint32_t               seed)
{
  mask.resize(static_cast<std::size_t>(nx * ny));
  cca::FillRandomBlockImage<std::uint8_t>(nx, ny, 1, density, granularity, seed, mask.data());
  cca::ImageView view;
  view.data = mask.data();
  view.dimension = 2;
  view.size[0] = nx;
  view.size[1] = ny;
  return view;
}

template <class Label>
void
Check(std::int64_t        nx,
      std::int64_t        ny,
      double              density,
      int                 granularity,
      std::uint32_t       seed,
      PinnedLabelWidening where = PinnedLabelWidening::Automatic)
{
  cca::cuda::SetPinnedLabelWidening(where);
  const std::size_t         pixels = static_cast<std::size_t>(nx * ny);
  std::vector<std::uint8_t> mask;
  const cca::ImageView      view = RandomMask(mask, nx, ny, density, granularity, seed);
  cca::Options              options;
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
  const std::string what =
    sizeof(Label) == 4 ? std::string("32-bit labels") : "64-bit labels, " + std::string(NameOf(where));
  if (block == nullptr || !cca::HostImageMemory::Pinned(block, bytes))
  {
    std::printf("FAILED: %s, %lld x %lld: no page-locked block of the pool\n",
                what.c_str(),
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
  // Widened on the device, 64-bit labels cross the bus 8 bytes each, else
  // 4 bytes each as into the reference's ordinary memory.
  const bool onDevice = where == PinnedLabelWidening::OnDevice ||
                        (where == PinnedLabelWidening::Automatic && !cca::StreamingStoresAvailable());
  const std::int64_t onBus =
    reference.bytesCopiedToHost + (onDevice && sizeof(Label) == 8 ? static_cast<std::int64_t>(pixels) * 4 : 0);
  const bool widenedWhereAsked = pooled.bytesCopiedToHost == onBus;
  if (!same || pooled.componentCount != reference.componentCount || !widenedWhereAsked)
  {
    std::printf("FAILED: %s, %lld x %lld, density %.2f, granularity %d, seed %u: %s (components %lld / %lld, "
                "bytes to the host %lld, expected %lld)\n",
                what.c_str(),
                static_cast<long long>(nx),
                static_cast<long long>(ny),
                density,
                granularity,
                seed,
                !same ? "labels differ from the staged copy" : "not widened where asked",
                static_cast<long long>(pooled.componentCount),
                static_cast<long long>(reference.componentCount),
                static_cast<long long>(pooled.bytesCopiedToHost),
                static_cast<long long>(onBus));
    ++failures;
  }
  else
  {
    std::printf("ok: %s, %lld x %lld, %lld components\n",
                what.c_str(),
                static_cast<long long>(nx),
                static_cast<long long>(ny),
                static_cast<long long>(pooled.componentCount));
  }
  cca::HostImageMemory::Release(block);
}

/** CUDA runs into new blocks of the pool, whose pages the engine writes
 *  before the copy fills them (src/FirstWrites.h): the process's first
 *  beside CUDA's start-up, then one more; their labels must be the CPU
 *  backend's. Called before any other run of the process. */
void
CheckRunsIntoNewBlocks()
{
  constexpr std::int64_t    nx = 4096;
  constexpr std::int64_t    ny = 2304;
  const std::size_t         pixels = static_cast<std::size_t>(nx * ny);
  const std::size_t         bytes = pixels * sizeof(std::uint64_t);
  std::vector<std::uint8_t> mask;
  const cca::ImageView      view = RandomMask(mask, nx, ny, 0.45, 1, 19);
  cca::Options              options;
  options.labelImageType = cca::LabelImageType::UInt64;
  std::vector<std::uint64_t> expected(pixels);
  options.backend = cca::Backend::Cpu;
  options.labelImage = expected.data();
  const cca::Result reference = cca::Engine().Run(view, options);
  void *            blocks[2] = { nullptr, nullptr };
  for (int run = 0; run < 2; ++run)
  {
    // Both held at once: the second run takes a new block too.
    blocks[run] = cca::HostImageMemory::Acquire(bytes);
    const char * what = run == 0 ? "the process's first CUDA run" : "a later CUDA run";
    if (blocks[run] == nullptr)
    {
      std::printf("FAILED: %s: no block of the pool\n", what);
      ++failures;
      continue;
    }
    options.backend = cca::Backend::Cuda;
    options.labelImage = blocks[run];
    const cca::Result result = cca::Engine().Run(view, options);
    const bool        same = std::memcmp(blocks[run], expected.data(), bytes) == 0;
    if (!same || result.componentCount != reference.componentCount)
    {
      std::printf("FAILED: %s into a new block, %lld x %lld, density 0.45, granularity 1, seed 19: %s (components "
                  "%lld / %lld)\n",
                  what,
                  static_cast<long long>(nx),
                  static_cast<long long>(ny),
                  !same ? "labels differ from the CPU backend's" : "component counts differ",
                  static_cast<long long>(result.componentCount),
                  static_cast<long long>(reference.componentCount));
      ++failures;
    }
    else
    {
      std::printf("ok: %s into a new block, %lld components\n", what, static_cast<long long>(result.componentCount));
    }
  }
  cca::HostImageMemory::Release(blocks[0]);
  cca::HostImageMemory::Release(blocks[1]);
  cca::HostImageMemory::Trim();
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
  CheckRunsIntoNewBlocks();
  // 32-bit labels: one DMA (64 MiB and larger).
  Check<std::uint32_t>(4096, 4096, 0.5, 1, 11);
  Check<std::uint32_t>(4096, 4500, 0.3, 4, 12);
  // 64-bit labels widened on the device: one slab, two, three with a short
  // last one; on the host; where the default puts them.
  Check<std::uint64_t>(4096, 2048, 0.5, 1, 13, PinnedLabelWidening::OnDevice);
  Check<std::uint64_t>(4096, 4096, 0.6, 2, 14, PinnedLabelWidening::OnDevice);
  Check<std::uint64_t>(4096, 4100, 0.4, 1, 15, PinnedLabelWidening::OnDevice);
  Check<std::uint64_t>(4096, 4100, 0.4, 1, 16, PinnedLabelWidening::OnHost);
  Check<std::uint64_t>(4096, 2048, 0.5, 4, 17, PinnedLabelWidening::OnHost);
  Check<std::uint64_t>(4096, 4096, 0.6, 2, 18);
  cca::cuda::SetPinnedLabelWidening(PinnedLabelWidening::Automatic);
  cca::HostImageMemory::Trim();
  if (failures != 0)
  {
    std::printf("%d failures\n", failures);
    return 1;
  }
  return 0;
}
