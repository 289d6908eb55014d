// Finding the runs of a neighbour row that touch a run: the runs of a row are
// sorted by x and disjoint, so their ends increase and a binary search finds
// the first candidate; the rest follow contiguously.
#ifndef cca_cuda_RunNeighbours_cuh
#define cca_cuda_RunNeighbours_cuh

#include "DeviceGeometry.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** A neighbour row at offset (dy, dz). */
struct RowStep
{
  int dy;
  int dz;
};

/** Rows whose runs a run links to in union-find: only earlier rows, so each
 *  pair of neighbour rows is visited once. Face connectivity: rows sharing a
 *  face ((dy, dz) with one non-zero); Full: all 8 (y, z) neighbours. Returns
 *  the number of steps written. */
__device__ __forceinline__ int
PrecedingRows(bool full, bool volume, RowStep (&steps)[4])
{
  int n = 0;
  steps[n++] = RowStep{ -1, 0 };
  if (volume)
  {
    steps[n++] = RowStep{ 0, -1 };
    if (full)
    {
      steps[n++] = RowStep{ -1, -1 };
      steps[n++] = RowStep{ 1, -1 };
    }
  }
  return n;
}

/** Rows later than a run's row among its 8 (y, z) neighbours: with their
 *  mirror images they cover every neighbour row once. Used for pair counts,
 *  which need all neighbour classes whatever the connectivity. The first,
 *  the next row of the slice, is a plane's only one. */
__device__ __forceinline__ void
FollowingRows(RowStep (&steps)[4])
{
  steps[0] = RowStep{ 1, 0 };
  steps[1] = RowStep{ -1, 1 };
  steps[2] = RowStep{ 0, 1 };
  steps[3] = RowStep{ 1, 1 };
}

/** Row index of the neighbour of row (y, z) at step, or -1 outside the image. */
__device__ __forceinline__ std::int64_t
                           NeighbourRow(const Geometry & g, std::int64_t y, std::int64_t z, RowStep step)
{
  const std::int64_t ny = y + step.dy;
  const std::int64_t nz = z + step.dz;
  if (ny < 0 || ny >= g.height || nz < 0 || nz >= g.depth)
  {
    return -1;
  }
  return ny + nz * g.height;
}

/** A step of the binary search for the first run of [first, last) whose
 *  end is past lo (the lower bound of the runs that can reach lo). */
template <class Index>
__device__ __forceinline__ void
HalveRunSearch(const RunArrays<Index> & runs, std::int32_t lo, Index & first, Index & last)
{
  const Index middle = first + (last - first) / 2;
  if (runs.end[middle] > lo)
  {
    last = middle;
  }
  else
  {
    first = middle + 1;
  }
}

/** Calls visit(b) for the runs from first on, before rowEnd, that start
 *  before hi. */
template <class Index, class Visit>
__device__ __forceinline__ void
VisitRunsBefore(const RunArrays<Index> & runs, Index first, Index rowEnd, std::int32_t hi, Visit && visit)
{
  for (Index b = first; b < rowEnd && runs.x[b] < hi; ++b)
  {
    visit(b);
  }
}

/** Calls visit(b) for each run b of row q with end[b] > lo and x[b] < hi,
 *  i.e. each run that intersects the pixel range [lo, hi). */
template <class Index, class Visit>
__device__ __forceinline__ void
ForEachRunInRange(const RunArrays<Index> & runs, std::int64_t q, std::int32_t lo, std::int32_t hi, Visit && visit)
{
  Index       first = runs.rowOffsets[q];
  const Index rowEnd = runs.rowOffsets[q + 1];
  Index       last = rowEnd;
  while (first < last)
  {
    HalveRunSearch(runs, lo, first, last);
  }
  VisitRunsBefore(runs, first, rowEnd, hi, visit);
}

/** ForEachRunInRange in the rows q[s] (q[s] < 0: none) at once: the binary
 *  searches advance together, a step in every row at a time, so that their
 *  loads are in flight together; then visit(s, b) row by row, in the order
 *  of q (s is a constant in each unrolled visit: callers may index arrays
 *  of registers with it). */
template <int Rows, class Index, class Visit>
__device__ __forceinline__ void
ForEachRunInRanges(const RunArrays<Index> & runs,
                   const std::int64_t (&q)[Rows],
                   std::int32_t lo,
                   std::int32_t hi,
                   Visit &&     visit)
{
  Index first[Rows];
  Index last[Rows];
  Index rowEnd[Rows];
#pragma unroll
  for (int s = 0; s < Rows; ++s)
  {
    first[s] = q[s] >= 0 ? runs.rowOffsets[q[s]] : Index{ 0 };
    last[s] = q[s] >= 0 ? runs.rowOffsets[q[s] + 1] : Index{ 0 };
    rowEnd[s] = last[s];
  }
  for (;;)
  {
    bool searching = false;
#pragma unroll
    for (int s = 0; s < Rows; ++s)
    {
      if (first[s] < last[s])
      {
        searching = true;
        HalveRunSearch(runs, lo, first[s], last[s]);
      }
    }
    if (!searching)
    {
      break;
    }
  }
#pragma unroll
  for (int s = 0; s < Rows; ++s)
  {
    VisitRunsBefore(runs, first[s], rowEnd[s], hi, [&](Index b) { visit(s, b); });
  }
}

} // namespace cuda
} // namespace cca

#endif
