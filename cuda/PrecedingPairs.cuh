// The pixel pairs that ITK's perimeter needs (the intercept counts that the
// feature votes add up, RunVotes.cuh's RunVote), counted by the
// union-find where it meets them. Under full connectivity on a mask every
// run that touches a run lies in its component, and the union-find
// (UnionFind.cuh's LinkRunsCountingPairsKernel) visits exactly the runs of
// the preceding rows that touch each run, the ranges widened by one pixel
// each side as the pairs' are: it counts the run's pairs with them and
// stores them, and the vote adds the stored counts instead of searching
// the following rows' runs again. A pair of two runs then counts in the
// vote of its later run, not of its earlier one; both lie in one component,
// so every component's totals are the same.
//
// H200, full table under full connectivity, summed, against the search in
// the votes, B N B N in one call (benchmark/results/h200-pairs-in-union-find/
// call 5): 8192^2 g = 1 / 4 / 16 30.5 / 93.5-93.8 / 179.8-184.4 ->
// 31.3 / 98.8-99.9 / 186.5-188.0 Gpix/s, 512^3 26-conn. g = 1 / 4 20.9 /
// 81.7-81.8 -> 22.0 / 84.7-85.0 Gvox/s; the votes without any pair search
// (wrong perimeters) had bounded it at +10-12 % in planes and +21-31 % in
// volumes (call 2). The counts take 4 bytes a run in planes, 12 in volumes.
//
// Under face connectivity the union-find cannot count them: runs that touch
// only diagonally may lie in different components. There the counts wait
// for the labels (CountPrecedingPairsKernel), and one pass in raster order
// makes them: a warp's runs search the same few preceding rows, where the
// votes, in component order, searched rows all over the image. H200, full
// table under face connectivity, summed, B N B N in one call
// (benchmark/results/h200-face-pairs-after-labels/call1): 8192^2 g = 1 / 4
// 25.8-25.9 / 83.5 -> 27.3 / 86.5 Gpix/s, 512^3 g = 1 / 4 21.3 / 83.0 ->
// 25.3 / 90.2 Gvox/s; at 512^3 g = 1 d = 0.3 the votes took 5.9 ms, now
// 2.5 ms and this pass 1.0 ms.
//
// Where the tubes join a volume's runs (StripJoin.cuh) no union-find
// visits them: the same pass counts their pairs once the labels exist,
// comparing none (under full connectivity every touching run shares the
// component; H200, 512^3 26-conn. g = 1, the pass 1,084 -> 999 us,
// benchmark/results/h200-group-runs call 5).
//
// Where the rows fit 32 bits, the previous row's counts go into each run's
// RunRecord (RunRecord.cuh) beside its place, written for every run by the
// union-find or by CountPrecedingPairsKernel: the votes and the run
// gathering, both in component order, then read one record a run instead
// of three or four arrays (benchmark/results/h200-vote-records: full
// table, g = 1, summed, +1 to +4 %; 12 more bytes a run).
//
// A run's counts with one group of rows are packed in 16-bit fields: the
// previous row of its slice (two classes: the step along x 0 or 1) in 32
// bits, the rows of the previous slice in a volume (four classes) in 64.
// Where a count does not fit (runs of more than about 32,000 pixels), the
// whole group is stored as NotCounted and the vote searches those rows
// itself.
#ifndef cca_cuda_PrecedingPairs_cuh
#define cca_cuda_PrecedingPairs_cuh

#include "DependentLaunch.cuh"
#include "DeviceGeometry.cuh"
#include "PlacedLargest.cuh"
#include "RunNeighbours.cuh"
#include "RunRecord.cuh"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Per run, its pairs with the touching runs of its preceding rows; null
 *  pointers: not counted (the votes search the following rows). With
 *  records (RunRecord.cuh), the previous row's pairs are in each run's
 *  record, not in row. */
