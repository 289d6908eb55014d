// cca/RandomImages.h, the one generator of the papers' random block images:
//  - fingerprints (FNV-1a of the pixels) of protocol images as
//    benchmark/RandomImages.h made them before it used the library, and of
//    the 3D volumes of the external benchmark harness's RandomVolume: those
//    harnesses regenerate the images, so they must stay bit for bit;
//  - odd sizes, 2D and 3D, against a per-pixel reading of the definition
//    (one MT19937 draw per block in raster order of the blocks, foreground
//    when draw < density * 2^32);
//  - the foreground value parameter;
//  - cca::Mt19937Blocks, the generator behind them, word for word against
//    std::mt19937 (its own draws and whole blocks, mixed).
#include "cca/RandomImages.h"

#include <cstdint>
#include <iostream>
#include <random>
#include <vector>

namespace
{

std::uint64_t
Fingerprint(const std::vector<std::uint8_t> & pixels)
{
  std::uint64_t h = 1469598103934665603ull;
  for (const std::uint8_t p : pixels)
  {
    h = (h ^ p) * 1099511628211ull;
  }
  return h;
}

/** The definition, pixel by pixel. */
std::vector<std::uint8_t>
Reference(std::int64_t nx, std::int64_t ny, std::int64_t nz, double density, int g, std::uint32_t seed)
{
  const std::int64_t         bx = (nx + g - 1) / g;
  const std::int64_t         by = (ny + g - 1) / g;
  const std::int64_t         bz = (nz + g - 1) / g;
  std::mt19937               rng(seed);
  std::vector<std::uint32_t> draws(static_cast<std::size_t>(bx * by * bz));
  for (auto & d : draws)
  {
    d = rng();
  }
  std::vector<std::uint8_t> image(static_cast<std::size_t>(nx * ny * nz));
  for (std::int64_t z = 0; z < nz; ++z)
  {
    for (std::int64_t y = 0; y < ny; ++y)
    {
      for (std::int64_t x = 0; x < nx; ++x)
      {
        const std::uint32_t u = draws[static_cast<std::size_t>(x / g + bx * (y / g + by * (z / g)))];
        image[static_cast<std::size_t>(x + nx * (y + ny * z))] = static_cast<double>(u) < density * 4294967296.0;
      }
    }
  }
  return image;
}

} // namespace

