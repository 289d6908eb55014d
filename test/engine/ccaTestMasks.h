// Binary test images shared by the engine oracle tests and the ITK tests:
// the random family of the papers (MT19937, density d, granularity g),
// checkerboards, spirals and a few degenerate shapes. Plain C++, no ITK.
#ifndef ccaTestMasks_h
#define ccaTestMasks_h

#include "cca/RandomImages.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace ccatest
{

/** A dense binary image, x fastest. 2D masks have size[2] == 1. */
struct Mask
{
  int                       dimension = 2;
  std::int64_t              size[3] = { 0, 0, 1 };
  std::vector<std::uint8_t> on;
  std::string               name; ///< how it was made (seed included): printed on failure

  Mask() = default;
  Mask(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz, std::string label)
    : dimension(dim)
    , size{ nx, ny, dim == 2 ? 1 : nz }
    , on(static_cast<std::size_t>(nx * ny * (dim == 2 ? 1 : nz)), 0)
    , name(std::move(label))
  {}

  std::int64_t
  NumberOfPixels() const
  {
    return size[0] * size[1] * size[2];
  }
  std::int64_t
  Offset(std::int64_t x, std::int64_t y, std::int64_t z) const
  {
    return x + size[0] * (y + size[1] * z);
  }
  bool
  At(std::int64_t x, std::int64_t y, std::int64_t z) const
  {
    return on[static_cast<std::size_t>(Offset(x, y, z))] != 0;
  }
  void
  Set(std::int64_t x, std::int64_t y, std::int64_t z, bool value)
  {
    on[static_cast<std::size_t>(Offset(x, y, z))] = value ? 1 : 0;
  }
};

inline std::string
SizeText(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz)
{
  std::ostringstream s;
  s << nx << "x" << ny;
  if (dim == 3)
  {
    s << "x" << nz;
  }
  return s.str();
}

/** The benchmark family of the papers (cca/RandomImages.h): g x g (x g)
 *  blocks share one MT19937 draw; a block is foreground when draw < density * 2^32. */
inline Mask
RandomMask(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz, double density, int g, std::uint32_t seed)
{
  std::ostringstream label;
  label << "random " << SizeText(dim, nx, ny, nz) << " d=" << density << " g=" << g << " seed=" << seed;
  Mask m(dim, nx, ny, nz, label.str());
  cca::FillRandomBlockImage(m.size[0], m.size[1], m.size[2], density, g, seed, m.on.data());
  return m;
}

inline Mask
ConstantMask(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz, bool value)
{
  Mask m(dim, nx, ny, nz, std::string(value ? "all-on " : "empty ") + SizeText(dim, nx, ny, nz));
  for (auto & p : m.on)
  {
    p = value ? 1 : 0;
  }
  return m;
}

/** On where x + y + z + phase is even: isolated pixels with face
 *  connectivity, one component with full connectivity. */
inline Mask
Checkerboard(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz, int phase)
{
  Mask m(dim, nx, ny, nz, "checkerboard " + SizeText(dim, nx, ny, nz) + " phase=" + std::to_string(phase));
  for (std::int64_t z = 0; z < m.size[2]; ++z)
  {
    for (std::int64_t y = 0; y < m.size[1]; ++y)
    {
      for (std::int64_t x = 0; x < m.size[0]; ++x)
      {
        m.Set(x, y, z, (x + y + z + phase) % 2 == 0);
      }
    }
  }
  return m;
}

/** A one-pixel-wide square spiral walking inwards from (0, 0) with a one-pixel
 *  gap between its arms: one long snake whose labels must propagate across
 *  the whole image. In 3D the spiral is drawn in every even slice and the odd
 *  slices connect the slices at (0, 0). */
inline Mask
Spiral(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz)
{
  Mask         m(dim, nx, ny, nz, "spiral " + SizeText(dim, nx, ny, nz));
  Mask         plane(2, nx, ny, 1, "");
  const int    dx[4] = { 1, 0, -1, 0 };
  const int    dy[4] = { 0, 1, 0, -1 };
  auto         inside = [&](std::int64_t x, std::int64_t y) { return x >= 0 && y >= 0 && x < nx && y < ny; };
  std::int64_t x = 0;
  std::int64_t y = 0;
  int          dir = 0;
  plane.Set(0, 0, 0, true);
  int turnsWithoutMove = 0;
  while (turnsWithoutMove < 2)
  {
    const std::int64_t x1 = x + dx[dir];
    const std::int64_t y1 = y + dy[dir];
    const std::int64_t x2 = x + 2 * dx[dir];
    const std::int64_t y2 = y + 2 * dy[dir];
    const bool         canMove = inside(x1, y1) && !plane.At(x1, y1, 0) && (!inside(x2, y2) || !plane.At(x2, y2, 0));
    if (canMove)
    {
      x = x1;
      y = y1;
      plane.Set(x, y, 0, true);
      turnsWithoutMove = 0;
    }
    else
    {
      dir = (dir + 1) % 4;
      ++turnsWithoutMove;
    }
  }
  for (std::int64_t z = 0; z < m.size[2]; ++z)
  {
    for (std::int64_t yy = 0; yy < ny; ++yy)
    {
      for (std::int64_t xx = 0; xx < nx; ++xx)
      {
        const bool value = (z % 2 == 0) ? plane.At(xx, yy, 0) : (xx == 0 && yy == 0);
        m.Set(xx, yy, z, value);
      }
    }
  }
  return m;
}

/** A single foreground pixel at (x, y, z). */
inline Mask
OnePixel(int dim, std::int64_t nx, std::int64_t ny, std::int64_t nz, std::int64_t x, std::int64_t y, std::int64_t z)
{
  Mask m(dim,
         nx,
         ny,
         nz,
         "one pixel at (" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ") in " +
           SizeText(dim, nx, ny, nz));
  m.Set(x, y, dim == 3 ? z : 0, true);
  return m;
}

} // namespace ccatest

#endif