struct PrecedingPairs
{
  std::uint32_t * row = nullptr;   ///< the previous row of its slice: steps along x 0, 1
  std::uint64_t * slice = nullptr; ///< volumes: the previous slice's rows, classes z, xz, yz, xyz
  RunRecord *     records = nullptr;

  /** Whether the pairs are stored (in row or in the records). */
  __host__ __device__ bool
  Stored() const
  {
    return row != nullptr || records != nullptr;
  }
};

/** A 16-bit field that holds no count: the group's pairs did not fit. */
constexpr std::uint32_t NotCounted = 0xffffu;

/** The pairs one pass of the union-find counts for its run: a pass joins
 *  either the previous row of the slice (two classes) or the rows of the
 *  previous slice (four), so four counters serve both, in 32 bits (at most
 *  twice a run's length), the fewer registers the better for the latency
 *  bound union-find. */
struct PairTally
{
  /** The previous row of the slice, or the previous slice's row at the
   *  same y: pairs whose step along x is 0, 1. */
  std::uint32_t same = 0, beside = 0;
  std::uint32_t diagonal = 0, diagonalBeside = 0; ///< the previous slice's rows at y -+ 1

  /** Adds the pairs of run [ax, aEnd) with run [bx, bEnd) of the neighbour
   *  row at step: those sharing a column, and those one column apart,
   *  that is twice the shared columns corrected at the two ends of a (the
   *  pixels just beyond a's ends that lie in b count, a's end pixels that
   *  lie in b are counted once too many). The counts of
   *  detail::AddAdjacentPairs (src/RunFeatures.h), which the CPU backend
   *  and the other votes use, in 32-bit arithmetic and two registers a
   *  class for the union-find's register budget (LinkRunsCountingPairsKernel). */
  __device__ __forceinline__ void
  Add(std::int32_t ax, std::int32_t aEnd, std::int32_t bx, std::int32_t bEnd, RowStep step)
  {
    const std::int32_t lo = ax > bx ? ax : bx;
    const std::int32_t hi = aEnd < bEnd ? aEnd : bEnd;
    const std::int32_t shared = hi > lo ? hi - lo : 0;
    const auto         in = [&](std::int32_t p) { return p >= bx && p < bEnd ? 1 : 0; };
    const std::int32_t ends = in(ax - 1) + in(aEnd)-in(ax)-in(aEnd - 1);
    // Unsigned: exact below 2^32 for any run length, ends may be negative.
    const std::uint32_t nextTo = 2u * static_cast<std::uint32_t>(shared) + static_cast<std::uint32_t>(ends);
    if (step.dy != 0 && step.dz != 0)
    {
      diagonal += static_cast<std::uint32_t>(shared);
      diagonalBeside += nextTo;
    }
    else
    {
      same += static_cast<std::uint32_t>(shared);
      beside += nextTo;
    }
  }

  /** The previous row of the slice's counts, packed (NotCounted where one does not fit). */
  __device__ __forceinline__ std::uint32_t
                             PackedRow() const
  {
    if (same >= NotCounted || beside >= NotCounted)
    {
      return NotCounted | (NotCounted << 16);
    }
    return same | (beside << 16);
  }

  /** The previous slice's counts, packed (all NotCounted where one does not fit). */
  __device__ __forceinline__ std::uint64_t
                             PackedSlice() const
  {
    if (same >= NotCounted || beside >= NotCounted || diagonal >= NotCounted || diagonalBeside >= NotCounted)
    {
      return ~std::uint64_t{ 0 };
    }
    return static_cast<std::uint64_t>(same) | static_cast<std::uint64_t>(beside) << 16 |
           static_cast<std::uint64_t>(diagonal) << 32 | static_cast<std::uint64_t>(diagonalBeside) << 48;
  }
};

/** Stores run a's packed pairs with the previous row of its slice
 *  (PairTally::PackedRow): in its record, with its place [x, end) in row
 *  r, where there are records, else in pairs.row. */
