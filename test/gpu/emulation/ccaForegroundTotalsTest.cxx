// The foreground's totals (ForegroundTotalsKernel, cuda/LargestBySubtraction.cuh),
// on emulated threads: random byte masks of whole 16-pixel lanes (one to
// three 512-pixel stretches, several 32-row tasks down a slice and rows
// left over, planes and volumes, slices with and without z faces), every
// foreground rule, from empty to full, and grids of one to three blocks so
// that warps take several tasks. Each of the 24 words against its sum over
// the foreground pixels on the host: the pixels, the coordinates' sums and
// products, the border and face pixels, and per direction class the pairs
// of foreground neighbours counted from the later pixel in raster order.
//
// Usage: ccaForegroundTotalsTest [--cases N] [--seed S]
#include "CasesAndSeed.h"
#include "CudaEmulation.h"

#include "LargestBySubtraction.cuh"

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using namespace cca::cuda;

/** 16 bytes aligned as the kernel's lane loads want them. */
struct alignas(16) Piece
{
  std::uint8_t bytes[16];
};

/** The words ForegroundTotalsKernel leaves, summed pixel by pixel. */
std::vector<unsigned long long>
HostTotals(const std::uint8_t *                 image,
           const Geometry &                     g,
           const cca::detail::ImageFaces &      faces,
           const ForegroundTest<std::uint8_t> & test)
{
  std::vector<unsigned long long> words(AdditiveWords, 0);
  const auto                      at = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    return x >= 0 && x < g.width && y >= 0 && y < g.height && z >= 0 && z < g.depth &&
           test(image[(z * g.height + y) * g.width + x]);
  };
  for (std::int64_t z = 0; z < g.depth; ++z)
  {
    for (std::int64_t y = 0; y < g.height; ++y)
    {
      for (std::int64_t x = 0; x < g.width; ++x)
      {
        if (!at(x, y, z))
        {
          continue;
        }
        const auto ux = static_cast<unsigned long long>(x);
        const auto uy = static_cast<unsigned long long>(y);
        const auto uz = static_cast<unsigned long long>(z);
        words[PixelsWord] += 1;
        words[SumWords + 0] += ux;
        words[SumWords + 1] += uy;
        words[SumWords + 2] += uz;
        words[ProductWords + 0] += ux * ux;
        words[ProductWords + 1] += uy * uy;
        words[ProductWords + 2] += uz * uz;
        words[ProductWords + 3] += ux * uy;
        words[ProductWords + 4] += ux * uz;
        words[ProductWords + 5] += uy * uz;
        const bool face[6] = { x == 0,
                               x == g.width - 1,
                               y == 0,
                               y == g.height - 1,
                               faces.hasZAxis && z == 0,
                               faces.hasZAxis && z == g.depth - 1 };
        bool       border = false;
        for (int k = 0; k < 6; ++k)
        {
          words[FaceWords + k] += face[k] ? 1 : 0;
          border = border || face[k];
        }
        words[BorderWord] += border ? 1 : 0;
        // The neighbours before the pixel in raster order.
        for (int dz = -1; dz <= 0; ++dz)
        {
          for (int dy = -1; dy <= (dz < 0 ? 1 : 0); ++dy)
          {
            for (int dx = -1; dx <= 1; ++dx)
            {
              if (dz == 0 && dy == 0 && dx >= 0)
              {
                continue;
              }
              if (at(x + dx, y + dy, z + dz))
              {
                words[SlotWords + cca::InterceptSlot(dx != 0, dy != 0, dz != 0)] += 1;
              }
            }
          }
        }
      }
    }
  }
  return words;
}

/** One case; returns what failed, or an empty string. */
std::string
Case(std::mt19937 & rng)
{
  auto               pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  const std::int64_t width = LanePixels * (1 + pick(80));
  const std::int64_t height = 1 + pick(pick(4) == 0 ? 100 : 40);
  const std::int64_t depth = pick(4) == 0 ? 1 : 2 + pick(4);
  const int          kind = pick(10);
  const double       density = kind == 0 ? 0.0 : kind == 1 ? 1.0 : 0.1 * (1 + pick(9));
  const int          grain = 1 + pick(4);
  const std::uint8_t values[2] = { static_cast<std::uint8_t>(1 + pick(3)), 0 };

  const std::int64_t          pixels = width * height * depth;
  std::vector<Piece>          storage(static_cast<std::size_t>((pixels + 15) / 16), Piece{});
  auto * const                image = reinterpret_cast<std::uint8_t *>(storage.data());
  std::bernoulli_distribution draw(density);
  for (std::int64_t i = 0; i < pixels; i += grain)
  {
    const std::uint8_t value = draw(rng) ? values[0] : (pick(3) == 0 ? static_cast<std::uint8_t>(4) : values[1]);
    for (std::int64_t k = i; k < i + grain && k < pixels; ++k)
    {
      image[k] = value;
    }
  }

  Geometry g{};
  g.width = width;
  g.height = height;
  g.depth = depth;
  g.rows = height * depth;
  cca::detail::ImageFaces faces{};
  faces.width = static_cast<std::int32_t>(width);
  faces.height = static_cast<std::int32_t>(height);
  faces.depth = static_cast<std::int32_t>(depth);
  faces.hasZAxis = depth > 1 || pick(2) == 0; // a volume one slice deep has z faces
  // Nonzero, equal to the drawn value, not equal to it, every pixel.
  const int                    rule = pick(4);
  ForegroundTest<std::uint8_t> test{};
  test.value = rule == 0 ? std::uint8_t{ 0 } : values[0];
  test.equal = rule == 1;
  test.all = rule == 3;
  if (rule == 2)
  {
    test.value = 4; // the pixels drawn as 4 are background
  }

  std::vector<unsigned long long> totals(AdditiveWords, 0);
  const unsigned                  blocks = 1 + static_cast<unsigned>(pick(3));
  emulation::Launch(blocks, BlockThreads, [&] { ForegroundTotalsKernel(image, g, faces, test, totals.data()); });
  const std::vector<unsigned long long> expected = HostTotals(image, g, faces, test);

  std::ostringstream failure;
  failure << width << "x" << height << "x" << depth << (faces.hasZAxis ? " (z faces)" : "") << " density " << density
          << " grain " << grain << " rule " << rule << " blocks " << blocks << ":";
  bool failed = false;
  for (int k = 0; k < AdditiveWords; ++k)
  {
    if (totals[static_cast<std::size_t>(k)] != expected[static_cast<std::size_t>(k)])
    {
      failure << " word " << k << " is " << totals[static_cast<std::size_t>(k)] << ", expected "
              << expected[static_cast<std::size_t>(k)] << ";";
      failed = true;
    }
  }
  return failed ? failure.str() : std::string{};
}

} // namespace

int
main(int argc, char * argv[])
{
  int           cases = 150;
  std::uint32_t seed = 20261202;
  if (!emulation::ParseCasesAndSeed(argc, argv, cases, seed))
  {
    return 2;
  }
  int failed = 0;
  for (int k = 0; k < cases; ++k)
  {
    std::mt19937      rng(seed + static_cast<std::uint32_t>(k));
    const std::string failure = Case(rng);
    if (!failure.empty())
    {
      std::cerr << "FAIL seed=" << seed + static_cast<std::uint32_t>(k) << " " << failure << '\n';
      ++failed;
    }
  }
  std::cout << "foreground totals: " << cases - failed << " passed, " << failed << " failed (seed " << seed << ")\n";
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
