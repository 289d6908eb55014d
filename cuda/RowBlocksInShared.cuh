// The first pass of a volume's union-find (ForEachLinkPass: the rows of a
// slice within blocks of rows) with its links in shared memory. One block of
// threads takes one block of rows of one slice and joins its rows one after
// another on block-local links, so that each row's runs find the runs above
// them pointing at their roots; each run then gets its block's root, and the
// levels after it start from flat trees. The pass over all runs at once in
// global memory climbed the chains of roots its concurrent merges built, a
// walk an L2 round trip a step: at 512^3 6-conn. g = 1 d = 0.7, where every
// slice is one large component, 1.72 ms of the image's 5.8 ms of kernels.
// Here 0.69 ms (and 0.12 ms more for the borders of the blocks, now of 16
// rows); the slices' pass after it 842 -> 785 us. The whole union of all
// runs in shared memory at once took 1.34 ms, and 0.63 ms at d = 0.3
// where the global pass took 0.44 (H200,
// benchmark/results/h200-g1-kernel-map calls 2-4). Blocks whose runs
// outnumber the links join them in global memory instead, as
// LinkRunsKernel does.
#ifndef cca_cuda_RowBlocksInShared_cuh
#define cca_cuda_RowBlocksInShared_cuh

#include "DependentLaunch.cuh"
#include "DeviceGeometry.cuh"
#include "QueuedMerges.cuh"
#include "RunNeighbours.cuh"
#include "SharedRowBlocks.cuh"
#include "UnionFind.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Block-local links a block of LinkRowBlocksInSharedKernel holds (12 KiB:
 *  16 blocks of SharedLinkThreads threads fill a multiprocessor), and the
 *  most rows a block takes. */
constexpr int SharedLinkCapacity = 3072;
constexpr int SharedLinkThreads = 128;
constexpr int SharedLinkMostRows = 128;

/** Rows of the blocks LinkRowBlocksInSharedKernel takes in an image whose
 *  rows hold runsPerRow runs on average: the most rows, a power of two up
 *  to SharedLinkMostRows, whose runs fill at most three quarters of the
 *  links (the rest absorbs the blocks above the average), or 0 where not
 *  even 8 rows fit or a row's runs would leave most of the block's
 *  threads idle (fewer than half as many runs as threads). */
inline std::int64_t
SharedBlockRows(double runsPerRow)
{
  if (runsPerRow < 0.5 * SharedLinkThreads)
  {
    return 0;
  }
  std::int64_t rows = SharedLinkMostRows;
  while (rows >= 8 && static_cast<double>(rows) * runsPerRow > 0.75 * SharedLinkCapacity)
  {
    rows /= 2;
  }
  return rows >= 8 ? rows : 0;
}

/** One block of threads a block of blockRows rows of a slice (the grid:
 *  slices x blocks a slice, slice-major): joins each run with the touching
 *  runs of the row before it in the block (full: diagonal neighbours
 *  too), as LinkRunsKernel's pass within row blocks (LinkedRows::SameSlice)
 *  does, and marks the runs that touch another in linked (null: labels
 *  only). The rows are joined one after another: when row k's runs merge
 *  with row k - 1's, those point at their roots (each run points at the
 *  root its merges met), so the walks are a step or two
 *  where the lock-free union over all runs at once climbed the chains of
 *  roots its concurrent merges built (without the barrier between rows,
 *  512^3 6-conn. g = 1 d = 0.5 took 546 -> 664 us; H200,
 *  benchmark/results/h200-byte-row-shapes call 2). capacity (at most
 *  SharedLinkCapacity; tests make it smaller): blocks with more runs, or
 *  more than SharedLinkMostRows rows, join them in global memory. parent
 *  must hold every run its own root (the runs' writer leaves it so).
 *  Small: rows in 32-bit arithmetic (SmallImage). Queued: each warp's
 *  merges of a row queued, a pair a lane (QueuedMerges.cuh), each merge
 *  from its run; else a thread merges its run's, each from the root the
 *  last met (RootMet). The blocks that join in global memory merge a run
 *  a thread either way. */
