// The neighbour pairs of a run counted from a byte mask's pixels. ITK's
// perimeter needs, for each direction class, the pairs of a component's
// pixels one step apart (RunVotes.cuh's votes, src/RunFeatures.h's
// AddAdjacentPairs). Under full connectivity every foreground pixel that
// touches a run lies in the run's component, so the pairs a run forms with
// a neighbour row are the foreground pixels of that row in the run's columns
// (the step along the row 0) and one column beside them (the step +-1):
// a count of a few 16-byte loads, where searching the neighbour row's runs
// takes a binary search of dependent loads and then each run found. The
// default algorithm counts them in its union-find instead
// (PrecedingPairs.cuh); the papers' strategies and the tree merge count
// them here.
#ifndef cca_cuda_ForegroundPairs_cuh
#define cca_cuda_ForegroundPairs_cuh

#include "DeviceGeometry.cuh"
#include "ForegroundTest.h"
#include "RunDetection.cuh"
#include "RunFeatures.h"
#include "RunNeighbours.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** A byte mask in rows of whole 16-byte loads (FitsByteRowScan), when a
 *  run's neighbour pairs may be counted from its pixels: full connectivity
 *  on a mask's components. */
struct ForegroundRows
{
  const std::uint8_t *         image = nullptr; ///< null: the pairs come from the neighbour rows' runs
  std::int64_t                 width = 0;
  ForegroundTest<std::uint8_t> test{};
};

/** The votes count pairs from the pixels in images whose units average
 *  fewer than PairsFromPixelsPerRun pixels of a row (background included),
 *  and there only for units up to LongestRunCountedByPixels long; longer
 *  runs search the neighbour rows' runs, of which they then meet few. On
 *  the H200 (full table, full connectivity, per image, A/B in one call,
 *  benchmark/results/h200-strip-density-full-table/) the pixels took 0.88-0.96
 *  of the search's time at g = 1 (4 to 11 pixels a run) in 8192^2 and
 *  512^3, 0.97-1.02 at g = 4 in planes (16 to 25) but 1.03-1.11 in
 *  volumes, and 1.02-1.25 at g = 16 (62 and more): longer runs load more
 *  16-pixel stretches of each neighbour row while their searches find
 *  about one run. */
constexpr std::int64_t PairsFromPixelsPerRun = 14;
constexpr std::int32_t LongestRunCountedByPixels = 128;

/** Foreground pixels of row over columns [lo, hi] (0 <= lo <= hi < width),
 *  from the aligned 16-pixel loads that cover them. */
__device__ __forceinline__ std::int64_t
ForegroundInColumns(const ForegroundRows & f, const std::uint8_t * row, std::int32_t lo, std::int32_t hi)
{
  std::int64_t count = 0;
  for (std::int32_t c = lo & ~(LanePixels - 1); c <= hi; c += LanePixels)
  {
    unsigned       bits = LaneForeground(*reinterpret_cast<const uint4 *>(row + c), f.test);
    const int      from = lo > c ? lo - c : 0;
    const int      to = hi - c < LanePixels - 1 ? hi - c : LanePixels - 1;
    const unsigned keep = ((2u << to) - 1u) & ~((1u << from) - 1u);
    count += __popc(bits & keep);
  }
  return count;
}

/** Whether pixel x of row is foreground (0 outside the row). */
__device__ __forceinline__ int
ForegroundAt(const ForegroundRows & f, const std::uint8_t * row, std::int32_t x)
{
  return x >= 0 && x < f.width && f.test(row[x]) ? 1 : 0;
}

/** Adds the pairs that run [x, x + length) forms with the foreground of
 *  image row q, a neighbour row at a step of (YStep, ZStep): n pairs at
 *  column step 0 where n pixels of q lie in the run's columns, and at steps
 *  +-1 the pixels one column right and left of them, that is 2 n less the
 *  pixels at the run's two ends plus those just beyond them. The slots are
 *  template arguments so that the vote's record stays in registers (an
 *  index known only at run time puts it in local memory). */
template <bool YStep, bool ZStep, class Count, int Slots>
__device__ __forceinline__ void
AddForegroundPairs(const ForegroundRows & f,
                   std::int64_t           q,
                   std::int32_t           x,
                   std::int32_t           length,
                   Count (&pairCounts)[Slots])
{
  static_assert(!ZStep || Slots == NumberOfInterceptSlots, "a planar record has no z classes");
  if (q < 0)
  {
    return;
  }
  const std::uint8_t * row = f.image + q * f.width;
  const std::int32_t   last = x + length - 1;
  const std::int64_t   n = ForegroundInColumns(f, row, x, last);
  const int            ends =
    ForegroundAt(f, row, x - 1) + ForegroundAt(f, row, last + 1) - ForegroundAt(f, row, x) - ForegroundAt(f, row, last);
  pairCounts[InterceptSlot(false, YStep, ZStep)] += n;
  pairCounts[InterceptSlot(true, YStep, ZStep)] += 2 * n + ends;
}

/** AddForegroundPairs over the rows after row (y, z) that FollowingRows
 *  (RunNeighbours.cuh) lists, written out step by step (a planar record's,
 *  Slots 3, only the next row's). */
template <class Count, int Slots>
__device__ __forceinline__ void
AddFollowingRowsPairs(const ForegroundRows & f,
                      const Geometry &       geometry,
                      std::int64_t           y,
                      std::int64_t           z,
                      std::int32_t           x,
                      std::int32_t           length,
                      Count (&pairCounts)[Slots])
{
  AddForegroundPairs<true, false>(f, NeighbourRow(geometry, y, z, RowStep{ 1, 0 }), x, length, pairCounts);
  if constexpr (Slots == NumberOfInterceptSlots)
  {
    if (geometry.depth > 1)
    {
      AddForegroundPairs<true, true>(f, NeighbourRow(geometry, y, z, RowStep{ -1, 1 }), x, length, pairCounts);
      AddForegroundPairs<false, true>(f, NeighbourRow(geometry, y, z, RowStep{ 0, 1 }), x, length, pairCounts);
      AddForegroundPairs<true, true>(f, NeighbourRow(geometry, y, z, RowStep{ 1, 1 }), x, length, pairCounts);
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
