// The first pass of a byte mask's union-find from the rows' foreground bits
// (RowPairLinks.cuh) with its links in shared memory, for planes of wide
// rows: one block of threads takes a block of whole rows and joins them one
// after another on block-local links, as RowBlocksInShared.cuh does with the
// runs' searches in volumes. Each row's runs then find the runs above them
// pointing at their roots, and at the end every run points at its block's
// root, so the levels that join the blocks (ForEachLinkPass) and the
// numbering climb flat trees. The pass over all rows at once in global
// memory climbed the chains of roots its concurrent merges built, an L2
// round trip a step: at 8192^2 4-conn. g = 1 d = 0.7 its warps waited on the
// walks' loads at 12 threads a warp instruction with the L2 77 % busy
// (H200, 0.70 ms). Here the blocks took 0.39 ms and their borders, joined
// in one level, 0.19 (d = 0.5: 0.49 ms -> 0.26 + 0.12); summed, 8192^2
// 4-conn. g = 1 full table 45.88 / 46.14 -> 47.84 / 47.37 Gpix/s
// (benchmark/results/h200-plane-kernels calls 5-6). The levels of eight
// blocks (the planes' fan-in elsewhere) took 0.08-0.09 ms more an image, the last
// three launches a few rows each. Taken only where the runs' end index gives each
// warp the runs before its part of a row: labels only, which writes no
// runs, lost 12 % counting them (call 4), and now writes the index beside
// the union-find's parents (WriteByteRunEndIndexKernel; labels only, summed,
// 112.9 -> 126.5 Gpix/s with the events queued as well:
// benchmark/results/h200-prepared-patches).
#ifndef cca_cuda_ByteRowBlocksInShared_cuh
#define cca_cuda_ByteRowBlocksInShared_cuh

#include "DependentLaunch.cuh"
#include "DeviceGeometry.cuh"
#include "RowPairLinks.cuh"
#include "SharedRowBlocks.cuh"
#include "UnionFind.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Block-local links a block of LinkByteRowBlocksInSharedKernel holds (44
 *  KiB of the 48 a kernel may declare; five blocks fit a multiprocessor), its
 *  threads, and the fewest and most rows a block takes. The pass is bound by
 *  the rows in flight on a multiprocessor: larger blocks in dynamic shared
 *  memory (2 x 512 threads of 28,928 links) halved the borders but made each
 *  block's chain of rows longer, 8192^2 4-conn. g = 1 full table, summed,
 *  47.86 -> 46.58 Gpix/s; dropping the barrier between rows was within the
 *  spread (H200, benchmark/results/h200-byte-row-shapes calls 1-2). */
constexpr int ByteRowSharedLinks = 11264;
constexpr int ByteRowSharedThreads = 256;
constexpr int ByteRowSharedFewestRows = 3;
constexpr int ByteRowSharedMostRows = 64;

/** Rows of the blocks LinkByteRowBlocksInSharedKernel takes in a plane
 *  whose rows hold runsPerRow runs on average: as many as fill 92 % of the
 *  links on average (the rest absorbs the blocks above it: at 8192^2
 *  g = 1 a block's runs vary by about 50), up to
 *  ByteRowSharedMostRows, or 0 where fewer than ByteRowSharedFewestRows
 *  fit or a row's stretches (a warp each) would leave most of the block's
 *  warps idle. */
inline std::int64_t
ByteRowSharedBlockRows(double runsPerRow, std::int64_t width)
{
  if (StretchesOfRow(width) < ByteRowSharedThreads / WarpSize / 2 || runsPerRow <= 0)
  {
    return 0;
  }
  const double       fit = 0.92 * ByteRowSharedLinks / runsPerRow;
  const std::int64_t rows = fit < ByteRowSharedMostRows ? static_cast<std::int64_t>(fit) : ByteRowSharedMostRows;
  return rows >= ByteRowSharedFewestRows ? rows : 0;
}

/** Rows of the blocks in which a byte mask's rows, joined from their bits
 *  (runs of them in all), are joined in shared memory (the kernel below),
 *  or 0: in a plane whose rows are wide and hold many runs
 *  (ByteRowSharedBlockRows), where the runs' end index (indexed) tells
 *  each warp the runs before its part of a row (counting
 *  them instead, the pass cost 8192^2 4-conn. g = 1 labels only 12 %:
 *  H200, benchmark/results/h200-plane-kernels call 4; labels only now
 *  writes the index for these blocks, UnitDetection::DetectUnits). Tests
 *  that set the links (sharedLinkCapacity > 0, LabelStage::
 *  SetSharedLinkCapacity) take blocks of 4 rows in every image where none
 *  fit. The run detection and the union-find both ask it: the index is
 *  written where the blocks will be taken. */
