// The intensity group's records turned into ObjectIntensity once, on the
// host (both backends): exact integer sums are shifted by an integer near
// the mean (or the centroid) in exact modular arithmetic before anything is
// rounded, so central moments and covariances lose no digits to
// cancellation; and the median of an object from its sparse histogram by
// StatisticsLabelMapFilter's rule.
#ifndef cca_IntensityStatistics_h
#define cca_IntensityStatistics_h

#include "IntensityRecord.h"
#include "WideSum.h"

#include "cca/Types.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace cca
{
namespace detail
{

/** Raster index to buffer coordinates. */
inline void
IndexToCoordinates(std::int64_t index, std::int64_t width, std::int64_t height, std::int32_t (&c)[3])
{
  c[0] = static_cast<std::int32_t>(index % width);
  c[1] = static_cast<std::int32_t>((index / width) % height);
  c[2] = static_cast<std::int32_t>(index / (width * height));
}

template <class T>
void
FinishExtremes(const IntensityRecord<IntensitySum_t<T>> & r,
               bool                                       packed,
               std::int64_t                               width,
               std::int64_t                               height,
               ObjectIntensity &                          out)
{
  constexpr int shift = 64 - ValueKeyBits<T>;
  std::int64_t  minimumIndex = r.minimumIndex;
  std::int64_t  maximumIndex = r.maximumIndex;
  if (packed ? r.minimumKey == ~std::uint64_t{ 0 } : minimumIndex < 0)
  {
    // No pixel joined (every one a NaN): ITK's starting values, its index
    // the buffer's first (ITK's is index 0 of the image, the same where the
    // region starts at 0).
    out.minimum = static_cast<double>(std::numeric_limits<T>::max());
    out.maximum = static_cast<double>(NonpositiveMinimum<T>());
    IndexToCoordinates(0, width, height, out.minimumIndex);
    IndexToCoordinates(0, width, height, out.maximumIndex);
    return;
  }
  if (packed)
  {
    out.minimum = ValueOfKey<T>(r.minimumKey >> shift);
    out.maximum = ValueOfKey<T>(r.maximumKey >> shift);
    minimumIndex = static_cast<std::int64_t>(IndexMaskOf<T> - (r.minimumKey & IndexMaskOf<T>));
    maximumIndex = static_cast<std::int64_t>(r.maximumKey & IndexMaskOf<T>);
  }
  else
  {
    out.minimum = ValueOfKey<T>(r.minimumKey);
    out.maximum = ValueOfKey<T>(r.maximumKey);
  }
  IndexToCoordinates(minimumIndex, width, height, out.minimumIndex);
  IndexToCoordinates(maximumIndex, width, height, out.maximumIndex);
}

/** x rounded to the nearest integer, ties to even: std::nearbyint in the
 *  default rounding mode without its cost for long double (libm switches the
 *  x87 control word; a third of the conversion of an object's sums). For
 *  |x| < 2^62 (means and centroids of pixel values and coordinates). */
inline long double
RoundToEven(long double x)
{
  const auto        whole = static_cast<std::int64_t>(x); // towards zero
  const long double rest = x - static_cast<long double>(whole);
  std::int64_t      r = whole;
  if (rest > 0.5L || (rest == 0.5L && (whole & 1) != 0))
  {
    ++r;
  }
  else if (rest < -0.5L || (rest == -0.5L && (whole & 1) != 0))
  {
    --r;
  }
  return static_cast<long double>(r);
}

/** Exact sums: everything shifted by integers first (v by K, the positions
 *  by a), which keeps the terms small, then converted. */
template <int W>
void
FinishExactSums(const WideSum<W> * s,
                std::int64_t       n,
                double             minimum,
                double             maximum,
                bool               weighted,
                ObjectIntensity &  out)
{
  using L = long double;
  const L sum = ToFloating<L>(s[SumV]);
  out.sum = ToFloating<double>(s[SumV]);
  // T_k = sum (v - K)^k, exact modulo 2^(64 W) and small enough to fit.
  const auto K = static_cast<std::int64_t>(
    std::min<L>(std::max<L>(RoundToEven(sum / static_cast<L>(n)), static_cast<L>(minimum)), static_cast<L>(maximum)));
  WideSum<W> nk;
  Clear(nk);
  AddSigned(nk, n);
  nk = Multiplied(nk, K); // N K
  // T1 = S1 - N K
  WideSum<W> t1 = s[SumV];
  WideSum<W> negative = Multiplied(nk, -1);
  AddWide(t1, negative);
  // T2 = S2 - 2 K S1 + K^2 N
  WideSum<W> t2 = s[SumV2];
  AddWide(t2, Multiplied(s[SumV], -2 * K));
  AddWide(t2, Multiplied(nk, K));
  // T3 = S3 - 3 K S2 + 3 K^2 S1 - K^3 N
  WideSum<W> t3 = s[SumV3];
  AddWide(t3, Multiplied(s[SumV2], -3 * K));
  AddWide(t3, Multiplied(Multiplied(s[SumV], K), 3 * K));
  AddWide(t3, Multiplied(Multiplied(nk, K), -K));
  // T4 = S4 - 4 K S3 + 6 K^2 S2 - 4 K^3 S1 + K^4 N
  WideSum<W> t4 = s[SumV4];
  AddWide(t4, Multiplied(s[SumV3], -4 * K));
  AddWide(t4, Multiplied(Multiplied(s[SumV2], K), 6 * K));
  AddWide(t4, Multiplied(Multiplied(Multiplied(s[SumV], K), K), -4 * K));
  AddWide(t4, Multiplied(Multiplied(Multiplied(nk, K), K), K));
  const L N = static_cast<L>(n);
  const L m = ToFloating<L>(t1) / N; // mean - K
  const L T2 = ToFloating<L>(t2);
  const L T3 = ToFloating<L>(t3);
  const L T4 = ToFloating<L>(t4);
  out.centralMoments[0] = static_cast<double>(T2 - N * m * m);
  out.centralMoments[1] = static_cast<double>(T3 - 3 * m * T2 + 2 * N * m * m * m);
  out.centralMoments[2] = static_cast<double>(T4 - 4 * m * T3 + 6 * m * m * T2 - 3 * N * m * m * m * m);

  for (double & c : out.weightedCentroid)
  {
    c = 0;
  }
  for (double & c : out.weightedCovariance)
  {
    c = 0;
  }
  if (!weighted || sum == 0)
  {
    return;
  }
  // U_i = sum v (x_i - a_i), U_ij = sum v (x_i - a_i)(x_j - a_j) with integer
  // a near the centroid (clamped to the coordinate range).
  std::int64_t a[3];
  WideSum<W>   u[3];
  for (int i = 0; i < 3; ++i)
  {
    const L c = ToFloating<L>(s[WeightedFirstMoment[i]]) / sum;
    out.weightedCentroid[i] = static_cast<double>(c);
    a[i] = static_cast<std::int64_t>(
      std::min<L>(std::max<L>(RoundToEven(std::min<L>(std::max<L>(c, -1.0L), 2147483648.0L)), 0), 2147483647.0L));
    u[i] = s[WeightedFirstMoment[i]];
    AddWide(u[i], Multiplied(s[SumV], -a[i]));
  }
  static constexpr int pairs[6][3] = { { 0, 0, SumVXX }, { 1, 1, SumVYY }, { 2, 2, SumVZZ },
                                       { 0, 1, SumVXY }, { 0, 2, SumVXZ }, { 1, 2, SumVYZ } };
  for (int k = 0; k < 6; ++k)
  {
    const int  i = pairs[k][0];
    const int  j = pairs[k][1];
    WideSum<W> uij = s[pairs[k][2]];
    AddWide(uij, Multiplied(s[WeightedFirstMoment[i]], -a[j]));
    AddWide(uij, Multiplied(s[WeightedFirstMoment[j]], -a[i]));
    AddWide(uij, Multiplied(Multiplied(s[SumV], a[i]), a[j]));
    const L ui = ToFloating<L>(u[i]);
    const L uj = ToFloating<L>(u[j]);
    out.weightedCovariance[k] = static_cast<double>((ToFloating<L>(uij) - ui * uj / sum) / sum);
  }
}

/** Double sums: the textbook formulas, in long double. */
inline void
FinishRealSums(const double * s, std::int64_t n, bool weighted, ObjectIntensity & out)
{
  using L = long double;
  const L N = static_cast<L>(n);
  const L sum = s[SumV];
  const L mean = sum / N;
  out.sum = s[SumV];
  out.centralMoments[0] = static_cast<double>(s[SumV2] - sum * mean);
  out.centralMoments[1] = static_cast<double>(s[SumV3] - 3 * mean * s[SumV2] + 2 * N * mean * mean * mean);
  out.centralMoments[2] = static_cast<double>(s[SumV4] - 4 * mean * s[SumV3] + 6 * mean * mean * s[SumV2] -
                                              3 * N * mean * mean * mean * mean);
  for (double & c : out.weightedCentroid)
  {
    c = 0;
  }
  for (double & c : out.weightedCovariance)
  {
    c = 0;
  }
  if (!weighted || sum == 0)
  {
    return;
  }
  L c[3];
  for (int i = 0; i < 3; ++i)
  {
    c[i] = s[WeightedFirstMoment[i]] / sum;
    out.weightedCentroid[i] = static_cast<double>(c[i]);
  }
  static constexpr int pairs[6][3] = { { 0, 0, SumVXX }, { 1, 1, SumVYY }, { 2, 2, SumVZZ },
                                       { 0, 1, SumVXY }, { 0, 2, SumVXZ }, { 1, 2, SumVYZ } };
  for (int k = 0; k < 6; ++k)
  {
    out.weightedCovariance[k] = static_cast<double>(s[pairs[k][2]] / sum - c[pairs[k][0]] * c[pairs[k][1]]);
  }
}

/** The ObjectIntensity of a record of feature type T (median left at 0). */
template <class T>
void
FinishIntensity(const IntensityRecord<IntensitySum_t<T>> & r,
                std::int64_t                               pixelCount,
                bool                                       packed,
                std::int64_t                               width,
                std::int64_t                               height,
                bool                                       weighted,
                ObjectIntensity &                          out)
{
  FinishExtremes<T>(r, packed, width, height, out);
  if constexpr (ExactIntensitySums<T>)
  {
    FinishExactSums(r.sums, pixelCount, out.minimum, out.maximum, weighted, out);
  }
  else
  {
    FinishRealSums(r.sums, pixelCount, weighted, out);
  }
  out.median = 0;
}

/** StatisticsLabelMapFilter's median from an object's non-empty bins (bins
 *  increasing): the first bin where the cumulative count reaches
 *  (total + 1) / 2; when the object has an even number of pixels and the
 *  count there is exactly total / 2, the mean with the next non-empty bin. */
inline double
HistogramMedian(const std::uint32_t *    bins,
                const std::int64_t *     counts,
                std::int64_t             entries,
                std::int64_t             pixelCount,
                const HistogramBinning & binning)
{
  std::int64_t total = 0;
  for (std::int64_t e = 0; e < entries; ++e)
  {
    total += counts[e];
  }
  std::int64_t cumulative = 0;
  for (std::int64_t e = 0; e < entries; ++e)
  {
    cumulative += counts[e];
    if (cumulative >= (total + 1) / 2)
    {
      double median = binning.Center(bins[e]);
      if (pixelCount % 2 == 0 && cumulative == total / 2 && e + 1 < entries)
      {
        median += binning.Center(bins[e + 1]);
        median *= 0.5;
      }
      return median;
    }
  }
  return 0;
}

} // namespace detail
} // namespace cca

#endif