__device__ __forceinline__ void
StoreRowPairs(const PrecedingPairs & pairs,
              std::int64_t           a,
              std::int32_t           x,
              std::int32_t           end,
              std::int64_t           r,
              std::uint32_t          packed)
{
  if (pairs.records != nullptr)
  {
    pairs.records[a] = RunRecord{ x, end - x, static_cast<std::uint32_t>(r), packed };
  }
  else
  {
    pairs.row[a] = packed;
  }
}

/** Adds a run's stored counts with the previous row of its slice to the
 *  vote's pair counts; false where they did not fit (NotCounted). */
template <class Count, int Slots>
__device__ __forceinline__ bool
AddRowPairs(std::uint32_t packed, Count (&pairCounts)[Slots])
{
  const std::uint32_t same = packed & 0xffffu;
  if (same == NotCounted)
  {
    return false;
  }
  pairCounts[InterceptSlot(false, true, false)] += same;
  pairCounts[InterceptSlot(true, true, false)] += packed >> 16;
  return true;
}

/** The same for the rows of the previous slice. */
template <class Count>
__device__ __forceinline__ bool
AddSlicePairs(std::uint64_t packed, Count (&pairCounts)[NumberOfInterceptSlots])
{
  if ((packed & 0xffffu) == NotCounted)
  {
    return false;
  }
  pairCounts[InterceptSlot(false, false, true)] += packed & 0xffffu;
  pairCounts[InterceptSlot(true, false, true)] += (packed >> 16) & 0xffffu;
  pairCounts[InterceptSlot(false, true, true)] += (packed >> 32) & 0xffffu;
  pairCounts[InterceptSlot(true, true, true)] += packed >> 48;
  return true;
}

/** The rows the neighbour-row visitors (VisitNeighbourRuns) search: a
 *  plane's (one row), a volume's (four), or as the geometry says. A kernel
 *  that knows which compiles only that search, and takes only its
 *  registers. */
enum class SearchDepth
{
  FromGeometry,
  Plane,
  Volume
};

/** Calls visit(inRow, b, step) for each run b of the neighbour rows at
 *  steps of run [x, end), in row (y, z), that touches it or lies one
 *  column apart (its pairs' range): steps[0], the neighbour row of its
 *  slice (inRow), where searchRow, the other slice's rows steps[1 .. 3]
 *  where searchSlice (volumes); step: b's row from the run's. A volume's
 *  rows are searched together (ForEachRunInRanges): a load each from the
 *  runs' end index, or binary searches whose loads are in flight
 *  together. Depth: whether the rows are a plane's or a volume's, known to
 *  the caller or read from geometry. Coord: the rows' arithmetic,
 *  std::int32_t for a SmallImage (RunNeighbours.cuh), else std::int64_t. */
template <SearchDepth Depth, class Index, class Visit, class Coord>
__device__ __forceinline__ void
VisitNeighbourRuns(const RunArrays<Index> & runs,
                   const Geometry &         geometry,
                   Coord                    y,
                   Coord                    z,
                   std::int32_t             x,
                   std::int32_t             end,
                   const RowStep (&steps)[4],
                   bool     searchRow,
                   bool     searchSlice,
                   Visit && visit)
{
  // A constant where Depth says: the other search is then compiled out.
  const bool volume = Depth == SearchDepth::FromGeometry ? geometry.depth > 1 : Depth == SearchDepth::Volume;
  // Pairs count pixels one column apart too: the ranges are widened by one.
  if (volume)
  {
    Coord q[4];
#pragma unroll
    for (int s = 0; s < 4; ++s)
    {
      q[s] = (s == 0 ? searchRow : searchSlice) ? NeighbourRowOf(geometry, y, z, steps[s]) : Coord{ -1 };
    }
    // s is a constant in each unrolled visit: s == 0 selects at compile time.
    ForEachRunInRanges(runs, q, x - 1, end + 1, [&](int s, Index b) { visit(s == 0, b, steps[s]); });
  }
  else if (searchRow)
  {
    const Coord q = NeighbourRowOf(geometry, y, z, steps[0]);
    if (q >= 0)
    {
      ForEachRunInRange(runs, q, x - 1, end + 1, [&](Index b) { visit(true, b, steps[0]); });
    }
  }
}

