// The pieces of host-device copies (cuda/RampedPieces.h): they cover the
// bytes once, in whole units but the last, within the smallest and largest
// sizes, doubling at the start and halving towards the end. Checked on fixed
// cases and on random ones (the seed is printed on failure).
#include "RampedPieces.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using cca::cuda::RampedPieceEnds;
using cca::cuda::RampPieceBytes;

/** What is wrong with the pieces of (bytes, unit, largest); empty if nothing. */
std::string
Problem(std::size_t bytes, std::size_t unit, std::size_t largest)
{
  const std::vector<std::size_t> ends = RampedPieceEnds(bytes, unit, largest);
  const std::size_t              most = std::max(unit, largest / unit * unit);
  const std::size_t              least = std::min(most, std::max(unit, RampPieceBytes / unit * unit));
  if (bytes == 0)
  {
    return ends.empty() ? std::string() : "pieces for no bytes";
  }
  if (ends.empty() || ends.back() != bytes)
  {
    return "the pieces do not end at the last byte";
  }
  std::size_t begin = 0;
  std::size_t previous = 0;
  for (std::size_t i = 0; i < ends.size(); ++i)
  {
    const bool        last = i + 1 == ends.size();
    const std::size_t size = ends[i] - begin;
    auto              where = [&] {
      std::ostringstream s;
      s << "piece " << i << " of " << ends.size() << " (" << size << " bytes): ";
      return s.str();
    };
    if (ends[i] <= begin)
    {
      return where() + "empty";
    }
    if (!last && size % unit != 0)
    {
      return where() + "not whole units";
    }
    if (size > most)
    {
      return where() + "above the largest piece";
    }
    if (!last && size < least)
    {
      return where() + "below the smallest piece";
    }
    if (i > 0 && size > 2 * previous && size > least)
    {
      return where() + "more than twice the piece before";
    }
    if (!last && size > least && size > (bytes - begin) / 2)
    {
      return where() + "more than half of what remained";
    }
    previous = size;
    begin = ends[i];
  }
  return {};
}

} // namespace

int
main()
{
  int  failures = 0;
  auto check = [&](std::size_t bytes, std::size_t unit, std::size_t largest, const std::string & context) {
    const std::string problem = Problem(bytes, unit, largest);
    if (!problem.empty())
    {
      ++failures;
      std::cerr << "FAIL bytes " << bytes << ", unit " << unit << ", largest " << largest << context << ": " << problem
                << "\n";
    }
  };
  constexpr std::size_t MiB = std::size_t{ 1 } << 20;
  // A 105 MB CT volume in rows of 512 bytes: 1, 2, 4, 8 MiB, then 16 MiB
  // slabs, halving at the end.
  const std::vector<std::size_t> ct = RampedPieceEnds(512 * 512 * 400, 512, 16 * MiB);
  const std::size_t              expectedStart[] = { 1 * MiB, 3 * MiB, 7 * MiB, 15 * MiB, 31 * MiB, 47 * MiB };
  for (std::size_t i = 0; i < 6; ++i)
  {
    if (ct.size() <= i || ct[i] != expectedStart[i])
    {
      ++failures;
      std::cerr << "FAIL the CT volume's piece " << i << " ends at " << (ct.size() > i ? ct[i] : 0) << ", expected "
                << expectedStart[i] << "\n";
    }
  }
  check(512 * 512 * 400, 512, 16 * MiB, "");
  check(0, 8, 16 * MiB, "");
  check(3, 1, 16 * MiB, "");
  check(1000, 100, 1, " (the tests' one-row slabs)");
  check(64 * MiB + 5, 8, 16 * MiB, "");
  check(5 * MiB, 3 * MiB, MiB, " (rows larger than the largest slab)");

  const std::uint32_t seed = 20261123;
  std::mt19937_64     random(seed);
  for (int i = 0; i < 2000; ++i)
  {
    // At most about 2^12 pieces of the largest size.
    const std::size_t unit = 1 + random() % (std::size_t{ 1 } << (random() % 24));
    const std::size_t largest = random() % (std::size_t{ 1 } << (random() % 27));
    const std::size_t bytes = random() % (std::max(unit, largest) << 12);
    check(bytes, unit, largest, ", random case " + std::to_string(i) + " of seed " + std::to_string(seed));
  }
  std::cout << (failures == 0 ? "all passed" : "FAILED") << std::endl;
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
