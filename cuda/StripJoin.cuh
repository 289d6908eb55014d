// The feature table's runs joined through the strip labeling
// (StripLabeling.cuh) under full connectivity. Every run of an image row
// lies inside one run of its strip (the OR of the strip's rows), so the
// strips' union-find, over fewer and longer units that are joined from their
// facing rows' bits, decides the components of the image rows' runs too: a
// run's component is that of the strip run covering it. The table keys a
// component by its first run (LabeledUnits::parent: a root is the
// component's first unit), so each strip root learns the smallest image run
// it covers (an atomicMin), and every image run points at it. This replaces
// the union-find over the image rows' runs, whose searches of four preceding
// rows a run cost most of a 26-connected volume near percolation; the
// votes' stored pairs are then counted once the labels exist
// (CountPrecedingPairsKernel), as under face connectivity.
#ifndef cca_cuda_StripJoin_cuh
#define cca_cuda_StripJoin_cuh

#include "DependentLaunch.cuh"
#include "DeviceGeometry.cuh"
#include "RunNeighbours.cuh"
#include "StripRows.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Per image run: the strip run covering it (the first run of its strip
 *  row that ends past its start), whose root (stripParent, flattened)
 *  goes to parent[i] for CoveredRunParentsKernel; and each strip root's
 *  smallest covered image run into firstRun (cleared to all ones). The
 *  read first: in a large component most runs come after its first. */
template <class Index>
__global__ void
CoveringStripRootsKernel(RunArrays<Index> runs,
                         Geometry         pixels,
                         RunArrays<Index> strips,
                         const Index * __restrict__ stripParent,
                         Index * __restrict__ parent,
                         Index * __restrict__ firstRun)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < runs.count; i += stride)
  {
    const std::int64_t s = StripRowOver(pixels, static_cast<std::int64_t>(runs.row[i]));
    const std::int32_t x = runs.x[i];
    // The strip's runs cover its rows' pixels: the first that ends past x holds the run.
    const Index root = stripParent[FirstRunPast(strips, s, x, strips.rowOffsets[s], strips.rowOffsets[s + 1])];
    parent[i] = root;
    if (i < firstRun[root])
    {
      atomicMin(firstRun + root, i);
    }
  }
}

/** Per image run, once CoveringStripRootsKernel has run: its parent
 *  becomes its component's first run, and the runs of components of more
 *  than one run are flagged (linked, cleared to 0; null: not kept). */
template <class Index>
__global__ void
CoveredRunParentsKernel(Index count,
                        const Index * __restrict__ firstRun,
                        Index * __restrict__ parent,
                        std::uint8_t * __restrict__ linked)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    const Index first = firstRun[parent[i]];
    parent[i] = first;
    if (linked != nullptr && first != i)
    {
      linked[i] = 1;
      // Every run of the component flags its first run: a read first, so
      // that the runs of a giant component do not all store to one line
      // (a stale 0 only repeats the same store).
      if (linked[first] == 0)
      {
        linked[first] = 1;
      }
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
