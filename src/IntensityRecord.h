// The intensity group of the feature table: what one run of an object adds
// to its record (sums of powers of the feature values, sums weighted by the
// position, extremes with ITK's index rule), written once for the CPU
// backend and the CUDA kernels (IntensityVotes.cuh), and ITK's histogram
// binning. Compiles as plain C++ and as CUDA (host and device).
//
// Sums: integer feature images of up to 16 bits in two words, of 32 bits in
// three (exact, order-free: WideSum.h); 64-bit integers and reals in double.
// Extremes: an order-preserving key of the value; ITK keeps the last pixel
// (in line order, which is raster order) that reaches an extreme, so where
// the key leaves room the pixel's raster index is packed below it (the
// minimum with the index complemented), and one atomic min or max decides
// value and index at once; 64-bit values get the index in a second pass.
#ifndef cca_IntensityRecord_h
#define cca_IntensityRecord_h

#include "HostDevice.h"
#include "WideSum.h"

#include "cca/Int128.h"
#include "cca/Types.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace cca
{
namespace detail
{

/** The sums of a record, in this order: those a plane needs first, so that
 *  the CUDA votes of a 2D image touch only the first PlanarIntensitySums
 *  (the others stay 0 there). */
enum IntensitySum
{
  SumV,   ///< v
  SumV2,  ///< v^2
  SumV3,  ///< v^3
  SumV4,  ///< v^4
  SumVX,  ///< v x
  SumVY,  ///< v y
  SumVXX, ///< v x x
  SumVYY, ///< v y y
  SumVXY, ///< v x y
  SumVZ,  ///< v z
  SumVZZ, ///< v z z
  SumVXZ, ///< v x z
  SumVYZ, ///< v y z
  NumberOfIntensitySums
};
constexpr int FirstWeightedSum = SumVX;
constexpr int PlanarIntensitySums = SumVZ;
/** The weighted first moments by axis: sum v x, sum v y, sum v z. */
constexpr int WeightedFirstMoment[3] = { SumVX, SumVY, SumVZ };

template <class Sum>
struct IntensityRecord
{
  std::uint64_t minimumKey;   ///< smallest key (packed: value, then the complemented index)
  std::uint64_t maximumKey;   ///< largest key (packed: value, then the index)
  std::int64_t  minimumIndex; ///< unpacked keys: the last raster index holding the minimum (-1: none yet)
  std::int64_t  maximumIndex;
  Sum           sums[NumberOfIntensitySums];
};

/** How the values of a feature pixel type are summed. */
template <class T, class Enable = void>
struct IntensitySumOf
{
  using Type = double; // reals and 64-bit integers
};
template <class T>
struct IntensitySumOf<T, std::enable_if_t<std::is_integral<T>::value && sizeof(T) <= 2>>
{
  using Type = WideSum<2>; // |v|^4 < 2^64: sums below 2^127 for any image the engine accepts
};
template <class T>
struct IntensitySumOf<T, std::enable_if_t<std::is_integral<T>::value && sizeof(T) == 4>>
{
  using Type = WideSum<3>; // v^4 < 2^128
};
template <class T>
using IntensitySum_t = typename IntensitySumOf<T>::Type;

/** True when sums of T are exact integers. */
template <class T>
constexpr bool ExactIntensitySums = !std::is_same<IntensitySum_t<T>, double>::value;

/** |v| <= 2^ValueMagnitudeBits<T> for every value v of an integer type T. */
template <class T>
constexpr int ValueMagnitudeBits = 8 * static_cast<int>(sizeof(T)) - (std::is_signed<T>::value ? 1 : 0);

/** The exact sums of one object whose totals fit a signed 64-bit word (bit i
 *  for IntensitySum i), from its pixel count and the largest coordinate of
 *  its bounding box on each axis: |sum of v^p x^a y^b z^c| < count |v|^p
 *  x^a y^b z^c < 2^63 by the types' bounds. Such a sum is exact modulo 2^64
 *  whatever the order and the sign of its terms, so the CUDA votes add only
 *  its low word, with no carry (IntensityVotes.cuh), and the host
 *  sign-extends it (NarrowSumsExtended). 0 for sums in double. */
template <class T>
CCA_HOST_DEVICE unsigned
NarrowIntensitySums(std::int64_t pixelCount, const std::int32_t (&boundingBoxMax)[3])
{
  if constexpr (!ExactIntensitySums<T>)
  {
    return 0;
  }
  else
  {
    const int a = BitWidth(static_cast<std::uint64_t>(pixelCount));
    const int v = ValueMagnitudeBits<T>;
    const int x = BitWidth(static_cast<std::uint64_t>(boundingBoxMax[0]));
    const int y = BitWidth(static_cast<std::uint64_t>(boundingBoxMax[1]));
    const int z = BitWidth(static_cast<std::uint64_t>(boundingBoxMax[2]));
    const int bits[NumberOfIntensitySums] = { a + v,         a + 2 * v,     a + 3 * v,     a + 4 * v,     a + v + x,
                                              a + v + y,     a + v + 2 * x, a + v + 2 * y, a + v + x + y, a + v + z,
                                              a + v + 2 * z, a + v + x + z, a + v + y + z };
    unsigned  narrow = 0;
    for (int i = 0; i < NumberOfIntensitySums; ++i)
    {
      narrow |= bits[i] <= 63 ? 1u << i : 0u;
    }
    return narrow;
  }
}

/** r with its narrow sums (NarrowIntensitySums), whose low words alone hold
 *  them modulo 2^64, sign-extended to every word. */
template <int W>
CCA_HOST_DEVICE void
NarrowSumsExtended(IntensityRecord<WideSum<W>> & r, unsigned narrow)
{
  for (int i = 0; i < NumberOfIntensitySums; ++i)
  {
    if (((narrow >> i) & 1u) != 0)
    {
      const std::uint64_t extension = (r.sums[i].word[0] >> 63) != 0 ? ~std::uint64_t{ 0 } : 0;
      for (int j = 1; j < W; ++j)
      {
        r.sums[i].word[j] = extension;
      }
    }
  }
}

/** Bits of the value key of T. */
template <class T>
constexpr int ValueKeyBits = 8 * static_cast<int>(sizeof(T));

/** True when a raster index below `pixels` fits beside the value key. */
template <class T>
CCA_HOST_DEVICE bool
PackedExtremes(std::int64_t pixels)
{
  return ValueKeyBits<T> <= 32 && pixels <= (std::int64_t{ 1 } << (64 - ValueKeyBits<T>));
}

/** An unsigned key whose order is the order of the values. */
template <class T>
CCA_HOST_DEVICE std::uint64_t
                ValueKey(T v)
{
  if constexpr (std::is_same<T, float>::value)
  {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
  }
  else if constexpr (std::is_same<T, double>::value)
  {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return (bits >> 63) != 0 ? ~bits : bits | (std::uint64_t{ 1 } << 63);
  }
  else
  {
    using U = std::make_unsigned_t<T>;
    const U sign = std::is_signed<T>::value ? static_cast<U>(U{ 1 } << (ValueKeyBits<T> - 1)) : U{ 0 };
    return static_cast<U>(static_cast<U>(v) ^ sign);
  }
}

/** Whether v is a NaN, read from its bits (no compiler flag can fold the
 *  test away). ITK passes NaN over without a test of its own: its
 *  comparisons are false, so MinimumMaximumImageCalculator's range (the
 *  histogram's) and StatisticsLabelMapFilter's extremes never take one,
 *  while the sums take it in and the histogram bins it. */
template <class T>
CCA_HOST_DEVICE bool
IsNan(T v)
{
  if constexpr (std::is_same<T, float>::value)
  {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return (bits & 0x7fffffffu) > 0x7f800000u;
  }
  else if constexpr (std::is_same<T, double>::value)
  {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    return (bits & ~(std::uint64_t{ 1 } << 63)) > 0x7ff0000000000000ull;
  }
  else
  {
    (void)v;
    return false;
  }
}

/** ITK's NumericTraits<T>::NonpositiveMin(): the lowest value for integers,
 *  -max() for reals; with max(), where ITK's extremes and ranges start. */
template <class T>
constexpr T
NonpositiveMinimum()
{
  return std::is_integral<T>::value ? std::numeric_limits<T>::lowest() : -std::numeric_limits<T>::max();
}

/** The value of a key of ValueKey<T>, as double. */
template <class T>
inline double
ValueOfKey(std::uint64_t key)
{
  if constexpr (std::is_same<T, float>::value)
  {
    const auto    k = static_cast<std::uint32_t>(key);
    std::uint32_t bits = (k & 0x80000000u) != 0 ? k & 0x7fffffffu : ~k;
    float         v;
    std::memcpy(&v, &bits, 4);
    return v;
  }
  else if constexpr (std::is_same<T, double>::value)
  {
    std::uint64_t bits = (key >> 63) != 0 ? key & ~(std::uint64_t{ 1 } << 63) : ~key;
    double        v;
    std::memcpy(&v, &bits, 8);
    return v;
  }
  else
  {
    using U = std::make_unsigned_t<T>;
    const U sign = std::is_signed<T>::value ? static_cast<U>(U{ 1 } << (ValueKeyBits<T> - 1)) : U{ 0 };
    return static_cast<double>(static_cast<T>(static_cast<U>(static_cast<U>(key) ^ sign)));
  }
}

/** The integer value of a key of ValueKey<T> (label images: integer T), as
 *  int64 (uint64 values keep their bits). */
template <class T>
inline std::int64_t
IntegerOfKey(std::uint64_t key)
{
  static_assert(std::is_integral<T>::value, "label values are integers");
  using U = std::make_unsigned_t<T>;
  const U sign = std::is_signed<T>::value ? static_cast<U>(U{ 1 } << (ValueKeyBits<T> - 1)) : U{ 0 };
  return static_cast<std::int64_t>(static_cast<T>(static_cast<U>(static_cast<U>(key) ^ sign)));
}

template <class T>
constexpr std::uint64_t IndexMaskOf = ValueKeyBits<T> >= 64 ? 0 : (~std::uint64_t{ 0 } >> ValueKeyBits<T>);

/** The keys one pixel votes for the minimum and the maximum. */
template <class T>
CCA_HOST_DEVICE std::uint64_t
                MinimumKeyOf(T v, std::int64_t index, bool packed)
{
  const std::uint64_t key = ValueKey(v);
  return packed ? (key << (64 - ValueKeyBits<T>)) | (IndexMaskOf<T> - static_cast<std::uint64_t>(index)) : key;
}
template <class T>
CCA_HOST_DEVICE std::uint64_t
                MaximumKeyOf(T v, std::int64_t index, bool packed)
{
  const std::uint64_t key = ValueKey(v);
  return packed ? (key << (64 - ValueKeyBits<T>)) | static_cast<std::uint64_t>(index) : key;
}

template <class Sum>
CCA_HOST_DEVICE void
ClearSum(Sum & s)
{
  if constexpr (std::is_same<Sum, double>::value)
  {
    s = 0;
  }
  else
  {
    Clear(s);
  }
}

/** The neutral record: extremes at their neutral keys, sums 0. */
template <class Sum>
CCA_HOST_DEVICE void
ClearIntensity(IntensityRecord<Sum> & r)
{
  r.minimumKey = ~std::uint64_t{ 0 };
  r.maximumKey = 0;
  r.minimumIndex = -1;
  r.maximumIndex = -1;
  for (int i = 0; i < NumberOfIntensitySums; ++i)
  {
    ClearSum(r.sums[i]);
  }
}

template <class Sum>
CCA_HOST_DEVICE void
AddSum(Sum & a, const Sum & b)
{
  if constexpr (std::is_same<Sum, double>::value)
  {
    a += b;
  }
  else
  {
    AddWide(a, b);
  }
}

/** a's extremes and their indices merged with b's (unpacked keys: the larger
 *  index among equal keys). */
template <class Sum>
CCA_HOST_DEVICE void
MergeExtremes(IntensityRecord<Sum> & a,
              std::uint64_t          minimumKey,
              std::int64_t           minimumIndex,
              std::uint64_t          maximumKey,
              std::int64_t           maximumIndex)
{
  if (minimumKey < a.minimumKey || (minimumKey == a.minimumKey && minimumIndex > a.minimumIndex))
  {
    a.minimumKey = minimumKey;
    a.minimumIndex = minimumIndex;
  }
  if (maximumKey > a.maximumKey || (maximumKey == a.maximumKey && maximumIndex > a.maximumIndex))
  {
    a.maximumKey = maximumKey;
    a.maximumIndex = maximumIndex;
  }
}

/** a += b, extremes included. */
template <class Sum>
CCA_HOST_DEVICE void
MergeIntensity(IntensityRecord<Sum> & a, const IntensityRecord<Sum> & b, bool weighted)
{
  MergeExtremes(a, b.minimumKey, b.minimumIndex, b.maximumKey, b.maximumIndex);
  const int sums = weighted ? NumberOfIntensitySums : FirstWeightedSum;
  for (int i = 0; i < sums; ++i)
  {
    AddSum(a.sums[i], b.sums[i]);
  }
}

/** Pixel `index` with value v joins r's extremes: later pixels win ties
 *  (ITK's "v <= min" and "v >= max"), and a NaN never joins (IsNan). */
template <class T, class Sum>
CCA_HOST_DEVICE void
AddToExtremes(IntensityRecord<Sum> & r, T v, std::int64_t index, bool packed)
{
  if (IsNan(v))
  {
    return;
  }
  const std::uint64_t minimumKey = MinimumKeyOf(v, index, packed);
  const std::uint64_t maximumKey = MaximumKeyOf(v, index, packed);
  if (minimumKey <= r.minimumKey)
  {
    r.minimumKey = minimumKey;
    r.minimumIndex = index;
  }
  if (maximumKey >= r.maximumKey)
  {
    r.maximumKey = maximumKey;
    r.maximumIndex = index;
  }
}

/** Pixels per stretch of the 8- and 16-bit path of RunIntensity: within it
 *  every sum but that of v^4 fits a native 64-bit word (|v|^3 < 2^48, so a
 *  stretch's sum stays below 2^62). */
constexpr std::int32_t NativeSumPixels = std::int32_t{ 1 } << 14;

/** The record of the pixels x0 .. x0 + length - 1 of row (y, z): row
 *  points at the row's pixel 0, xStride pixels apart; rowIndex is the
 *  raster index of pixel 0. */
template <class T, class Sum>
CCA_HOST_DEVICE void
RunIntensity(const T *              row,
             std::int64_t           xStride,
             std::int32_t           x0,
             std::int32_t           length,
             std::int64_t           y,
             std::int64_t           z,
             std::int64_t           rowIndex,
             bool                   packed,
             bool                   weighted,
             IntensityRecord<Sum> & r)
{
  ClearIntensity(r);
  Sum s1, s2, s3, s4, sx, sxx;
  ClearSum(s1);
  ClearSum(s2);
  ClearSum(s3);
  ClearSum(s4);
  ClearSum(sx);
  ClearSum(sxx);
  if constexpr (std::is_same<Sum, double>::value)
  {
    for (std::int32_t k = 0; k < length; ++k)
    {
      const std::int32_t x = x0 + k;
      const T            v = row[x * xStride];
      AddToExtremes(r, v, rowIndex + x, packed);
      const double d = static_cast<double>(v);
      const double d2 = d * d;
      s1 += d;
      s2 += d2;
      s3 += d2 * d;
      s4 += d2 * d2;
      if (weighted)
      {
        const double dx = d * x;
        sx += dx;
        sxx += dx * x;
      }
    }
  }
  else if constexpr (sizeof(T) <= 2)
  {
    // Native words per stretch, widened once per stretch: positions count
    // from the stretch's start s (x = s + k), so that sum v x = s sum v +
    // sum v k and sum v x^2 = s^2 sum v + 2 s sum v k + sum v k^2, whose
    // per-pixel terms fit 64 bits for k < 2^14. Exact, like the general path,
    // with a few native operations per pixel instead of 128-bit ones.
    for (std::int32_t b = 0; b < length; b += NativeSumPixels)
    {
      const std::int32_t count = length - b < NativeSumPixels ? length - b : NativeSumPixels;
      const std::int32_t start = x0 + b;
      std::int64_t       a1 = 0, a3 = 0, ak = 0, akk = 0;
      std::uint64_t      a2 = 0, a4 = 0, a4High = 0; // sum v^4: a4High counts a4's carries
      for (std::int32_t k = 0; k < count; ++k)
      {
        const T v = row[(start + k) * xStride];
        AddToExtremes(r, v, rowIndex + start + k, packed);
        const std::int64_t w = static_cast<std::int64_t>(v);
        const std::int64_t w2 = w * w;                                                           // < 2^32
        const auto         w4 = static_cast<std::uint64_t>(w2) * static_cast<std::uint64_t>(w2); // < 2^64
        a1 += w;
        a2 += static_cast<std::uint64_t>(w2);
        a3 += w2 * w;
        a4 += w4;
        a4High += a4 < w4 ? 1u : 0u;
        const std::int64_t wk = w * k;
        ak += wk;
        akk += wk * k;
      }
      AddSigned(s1, a1);
      AddUnsigned(s2, a2);
      AddSigned(s3, a3);
      Add128(s4, a4High, a4);
      if (weighted)
      {
        const auto start64 = static_cast<std::uint64_t>(start);
        AddProduct(sx, a1, start64);
        AddSigned(sx, ak);
        AddProduct(sxx, a1, start64 * start64);
        AddProduct(sxx, ak, 2 * start64);
        AddSigned(sxx, akk);
      }
    }
  }
  else
  {
    for (std::int32_t k = 0; k < length; ++k)
    {
      const std::int32_t x = x0 + k;
      const T            v = row[x * xStride];
      AddToExtremes(r, v, rowIndex + x, packed);
      const std::int64_t  w = static_cast<std::int64_t>(v);
      const std::uint64_t magnitude =
        w < 0 ? std::uint64_t{ 0 } - static_cast<std::uint64_t>(w) : static_cast<std::uint64_t>(w);
      const std::uint64_t w2 = magnitude * magnitude; // < 2^64 for any 32-bit value
      AddSigned(s1, w);
      AddUnsigned(s2, w2);
      AddProduct(s3, w, w2);
      AddUnsignedProduct(s4, w2, w2);
      if (weighted)
      {
        const std::int64_t wx = w * x; // |v x| < 2^63
        AddSigned(sx, wx);
        AddProduct(sxx, wx, static_cast<std::uint64_t>(x));
      }
    }
  }
  r.sums[SumV] = s1;
  r.sums[SumV2] = s2;
  r.sums[SumV3] = s3;
  r.sums[SumV4] = s4;
  if (weighted)
  {
    // Along a row y and z are constant: their sums are multiples of the run's.
    if constexpr (std::is_same<Sum, double>::value)
    {
      const double dy = static_cast<double>(y);
      const double dz = static_cast<double>(z);
      r.sums[SumVX] = sx;
      r.sums[SumVY] = s1 * dy;
      r.sums[SumVZ] = s1 * dz;
      r.sums[SumVXX] = sxx;
      r.sums[SumVYY] = s1 * dy * dy;
      r.sums[SumVZZ] = s1 * dz * dz;
      r.sums[SumVXY] = sx * dy;
      r.sums[SumVXZ] = sx * dz;
      r.sums[SumVYZ] = s1 * dy * dz;
    }
    else
    {
      r.sums[SumVX] = sx;
      r.sums[SumVY] = Multiplied(s1, y);
      r.sums[SumVZ] = Multiplied(s1, z);
      r.sums[SumVXX] = sxx;
      r.sums[SumVYY] = Multiplied(s1, y * y);
      r.sums[SumVZZ] = Multiplied(s1, z * z);
      r.sums[SumVXY] = Multiplied(sx, y);
      r.sums[SumVXZ] = Multiplied(sx, z);
      r.sums[SumVYZ] = Multiplied(s1, y * z);
    }
  }
}

/** ITK's Statistics::Histogram<double> binning of one dimension: Initialize's
 *  edges (a float interval, each edge the double lower bound plus a float
 *  product) and GetIndex's search, with or without ClipBinsAtEnds. */
struct HistogramBinning
{
  double        lower;
  double        upper;
  float         interval;
  std::uint32_t bins;
  bool          clip;

  static HistogramBinning
  Make(std::uint32_t bins, double lower, double upper, bool clip)
  {
    HistogramBinning b;
    b.lower = lower;
    b.upper = upper;
    b.bins = bins;
    b.clip = clip;
    b.interval = (static_cast<float>(upper) - static_cast<float>(lower)) / static_cast<float>(bins);
    return b;
  }

  CCA_HOST_DEVICE double
  Edge(std::int64_t j) const
  {
#if defined(__CUDA_ARCH__)
    return lower + static_cast<double>(__fmul_rn(static_cast<float>(j), interval));
#else
    const float product = static_cast<float>(j) * interval;
    return lower + static_cast<double>(product);
#endif
  }
  CCA_HOST_DEVICE double
  BinMin(std::int64_t j) const
  {
    return Edge(j);
  }
  CCA_HOST_DEVICE double
  BinMax(std::int64_t j) const
  {
    return j + 1 < static_cast<std::int64_t>(bins) ? Edge(j + 1) : upper;
  }
  /** GetMeasurementVector: the bin's centre. */
  CCA_HOST_DEVICE double
  Center(std::int64_t j) const
  {
    const double sum = BinMin(j) + BinMax(j);
    return sum / 2.0;
  }

  /** Math::AlmostEquals of two doubles (FloatAlmostEqual: 0.1 epsilon apart,
   *  or at most 4 units in the last place). */
  CCA_HOST_DEVICE static bool
  AlmostEqual(double a, double b)
  {
    const double difference = a > b ? a - b : b - a;
    if (difference <= 0.1 * 2.220446049250313e-16)
    {
      return true;
    }
    std::int64_t ia;
    std::int64_t ib;
    std::memcpy(&ia, &a, 8);
    std::memcpy(&ib, &b, 8);
    if ((ia < 0) != (ib < 0))
    {
      return false;
    }
    const std::int64_t ulps = ia > ib ? ia - ib : ib - ia;
    return ulps <= 4;
  }

  /** The bin of v, or -1 when ClipBinsAtEnds leaves it out (GetIndex). */
  CCA_HOST_DEVICE std::int64_t
                  Find(double v) const
  {
    if (v < BinMin(0))
    {
      return clip ? -1 : 0;
    }
    std::int64_t end = static_cast<std::int64_t>(bins) - 1;
    if (v >= BinMax(end))
    {
      return (!clip || AlmostEqual(v, BinMax(end))) ? end : -1;
    }
    std::int64_t begin = 0;
    std::int64_t middle = (end + 1) / 2;
    double       edge = BinMin(middle);
    for (int step = 0; step < 200; ++step) // ITK's loop ends within log2(bins) rounds
    {
      if (v < edge)
      {
        end = middle - 1;
      }
      else if (v > edge)
      {
        if (v < BinMax(middle) && v >= BinMin(middle))
        {
          return middle;
        }
        begin = middle + 1;
      }
      else
      {
        return middle;
      }
      middle = begin + (end - begin) / 2;
      edge = BinMin(middle);
    }
    return middle;
  }
};

} // namespace detail
} // namespace cca

#endif
