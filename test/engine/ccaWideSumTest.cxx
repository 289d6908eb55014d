// The conversions of the exact intensity sums (src/WideSum.h,
// src/IntensityStatistics.h): ToFloating<double> against the compiler's
// 128-bit integers (rounded to nearest), ToFloating of a sum shifted by a
// whole word equal to the conversion times 2^64 (the scaling of sums above
// 2^128), and RoundToEven against std::nearbyint (ties to even) on random
// values and on the halfway points.
#include "IntensityStatistics.h"
#include "WideSum.h"

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>

namespace
{

int failed = 0;

void
Expect(bool ok, const char * what, std::uint64_t case_)
{
  if (!ok && failed++ < 20)
  {
    std::cout << "FAIL " << what << " case " << case_ << " (seed 20261123)" << std::endl;
  }
}

} // namespace

int
main()
{
  using cca::detail::ToFloating;
  using cca::detail::WideSum;
  std::mt19937_64 rng(20261123);
  for (std::uint64_t k = 0; k < 200000; ++k)
  {
    // Magnitudes from a few bits to 127 bits, both signs.
    const int           bits = 1 + static_cast<int>(rng() % 126);
    const std::uint64_t high = bits > 64 ? rng() >> (128 - bits) : 0;
    const std::uint64_t low = bits >= 64 ? rng() : rng() >> (64 - bits);
    WideSum<2>          s{ { low, high } };
    const bool          negative = (rng() & 1) != 0;
    if (negative)
    {
      s = cca::detail::Multiplied(s, -1);
    }
#if defined(__SIZEOF_INT128__)
    const __int128 exact = static_cast<__int128>((static_cast<unsigned __int128>(s.word[1]) << 64) | s.word[0]);
    Expect(ToFloating<double>(s) == static_cast<double>(exact), "ToFloating<double> of a 2-word sum", k);
#endif
    // The same sum one word up (times 2^64) in three words.
    const std::uint64_t sign = cca::detail::IsNegative(s) ? ~std::uint64_t{ 0 } : 0; // 0 stays 0 when negated
    const WideSum<3>    down{ { s.word[0], s.word[1], sign } };
    const WideSum<3>    up{ { 0, s.word[0], s.word[1] } };
    Expect(ToFloating<double>(up) == ToFloating<double>(down) * 18446744073709551616.0, "double, one word up", k);
    Expect(ToFloating<long double>(up) == ToFloating<long double>(down) * 18446744073709551616.0L,
           "long double, one word up",
           k);
  }
  std::fesetround(FE_TONEAREST);
  for (std::uint64_t k = 0; k < 200000; ++k)
  {
    const auto        whole = static_cast<std::int64_t>(rng() >> (2 + rng() % 60)) * ((rng() & 1) ? 1 : -1);
    const long double halves[] = { 0.5L, -0.5L, 0.25L, 0.75L, -0.75L };
    const long double x = k % 2 == 0 ? static_cast<long double>(whole) + halves[k / 2 % 5]
                                     : static_cast<long double>(static_cast<std::int64_t>(rng() >> 12)) / 4096.0L -
                                         static_cast<long double>(std::int64_t{ 1 } << 50);
    Expect(cca::detail::RoundToEven(x) == std::nearbyint(x), "RoundToEven against nearbyint", k);
  }
  std::cout << (failed == 0 ? "wide sums: all checks passed" : "wide sums: FAILED") << std::endl;
  return failed == 0 ? 0 : 1;
}