/** VisitNeighbourRuns over the preceding rows (PrecedingRows, the previous
 *  row of the slice first). CountPrecedingPairsKernel searches every
 *  group; a vote (AddPrecedingPairs) only those whose stored counts did
 *  not fit. */
template <SearchDepth Depth = SearchDepth::FromGeometry, class Index, class Visit, class Coord>
__device__ __forceinline__ void
VisitPrecedingRuns(const RunArrays<Index> & runs,
                   const Geometry &         geometry,
                   Coord                    y,
                   Coord                    z,
                   std::int32_t             x,
                   std::int32_t             end,
                   bool                     searchRow,
                   bool                     searchSlice,
                   Visit &&                 visit)
{
  const bool volume = Depth == SearchDepth::FromGeometry ? geometry.depth > 1 : Depth == SearchDepth::Volume;
  RowStep    steps[4];
  PrecedingRows(true, volume, steps);
  VisitNeighbourRuns<Depth>(runs, geometry, y, z, x, end, steps, searchRow, searchSlice, visit);
}

/** Adds the pairs of run [x, end) with run b at step into rowTally where
 *  inRow (b in the neighbour row of its slice), else into sliceTally.
 *  inRow is a constant in each unrolled visit (VisitNeighbourRuns): each
 *  branch names its tally, which stays in registers. */
template <class Index>
__device__ __forceinline__ void
TallyPairs(const RunArrays<Index> & runs,
           std::int32_t             x,
           std::int32_t             end,
           bool                     inRow,
           Index                    b,
           RowStep                  step,
           PairTally &              rowTally,
           PairTally &              sliceTally)
{
  if (inRow)
  {
    rowTally.Add(x, end, runs.x[b], runs.end[b], step);
  }
  else
  {
    sliceTally.Add(x, end, runs.x[b], runs.end[b], step);
  }
}

/** Tallies the pairs of run [x, end), in row (y, z), with the runs of its
 *  component in its preceding rows (VisitPrecedingRuns): those of the
 *  previous row of the slice into rowTally, those of the previous slice's
 *  rows into sliceTally. inComponent(b): whether run b touching it lies in
 *  its component. */
template <SearchDepth Depth = SearchDepth::FromGeometry, class Index, class InComponent, class Coord>
__device__ __forceinline__ void
SearchPrecedingPairs(const RunArrays<Index> & runs,
                     const Geometry &         geometry,
                     Coord                    y,
                     Coord                    z,
                     std::int32_t             x,
                     std::int32_t             end,
                     bool                     searchRow,
                     bool                     searchSlice,
                     InComponent &&           inComponent,
                     PairTally &              rowTally,
                     PairTally &              sliceTally)
{
  VisitPrecedingRuns<Depth>(
    runs, geometry, y, z, x, end, searchRow, searchSlice, [&](bool inRow, Index b, RowStep step) {
      if (inComponent(b))
      {
        TallyPairs(runs, x, end, inRow, b, step, rowTally, sliceTally);
      }
    });
}

/** Adds the pairs of run [x, end), in row (y, z), with the runs of
 *  component largest in its following rows (FollowingRows, the mirror
 *  images of the preceding rows a volume's search visits): those of the
 *  next row of the slice into rowTally, those of the next slice's rows into
 *  sliceTally, in the classes of SearchPrecedingPairs' tallies. */
