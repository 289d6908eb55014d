// The CUDA backend's narrow table entries widened on the host
// (src/NarrowFeatures.h): WidenFeatureEntries, whose AVX2 path moves byte
// ranges, against WidenFeatures field by field, on random entries of random
// counts at every alignment of the staged bytes.
#include "NarrowFeatures.h"

#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

int
main()
{
  constexpr std::uint32_t seed = 20261130;
  std::mt19937_64         rng(seed);
  int                     failed = 0;
  for (int k = 0; k < 2000; ++k)
  {
    const std::size_t          count = rng() % 70;
    const std::size_t          shift = rng() % 8; // staged bytes need not be aligned
    std::vector<unsigned char> staged(count * sizeof(cca::NarrowFeatures) + shift);
    for (unsigned char & b : staged)
    {
      b = static_cast<unsigned char>(rng());
    }
    std::vector<cca::ComponentFeatures> wide(count + 1);
    std::memset(wide.data(), 0xa5, wide.size() * sizeof(cca::ComponentFeatures));
    const cca::ComponentFeatures guard = wide[count];
    cca::WidenFeatureEntries(staged.data() + shift, wide.data(), count);
    for (std::size_t i = 0; i < count; ++i)
    {
      cca::NarrowFeatures entry;
      std::memcpy(&entry, staged.data() + shift + i * sizeof(entry), sizeof(entry));
      cca::ComponentFeatures expected;
      cca::WidenFeatures(entry, expected);
      if (std::memcmp(&expected, &wide[i], sizeof(expected)) != 0 && failed++ < 10)
      {
        std::cout << "FAIL entry " << i << " of case " << k << " (seed " << seed << ")" << std::endl;
      }
    }
    if (std::memcmp(&guard, &wide[count], sizeof(guard)) != 0 && failed++ < 10)
    {
      std::cout << "FAIL case " << k << " wrote past its entries (seed " << seed << ")" << std::endl;
    }
  }
  std::cout << "narrow entries widened: " << (failed == 0 ? "all match" : "FAILED") << std::endl;
  return failed == 0 ? 0 : 1;
}
