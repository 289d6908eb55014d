// src/ResizeForOverwrite.h: a vector grown by it holds what it held, then
// zeroed elements, as std::vector::resize gives (growth from empty and from
// a filled vector, below and above the size where threads first touch the
// new memory, one thread and several, shrinking), against resize itself.
#include "ResizeForOverwrite.h"

#include "cca/Types.h"

#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

namespace
{

int failed = 0;

template <class T>
void
Check(std::size_t before, std::size_t after, int threads, std::mt19937_64 & rng, std::uint64_t seed)
{
  std::vector<T> grown(before);
  auto *         bytes = reinterpret_cast<unsigned char *>(grown.data());
  for (std::size_t i = 0; i < before * sizeof(T); ++i)
  {
    bytes[i] = static_cast<unsigned char>(rng());
  }
  std::vector<T> expected = grown;
  expected.resize(after);
  cca::ResizeForOverwrite(grown, after, threads);
  const bool same =
    grown.size() == expected.size() && std::memcmp(grown.data(), expected.data(), after * sizeof(T)) == 0;
  if (!same && failed++ < 20)
  {
    std::cout << "FAIL " << sizeof(T) << "-byte elements " << before << " -> " << after << " on " << threads
              << " threads (seed " << seed << ")" << std::endl;
  }
}

} // namespace

int
main()
{
  constexpr std::uint64_t seed = 20261204;
  std::mt19937_64         rng(seed);
  const std::size_t       large = (std::size_t{ 9 } << 20) / sizeof(cca::Run) + 3; // above 8 MiB of growth
  for (const int threads : { 1, 3, 0 })
  {
    Check<cca::Run>(0, 1000, threads, rng, seed);
    Check<cca::Run>(0, large, threads, rng, seed);
    Check<cca::Run>(777, large + 777, threads, rng, seed);
    Check<cca::Run>(large, 10, threads, rng, seed);
    Check<cca::ComponentFeatures>(5, (std::size_t{ 20 } << 20) / sizeof(cca::ComponentFeatures), threads, rng, seed);
    Check<std::int64_t>(1, (std::size_t{ 33 } << 20) / 8 + 1, threads, rng, seed);
  }
  std::cout << (failed == 0 ? "resize for overwrite: all passed" : "resize for overwrite: FAILED") << std::endl;
  return failed == 0 ? 0 : 1;
}