template <SearchDepth Depth, class Index, class Coord>
__device__ __forceinline__ void
SearchFollowingPairsWith(const RunArrays<Index> & runs,
                         const Index * __restrict__ label,
                         Index            largest,
                         const Geometry & geometry,
                         Coord            y,
                         Coord            z,
                         std::int32_t     x,
                         std::int32_t     end,
                         PairTally &      rowTally,
                         PairTally &      sliceTally)
{
  RowStep steps[4];
  FollowingRows(steps); // the next row of the slice first, as PrecedingRows
  VisitNeighbourRuns<Depth>(runs, geometry, y, z, x, end, steps, true, true, [&](bool inRow, Index b, RowStep step) {
    if (label[b] == largest)
    {
      TallyPairs(runs, x, end, inRow, b, step, rowTally, sliceTally);
    }
  });
}

/** The classes in which touching runs of two components may pair under
 *  face connectivity (runs sharing a face share the component): the
 *  previous or next row's pixels one column apart (xy), the neighbour
 *  slice's rows at the same y one column apart (xz), at y -+ 1 (yz) and
 *  one column apart too (xyz). Slots into the straddling counts. */
constexpr int StraddlingClasses = 4;

/** Adds the pairs of the straddling tallies into the thread's counts, one
 *  a StraddlingClasses class. The tallies' pairs that share a column of a
 *  face neighbour row (rowTally.same, sliceTally.same) are none: those
 *  runs share a face. */
__device__ __forceinline__ void
AddStraddling(const PairTally & rowTally, const PairTally & sliceTally, unsigned long long (&counts)[StraddlingClasses])
{
  counts[0] += rowTally.beside;
  counts[1] += sliceTally.beside;
  counts[2] += sliceTally.diagonal;
  counts[3] += sliceTally.diagonalBeside;
}

/** The InterceptSlot of each StraddlingClasses class, in order. */
__host__ __device__ constexpr int
StraddlingSlot(int c)
{
  return c == 0   ? InterceptSlot(true, true, false)
         : c == 1 ? InterceptSlot(true, false, true)
         : c == 2 ? InterceptSlot(false, true, true)
                  : InterceptSlot(true, true, true);
}

/** Whether run a is of the skipped component, whose pairs come from the
 *  foreground's totals (LargestBySubtraction.cuh): its records, not its
 *  pairs, are counted, and the placing pass places it. Only a linked run,
 *  or any run where components straddle, can be. */
template <bool Straddling, class Index>
__device__ __forceinline__ bool
SkippedRun(Index a, bool linkedRun, const Index * __restrict__ label, Index skipped)
{
  return (linkedRun || Straddling) && skipped != NoLabel<Index> && label[a] == skipped;
}

/** The pass's work for run a, not a placed run (CountPrecedingPairsKernel):
 *  where search, its pairs with its component's runs in its preceding rows
 *  (straddles: with the other components' too, and with the skipped
 *  component's in its following rows, into straddlingCounts), stored where
 *  a vote (linkedRun or SinglesVote) or a record needs them. */
