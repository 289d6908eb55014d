// Feature-update building blocks shared by the CPU backend and the CUDA
// kernels, so that both compute every feature with the same integer formulas.
// Compiles as plain C++ and as CUDA (host and device).
#ifndef cca_RunFeatures_h
#define cca_RunFeatures_h

#include "HostDevice.h"

#include "cca/Types.h"

#include <cstdint>
#include <type_traits>

namespace cca
{
namespace detail
{

/** Where the image's faces lie, for the face and border counts of the
 *  feature formulas (pixelsOnFace, pixelsOnBorder): the size along each
 *  axis, and whether the image has a z axis at all. How the pixels are laid
 *  out is another matter (cuda::Geometry, the CPU backend's rows). */
struct ImageFaces
{
  std::int32_t width;
  std::int32_t height;
  std::int32_t depth;
  bool         hasZAxis; ///< false for 2D images: they have no z faces (a 3D image one slice deep has both)
};

/** The extents of a feature record's arrays: ComponentFeatures and the
 *  CUDA backend's narrow entry hold three axes, six products, six faces and
 *  seven intercept classes; its planar entry (2D images) two axes, the
 *  products xx, yy, xy, four faces and the classes x, y, xy (the slots
 *  InterceptSlot gives them in 2D: 0, 1, 2). */
template <class Features>
constexpr int AxesOf = static_cast<int>(sizeof(Features::boundingBoxMin) / sizeof(std::int32_t));
template <class Features>
constexpr int ProductsOf = static_cast<int>(sizeof(Features::coordinateProductSum) / sizeof(std::uint64_t));
template <class Features>
constexpr int FacesOf = static_cast<int>(sizeof(Features::pixelsOnFace) / sizeof(Features::pixelsOnFace[0]));
template <class Features>
constexpr int SlotsOf = static_cast<int>(sizeof(Features::interceptCounts) / sizeof(Features::interceptCounts[0]));

/** A neutral element for the bounding-box reduction: min = INT32_MAX, max = -1.
 *  Features: ComponentFeatures, or a record of the same fields (the CUDA
 *  backend's narrow and planar table entries). */
template <class Features>
CCA_HOST_DEVICE void
ClearFeatures(Features & f)
{
  f.pixelCount = 0;
  for (int i = 0; i < AxesOf<Features>; ++i)
  {
    f.boundingBoxMin[i] = INT32_MAX;
    f.boundingBoxMax[i] = -1;
    f.coordinateSum[i] = 0;
  }
  for (int i = 0; i < ProductsOf<Features>; ++i)
  {
    f.coordinateProductSum[i] = 0;
  }
  for (int i = 0; i < FacesOf<Features>; ++i)
  {
    f.pixelsOnFace[i] = 0;
  }
  f.pixelsOnBorder = 0;
  for (int i = 0; i < SlotsOf<Features>; ++i)
  {
    f.interceptCounts[i] = 0;
  }
}

/** Sum of x for x in [x0, x0 + n). */
CCA_HOST_DEVICE std::int64_t
                SumOfRange(std::int64_t x0, std::int64_t n)
{
  return n * x0 + n * (n - 1) / 2;
}

/** Sum of x*x for x in [x0, x0 + n), exact in unsigned 64-bit arithmetic. */
CCA_HOST_DEVICE std::uint64_t
                SumOfSquaresOfRange(std::uint64_t x0, std::uint64_t n)
{
  // n x0^2 + x0 n (n-1) + (n-1) n (2n-1) / 6; the last product is divisible by 6.
  const std::uint64_t a = n * x0 * x0;
  const std::uint64_t b = x0 * n * (n - 1);
  std::uint64_t       p = (n - 1) * n; // even
  std::uint64_t       q = 2 * n - 1;
  p /= 2;
  if (p % 3 == 0)
  {
    p /= 3;
  }
  else
  {
    q /= 3;
  }
  return a + b + p * q;
}

/** The features of one run alone (pixels x .. x+length-1 of row y, z). Pair
 *  counts between runs are added separately by AddAdjacentPairs. A planar
 *  record (AxesOf 2) takes runs of a 2D image only: z 0, no z faces. */
template <class Features>
CCA_HOST_DEVICE void
RunContribution(std::int32_t       x,
                std::int32_t       y,
                std::int32_t       z,
                std::int32_t       length,
                const ImageFaces & faces,
                Features &         f)
{
  const std::int64_t n = length;
  const std::int32_t xEnd = x + length - 1;
  f.pixelCount = n;
  f.boundingBoxMin[0] = x;
  f.boundingBoxMin[1] = y;
  f.boundingBoxMax[0] = xEnd;
  f.boundingBoxMax[1] = y;
  const std::int64_t sumX = SumOfRange(x, n);
  f.coordinateSum[0] = sumX;
  f.coordinateSum[1] = n * y;
  const std::uint64_t uy = static_cast<std::uint64_t>(y);
  const std::uint64_t uz = static_cast<std::uint64_t>(z);
  const std::uint64_t un = static_cast<std::uint64_t>(n);
  f.coordinateProductSum[0] = SumOfSquaresOfRange(static_cast<std::uint64_t>(x), un);
  f.coordinateProductSum[1] = un * uy * uy;
  if constexpr (AxesOf<Features> == 3)
  {
    f.boundingBoxMin[2] = z;
    f.boundingBoxMax[2] = z;
    f.coordinateSum[2] = n * z;
    f.coordinateProductSum[2] = un * uz * uz;
    f.coordinateProductSum[3] = static_cast<std::uint64_t>(sumX) * uy;
    f.coordinateProductSum[4] = static_cast<std::uint64_t>(sumX) * uz;
    f.coordinateProductSum[5] = un * uy * uz;
  }
  else
  {
    f.coordinateProductSum[2] = static_cast<std::uint64_t>(sumX) * uy; // xy: a planar record has no z
  }

  const bool atXMin = x == 0;
  const bool atXMax = xEnd == faces.width - 1;
  const bool atYMin = y == 0;
  const bool atYMax = y == faces.height - 1;
  const bool atZMin = faces.hasZAxis && z == 0;
  const bool atZMax = faces.hasZAxis && z == faces.depth - 1;
  f.pixelsOnFace[0] = atXMin ? 1 : 0;
  f.pixelsOnFace[1] = atXMax ? 1 : 0;
  f.pixelsOnFace[2] = atYMin ? n : 0;
  f.pixelsOnFace[3] = atYMax ? n : 0;
  if constexpr (FacesOf<Features> == 6)
  {
    f.pixelsOnFace[4] = atZMin ? n : 0;
    f.pixelsOnFace[5] = atZMax ? n : 0;
  }
  if (atYMin || atYMax || atZMin || atZMax)
  {
    f.pixelsOnBorder = n;
  }
  else
  {
    // A run of one pixel in an image one pixel wide touches both x faces once.
    f.pixelsOnBorder = (atXMin ? 1 : 0) + ((atXMax && !(atXMin && n == 1)) ? 1 : 0);
  }
  for (int i = 0; i < SlotsOf<Features>; ++i)
  {
    f.interceptCounts[i] = 0;
  }
  // Neighbouring pixels inside the run itself: the x class.
  f.interceptCounts[InterceptSlot(true, false, false)] = n - 1;
}

/** Number of integers in [a0, a1] intersected with [b0, b1]. */
CCA_HOST_DEVICE std::int64_t
                Overlap(std::int64_t a0, std::int64_t a1, std::int64_t b0, std::int64_t b1)
{
  const std::int64_t lo = a0 > b0 ? a0 : b0;
  const std::int64_t hi = a1 < b1 ? a1 : b1;
  return hi >= lo ? hi - lo + 1 : 0;
}

/** Adds the unordered pixel pairs {p in run a, q in run b} that are
 *  neighbours, where b lies in the row at offset (dy, dz) != (0, 0) with
 *  |dy|, |dz| <= 1, to the pair counts of the direction classes (0,|dy|,|dz|)
 *  (same x) and (1,|dy|,|dz|) (x differs by one). Both runs must belong to the
 *  same component. */
template <class Count>
CCA_HOST_DEVICE void
AddAdjacentPairs(std::int32_t ax,
                 std::int32_t alength,
                 std::int32_t bx,
                 std::int32_t blength,
                 bool         yStep,
                 bool         zStep,
                 Count *      pairCounts)
{
  const std::int64_t a0 = ax;
  const std::int64_t a1 = a0 + alength - 1;
  const std::int64_t b0 = bx;
  const std::int64_t b1 = b0 + blength - 1;
  pairCounts[InterceptSlot(false, yStep, zStep)] += Overlap(a0, a1, b0, b1);
  pairCounts[InterceptSlot(true, yStep, zStep)] += Overlap(a0 + 1, a1 + 1, b0, b1) + Overlap(a0 - 1, a1 - 1, b0, b1);
}

/** Adds b into a (sums, minima, maxima). */
template <class Features>
CCA_HOST_DEVICE void
MergeFeatures(Features & a, const Features & b)
{
  a.pixelCount += b.pixelCount;
  for (int i = 0; i < AxesOf<Features>; ++i)
  {
    a.boundingBoxMin[i] = b.boundingBoxMin[i] < a.boundingBoxMin[i] ? b.boundingBoxMin[i] : a.boundingBoxMin[i];
    a.boundingBoxMax[i] = b.boundingBoxMax[i] > a.boundingBoxMax[i] ? b.boundingBoxMax[i] : a.boundingBoxMax[i];
    a.coordinateSum[i] += b.coordinateSum[i];
  }
  for (int i = 0; i < ProductsOf<Features>; ++i)
  {
    a.coordinateProductSum[i] += b.coordinateProductSum[i];
  }
  for (int i = 0; i < FacesOf<Features>; ++i)
  {
    a.pixelsOnFace[i] += b.pixelsOnFace[i];
  }
  a.pixelsOnBorder += b.pixelsOnBorder;
  for (int i = 0; i < SlotsOf<Features>; ++i)
  {
    a.interceptCounts[i] += b.interceptCounts[i];
  }
}

/** Turns accumulated neighbour-pair counts into ITK's intercept counts: each
 *  pixel has 2^|v| steps of class v; each internal pair removes two of them. */
CCA_HOST_DEVICE std::int64_t
                FinalizedIntercept(int slot, std::int64_t pixelCount, std::int64_t pairs)
{
  const int mask = slot + 1;
  const int bits = (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);
  return pixelCount * (std::int64_t{ 1 } << bits) - 2 * pairs;
}

/** FinalizedIntercept for every slot of f. Every slot is read before any
 *  is written: on the device, where f is a table entry in global memory,
 *  the loads then go out together instead of each waiting behind the
 *  previous slot's store (which the compiler must assume may alias it). */
template <class Features>
CCA_HOST_DEVICE void
FinalizeIntercepts(Features & f)
{
  using Count = std::remove_reference_t<decltype(f.interceptCounts[0])>;
  constexpr int      Slots = SlotsOf<Features>;
  const std::int64_t pixels = f.pixelCount;
  Count              counts[Slots];
  for (int slot = 0; slot < Slots; ++slot)
  {
    counts[slot] = f.interceptCounts[slot];
  }
  for (int slot = 0; slot < Slots; ++slot)
  {
    f.interceptCounts[slot] = static_cast<Count>(FinalizedIntercept(slot, pixels, counts[slot]));
  }
}

} // namespace detail
} // namespace cca

#endif
