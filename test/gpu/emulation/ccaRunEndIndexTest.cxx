// The runs' end index (cuda/RunNeighbours.cuh) as WriteByteRunsKernel leaves
// it, on emulated threads: random byte rows of whole 16-pixel lanes (one to
// three stretches of 512 pixels, runs on and across the lanes' edges, empty
// and full rows, rows of one run ending on a lane's edge), with and without
// the spans of one-run rows (which the kernel does not read again and whose
// words it makes up). Checked against the rows' runs found on the host:
//  - the runs the kernel writes;
//  - each word: bit j where a run ends at 16 w + j, and the count of the
//    row's runs that end before 16 w in its high half;
//  - IndexedRunPast for every lo from -1 to the width, with the row in 64
//    and in 32 bits: the first run of the row whose end is past lo, as a
//    scan of the row's runs finds it.
//
// Usage: ccaRunEndIndexTest [--cases N] [--seed S]
#include "CasesAndSeed.h"
#include "CudaEmulation.h"

#include "RunDetection.cuh"

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

struct HostRun
{
  std::int32_t x;
  std::int32_t end;
};

/** The runs of each row of a width x rows byte image (nonzero: foreground). */
std::vector<std::vector<HostRun>>
RowRuns(const std::uint8_t * image, std::int64_t width, std::int64_t rows)
{
  std::vector<std::vector<HostRun>> runs(static_cast<std::size_t>(rows));
  for (std::int64_t r = 0; r < rows; ++r)
  {
    const std::uint8_t * row = image + r * width;
    for (std::int64_t x = 0; x < width;)
    {
      if (row[x] == 0)
      {
        ++x;
        continue;
      }
      const std::int64_t start = x;
      while (x < width && row[x] != 0)
      {
        ++x;
      }
      runs[static_cast<std::size_t>(r)].push_back(
        HostRun{ static_cast<std::int32_t>(start), static_cast<std::int32_t>(x) });
    }
  }
  return runs;
}