template <bool SinglesVote, bool TouchingShareComponent, bool Straddling, bool Volume, bool Small, class Index>
__device__ __forceinline__ void
CountRunPairs(const RunArrays<Index> & runs,
              Index                    a,
              bool                     linkedRun,
              bool                     search,
              bool                     straddles,
              const Index * __restrict__ label,
              const Geometry &       geometry,
              const PrecedingPairs & pairs,
              Index                  skipped,
              unsigned long long (&straddlingCounts)[StraddlingClasses])
{
  using Coord = RowCoord<Small>;
  constexpr SearchDepth Depth = Volume ? SearchDepth::Volume : SearchDepth::Plane;
  const std::int64_t    r = runs.row[a];
  const std::int32_t    x = runs.x[a];
  const std::int32_t    end = runs.end[a];
  PairTally             rowTally;   // the previous row of the slice
  PairTally             sliceTally; // the previous slice's rows
  if (search)
  {
    const Index key = TouchingShareComponent ? Index{ 0 } : label[a];
    const auto  row = static_cast<Coord>(r);
    const auto  height = static_cast<Coord>(geometry.height);
    PairTally   rowApart;   // straddling: the pairs with other components' runs
    PairTally   sliceApart; // (of the previous slice's rows)
    VisitPrecedingRuns<Depth>(
      runs, geometry, row % height, row / height, x, end, true, true, [&](bool inRow, Index b, RowStep step) {
        if (TouchingShareComponent || label[b] == key)
        {
          TallyPairs(runs, x, end, inRow, b, step, rowTally, sliceTally);
        }
        else if (Straddling)
        {
          TallyPairs(runs, x, end, inRow, b, step, rowApart, sliceApart);
        }
      });
    if (straddles)
    {
      SearchFollowingPairsWith<Depth>(
        runs, label, skipped, geometry, row % height, row / height, x, end, rowApart, sliceApart);
      AddStraddling(rowApart, sliceApart, straddlingCounts);
    }
  }
  if (SinglesVote || linkedRun || pairs.records != nullptr)
  {
    StoreRowPairs(pairs, static_cast<std::int64_t>(a), x, end, r, rowTally.PackedRow());
  }
  if (Volume && (SinglesVote || linkedRun))
  {
    pairs.slice[a] = sliceTally.PackedSlice();
  }
}

/** Runs a block of the placing pass takes at a time (PlacingRunsPerThread
 *  a thread): its placed runs first, the others' searches queued in
 *  shared memory and made after them by all its threads. */
constexpr int PlacingRunsPerThread = 8;
/** Runs of a thread whose loads the placing pass makes together. */
constexpr int PlacingBatch = 4;
static_assert(PlacingRunsPerThread % PlacingBatch == 0, "whole batches");
constexpr int PlacingTileRuns = BlockThreads * PlacingRunsPerThread;
static_assert(PlacingTileRuns <= 65536, "a tile's queue holds 16-bit offsets");

