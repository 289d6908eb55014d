// cca::IndexCovariance and cca::CentroidCoordinate against the same formulas
// evaluated with the compiler's 128-bit integers (GCC and Clang), on random
// features up to the largest magnitudes the engine produces, and on the
// moments of small pixel sets summed directly.
#include "cca/ExactMoments.h"

#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>

namespace
{
int g_Failures = 0;

void
Expect(bool ok, const char * what, std::uint64_t seed, int i, int j, double got, double expected)
{
  if (!ok && ++g_Failures <= 20)
  {
    std::cerr << what << " (seed " << seed << ", " << i << ", " << j << "): got " << got << ", expected "
              << expected << "\n";
  }
}

constexpr int ProductSlot[3][3] = { { 0, 3, 4 }, { 3, 1, 5 }, { 4, 5, 2 } };

void
RandomFeatures(std::uint64_t seed)
{
  std::mt19937_64 rng(seed);
  // Magnitudes up to those of a 2^31-pixel component at coordinates near 2^31.
  const int                   bits = 1 + static_cast<int>(rng() % 62);
  auto                        draw = [&](int b) { return rng() >> (64 - b); };
  cca::ComponentFeatures      f{};
  f.pixelCount = static_cast<std::int64_t>(draw(std::min(bits, 40)) + 1);
  for (int i = 0; i < 3; ++i)
  {
    f.coordinateSum[i] = static_cast<std::int64_t>(draw(bits));
  }
  for (int s = 0; s < 6; ++s)
  {
    f.coordinateProductSum[s] = draw(std::min(63, bits + 1));
  }
  double covariance[3][3];
  cca::IndexCovariance(f, 3, covariance);
  for (int i = 0; i < 3; ++i)
  {
    for (int j = 0; j < 3; ++j)
    {
      const __int128 numerator =
        static_cast<__int128>(f.pixelCount) * static_cast<__int128>(f.coordinateProductSum[ProductSlot[i][j]]) -
        static_cast<__int128>(f.coordinateSum[i]) * static_cast<__int128>(f.coordinateSum[j]);
      const long double n = static_cast<long double>(f.pixelCount);
      const double      expected = static_cast<double>(static_cast<long double>(numerator) / (n * n));
      Expect(covariance[i][j] == expected, "covariance", seed, i, j, covariance[i][j], expected);
    }
  }
  for (int axis = 0; axis < 3; ++axis)
  {
    const std::int64_t offset = static_cast<std::int64_t>(rng() >> 33) * ((rng() & 1) != 0 ? -1 : 1);
    const __int128     sum = static_cast<__int128>(f.coordinateSum[axis]) + static_cast<__int128>(f.pixelCount) * offset;
    const double       expected =
      static_cast<double>(static_cast<long double>(sum) / static_cast<long double>(f.pixelCount));
    const double got = cca::CentroidCoordinate(f, axis, offset);
    Expect(got == expected, "centroid", seed, axis, 0, got, expected);
  }
}

/** A few pixels: the covariance equals the plain two-pass formula exactly
 *  (small integers, no rounding). */
void
SmallPixelSets(std::uint64_t seed)
{
  std::mt19937_64        rng(seed);
  const int              count = 1 + static_cast<int>(rng() % 20);
  long long              x[20][3];
  cca::ComponentFeatures f{};
  f.pixelCount = count;
  for (int p = 0; p < count; ++p)
  {
    for (int i = 0; i < 3; ++i)
    {
      x[p][i] = static_cast<long long>(rng() % 64);
      f.coordinateSum[i] += x[p][i];
    }
    for (int i = 0; i < 3; ++i)
    {
      for (int j = i; j < 3; ++j)
      {
        f.coordinateProductSum[ProductSlot[i][j]] += static_cast<std::uint64_t>(x[p][i] * x[p][j]);
      }
    }
  }
  double covariance[3][3];
  cca::IndexCovariance(f, 3, covariance);
  for (int i = 0; i < 3; ++i)
  {
    for (int j = 0; j < 3; ++j)
    {
      long double mi = 0, mj = 0, mij = 0;
      for (int p = 0; p < count; ++p)
      {
        mi += x[p][i];
        mj += x[p][j];
      }
      mi /= count;
      mj /= count;
      for (int p = 0; p < count; ++p)
      {
        mij += (x[p][i] - mi) * (x[p][j] - mj);
      }
      const double expected = static_cast<double>(mij / count);
      Expect(std::abs(covariance[i][j] - expected) <= 1e-12 * (1 + std::abs(expected)), "two-pass covariance", seed,
             i, j, covariance[i][j], expected);
    }
  }
}
} // namespace

int
main()
{
  for (std::uint64_t seed = 1; seed <= 20000; ++seed)
  {
    RandomFeatures(seed);
    SmallPixelSets(seed);
  }
  std::cout << "exact moments: " << g_Failures << " failing check(s)\n";
  return g_Failures == 0 ? 0 : 1;
}
