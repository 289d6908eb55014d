// A signed 128-bit integer made of two 64-bit words, for the exact sums the
// filter forms from the feature table (first moments shifted by the region
// index, second-moment numerators) on compilers without __int128 (MSVC).
// Only what those sums need: products of 64-bit values, sums, negation, and
// the nearest double or long double. Plain C++, header only.
#ifndef cca_Int128_h
#define cca_Int128_h

#include <cmath>
#include <cstdint>
#include <limits>

namespace cca
{
namespace detail
{

/** The number of bits of v (0 for 0): v < 2^BitWidth(v). constexpr, so that
 *  CUDA device code may call it too (--expt-relaxed-constexpr). */
constexpr int
BitWidth(std::uint64_t v)
{
  int n = 0;
  for (; v != 0; v >>= 1)
  {
    ++n;
  }
  return n;
}

class Int128
{
public:
  constexpr Int128() = default;

  static constexpr Int128
  From(std::int64_t value)
  {
    return Int128(value < 0 ? ~std::uint64_t{ 0 } : 0, static_cast<std::uint64_t>(value));
  }

  /** a * b, exact while |a| * b < 2^127. */
  static Int128
  Product(std::int64_t a, std::uint64_t b)
  {
    const Int128 magnitude = ProductOfMagnitudes(Magnitude(a), b);
    return a < 0 ? -magnitude : magnitude;
  }
  /** a * b, exact. */
  static Int128
  Product(std::int64_t a, std::int64_t b)
  {
    const Int128 magnitude = ProductOfMagnitudes(Magnitude(a), Magnitude(b));
    return (a < 0) != (b < 0) ? -magnitude : magnitude;
  }

  friend Int128
  operator+(const Int128 & a, const Int128 & b)
  {
    const std::uint64_t low = a.m_Low + b.m_Low;
    return Int128(a.m_High + b.m_High + (low < a.m_Low ? 1 : 0), low);
  }
  friend Int128
  operator-(const Int128 & a, const Int128 & b)
  {
    return a + -b;
  }
  Int128
  operator-() const
  {
    const std::uint64_t low = ~m_Low + 1;
    return Int128(~m_High + (low == 0 ? 1 : 0), low);
  }

  bool
  Negative() const
  {
    return (m_High >> 63) != 0;
  }

  /** The nearest value of F (double or long double), ties to even: what
   *  converting a built-in 128-bit integer gives. */
  template <class F>
  F
  ToFloating() const
  {
    const bool   negative = Negative();
    const Int128 m = negative ? -*this : *this;
    F            result;
    if (m.m_High == 0)
    {
      result = static_cast<F>(m.m_Low);
    }
    else
    {
      constexpr int digits = std::numeric_limits<F>::digits;
      const int     bits = 64 + BitWidth(m.m_High);
      const int     shift = bits - digits; // > 0: bits > 64 >= digits
      std::uint64_t mantissa = m.ShiftedRight(shift).m_Low;
      const Int128  remainder = m.LowBits(shift);
      const Int128  half = Int128::Bit(shift - 1);
      const bool    up = remainder.Greater(half) || (remainder.Equal(half) && (mantissa & 1) != 0);
      int           exponent = shift;
      if (up)
      {
        ++mantissa;
        if (digits == 64 ? mantissa == 0 : (mantissa >> digits) != 0)
        {
          mantissa = std::uint64_t{ 1 } << (digits - 1); // rounded up to the next power of two
          ++exponent;
        }
      }
      result = std::ldexp(static_cast<F>(mantissa), exponent);
    }
    return negative ? -result : result;
  }

private:
  constexpr Int128(std::uint64_t high, std::uint64_t low)
    : m_High(high)
    , m_Low(low)
  {}

  static std::uint64_t
  Magnitude(std::int64_t v)
  {
    return v < 0 ? std::uint64_t{ 0 } - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  }

  static Int128
  ProductOfMagnitudes(std::uint64_t a, std::uint64_t b)
  {
    const std::uint64_t mask = 0xffffffffu;
    const std::uint64_t a0 = a & mask, a1 = a >> 32, b0 = b & mask, b1 = b >> 32;
    const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const std::uint64_t middle = (p00 >> 32) + (p01 & mask) + (p10 & mask);
    return Int128(p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32), (middle << 32) | (p00 & mask));
  }

  /** 2^k, 0 <= k < 128. */
  static Int128
  Bit(int k)
  {
    return k >= 64 ? Int128(std::uint64_t{ 1 } << (k - 64), 0) : Int128(0, std::uint64_t{ 1 } << k);
  }

  /** This (non-negative) shifted right by 0 < k < 128 bits. */
  Int128
  ShiftedRight(int k) const
  {
    return k >= 64 ? Int128(0, m_High >> (k - 64)) : Int128(m_High >> k, (m_Low >> k) | (m_High << (64 - k)));
  }

  /** The low 0 < k < 128 bits of this. */
  Int128
  LowBits(int k) const
  {
    return k >= 64 ? Int128(k == 64 ? 0 : m_High & ((std::uint64_t{ 1 } << (k - 64)) - 1), m_Low)
                   : Int128(0, m_Low & ((std::uint64_t{ 1 } << k) - 1));
  }

  /** Comparisons of non-negative values. */
  bool
  Greater(const Int128 & other) const
  {
    return m_High != other.m_High ? m_High > other.m_High : m_Low > other.m_Low;
  }
  bool
  Equal(const Int128 & other) const
  {
    return m_High == other.m_High && m_Low == other.m_Low;
  }

  std::uint64_t m_High = 0; ///< two's complement
  std::uint64_t m_Low = 0;
};

} // namespace detail
} // namespace cca

#endif