/** Once every run has its label: each run's pairs with the runs of its
 *  component (the same label; TouchingShareComponent: full connectivity on
 *  a mask, where every touching run does, so no label is read) in its
 *  preceding rows,
 *  stored as the union-find stores them under full connectivity, for the
 *  votes to add. With records, the previous row's pairs go into each run's
 *  RunRecord beside its place, and every run gets its record, for the run
 *  gathering too (OutputStage.cuh). Runs of single-run components (linked
 *  0) have no pairs; where such components are written whole
 *  (SingleUnitComponents::WrittenWhole) no vote reads them, so nothing but
 *  their record is stored for them.
 *
 *  Volume: a volume's pass (four rows searched together) or a plane's (one
 *  row), each compiled alone: with both in one kernel the plane's pass took
 *  the volume's 39 registers, six blocks a multiprocessor; alone it takes
 *  22. Held to eight blocks, the volume's takes 32 (16 bytes of spills
 *  under face connectivity). H200, ncu, d = 0.3: 8192^2 4-conn. 225 -> 176
 *  us, 512^3 6-conn. 890 -> 796 us (benchmark/results/h200-records-in-order
 *  call 3). The Straddling variant, whose following rows' search adds
 *  registers, is held to six blocks: 40 registers and 44 bytes of spills,
 *  where eight gave 32 and 116 (five: 48 and none). H200, full table,
 *  512^3 6-conn. g = 1, summed, eight / six / five in one call: 38.79 /
 *  38.82, 38.91 / 38.95, 38.71 / 38.86 Gvox/s; the three images it runs
 *  on (d = 0.7-0.9) 9.87 -> 9.73 ms at six
 *  (benchmark/results/h200-pass-pixel-pairs call 1).
 *
 *  skipped: the label of a component whose runs get their records only
 *  (no vote adds their pairs: LargestBySubtraction.cuh), or NoLabel.
 *  Straddling (face connectivity, skipped a label): the pairs whose two
 *  runs lie in different components, which count in no entry, are added
 *  into straddling (StraddlingClasses words, by class): every run but
 *  skipped's, linked or not, counts those with the runs of its preceding
 *  rows, and those with skipped's runs in its following rows, whose own
 *  search is skipped; each such pair so counts once.
 *
 *  Placing (placed active): skipped's runs go straight to their places
 *  among the runs grouped by component, their bounding box folded, and
 *  get neither record nor pairs (PlacedLargest.cuh). A variant of its
 *  own, whose threads keep their box in shared memory: its code cost the
 *  other variants registers (the plain volume pass spilled 16 bytes, the
 *  straddling one 100 instead of 44), and a box in registers through the
 *  loop cost this one 64-92 bytes of spills. Its grid takes
 *  PlacingTileRuns runs a block: where most runs are placed, a warp of
 *  32 runs a thread each waited on the searches of its few others (at 1 %
 *  of the runs, a quarter of the warps hold one), so a block places its
 *  tile's runs first and queues the searches, which its warps then make
 *  side by side. A thread loads PlacingBatch runs' words at once, and a
 *  placed run is told by its bit (LargestComponent::bits, which also give
 *  its rank), not by its label: run by run, each had waited on its link
 *  flag, then its label, then its place (H100, ncu, 512^3 6-conn.
 *  g = 1 d = 0.7: the pass 679 -> 592 us a run, 8192^2 8-conn. d = 0.6
 *  231 -> 212; full table, g = 1, summed, m n n m: 6-conn. 41.13 / 41.14
 *  -> 41.60 / 41.52 Gvox/s, 8-conn. 50.57 / 50.59 -> 51.10 / 50.81 Gpix/s;
 *  benchmark/results/h100-supercritical-map call 2).
 *
 *  Small (SmallImage): a run's row, its neighbour rows and their end
 *  index words in 32-bit arithmetic. In 64 bits, finding the four rows
 *  and their first candidates took 38 % of a volume's instructions, more
 *  than the visits (H200, ncu source counters, 512^3 6-conn. d = 0.3,
 *  benchmark/results/h200-pairs-compacted call 4). */
template <class Index,
          bool SinglesVote,
          bool TouchingShareComponent,
          bool Straddling,
          bool Volume,
          bool Small,
          bool Placing = false>