inline std::int64_t
ByteRowBlockRows(const Geometry & g, std::int64_t runs, bool indexed, std::int32_t sharedLinkCapacity)
{
  const std::int64_t rows = g.depth == 1 && indexed
                              ? ByteRowSharedBlockRows(static_cast<double>(runs) / static_cast<double>(g.rows), g.width)
                              : 0;
  return rows == 0 && sharedLinkCapacity > 0 ? 4 : rows;
}

/** One block of threads a block of blockRows rows of a slice (the grid:
 *  slices x blocks a slice, slice-major) of a byte mask whose rows the
 *  byte row scan reads (FitsByteRowScan): joins each row's runs with the
 *  touching runs of the row before it in the block, from the two rows'
 *  foreground bits (LinkRowPair: the row's stretches of 512 pixels shared
 *  out among the block's warps), as LinkByteRowsKernel's pass within row
 *  blocks does, and marks the runs that touch another in linked (null:
 *  labels only). The rows are joined one after another, a barrier between
 *  them, on links in shared memory; at the end every run points at its
 *  block's root. capacity (at most ByteRowSharedLinks; tests make it
 *  smaller): blocks with more runs join them in global memory, as
 *  LinkByteRowsKernel does. parent must hold every run its own root (the
 *  runs' writer leaves it so). endWords, endWordsPerRow: as
 *  LinkByteRowsKernel's. QueuedEvents: each stretch's events queued
 *  across the warp, a join a lane (LinkRowPair; the default: a lane's
 *  events one after another left most lanes idle, 18 of 32 threads
 *  active against 24 queued; H200, ncu, 8192^2 4-conn. g = 1, full table,
 *  d = 0.5 263 -> 223 us, d = 0.7 395 -> 347 us;
 *  benchmark/results/h200-prepared-patches). */
template <class Index, bool QueuedEvents>
__global__ void
__launch_bounds__(ByteRowSharedThreads) LinkByteRowBlocksInSharedKernel(const std::uint8_t * __restrict__ image,
                                                                        Geometry                     geometry,
                                                                        ForegroundTest<std::uint8_t> test,
                                                                        bool                         full,
                                                                        const Index * __restrict__ rowOffsets,
                                                                        Index *        parent,
                                                                        std::uint8_t * linked,
                                                                        std::int64_t   blockRows,
                                                                        std::int32_t   capacity,
                                                                        const std::uint32_t * __restrict__ endWords,
                                                                        std::int64_t endWordsPerRow)
{
  AwaitPrecedingKernel();
  __shared__ std::uint32_t     local[ByteRowSharedLinks];
  const RowBlock<std::int64_t> block = RowBlockOfThisBlock<std::int64_t>(geometry, blockRows);
  const std::int64_t           firstRow = block.firstRow;
  const std::int64_t           rows = block.rows;
  const Index                  begin = rowOffsets[firstRow];
  const Index                  end = rowOffsets[firstRow + rows];
  const bool                   inShared = end - begin <= static_cast<Index>(capacity);
  const auto                   count = static_cast<std::uint32_t>(end - begin);
  if (inShared)
  {
    StartBlockLinks(local, count);
  }
  __syncthreads();
  // Each warp the same part of every row: its stretches (LinkRowPair finds
  // the runs that start before them from the end index, or counts them).
  const std::int64_t warps = blockDim.x / WarpSize;
  const std::int64_t warp = threadIdx.x / WarpSize;
  const std::int64_t stretches = StretchesOfRow(geometry.width);
  const std::int64_t firstStretch = warp * stretches / warps;
  const std::int64_t endStretch = (warp + 1) * stretches / warps;
  for (std::int64_t k = 1; k < rows; ++k)
  {
    const std::int64_t r = firstRow + k;
    RowPair            pair{ image + r * geometry.width, image + (r - 1) * geometry.width, test, FacingRows{} };
    pair.SetEnds(endWords, endWordsPerRow, r, r - 1);
    if (firstStretch < endStretch) // the same for the warp's lanes
    {
      if (inShared)
      {
        LaneJoins<std::uint32_t, MergeThrough<CoherentLoads>> joins{ local,
                                                                     linked != nullptr ? linked + begin : nullptr };
        LinkRowPair<false, 1, QueuedEvents>(pair,
                                            geometry.width,
                                            full,
                                            static_cast<std::uint32_t>(rowOffsets[r] - begin),
                                            static_cast<std::uint32_t>(rowOffsets[r - 1] - begin),
                                            joins,
                                            firstStretch,
                                            endStretch);
      }
      else
      {
        LaneJoins<Index> joins{ parent, linked };
        LinkRowPair<false, 1, QueuedEvents>(
          pair, geometry.width, full, rowOffsets[r], rowOffsets[r - 1], joins, firstStretch, endStretch);
      }
    }
    // The next row's walks find this row's runs pointing at their roots.
    __syncthreads();
  }
  if (inShared)
  {
    PointRunsAtBlockRoots(local, count, parent, begin);
  }
}

} // namespace cuda
} // namespace cca

#endif
