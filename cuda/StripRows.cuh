// The image rows under a strip image (StripLabeling.cuh). A strip of a plane
// is rows 2p and 2p + 1; in a volume a strip is a tube of 2 x 2 rows, rows
// 2p and 2p + 1 of slices 2q and 2q + 1. Under full connectivity any two
// rows of a strip are at most one row and one slice apart, so each maximal
// run of the strip rows' OR is connected, and two runs of neighbour strips
// touch exactly where a pixel of one's facing rows lies at most one column
// from a pixel of the other's: the facing rows of a strip toward a neighbour
// are its rows nearest to it along each axis where the two differ (both
// along an axis where they do not), and every facing row of one is at most
// one row and one slice from every facing row of the other. So the joins of
// strip runs are those of LinkRowPair (RowPairLinks.cuh) with the OR of each
// side's facing rows as the two rows' foreground.
#ifndef cca_cuda_StripRows_cuh
#define cca_cuda_StripRows_cuh

#include "DeviceGeometry.cuh"
#include "ForegroundTest.h"
#include "RunNeighbours.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** The image under a strip image. */
struct StripRows
{
  const std::uint8_t *         image = nullptr; ///< null: the runs are not a strip image's
  Geometry                     pixels{};        ///< the image's geometry
  ForegroundTest<std::uint8_t> test{};
  /** The image's rows as foreground bits, 16 pixels a word as
   *  LaneForegroundAt gives them (word k: pixels 16 k .. 16 k + 15 of the
   *  image), written by StripImageKernel: the union-find reads the facing
   *  rows from them. */
  const std::uint16_t * bits = nullptr;
  /** The strip image's rows as bits, in the same layout. */
  const std::uint16_t * stripBits = nullptr;
};

/** Whether strips over pixels are tubes (2 x 2 rows of a volume). */
__host__ __device__ inline bool
StripsAreTubes(const Geometry & pixels)
{
  return pixels.depth > 1;
}

/** The geometry of the strip image over pixels: half the rows of each
 *  slice (rounded up) and, in a volume, half the slices. */
__host__ __device__ inline Geometry
StripGeometry(const Geometry & pixels)
{
  Geometry g = pixels;
  g.height = (pixels.height + 1) / 2;
  g.depth = StripsAreTubes(pixels) ? (pixels.depth + 1) / 2 : pixels.depth;
  g.rows = g.height * g.depth;
  return g;
}

/** The image rows of a strip: row k is row 2p + k % 2 of slice 2q + k / 2
 *  (of the plane's slice q for strips of a plane), so k follows the raster
 *  order. Fixed-size, and read by loops unrolled over k, so that it stays in
 *  registers. */
struct RowsOfStrip
{
  static constexpr int Most = 4;
  std::int64_t         offset[Most]; ///< of row k's first pixel in the image
  unsigned             inside;       ///< bit k: row k is in the image

  __host__ __device__ bool
  Has(int k) const
  {
    return (inside >> k) & 1u;
  }
};

/** Where strip row s lies in StripGeometry: row p of strip slice q. A
 *  plane's strip rows are one slice, found without a division (the first
 *  pixel offers take it per run, where divisions were a fifth of their
 *  instructions). */
struct StripPosition
{
  std::int64_t p;
  std::int64_t q;
};

__host__ __device__ inline StripPosition
StripPositionOf(const Geometry & pixels, std::int64_t s)
{
  if (!StripsAreTubes(pixels))
  {
    return { s, 0 };
  }
  const std::int64_t stripHeight = StripGeometry(pixels).height;
  const std::int64_t q = s / stripHeight;
  return { s - q * stripHeight, q };
}

/** An image row's place: row y of slice z. */
struct StripRowCoordinates
{
  std::int64_t y;
  std::int64_t z;
};

/** Row i of slice j of the strip at position: row y = 2p + i of slice
 *  z = 2q + j (of the plane's slice q for strips of a plane, where j is 0). */
__host__ __device__ inline StripRowCoordinates
StripRowAt(const Geometry & pixels, const StripPosition & position, int i, int j)
{
  return { 2 * position.p + i, StripsAreTubes(pixels) ? 2 * position.q + j : position.q };
}

/** Row k of the strip at position: row k % 2 of its slice k / 2, so k
 *  follows the raster order. */
__host__ __device__ inline StripRowCoordinates
StripRowAt(const Geometry & pixels, const StripPosition & position, int k)
{
  return StripRowAt(pixels, position, k % 2, k / 2);
}

