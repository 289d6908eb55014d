#include "cca/ExactMoments.h"

#include <cstdint>
#include <utility>

namespace cca
{
namespace
{
/** A signed 128-bit integer as sign and magnitude, enough for a - b with
 *  a, b products of two 64-bit values. */
struct Wide
{
  bool          negative = false;
  std::uint64_t high = 0;
  std::uint64_t low = 0;
};

/** |a| * |b| for 64-bit magnitudes, by 32-bit limbs. */
Wide
Multiply(std::uint64_t a, std::uint64_t b)
{
  const std::uint64_t a0 = a & 0xffffffffu;
  const std::uint64_t a1 = a >> 32;
  const std::uint64_t b0 = b & 0xffffffffu;
  const std::uint64_t b1 = b >> 32;
  const std::uint64_t p00 = a0 * b0;
  const std::uint64_t p01 = a0 * b1;
  const std::uint64_t p10 = a1 * b0;
  const std::uint64_t p11 = a1 * b1;
  const std::uint64_t middle = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
  Wide                w;
  w.low = (middle << 32) | (p00 & 0xffffffffu);
  w.high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
  return w;
}

bool
Less(const Wide & a, const Wide & b)
{
  return a.high < b.high || (a.high == b.high && a.low < b.low);
}

/** a - b for magnitudes a, b. */
Wide
Subtract(const Wide & a, const Wide & b)
{
  const bool  swap = Less(a, b);
  const Wide & x = swap ? b : a;
  const Wide & y = swap ? a : b;
  Wide        d;
  d.negative = swap;
  d.low = x.low - y.low;
  d.high = x.high - y.high - (x.low < y.low ? 1 : 0);
  return d;
}

/** value * count for a signed value and a non-negative count. */
Wide
SignedProduct(std::int64_t value, std::uint64_t count)
{
  const bool negative = value < 0;
  Wide       w = Multiply(negative ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value), count);
  w.negative = negative;
  return w;
}

/** a + b for signed values. */
Wide
Add(Wide a, Wide b)
{
  if (a.negative == b.negative)
  {
    Wide s;
    s.negative = a.negative;
    s.low = a.low + b.low;
    s.high = a.high + b.high + (s.low < a.low ? 1 : 0);
    return s;
  }
  // Opposite signs: the difference of the magnitudes, positive one first.
  if (a.negative)
  {
    std::swap(a, b);
  }
  b.negative = false;
  return Subtract(a, b);
}

long double
ToLongDouble(const Wide & w)
{
  const long double magnitude = static_cast<long double>(w.high) * 18446744073709551616.0L + static_cast<long double>(w.low);
  return w.negative ? -magnitude : magnitude;
}

constexpr int ProductSlot[3][3] = { { 0, 3, 4 }, { 3, 1, 5 }, { 4, 5, 2 } };
} // namespace

void
IndexCovariance(const ComponentFeatures & features, int dimension, double covariance[3][3])
{
  const long double n = static_cast<long double>(features.pixelCount);
  for (int i = 0; i < dimension; ++i)
  {
    for (int j = 0; j < dimension; ++j)
    {
      // Coordinates are non-negative, so every factor is.
      const Wide nProducts = Multiply(static_cast<std::uint64_t>(features.pixelCount),
                                      features.coordinateProductSum[ProductSlot[i][j]]);
      const Wide sumProduct = Multiply(static_cast<std::uint64_t>(features.coordinateSum[i]),
                                       static_cast<std::uint64_t>(features.coordinateSum[j]));
      covariance[i][j] = static_cast<double>(ToLongDouble(Subtract(nProducts, sumProduct)) / (n * n));
    }
  }
}

double
CentroidCoordinate(const ComponentFeatures & features, int axis, std::int64_t offset)
{
  const auto n = static_cast<std::uint64_t>(features.pixelCount);
  const Wide sum = Add(SignedProduct(features.coordinateSum[axis], 1), SignedProduct(offset, n));
  return static_cast<double>(ToLongDouble(sum) / static_cast<long double>(n));
}

} // namespace cca
