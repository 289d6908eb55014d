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
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace cca
{

/** std::mt19937's sequence, made 624 words at a time: the state's twist
 *  and the tempering run as loops over the whole state, which compilers can
 *  vectorize, where std::mt19937 tempers one word a call. The protocol's
 *  512^3 g = 1 volume (134 M draws) took 0.9-1.1 s to make, 0.10-0.15 s
 *  this way (the 2-core development machine, g++ -O2 and -O3), which every
 *  benchmark run spends again on each image. ccaRandomImagesTest checks the
 *  words against std::mt19937's. */
class Mt19937Blocks
{
public:
  static constexpr int Words = 624;

  explicit Mt19937Blocks(std::uint32_t seed)
  {
    m_State[0] = seed;
    for (int i = 1; i < Words; ++i)
    {
      m_State[i] = 1812433253u * (m_State[i - 1] ^ (m_State[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
    }
  }

  /** The next word of the sequence. */
  std::uint32_t
  operator()()
  {
    if (m_Next == Words)
    {
      Refill();
    }
    return m_Words[m_Next++];
  }

  /** The next Words words, all of them (the ones operator() has not yet
   *  returned are skipped). */
  const std::uint32_t *
  Block()
  {
    Refill();
    m_Next = Words;
    return m_Words;
  }

private:
  static constexpr int Shift = 397;

  static std::uint32_t
  Mix(std::uint32_t upper, std::uint32_t lower, std::uint32_t far)
  {
    const std::uint32_t y = (upper & 0x80000000u) | (lower & 0x7fffffffu);
    // The odd words' constant by a mask, not a branch on random bits.
    return far ^ (y >> 1) ^ ((0u - (lower & 1u)) & 0x9908b0dfu);
  }

  void
  Refill()
  {
    int k = 0;
    for (; k < Words - Shift; ++k)
    {
      m_State[k] = Mix(m_State[k], m_State[k + 1], m_State[k + Shift]);
    }
    for (; k < Words - 1; ++k)
    {
      m_State[k] = Mix(m_State[k], m_State[k + 1], m_State[k + Shift - Words]);
    }
    m_State[Words - 1] = Mix(m_State[Words - 1], m_State[0], m_State[Shift - 1]);
    for (int i = 0; i < Words; ++i)
    {
      std::uint32_t y = m_State[i];
      y ^= y >> 11;
      y ^= (y << 7) & 0x9d2c5680u;
      y ^= (y << 15) & 0xefc60000u;
      y ^= y >> 18;
      m_Words[i] = y;
    }
    m_Next = 0;
  }

  std::uint32_t m_State[Words];
  std::uint32_t m_Words[Words];
  int           m_Next = Words;
};

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
  // A draw u (an integer below 2^32, exact as a double) is below the real
  // threshold d * 2^32 exactly when it is below that threshold's ceiling.
  const std::uint64_t threshold = static_cast<std::uint64_t>(std::ceil(density * 4294967296.0));
  if (g == 1)
  {
    // One draw a pixel, in the image's own order: whole blocks of draws.
    Mt19937Blocks      rng(seed);
    const std::int64_t pixels = plane * nz;
    for (std::int64_t first = 0; first < pixels; first += Mt19937Blocks::Words)
    {
      const std::uint32_t * draw = rng.Block();
      const int n = pixels - first < Mt19937Blocks::Words ? static_cast<int>(pixels - first) : Mt19937Blocks::Words;
      for (int i = 0; i < n; ++i)
      {
        // A product, not a choice: a branch on random draws mispredicts
        // about half of them (g++ -O3 made one, 4.5x slower than -O2).
        image[first + i] = static_cast<T>(on * static_cast<T>(draw[i] < threshold));
      }
    }
    return;
  }
  const std::int64_t blocksX = (nx + g - 1) / g;
  const std::int64_t blocksY = (ny + g - 1) / g;
  const std::int64_t blocksZ = (nz + g - 1) / g;
  Mt19937Blocks      rng(seed);
  std::vector<T>     blockRow(static_cast<std::size_t>(blocksX));
  for (std::int64_t bz = 0; bz < blocksZ; ++bz)
  {
    const std::int64_t z0 = bz * g;
    T *                firstPlane = image + z0 * plane;
    for (std::int64_t by = 0; by < blocksY; ++by)
    {
      for (T & block : blockRow)
      {
        block = rng() < threshold ? on : T{ 0 };
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