int
main()
{
  int failed = 0;
  struct Print
  {
    int           dimension;
    std::int64_t  size;
    double        density;
    int           g;
    std::uint32_t seed;
    std::uint64_t fingerprint;
  };
  // Seeds as the benchmark protocol numbers them (1000 g + density step). The
  // last is a volume of the 3D protocol at its size (cca_benchmark --dimension 3;
  // the peers' harness's RandomVolume gives this fingerprint too): about 0.3 s.
  const Print prints[] = {
    { 2, 257, 0.5, 1, 1005, 0x67a39693420c1141ull },   { 2, 257, 0.3, 4, 4003, 0x2ab4e0f223aaa9f5ull },
    { 2, 300, 0.7, 16, 16007, 0xa9b84d77164d22d3ull }, { 2, 1000, 0.45, 4, 4004, 0x56abcf03d037b063ull },
    { 2, 64, 0.6, 1, 1006, 0x60eb9c854474e1bfull },    { 2, 100, 1.0, 1, 1010, 0x46971c13f59c6353ull },
    { 2, 100, 0.0, 4, 4000, 0x9217a97c29270043ull },   { 2, 33, 0.1, 16, 16001, 0x7badb069919c8af9ull },
    { 3, 64, 0.3, 1, 1003, 0xaaf89022872dea4full },    { 3, 50, 0.5, 4, 4005, 0xd2e17f1a5b6cf2a3ull },
    { 3, 40, 0.7, 16, 16007, 0x5a1eca583a669983ull },  { 3, 37, 0.45, 4, 4004, 0xa8105d5b80709c25ull },
    { 3, 20, 1.0, 1, 1010, 0x4da1349b052a41c3ull },    { 3, 512, 0.5, 4, 4005, 0xb2b029d27c52d1c3ull }
  };
  for (const Print & p : prints)
  {
    const std::int64_t nz = p.dimension == 3 ? p.size : 1;
    const auto         image = cca::RandomBlockImage(p.size, p.size, nz, p.density, p.g, p.seed);
    if (Fingerprint(image) != p.fingerprint)
    {
      ++failed;
      std::cout << "FAIL fingerprint " << p.dimension << "D size " << p.size << " d=" << p.density << " g=" << p.g
                << " seed=" << p.seed << std::endl;
    }
  }
  struct Odd
  {
    std::int64_t  nx, ny, nz;
    double        density;
    int           g;
    std::uint32_t seed;
  };
  const Odd odd[] = { { 301, 203, 1, 0.5, 2, 7 }, { 41, 30, 19, 0.1, 1, 8 },  { 16385, 3, 1, 0.9, 4, 14 },
                      { 48, 40, 24, 0.6, 4, 34 }, { 1, 5000, 1, 0.5, 1, 11 }, { 5, 7, 3, 0.45, 16, 9 },
                      { 70, 1, 33, 0.3, 3, 10 },  { 0, 4, 1, 0.5, 1, 12 } };
  for (const Odd & o : odd)
  {
    if (cca::RandomBlockImage(o.nx, o.ny, o.nz, o.density, o.g, o.seed) !=
        Reference(o.nx, o.ny, o.nz, o.density, o.g, o.seed))
    {
      ++failed;
      std::cout << "FAIL definition " << o.nx << "x" << o.ny << "x" << o.nz << " d=" << o.density << " g=" << o.g
                << " seed=" << o.seed << std::endl;
    }
  }
  // Several refills of the state, seeds at the ends of their range; every
  // third stretch is taken as a whole block, as one draw a pixel takes them.
  for (const std::uint32_t seed : { 0u, 1u, 5489u, 1003u, 4294967295u })
  {
    std::mt19937       reference(seed);
    cca::Mt19937Blocks blocks(seed);
    std::int64_t       drawn = 0;
    bool               same = true;
    for (int stretch = 0; stretch < 9 && same; ++stretch)
    {
      if (stretch % 3 == 2)
      {
        // Block() starts a new block: the rest of the current one is skipped.
        const std::int64_t skipped =
          (cca::Mt19937Blocks::Words - drawn % cca::Mt19937Blocks::Words) % cca::Mt19937Blocks::Words;
        reference.discard(static_cast<unsigned long long>(skipped));
        const std::uint32_t * words = blocks.Block();
        for (int i = 0; i < cca::Mt19937Blocks::Words && same; ++i)
        {
          same = words[i] == reference();
        }
        drawn += skipped + cca::Mt19937Blocks::Words;
      }
      else
      {
        for (int i = 0; i < 401 && same; ++i, ++drawn)
        {
          same = blocks() == reference();
        }
      }
    }
    if (!same)
    {
      ++failed;
      std::cout << "FAIL Mt19937Blocks against std::mt19937, seed " << seed << ", after " << drawn << " words"
                << std::endl;
    }
  }
  // A protocol plane at one draw a pixel (the blocks' path), against the
  // definition: 1024^2 at the densities' two ends and the threshold.
  for (const double density : { 0.1, 0.5927, 0.9 })
  {
    if (cca::RandomBlockImage(1024, 1024, 1, density, 1, 1001) != Reference(1024, 1024, 1, density, 1, 1001))
    {
      ++failed;
      std::cout << "FAIL definition 1024x1024 g=1 d=" << density << " seed=1001" << std::endl;
    }
  }
  {
    const auto                 bytes = cca::RandomBlockImage(61, 47, 1, 0.45, 4, 5489);
    std::vector<std::uint16_t> wide(bytes.size());
    cca::FillRandomBlockImage<std::uint16_t>(61, 47, 1, 0.45, 4, 5489, wide.data(), 255);
    for (std::size_t i = 0; i < bytes.size(); ++i)
    {
      if (wide[i] != bytes[i] * 255)
      {
        ++failed;
        std::cout << "FAIL foreground value at pixel " << i << std::endl;
        break;
      }
    }
  }
  std::cout << (failed == 0 ? "all passed" : "FAILED") << std::endl;
  return failed == 0 ? 0 : 1;
}