__global__ void
__launch_bounds__(BlockThreads, Straddling ? 6 : 8) CountPrecedingPairsKernel(RunArrays<Index> runs,
                                                                              const std::uint8_t * __restrict__ linked,
                                                                              const Index * __restrict__ label,
                                                                              Geometry             geometry,
                                                                              PrecedingPairs       pairs,
                                                                              Index                skipped,
                                                                              unsigned long long * straddling,
                                                                              PlacedLargest<Index> placed)
{
  AwaitPrecedingKernel();
  static_assert(!(TouchingShareComponent && Straddling), "touching runs that share the component straddle none");
  unsigned long long straddlingCounts[StraddlingClasses] = {};
  const auto         countPairs = [&](Index a, bool linkedRun, bool search, bool straddles) {
    CountRunPairs<SinglesVote, TouchingShareComponent, Straddling, Volume, Small>(
      runs, a, linkedRun, search, straddles, label, geometry, pairs, skipped, straddlingCounts);
  };
  if constexpr (Placing)
  {
    using Coord = RowCoord<Small>;
    __shared__ PlacedBoxSlots<BlockThreads> box;
    __shared__ std::uint16_t queue[PlacingTileRuns]; // tile offsets of the runs to search
    __shared__ unsigned      queued;
    box.Clear();
    const std::int64_t count = static_cast<std::int64_t>(runs.count);
    for (std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * PlacingTileRuns; tile < count;
         tile += static_cast<std::int64_t>(gridDim.x) * PlacingTileRuns)
    {
      if (threadIdx.x == 0)
      {
        queued = 0;
      }
      __syncthreads();
      // PlacingBatch runs at a time, their loads in flight together; a
      // placed run is told by its bit and ranked by the same word.
      for (int k0 = 0; k0 < PlacingRunsPerThread; k0 += PlacingBatch)
      {
        unsigned     bits[PlacingBatch];
        Index        before[PlacingBatch];
        std::uint8_t link[PlacingBatch];
        Coord        row[PlacingBatch];
        std::int32_t x[PlacingBatch];
        std::int32_t end[PlacingBatch];
#pragma unroll
        for (int j = 0; j < PlacingBatch; ++j)
        {
          const std::int64_t i = tile + (k0 + j) * BlockThreads + static_cast<int>(threadIdx.x);
          const bool         valid = i < count;
          const auto         a = static_cast<Index>(valid ? i : 0);
          // Offsets are whole warps: a warp's runs share one word of bits.
          bits[j] = valid ? placed.bits[a / 32] : 0u;
          before[j] = valid ? placed.wordRank[a / 32] : Index{ 0 };
          link[j] = valid ? linked[a] : std::uint8_t{ 0 };
          row[j] = valid ? static_cast<Coord>(runs.row[a]) : Coord{ 0 };
          x[j] = valid ? runs.x[a] : 0;
          end[j] = valid ? runs.end[a] : 0;
        }
#pragma unroll
        for (int j = 0; j < PlacingBatch; ++j)
        {
          const int          offset = (k0 + j) * BlockThreads + static_cast<int>(threadIdx.x);
          const std::int64_t i = tile + offset;
          const unsigned     lane = LaneId();
          bool               search = false;
          if (i < count)
          {
            const auto a = static_cast<Index>(i);
            if ((bits[j] >> lane) & 1u)
            {
              const auto  height = static_cast<Coord>(geometry.height);
              const auto  y = static_cast<std::int32_t>(row[j] % height);
              const auto  z = static_cast<std::int32_t>(row[j] / height);
              const Index rank = RankInWord(bits[j], before[j], lane);
              PlaceLargestRun(placed, rank, x[j], end[j], y, z);
              box.Add(x[j], end[j], y, z);
            }
            else if (link[j] != 0 || Straddling)
            {
              search = true;
            }
            else if (SinglesVote || pairs.records != nullptr)
            {
              countPairs(a, false, false, false); // no search: its record, no pairs
            }
          }
          const unsigned searching = __ballot_sync(FullWarp, search);
          unsigned       first = 0;
          if (lane == 0 && searching != 0)
          {
            first = atomicAdd(&queued, static_cast<unsigned>(__popc(searching)));
          }
          first = __shfl_sync(FullWarp, first, 0);
          if (search)
          {
            queue[first + static_cast<unsigned>(__popc(searching & LanesBelow()))] = static_cast<std::uint16_t>(offset);
          }
        }
      }
      __syncthreads();
      const unsigned searches = queued;
      for (unsigned q = threadIdx.x; q < searches; q += BlockThreads)
      {
        const auto a = static_cast<Index>(tile + queue[q]);
        countPairs(a, linked[a] != 0, true, Straddling);
      }
      __syncthreads(); // the queue is read before the next tile refills it
    }
    AddPlacedBox(box.Mine(), placed.box);
  }
  else
  {
    const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
    for (Index a = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; a < runs.count; a += stride)
    {
      const bool linkedRun = linked[a] != 0;
      const bool skippedRun = SkippedRun<Straddling>(a, linkedRun, label, skipped);
      const bool straddles = Straddling && !skippedRun;
      if (!SinglesVote && !linkedRun && pairs.records == nullptr && !straddles)
      {
        continue;
      }
      countPairs(a, linkedRun, (linkedRun || straddles) && !skippedRun, straddles);
    }
  }
  if constexpr (Straddling)
  {
    AddBlockWords(straddlingCounts, straddling);
  }
}

} // namespace cuda
} // namespace cca

#endif