/** The image row (z height + y) at c. */
__host__ __device__ inline std::int64_t
         ImageRowOf(const Geometry & pixels, const StripRowCoordinates & c)
{
  return c.z * pixels.height + c.y;
}

/** The start of image row c, or null outside the image. */
__host__ __device__ inline const std::uint8_t *
         ImageRow(const StripRows & s, const StripRowCoordinates & c)
{
  const Geometry & g = s.pixels;
  return c.y < g.height && c.z < g.depth ? s.image + ImageRowOf(g, c) * g.width : nullptr;
}

/** The image row of row k of the strip at position. */
__host__ __device__ inline std::int64_t
         StripImageRow(const Geometry & pixels, const StripPosition & position, int k)
{
  return ImageRowOf(pixels, StripRowAt(pixels, position, k));
}

/** The strip row over image row `row` (z height + y): the inverse of
 *  StripImageRow, computed in Row: std::int64_t, or std::int32_t where the
 *  image is a SmallImage (RowCoord), whose divisions are far cheaper. */
template <class Row>
__host__ __device__ inline Row
StripRowOver(const Geometry & pixels, Row row)
{
  const auto height = static_cast<Row>(pixels.height);
  const Row  z = row / height;
  const Row  y = row - z * height;
  const Row  q = StripsAreTubes(pixels) ? z / 2 : z;
  return q * static_cast<Row>(StripGeometry(pixels).height) + y / 2;
}

/** The image rows of the strip at position. */
__host__ __device__ inline RowsOfStrip
StripRowsAt(const Geometry & pixels, const StripPosition & position)
{
  const bool  tubes = StripsAreTubes(pixels);
  RowsOfStrip r{};
  for (int k = 0; k < RowsOfStrip::Most; ++k)
  {
    const StripRowCoordinates c = StripRowAt(pixels, position, k);
    r.offset[k] = ImageRowOf(pixels, c) * pixels.width;
    if ((tubes || k < 2) && c.y < pixels.height && c.z < pixels.depth)
    {
      r.inside |= 1u << k;
    }
  }
  return r;
}

/** The image rows of strip row s (in StripGeometry's raster order). */
__host__ __device__ inline RowsOfStrip
StripRowsOf(const Geometry & pixels, std::int64_t s)
{
  return StripRowsAt(pixels, StripPositionOf(pixels, s));
}

/** The first strip row of the slice of strips holding the strip at position: in
 *  a volume the first tube of its tube slice q, in a plane the strip row
 *  itself (a plane's strips are each a slice of their own for this
 *  purpose: rows before a strip's rows are in earlier strips). A slice's
 *  strip rows are consecutive, and so are their runs. */
__host__ __device__ inline std::int64_t
         FirstStripOfSlice(const Geometry & pixels, const StripPosition & position)
{
  return StripsAreTubes(pixels) ? position.q * StripGeometry(pixels).height : position.p;
}

/** The facing rows of a strip row and of its neighbour strip row: up to
 *  two each (null: none). */
struct FacingRows
{
  const std::uint8_t * row[2];
  const std::uint8_t * above[2]; ///< the neighbour's
};

/** Whether row i (0 or 1) of a strip along an axis faces a neighbour strip
 *  step (-1, 0 or 1) away along it. */
__host__ __device__ inline bool
FacesAlong(int i, int step)
{
  return step == 0 || (step < 0 ? i == 0 : i == 1);
}

/** The facing rows of strip row (p, q) (StripGeometry's coordinates) and
 *  of its neighbour at step: rows i of slices j of the two strips
 *  (StripRowAt). */
__host__ __device__ inline FacingRows
FacingRowsOf(const StripRows & s, std::int64_t p, std::int64_t q, RowStep step)
{
  const bool          tubes = StripsAreTubes(s.pixels);
  const StripPosition here{ p, q };
  const StripPosition neighbour{ p + step.dy, tubes ? q + step.dz : q };
  FacingRows          f{};
  int                 rows = 0;
  int                 above = 0;
  for (int j = 0; j < (tubes ? 2 : 1); ++j)
  {
    for (int i = 0; i < 2; ++i)
    {
      if (FacesAlong(i, step.dy) && (!tubes || FacesAlong(j, step.dz)) && rows < 2)
      {
        f.row[rows++] = ImageRow(s, StripRowAt(s.pixels, here, i, j));
      }
      if (FacesAlong(i, -step.dy) && (!tubes || FacesAlong(j, -step.dz)) && above < 2)
      {
        f.above[above++] = ImageRow(s, StripRowAt(s.pixels, neighbour, i, j));
      }
    }
  }
  return f;
}

} // namespace cuda
} // namespace cca

#endif