template <class Index, bool Small, bool Queued>
__global__ void
__launch_bounds__(SharedLinkThreads) LinkRowBlocksInSharedKernel(RunArrays<Index> runs,
                                                                 Geometry         geometry,
                                                                 bool             full,
                                                                 Index *          parent,
                                                                 std::uint8_t *   linked,
                                                                 std::int64_t     blockRows,
                                                                 std::int32_t     capacity)
{
  AwaitPrecedingKernel();
  __shared__ std::uint32_t local[SharedLinkCapacity];
  __shared__ std::uint32_t rowStart[SharedLinkMostRows + 1];
  using Coord = RowCoord<Small>;
  const RowBlock<Coord> block = RowBlockOfThisBlock<Coord>(geometry, blockRows);
  const Coord           firstRow = block.firstRow;
  const Coord           rows = block.rows;
  const Index           begin = runs.rowOffsets[firstRow];
  const Index           end = runs.rowOffsets[firstRow + rows];
  const auto            mark = [linked](Index i) {
    if (linked != nullptr)
    {
      linked[i] = 1; // racing stores of the same value
    }
  };
  // Joins run base + i of row r with the touching runs of row r - 1 on
  // links indexed from base (the global parents from 0, or the block's
  // links from begin), as LinkRuns does (RootMet), and points the run at
  // the root its merges met: the runs above come first, so any touch makes
  // it smaller than i, and the next row's walks start a step from it.
  const auto joinAbove = [&](auto join, auto * links, auto i, Index base, Coord r) {
    using Link = decltype(i);
    const Index        a = base + static_cast<Index>(i);
    const std::int32_t lo = runs.x[a] - (full ? 1 : 0);
    const std::int32_t hi = runs.end[a] + (full ? 1 : 0);
    RootMet<Link>      met(i);
    ForEachRunInRange(runs, r - 1, lo, hi, [&](Index b) {
      met.Join(join, links, static_cast<Link>(b - base));
      mark(b);
    });
    if (met.Moved())
    {
      mark(a);
      met.PointRun(links);
    }
  };
  if (end - begin > static_cast<Index>(capacity) || rows > SharedLinkMostRows)
  {
    // Too many runs for the links: LinkRuns's union in global memory.
    for (Index a = begin + threadIdx.x; a < end; a += blockDim.x)
    {
      const auto r = static_cast<Coord>(runs.row[a]);
      if (r != firstRow)
      {
        joinAbove(PlainUnion{}, parent, a, Index{ 0 }, r);
      }
    }
    return;
  }
  const auto count = static_cast<std::uint32_t>(end - begin);
  StartBlockLinks(local, count);
  for (Coord k = static_cast<Coord>(threadIdx.x); k <= rows; k += static_cast<Coord>(blockDim.x))
  {
    rowStart[k] = static_cast<std::uint32_t>(runs.rowOffsets[firstRow + k] - begin);
  }
  __syncthreads();
  for (Coord k = 1; k < rows; ++k)
  {
    const std::uint32_t rowEnd = rowStart[k + 1];
    if constexpr (Queued)
    {
      // Each warp's merges queued, a pair a lane (QueuedMerges.cuh); the
      // warp's loop is uniform, so that all its lanes shuffle.
      const auto lane = static_cast<std::uint32_t>(LaneId());
      for (std::uint32_t warpFirst = rowStart[k] + threadIdx.x - lane; warpFirst < rowEnd; warpFirst += blockDim.x)
      {
        const std::uint32_t i = warpFirst + lane;
        TouchingRuns<Index> touching;
        if (i < rowEnd)
        {
          const Index a = begin + static_cast<Index>(i);
          touching = TouchingRunsIn(runs, firstRow + k - 1, runs.x[a] - (full ? 1 : 0), runs.end[a] + (full ? 1 : 0));
        }
        ForEachQueuedPair(touching, [&](int owner, Index b) {
          const std::uint32_t    run = warpFirst + static_cast<std::uint32_t>(owner);
          RootMet<std::uint32_t> met(run);
          met.Join(MergeThrough<CoherentLoads>{}, local, static_cast<std::uint32_t>(b - begin));
          met.PointRun(local);
          mark(begin + static_cast<Index>(run));
          mark(b);
        });
      }
    }
    else
    {
      for (std::uint32_t i = rowStart[k] + threadIdx.x; i < rowEnd; i += blockDim.x)
      {
        joinAbove(MergeThrough<CoherentLoads>{}, local, i, begin, firstRow + k);
      }
    }
    __syncthreads();
  }
  PointRunsAtBlockRoots(local, count, parent, begin);
}

} // namespace cuda
} // namespace cca

#endif
