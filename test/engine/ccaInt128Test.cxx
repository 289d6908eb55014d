// cca/Int128.h against the compiler's own 128-bit integers (GCC, Clang):
// exact products and sums, and conversions to double and long double
// rounded to nearest, ties to even, on random values and on values just
// around the halfway points of both types. Where the compiler has no
// __int128 the test checks a few hand-made values only.
#include "cca/Int128.h"

#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>

namespace
{

using cca::detail::Int128;

int failed = 0;

template <class F>
bool
Same(F a, F b)
{
  return std::memcmp(&a, &b, sizeof(F)) == 0 || (a == b);
}

void
Expect(bool ok, const char * what, std::uint64_t case_)
{
  if (!ok && failed++ < 20)
  {
    std::cout << "FAIL " << what << " case " << case_ << std::endl;
  }
}

} // namespace

int
main()
{
  // Hand-made: (2^62 + 1) * 4 = 2^64 + 4; -(2^63) * (2^63 - 1); 2^53 + 1 rounds to even.
  Expect(Int128::Product(std::int64_t{ 1 } << 62 | 1, std::uint64_t{ 4 }).ToFloating<double>() ==
           18446744073709551620.0,
         "hand-made product",
         0);
  Expect((Int128::From(std::int64_t{ 1 } << 53) + Int128::From(1)).ToFloating<double>() == 9007199254740992.0,
         "ties to even",
         1);
  Expect((Int128::From(0) - Int128::From(5)).ToFloating<double>() == -5.0, "negation", 2);
#if defined(__SIZEOF_INT128__)
  std::mt19937_64 rng(20261122);
  for (std::uint64_t k = 0; k < 200000; ++k)
  {
    const int     shiftA = static_cast<int>(rng() % 64);
    const int     shiftB = static_cast<int>(rng() % 65);
    std::int64_t  a = static_cast<std::int64_t>(rng() >> shiftA) * ((rng() & 1) != 0 ? -1 : 1);
    std::int64_t  b = static_cast<std::int64_t>(shiftB == 64 ? 0 : rng() >> shiftB) * ((rng() & 1) != 0 ? -1 : 1);
    std::uint64_t u = rng() >> (rng() % 64);
    std::int64_t  c = static_cast<std::int64_t>(rng()) >> (rng() % 64);
    if (k % 4 == 0)
    {
      // Around halfway points: a product with a long run of ones or zeros below the top bits.
      a = (std::int64_t{ 1 } << 52) + 1;
      b = (std::int64_t{ 1 } << static_cast<int>(10 + k % 50)) + static_cast<std::int64_t>(k % 3) - 1;
    }
    else if (k % 4 == 1 && k < 1000)
    {
      // Long runs of ones: rounding carries into the next power of two.
      a = INT64_MAX >> (k % 60);
      u = UINT64_MAX >> (k % 30);
    }
    const __int128 expectedProduct = static_cast<__int128>(a) * static_cast<__int128>(b);
    const __int128 expectedMixed = static_cast<__int128>(a < 0 ? a / 2 : a) * static_cast<__int128>(u);
    const __int128 expectedSum = expectedProduct - expectedMixed + static_cast<__int128>(c);
    const Int128   product = Int128::Product(a, b);
    const Int128   mixed = Int128::Product(a < 0 ? a / 2 : a, u);
    const Int128   sum = product - mixed + Int128::From(c);
    Expect(Same(product.ToFloating<double>(), static_cast<double>(expectedProduct)), "product to double", k);
    Expect(
      Same(product.ToFloating<long double>(), static_cast<long double>(expectedProduct)), "product to long double", k);
    Expect(Same(mixed.ToFloating<double>(), static_cast<double>(expectedMixed)), "mixed product to double", k);
    Expect(Same(sum.ToFloating<double>(), static_cast<double>(expectedSum)), "sum to double", k);
    Expect(Same(sum.ToFloating<long double>(), static_cast<long double>(expectedSum)), "sum to long double", k);
    Expect(sum.Negative() == (expectedSum < 0), "sign", k);
  }
#endif
  std::cout << (failed == 0 ? "all passed" : "FAILED") << std::endl;
  return failed == 0 ? 0 : 1;
}