/** One case; returns what failed, or an empty string. */
std::string
Case(std::mt19937 & rng, bool withSpans)
{
  auto               pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  const std::int64_t width = RunEndWordPixels * (1 + pick(96));
  const std::int64_t rows = 1 + pick(24);
  const int          kind = pick(8);
  const double       density = kind == 0 ? 0.0 : kind == 1 ? 1.0 : 0.1 * (1 + pick(9));
  const int          grain = 1 + pick(kind == 5 ? 40 : 6); // pixels a draw covers along the row

  // Whole 16-byte loads: the image in 16-byte words.
  std::vector<std::uint64_t>             storage(static_cast<std::size_t>((width * rows + 15) / 8 + 2), 0);
  auto * const                           image = reinterpret_cast<std::uint8_t *>(storage.data());
  std::uniform_real_distribution<double> draw(0.0, 1.0);
  for (std::int64_t r = 0; r < rows; ++r)
  {
    for (std::int64_t x = 0; x < width; x += grain)
    {
      const std::uint8_t value = draw(rng) < density ? 1 : 0;
      for (std::int64_t k = x; k < x + grain && k < width; ++k)
      {
        image[r * width + k] = value;
      }
    }
  }
  if (kind >= 6)
  {
    // One run a row (or none), its ends on a lane's edge half the time.
    for (std::int64_t r = 0; r < rows; ++r)
    {
      std::uint8_t * row = image + r * width;
      std::fill(row, row + width, std::uint8_t{ 0 });
      std::int64_t a = pick(static_cast<int>(width));
      std::int64_t b = a + pick(static_cast<int>(width - a) + 1);
      if (pick(2) == 0)
      {
        a -= a % RunEndWordPixels;
        b -= b % RunEndWordPixels;
      }
      std::fill(row + a, row + b, std::uint8_t{ 1 });
    }
  }
  const auto rowRuns = RowRuns(image, width, rows);

  std::vector<Index>   rowOffsets(static_cast<std::size_t>(rows) + 1, 0);
  std::vector<RowSpan> spans(static_cast<std::size_t>(rows), RowSpan{ 0, 0 });
  for (std::int64_t r = 0; r < rows; ++r)
  {
    const auto & runs = rowRuns[static_cast<std::size_t>(r)];
    rowOffsets[static_cast<std::size_t>(r) + 1] =
      rowOffsets[static_cast<std::size_t>(r)] + static_cast<Index>(runs.size());
    if (runs.size() == 1)
    {
      spans[static_cast<std::size_t>(r)] = RowSpan{ runs[0].x, runs[0].end };
    }
  }
  const Index                count = rowOffsets.back();
  std::vector<std::int32_t>  xs(count + 1), ends(count + 1);
  std::vector<Index>         rowOf(count + 1), parent(count + 1);
  const std::int64_t         wordsPerRow = width / RunEndWordPixels;
  std::vector<std::uint32_t> words(static_cast<std::size_t>(rows * wordsPerRow), 0xdeadbeefu);

  Geometry g{};
  g.width = width;
  g.height = rows;
  g.depth = 1;
  g.rows = rows;
  RunArrays<Index> runs{};
  runs.x = xs.data();
  runs.end = ends.data();
  runs.row = rowOf.data();
  runs.rowOffsets = rowOffsets.data();
  runs.count = count;
  runs.endWordsPerRow = wordsPerRow; // the kernel writes rows of this many words, as LabelStage sets it
  const ForegroundTest<std::uint8_t> test{ 0, false, false }; // nonzero
  const RowSpan *                    kept = withSpans ? spans.data() : nullptr;
  std::uint32_t *                    index = words.data();
  emulation::Launch(
    2, BlockThreads, [&] { WriteByteRunsKernel<Index>(image, g, test, runs, parent.data(), kept, index); });

  std::ostringstream failure;
  failure << width << "x" << rows << " density " << density << " grain " << grain
          << (withSpans ? " with spans" : " without spans") << ": ";
  for (std::int64_t r = 0; r < rows; ++r)
  {
    const auto & expected = rowRuns[static_cast<std::size_t>(r)];
    const Index  first = rowOffsets[static_cast<std::size_t>(r)];
    for (std::size_t k = 0; k < expected.size(); ++k)
    {
      if (xs[first + k] != expected[k].x || ends[first + k] != expected[k].end || rowOf[first + k] != r)
      {
        failure << "row " << r << " run " << k << " written as [" << xs[first + k] << ", " << ends[first + k]
                << ") in row " << rowOf[first + k] << ", expected [" << expected[k].x << ", " << expected[k].end << ")";
        return failure.str();
      }
    }
    for (std::int64_t w = 0; w < wordsPerRow; ++w)
    {
      std::uint32_t bits = 0;
      std::uint32_t before = 0;
      for (const HostRun & run : expected)
      {
        if (run.end < w * RunEndWordPixels)
        {
          ++before;
        }
        else if (run.end < (w + 1) * RunEndWordPixels && run.end < width)
        {
          bits |= 1u << (run.end - w * RunEndWordPixels);
        }
      }
      const std::uint32_t word = words[static_cast<std::size_t>(r * wordsPerRow + w)];
      if (word != RunEndWord(bits, before))
      {
        failure << "row " << r << " word " << w << " is 0x" << std::hex << word << ", expected 0x"
                << RunEndWord(bits, before);
        return failure.str();
      }
    }
  }
  runs.endWords = words.data();
  for (std::int64_t r = 0; r < rows; ++r)
  {
    const auto & expected = rowRuns[static_cast<std::size_t>(r)];
    const Index  first = rowOffsets[static_cast<std::size_t>(r)];
    const Index  rowEnd = rowOffsets[static_cast<std::size_t>(r) + 1];
    for (std::int32_t lo = -1; lo <= width; ++lo)
    {
      Index past = first;
      while (past < rowEnd && expected[past - first].end <= lo)
      {
        ++past;
      }
      // In 64-bit row arithmetic, and in 32-bit (a SmallImage's).
      const Index found = IndexedRunPast(runs, r, lo, first, rowEnd);
      const Index found32 = IndexedRunPast(runs, static_cast<std::int32_t>(r), lo, first, rowEnd);
      if (found != past || found32 != past)
      {
        failure << "row " << r << " lo " << lo << ": IndexedRunPast gave run " << found - first << " (32-bit rows "
                << found32 - first << "), expected " << past - first;
        return failure.str();
      }
    }
  }
  return {};
}

} // namespace

int
main(int argc, char * argv[])
{
  int           cases = 300;
  std::uint32_t seed = 20261130;
  if (!emulation::ParseCasesAndSeed(argc, argv, cases, seed))
  {
    return 2;
  }
  int failed = 0;
  for (int k = 0; k < cases; ++k)
  {
    std::mt19937      rng(seed + static_cast<std::uint32_t>(k));
    const std::string failure = Case(rng, k % 2 == 0);
    if (!failure.empty())
    {
      std::cerr << "FAIL seed=" << seed + static_cast<std::uint32_t>(k) << " " << failure << '\n';
      ++failed;
    }
  }
  std::cout << "run end index: " << cases - failed << " passed, " << failed << " failed (seed " << seed << ")\n";
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
