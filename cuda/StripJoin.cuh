// The feature table's runs joined through the strip labeling
// (StripLabeling.cuh) under full connectivity. Every run of an image row
// lies inside one run of its strip (the OR of the strip's rows), so the
// strips' union-find, over fewer and longer units that are joined from their
// facing rows' bits, decides the components of the image rows' runs too: a
// run's component is that of the strip run covering it. The table keys a
// component by its first run (LabeledUnits::parent: a root is the
// component's first unit). This replaces the union-find over the image rows'
// runs, whose searches of four preceding rows a run cost most of a
// 26-connected volume near percolation; the votes' stored pairs are then
// counted once the labels exist (CountPrecedingPairsKernel), as under face
// connectivity.
//
// The component's first image run is found over the strip runs, which are
// fewer (about a sixteenth of the image runs of a 512^3 volume at d = 0.5):
// each strip run offers the first image run it covers to its root, and
// then holds its root's smallest offer. The image runs take that value in
// one pass, from the strip run covering them. Each image run had offered
// itself to its root and then read its root's first run in a second pass
// over the image runs. H200, ncu, 512^3 26-conn. g = 1 d = 0.5 (33.6 M
// image runs, about 2 M strip runs): those two passes 374 + 161 us, now the
// offers 64, the strip runs' first runs 12 and the image runs' pass 263;
// the full table at g = 1, summed, 58.1 / 58.3 -> 60.0 / 59.9 Gvox/s
// (benchmark/results/h200-strip-first-runs call 1).
#ifndef cca_cuda_StripJoin_cuh
#define cca_cuda_StripJoin_cuh

#include "DependentLaunch.cuh"
#include "DeviceGeometry.cuh"
#include "RunNeighbours.cuh"
#include "StripRows.cuh"
#include "UnionFind.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Per strip run t, once the strips' union-find has run: points it
 *  straight at its root (the flattening; stripParent) and offers to its
 *  root the first image run it covers (firstRun, cleared to all ones: an
 *  atomicMin). That run lies in the first of the strip's image rows (in
 *  raster order, which is the runs' order) that holds foreground under t:
 *  the row's first run ending past t's start, which starts there (the
 *  pixel before t's start is background in every row of the strip). */
template <class Index>
__global__ void
OfferFirstCoveredRunsKernel(RunArrays<Index> strips,
                            Geometry         pixels,
                            RunArrays<Index> runs,
                            Index * __restrict__ stripParent,
                            Index * __restrict__ firstRun)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index t = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; t < strips.count; t += stride)
  {
    // No root changes any more: a plain walk, through the L1.
    const Index root = FindRoot<CachedLoads>(stripParent, t);
    stripParent[t] = root;
    const StripPosition position = StripPositionOf(pixels, static_cast<std::int64_t>(strips.row[t]));
    const RowsOfStrip   rows = StripRowsAt(pixels, position);
    const std::int32_t  x0 = strips.x[t];
    const std::int32_t  x1 = strips.end[t];
    Index               first = static_cast<Index>(~Index{ 0 });
#pragma unroll
    for (int k = 0; k < RowsOfStrip::Most; ++k)
    {
      if (first == static_cast<Index>(~Index{ 0 }) && rows.Has(k))
      {
        const std::int64_t q = StripImageRow(pixels, position, k);
        const Index        rowEnd = runs.rowOffsets[q + 1];
        const Index        j = FirstRunPast(runs, q, x0, runs.rowOffsets[q], rowEnd);
        if (j < rowEnd && runs.x[j] < x1)
        {
          first = j;
        }
      }
    }
    // The read first: in a large component most offers are already beaten.
    if (first < firstRun[root])
    {
      atomicMin(firstRun + root, first);
    }
  }
}

/** Per strip run, once OfferFirstCoveredRunsKernel has run: its root's
 *  first image run, in place of the root (stripParent). */
template <class Index>
__global__ void
StripFirstRunsKernel(Index count, const Index * __restrict__ firstRun, Index * __restrict__ stripParent)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index t = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; t < count; t += stride)
  {
    stripParent[t] = firstRun[stripParent[t]];
  }
}

/** The image runs a thread of CoveredRunParentsKernel takes together,
 *  their loads in flight at once: each run's chain of dependent loads (its
 *  row, the strip row's end index, the strip run's first run) left a
 *  thread a run at a time waiting on it (H200, 512^3 26-conn. g = 1 full
 *  table, summed, one call: 59.92 / 60.05 -> 60.67 / 60.50 Gvox/s,
 *  benchmark/results/h200-strip-first-runs call 3). */
constexpr int CoveredRunsTogether = 2;

/** Per image run, once StripFirstRunsKernel has run: its parent becomes
 *  its component's first run, that of the strip run covering it (the first
 *  run of its strip row that ends past its start; stripFirst), and the
 *  runs of components of more than one run are flagged (linked, cleared
 *  to 0; null: not kept). Small: the runs' rows are placed in 32-bit
 *  arithmetic (LabeledUnits::smallRows: the image is a SmallImage). */
template <class Index, bool Small>
__global__ void
CoveredRunParentsKernel(RunArrays<Index> runs,
                        Geometry         pixels,
                        RunArrays<Index> strips,
                        const Index * __restrict__ stripFirst,
                        Index * __restrict__ parent,
                        std::uint8_t * __restrict__ linked)
{
  AwaitPrecedingKernel();
  using Row = RowCoord<Small>;
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index base = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; base < runs.count;
       base += stride * CoveredRunsTogether)
  {
    Index first[CoveredRunsTogether] = {};
#pragma unroll
    for (int k = 0; k < CoveredRunsTogether; ++k)
    {
      const Index i = base + static_cast<Index>(k) * stride;
      if (i < runs.count)
      {
        const Row s = StripRowOver(pixels, static_cast<Row>(runs.row[i]));
        first[k] = stripFirst[FirstRunPast(strips, s, runs.x[i], strips.rowOffsets[s], strips.rowOffsets[s + 1])];
      }
    }
#pragma unroll
    for (int k = 0; k < CoveredRunsTogether; ++k)
    {
      const Index i = base + static_cast<Index>(k) * stride;
      if (i < runs.count)
      {
        parent[i] = first[k];
        if (linked != nullptr && first[k] != i)
        {
          linked[i] = 1;
          // Every run of the component flags its first run: a read first,
          // so that the runs of a giant component do not all store to one
          // line (a stale 0 only repeats the same store).
          if (linked[first[k]] == 0)
          {
            linked[first[k]] = 1;
          }
        }
      }
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
