// A union-find pass over the runs (LinkRunsKernel's, for a mask's whole
// runs) whose warps queue their merges: each lane finds the touching runs
// of its run, and the warp's pairs are then merged a lane each. In
// LinkRunsKernel each lane merges its own run's pairs, so a warp runs as
// many rounds as its run with the most touching runs, and the lanes whose
// runs touch none, or fewer, wait: in the slices' pass of 512^3 6-conn.
// g = 1 d = 0.5 the merges ran 10 threads a warp on average, the walks
// inside them 4-7 (H200, ncu source counters,
// benchmark/results/h200-shared-row-pairs call 3). Queued, that pass took
// 0.89 instead of 1.03 ms (threads a warp instruction 17.3 -> 24.0), the
// same at d = 0.7; summed, n q q n, 512^3 6-conn. g = 1 full table 36.80 /
// 36.77 -> 37.64 / 37.60 Gvox/s, labels only 79.9 / 80.0 -> 83.1 / 82.9;
// 8192^2 4-conn. g = 1 full table within the spread (call 4). The queue
// (ForEachQueuedPair) serves the shared row blocks too
// (RowBlocksInShared.cuh: their pass at d = 0.5 599 -> 549 us, call 6).
#ifndef cca_cuda_QueuedMerges_cuh
#define cca_cuda_QueuedMerges_cuh

#include "DependentLaunch.cuh"
#include "DeviceGeometry.cuh"
#include "RunNeighbours.cuh"
#include "UnionFind.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** The lane among a warp's lanes whose share of a queue holds entry j:
 *  the last lane whose exclusive offset (ascending across the lanes) is at
 *  most j. All 32 lanes must call it. */
__device__ __forceinline__ int
QueueOwner(int exclusive, int j)
{
  int owner = 0;
#pragma unroll
  for (int step = 16; step > 0; step /= 2)
  {
    if (__shfl_sync(FullWarp, exclusive, owner + step) <= j)
    {
      owner += step;
    }
  }
  return owner;
}

/** The warp's queue of count entries a lane: the lanes' counts scanned
 *  (WarpInclusiveSum) give each lane its offset in the queue, and the
 *  lanes take its entries 32 at a time. Each round every lane calls
 *  take(owner, k, taken): its entry is the owner lane's k-th, and it is one
 *  only where taken (past the queue's end it is not), so that take may
 *  shuffle from the owner before it acts. All 32 lanes must call it. */
template <class Take>
__device__ __forceinline__ void
ForEachQueuedEntry(int count, Take && take)
{
  const int lane = static_cast<int>(LaneId());
  const int inclusive = WarpInclusiveSum(count);
  const int exclusive = inclusive - count;
  const int queued = __shfl_sync(FullWarp, inclusive, WarpSize - 1);
  for (int round = 0; round < queued; round += WarpSize)
  {
    const int j = round + lane;
    const int owner = QueueOwner(exclusive, j);
    take(owner, j - __shfl_sync(FullWarp, exclusive, owner), j < queued);
  }
}

/** A run's touching runs in a neighbour row: [first, first + count). */
template <class Index>
struct TouchingRuns
{
  Index first = 0;
  int   count = 0;
};

/** The runs of row q that intersect the pixel range [lo, hi), as
 *  ForEachRunInRange visits them. */
template <class Index, class Row>
__device__ __forceinline__ TouchingRuns<Index>
                           TouchingRunsIn(const RunArrays<Index> & runs, Row q, std::int32_t lo, std::int32_t hi)
{
  TouchingRuns<Index> touching;
  const Index         rowEnd = runs.rowOffsets[q + 1];
  touching.first = FirstRunPast(runs, q, lo, runs.rowOffsets[q], rowEnd);
  VisitRunsBefore(runs, touching.first, rowEnd, hi, [&](Index) { ++touching.count; });
  return touching;
}

/** The warp's queue: calls merge(owner, b) once for each of the pairs its
 *  lanes hold (lane k: its run with the runs of touching, none where
 *  count is 0), the lanes taking the pairs 32 at a time
 *  (ForEachQueuedEntry). All 32 lanes must call it. */
template <class Index, class Merge>
__device__ __forceinline__ void
ForEachQueuedPair(const TouchingRuns<Index> & touching, Merge && merge)
{
  if (__ballot_sync(FullWarp, touching.count > 0) == 0)
  {
    return;
  }
  ForEachQueuedEntry(touching.count, [&](int owner, int k, bool taken) {
    const Index b = __shfl_sync(FullWarp, touching.first, owner) + static_cast<Index>(k);
    if (taken)
    {
      merge(owner, b);
    }
  });
}

/** The pass of LinkRunsKernel<Index, PlainUnion, WholeRuns,
 *  AnyTouchingRuns, false, Small> (LinkPass: which runs, which neighbour
 *  rows), with each warp's merges queued: for each neighbour row, every
 *  lane finds the first touching run of its run there and how many touch
 *  it, the warp counts them (a scan by shuffles: the lanes' queue), and
 *  the lanes take the queue's pairs 32 at a time, each merging its pair
 *  (Merge, from the run itself: the pairs of one run may go to several
 *  lanes) and pointing the run at the root the merge met. Runs that touch
 *  another get linked[i] = 1 (null: labels only), as there. */
template <class Index, bool Small>
__global__ void
LinkRunsQueuedKernel(RunArrays<Index> runs,
                     Geometry         geometry,
                     bool             full,
                     Index *          parent,
                     std::uint8_t *   linked,
                     LinkPass         pass)
{
  AwaitPrecedingKernel();
  using Coord = RowCoord<Small>;
  const PassRuns<Index> block = PassRunsOfBlock(runs, geometry, pass);
  const int             lane = static_cast<int>(LaneId());
  const auto            height = static_cast<Coord>(geometry.height);
  const int             n = PrecedingRowCount(full, geometry.depth > 1);
  // The warp's loop is uniform, so that all its lanes shuffle: lanes past
  // the end take no run.
  for (Index warpFirst = block.first + static_cast<Index>(threadIdx.x - static_cast<unsigned>(lane));
       warpFirst < block.end;
       warpFirst += block.stride)
  {
    const Index  a = warpFirst + static_cast<Index>(lane);
    const bool   active = a < block.end;
    Coord        y = 0;
    Coord        z = 0;
    std::int32_t lo = 0;
    std::int32_t hi = 0;
    if (active)
    {
      const auto r = static_cast<Coord>(runs.row[a]);
      y = r % height;
      z = r / height;
      lo = runs.x[a] - (full ? 1 : 0);
      hi = runs.end[a] + (full ? 1 : 0);
    }
    for (int s = 0; s < n; ++s)
    {
      TouchingRuns<Index> touching;
      if (active)
      {
        const RowStep step = PrecedingRowStep(s);
        const Coord   q = NeighbourRowOf(geometry, y, z, step);
        if (q >= 0 && PassJoinsRow(pass, step, y))
        {
          touching = TouchingRunsIn(runs, q, lo, hi);
        }
      }
      ForEachQueuedPair(touching, [&](int owner, Index b) {
        const Index run = warpFirst + static_cast<Index>(owner);
        // b lies in an earlier row, so the root met is below run.
        RootMet<Index> met(run);
        met.Join(PlainUnion{}, parent, b);
        met.PointRun(parent);
        if (linked != nullptr)
        {
          linked[run] = 1; // racing stores of the same value
          linked[b] = 1;
        }
      });
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
