// The warp queue of the union-find's merges (cuda/QueuedMerges.cuh) on
// emulated threads, against the host:
//  - ForEachQueuedPair: warps whose lanes hold random counts of pairs (none,
//    one each, a few, one lane with many, many each, so that the queue
//    takes one round or several and a lane's pairs cross rounds), with
//    lanes past a block's end holding none: every pair (lane, first + i),
//    i < count, must be handed to exactly one call, and no other;
//  - TouchingRunsIn: random rows of runs and pixel ranges (before, across
//    and past the row, empty rows), searched by halving (no run end
//    index): the first run whose end is past lo and the count of runs that
//    start before hi, as a scan of the row finds them.
//
// Usage: ccaQueuedMergesTest [--cases N] [--seed S]
#include "CasesAndSeed.h"
#include "CudaEmulation.h"

#include "QueuedMerges.cuh"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using namespace cca::cuda;
using Index = std::uint32_t;

/** One case of the queue; returns what failed, or an empty string. */
std::string
QueueCase(std::mt19937 & rng)
{
  auto               pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  const int          warps = 1 + pick(4);
  const int          threads = 32 * warps;
  const int          active = pick(threads + 1); // lanes from here on hold no pairs
  const int          kind = pick(5);
  std::vector<Index> first(static_cast<std::size_t>(threads));
  std::vector<int>   count(static_cast<std::size_t>(threads), 0);
  const int          busy = pick(32); // kind 3: the one lane of each warp with many
  for (int t = 0; t < active; ++t)
  {
    first[static_cast<std::size_t>(t)] = static_cast<Index>(pick(1 << 20));
    int & c = count[static_cast<std::size_t>(t)];
    c = kind == 0   ? 0
        : kind == 1 ? 1
        : kind == 2 ? pick(4)
        : kind == 3 ? (t % 32 == busy ? 1 + pick(100) : pick(2))
                    : pick(41);
  }
  // Each call's (thread, b), in the order of the calls.
  std::vector<std::uint64_t> calls(static_cast<std::size_t>(threads) * 128 + 1, 0);
  unsigned                   made = 0;
  emulation::Launch(1, static_cast<unsigned>(threads), [&] {
    const auto          t = threadIdx.x;
    TouchingRuns<Index> touching;
    touching.first = first[t];
    touching.count = count[t];
    const unsigned warpFirst = t - LaneId();
    ForEachQueuedPair(touching, [&](int owner, Index b) {
      const unsigned k = atomicAdd(&made, 1u);
      if (k < calls.size())
      {
        calls[k] = (static_cast<std::uint64_t>(warpFirst + static_cast<unsigned>(owner)) << 32) | b;
      }
    });
  });
  std::vector<std::uint64_t> expected;
  for (int t = 0; t < threads; ++t)
  {
    for (int i = 0; i < count[static_cast<std::size_t>(t)]; ++i)
    {
      expected.push_back((static_cast<std::uint64_t>(t) << 32) |
                         (first[static_cast<std::size_t>(t)] + static_cast<Index>(i)));
    }
  }
  std::ostringstream failure;
  failure << warps << " warps, " << active << " lanes holding pairs, kind " << kind << ": ";
  if (made != expected.size())
  {
    failure << made << " calls, expected " << expected.size();
    return failure.str();
  }
  calls.resize(made);
  std::sort(calls.begin(), calls.end());
  std::sort(expected.begin(), expected.end());
  const auto mismatch = std::mismatch(calls.begin(), calls.end(), expected.begin());
  if (mismatch.first != calls.end())
  {
    failure << "call for thread " << (*mismatch.first >> 32) << " run " << (*mismatch.first & 0xffffffffu)
            << " where the pairs expected thread " << (*mismatch.second >> 32) << " run "
            << (*mismatch.second & 0xffffffffu);
    return failure.str();
  }
  return {};
}

/** One case of TouchingRunsIn; returns what failed, or an empty string. */
std::string
TouchingCase(std::mt19937 & rng)
{
  auto                      pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  const std::int32_t        width = 1 + pick(300);
  const int                 rows = 1 + pick(6);
  std::vector<Index>        rowOffsets(1, 0);
  std::vector<std::int32_t> xs, ends;
  std::vector<Index>        rowOf;
  for (int r = 0; r < rows; ++r)
  {
    const double density = pick(4) == 0 ? 0.0 : 0.1 * (1 + pick(9));
    std::int32_t x = 0;
    while (x < width)
    {
      const std::int32_t gap = static_cast<std::int32_t>(pick(6));
      const std::int32_t length = 1 + static_cast<std::int32_t>(pick(density < 0.5 ? 3 : 12));
      x += gap;
      if (x >= width)
      {
        break;
      }
      if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < density || pick(3) == 0)
      {
        xs.push_back(x);
        ends.push_back(std::min(width, x + length));
        rowOf.push_back(static_cast<Index>(r));
      }
      x = std::min(width, x + length) + 1; // runs are maximal: a background pixel between them
    }
    rowOffsets.push_back(static_cast<Index>(xs.size()));
  }
  RunArrays<Index> runs{};
  runs.x = xs.data();
  runs.end = ends.data();
  runs.row = rowOf.data();
  runs.rowOffsets = rowOffsets.data();
  runs.count = static_cast<Index>(xs.size());
  std::ostringstream failure;
  for (int probe = 0; probe < 64; ++probe)
  {
    const int          r = pick(rows);
    const std::int32_t lo = -2 + static_cast<std::int32_t>(pick(width + 4));
    const std::int32_t hi = lo + static_cast<std::int32_t>(pick(40));
    Index              expectedFirst = rowOffsets[static_cast<std::size_t>(r)];
    const Index        rowEnd = rowOffsets[static_cast<std::size_t>(r) + 1];
    while (expectedFirst < rowEnd && ends[expectedFirst] <= lo)
    {
      ++expectedFirst;
    }
    int expectedCount = 0;
    for (Index b = expectedFirst; b < rowEnd && xs[b] < hi; ++b)
    {
      ++expectedCount;
    }
    TouchingRuns<Index> found;
    emulation::Launch(1, 32, [&] {
      if (threadIdx.x == 0)
      {
        found = TouchingRunsIn(runs, static_cast<std::int32_t>(r), lo, hi);
      }
    });
    if (found.first != expectedFirst || found.count != expectedCount)
    {
      failure << "width " << width << " row " << r << " [" << lo << ", " << hi << "): first " << found.first
              << " count " << found.count << ", expected " << expectedFirst << " and " << expectedCount;
      return failure.str();
    }
  }
  return {};
}

} // namespace

int
main(int argc, char * argv[])
{
  int           cases = 200;
  std::uint32_t seed = 20261201;
  if (!emulation::ParseCasesAndSeed(argc, argv, cases, seed))
  {
    return 2;
  }
  int failed = 0;
  for (int k = 0; k < cases; ++k)
  {
    const std::uint32_t caseSeed = seed + static_cast<std::uint32_t>(k);
    std::mt19937        rng(caseSeed);
    std::string         failure = QueueCase(rng);
    if (failure.empty())
    {
      failure = TouchingCase(rng);
    }
    if (!failure.empty())
    {
      std::cerr << "FAIL seed=" << caseSeed << " " << failure << '\n';
      ++failed;
    }
  }
  std::cout << "queued merges: " << cases - failed << " passed, " << failed << " failed (seed " << seed << ")\n";
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
