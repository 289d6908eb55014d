// The random binary images the GPU connected-component papers benchmark with
// (Cabaret, Lacassagne, Etiemble 2017; Lemaitre, Hennequin, Lacassagne 2021;
// see docs/references.md): the pixels come in g x g (x g) blocks, one
// MT19937 draw u per block in raster order of the blocks (x fastest), and a
// block is foreground when u < d * 2^32 for the density d. The one generator
// of the tests, the benchmarks and the program's default image. Plain C++,
// header only.
//
// The images are a contract: benchmark harnesses outside this project
// regenerate them bit for bit (seed, draw order and threshold must not
// change); test/engine/ccaRandomImagesTest.cxx holds their fingerprints.
#ifndef cca_RandomImages_h
#define cca_RandomImages_h

#include <algorithm>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace cca
{

/** Writes the nx x ny x nz random block image (nz = 1 for 2D) into image,
 *  dense and x fastest: on where foreground, 0 elsewhere. Densities <= 0 and
 *  >= 1 give constant images without drawing. */
template <class T>
void
FillRandomBlockImage(std::int64_t  nx,
                     std::int64_t  ny,
                     std::int64_t  nz,
                     double        density,
                     int           granularity,
                     std::uint32_t seed,
                     T *           image,
                     T             on = T{ 1 })
{
  if (nx < 0 || ny < 0 || nz < 0 || granularity < 1)
  {
    throw std::invalid_argument("FillRandomBlockImage: negative size or granularity below 1");
  }
  const std::int64_t plane = nx * ny;
  if (density <= 0 || density >= 1)
  {
    // Every draw falls on the same side of the threshold (a 16384^2 image would take 2^28 draws).
    std::fill(image, image + plane * nz, density >= 1 ? on : T{ 0 });
    return;
  }
  const std::int64_t g = granularity;
  const double       threshold = density * 4294967296.0;
  const std::int64_t blocksX = (nx + g - 1) / g;
  const std::int64_t blocksY = (ny + g - 1) / g;
  const std::int64_t blocksZ = (nz + g - 1) / g;
  std::mt19937       rng(seed);
  std::vector<T>     blockRow(static_cast<std::size_t>(blocksX));
  for (std::int64_t bz = 0; bz < blocksZ; ++bz)
  {
    const std::int64_t z0 = bz * g;
    T *                firstPlane = image + z0 * plane;
    for (std::int64_t by = 0; by < blocksY; ++by)
    {
      for (T & block : blockRow)
      {
        block = static_cast<double>(rng()) < threshold ? on : T{ 0 };
      }
      // The block row's first image row, then copies of it.
      const std::int64_t y0 = by * g;
      T *                first = firstPlane + y0 * nx;
      for (std::int64_t bx = 0; bx < blocksX; ++bx)
      {
        std::fill(first + bx * g, first + std::min(nx, (bx + 1) * g), blockRow[static_cast<std::size_t>(bx)]);
      }
      for (std::int64_t y = y0 + 1; y < std::min(ny, y0 + g); ++y)
      {
        std::copy(first, first + nx, firstPlane + y * nx);
      }
    }
    // The block layer's first plane, then copies of it.
    for (std::int64_t z = z0 + 1; z < std::min(nz, z0 + g); ++z)
    {
      std::copy(firstPlane, firstPlane + plane, image + z * plane);
    }
  }
}

/** The same image as 0/1 bytes. */
inline std::vector<std::uint8_t>
RandomBlockImage(std::int64_t nx, std::int64_t ny, std::int64_t nz, double density, int granularity, std::uint32_t seed)
{
  std::vector<std::uint8_t> image(static_cast<std::size_t>(nx * ny * nz));
  FillRandomBlockImage(nx, ny, nz, density, granularity, seed, image.data());
  return image;
}

} // namespace cca

#endif
