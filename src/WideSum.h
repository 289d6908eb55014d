// Exact sums wider than 64 bits, as W 64-bit words in two's complement (low
// word first), for the intensity group's sums of powers and weighted
// moments of integer feature images. Additions wrap modulo 2^(64 W), so a
// sum is exact whatever the order of its terms as long as the true value
// fits in W words: the CPU backend adds in any order, the CUDA backend adds
// word by word with atomics and carries (IntensityVotes.cuh), and both end
// with the same bits. Compiles as plain C++ and as CUDA; no __int128, which
// MSVC lacks.
#ifndef cca_WideSum_h
#define cca_WideSum_h

#include "HostDevice.h"

#include <cmath>
#include <cstdint>

namespace cca
{
namespace detail
{

template <int W>
struct WideSum
{
  static_assert(W >= 2, "a wide sum has at least two words");
  std::uint64_t word[W];
};

/** The 128-bit product of two 64-bit unsigned values: high and low words. */
CCA_HOST_DEVICE void
MultiplyWords(std::uint64_t a, std::uint64_t b, std::uint64_t & high, std::uint64_t & low)
{
#if defined(__CUDA_ARCH__)
  low = a * b;
  high = __umul64hi(a, b);
#elif defined(__SIZEOF_INT128__)
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  low = static_cast<std::uint64_t>(p);
  high = static_cast<std::uint64_t>(p >> 64);
#else
  const std::uint64_t mask = 0xffffffffu;
  const std::uint64_t a0 = a & mask, a1 = a >> 32, b0 = b & mask, b1 = b >> 32;
  const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  const std::uint64_t middle = (p00 >> 32) + (p01 & mask) + (p10 & mask);
  low = (middle << 32) | (p00 & mask);
  high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
#endif
}

template <int W>
CCA_HOST_DEVICE void
Clear(WideSum<W> & s)
{
  for (int i = 0; i < W; ++i)
  {
    s.word[i] = 0;
  }
}

/** s += the 128-bit two's complement value (high, low), sign-extended. */
template <int W>
CCA_HOST_DEVICE void
Add128(WideSum<W> & s, std::uint64_t high, std::uint64_t low)
{
  const std::uint64_t extension = (high >> 63) != 0 ? ~std::uint64_t{ 0 } : 0;
  std::uint64_t       carry = 0;
  for (int i = 0; i < W; ++i)
  {
    const std::uint64_t term = i == 0 ? low : (i == 1 ? high : extension);
    const std::uint64_t partial = s.word[i] + term;
    const std::uint64_t total = partial + carry;
    carry = (partial < term ? 1u : 0u) + (total < partial ? 1u : 0u);
    s.word[i] = total;
  }
}

/** s += v. */
template <int W>
CCA_HOST_DEVICE void
AddSigned(WideSum<W> & s, std::int64_t v)
{
  Add128(s, v < 0 ? ~std::uint64_t{ 0 } : 0, static_cast<std::uint64_t>(v));
}

/** s += v (v < 2^64). */
template <int W>
CCA_HOST_DEVICE void
AddUnsigned(WideSum<W> & s, std::uint64_t v)
{
  Add128(s, 0, v);
}

/** s += a * b, a signed: exact (|a| b < 2^127). */
template <int W>
CCA_HOST_DEVICE void
AddProduct(WideSum<W> & s, std::int64_t a, std::uint64_t b)
{
  const std::uint64_t magnitude =
    a < 0 ? std::uint64_t{ 0 } - static_cast<std::uint64_t>(a) : static_cast<std::uint64_t>(a);
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  MultiplyWords(magnitude, b, high, low);
  if (a < 0)
  {
    low = ~low + 1;
    high = ~high + (low == 0 ? 1u : 0u);
  }
  Add128(s, high, low);
}

/** s += a * b, both unsigned: the product is below 2^128, so W must be at
 *  least 3 for it to stay non-negative. */
template <int W>
CCA_HOST_DEVICE void
AddUnsignedProduct(WideSum<W> & s, std::uint64_t a, std::uint64_t b)
{
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  MultiplyWords(a, b, high, low);
  std::uint64_t carry = 0;
  for (int i = 0; i < W; ++i)
  {
    const std::uint64_t term = i == 0 ? low : (i == 1 ? high : 0);
    const std::uint64_t partial = s.word[i] + term;
    const std::uint64_t total = partial + carry;
    carry = (partial < term ? 1u : 0u) + (total < partial ? 1u : 0u);
    s.word[i] = total;
  }
}

/** a += b. */
template <int W>
CCA_HOST_DEVICE void
AddWide(WideSum<W> & a, const WideSum<W> & b)
{
  std::uint64_t carry = 0;
  for (int i = 0; i < W; ++i)
  {
    const std::uint64_t partial = a.word[i] + b.word[i];
    const std::uint64_t total = partial + carry;
    carry = (partial < b.word[i] ? 1u : 0u) + (total < partial ? 1u : 0u);
    a.word[i] = total;
  }
}

/** a * m modulo 2^(64 W): exact when the true product fits. */
template <int W>
CCA_HOST_DEVICE WideSum<W>
                Multiplied(const WideSum<W> & a, std::int64_t m)
{
  // a * (m mod 2^64) word by word, then minus a * 2^64 when m < 0.
  const auto    um = static_cast<std::uint64_t>(m);
  WideSum<W>    r;
  std::uint64_t carry = 0;
  for (int i = 0; i < W; ++i)
  {
    std::uint64_t high = 0;
    std::uint64_t low = 0;
    MultiplyWords(a.word[i], um, high, low);
    const std::uint64_t total = low + carry;
    carry = high + (total < low ? 1u : 0u);
    r.word[i] = total;
  }
  if (m < 0)
  {
    std::uint64_t borrow = 0;
    for (int i = 1; i < W; ++i)
    {
      const std::uint64_t subtrahend = a.word[i - 1];
      const std::uint64_t partial = r.word[i] - subtrahend;
      const std::uint64_t total = partial - borrow;
      borrow = (r.word[i] < subtrahend ? 1u : 0u) + (partial < borrow ? 1u : 0u);
      r.word[i] = total;
    }
  }
  return r;
}

template <int W>
CCA_HOST_DEVICE bool
IsNegative(const WideSum<W> & s)
{
  return (s.word[W - 1] >> 63) != 0;
}

/** The value as F (double or long double): the 64 leading bits of the
 *  magnitude, with a sticky bit for the rest, scaled. Rounded once to
 *  nearest for double (the sticky bit breaks ties correctly); for an x86
 *  long double the bits beyond 64 are cut (relative error below 2^-63). */
template <class F, int W>
F
ToFloating(const WideSum<W> & s)
{
  WideSum<W> m = s;
  const bool negative = IsNegative(s);
  if (negative)
  {
    std::uint64_t carry = 1;
    for (int i = 0; i < W; ++i)
    {
      m.word[i] = ~m.word[i] + carry;
      carry = (carry != 0 && m.word[i] == 0) ? 1u : 0u;
    }
  }
  int top = W - 1;
  while (top > 0 && m.word[top] == 0)
  {
    --top;
  }
  if (top == 0)
  {
    const F value = static_cast<F>(m.word[0]);
    return negative ? -value : value;
  }
  int bits = 0;
  for (std::uint64_t v = m.word[top]; v != 0; v >>= 1)
  {
    ++bits;
  }
  // The 64 bits below and including the leading one: top word's bits, then the next word's.
  const int     shift = 64 - bits;
  std::uint64_t mantissa = shift == 0 ? m.word[top] : (m.word[top] << shift) | (m.word[top - 1] >> (64 - shift));
  bool          sticky = shift != 0 && (m.word[top - 1] << shift) != 0;
  for (int i = top - 2; i >= 0 && !sticky; --i)
  {
    sticky = m.word[i] != 0;
  }
  if (shift == 0 && m.word[top - 1] != 0)
  {
    sticky = true;
  }
  // Scaled by 2^(64 (top - 1) + bits), built from exact powers of two
  // (std::ldexp of a long double costs as much as the rest of the conversion).
  F scale = static_cast<F>(std::uint64_t{ 1 } << (bits - 1)) * F(2);
  for (int i = 1; i < top; ++i)
  {
    scale *= F(18446744073709551616.0); // 2^64
  }
  const F value = static_cast<F>(mantissa | (sticky ? 1u : 0u)) * scale;
  return negative ? -value : value;
}

} // namespace detail
} // namespace cca

#endif
