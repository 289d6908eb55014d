// Block-local union-find over whole runs, in shared memory (the block-based
// labelings' strength: Playne 2018, Allegretti 2019, carried over to runs).
// The image is cut into bricks of bx columns x by rows x bz slices; a run
// belongs to the brick where it starts. One block joins the runs of its
// brick that touch each other in shared memory, then points every run at
// its brick-local root. Only runs with a touching run outside their brick
// (the brick's first row and slice, and runs near its x borders) are left
// to the global lock-free union-find (LinkRunsKernel with its crossing
// filter), so near the percolation threshold the global trees are a
// fraction of the runs and shallow: LinkRunsKernel on every run walked long
// contended chains there (3D, 26-connectivity: 2.5 Gvox/s).
//
// Every link still points to a smaller run index (local indices keep the
// raster order of the runs), so each root is its component's first run and
// the numbering is unchanged.
#ifndef cca_cuda_BrickUnionFind_cuh
#define cca_cuda_BrickUnionFind_cuh

#include "DeviceGeometry.cuh"
#include "RunNeighbours.cuh"
#include "UnionFind.cuh"

#include "cca/Types.h"

#include <algorithm>
#include <cstdint>

namespace cca
{
namespace cuda
{

/** Runs a brick holds at most (its parents fill 16 KiB of shared memory). */
constexpr int BrickCapacity = 4096;
/** Rows (by x bz) of a brick at most. */
constexpr int BrickMaxRows = 128;

/** How the image is cut into bricks. */
struct Bricks
{
  std::int32_t bx; ///< columns of a brick
  std::int32_t by; ///< rows of a brick
  std::int32_t bz; ///< slices of a brick
  std::int64_t nx; ///< bricks along x
  std::int64_t ny; ///< bricks along y
  std::int64_t count;
  int          capacity; ///< runs a brick may hold (<= BrickCapacity; tests lower it)
};

/** A brick shape for tests (0: the default of that extent), and a lower capacity (0: BrickCapacity). */
struct BrickShape
{
  std::int32_t bx = 0;
  std::int32_t by = 0;
  std::int32_t bz = 0;
  int          capacity = 0;
};

/** Bricks that can never overflow: a row holds at most one run per two
 *  columns (runs of a binary image need a background pixel between them),
 *  or one per column where runs may abut (label images, whose runs also
 *  break where the value changes); bx x (rows of a brick) / 2 (or 1) is
 *  BrickCapacity. 2D: 256 x 32 (3 % of the rows start a brick; wide enough
 *  that few runs cross its x borders); 3D: 64 x 8 x 16. */
inline Bricks
MakeBricks(const Geometry & g, bool abuttingRuns, const BrickShape & shape = BrickShape{})
{
  const bool   volume = g.depth > 1;
  std::int64_t bx = volume ? 64 : 256;
  std::int64_t by = volume ? 8 : 32;
  std::int64_t bz = volume ? 16 : 1;
  if (abuttingRuns)
  {
    bx /= 2;
  }
  bx = shape.bx > 0 ? shape.bx : bx;
  by = shape.by > 0 ? shape.by : by;
  bz = shape.bz > 0 ? shape.bz : bz;
  if (by * bz > BrickMaxRows)
  {
    throw Error(Error::Kind::InvalidInput, "a brick of more than BrickMaxRows rows");
  }
  Bricks b;
  b.capacity = shape.capacity > 0 && shape.capacity < BrickCapacity ? shape.capacity : BrickCapacity;
  b.bx = static_cast<std::int32_t>(std::min(bx, std::max<std::int64_t>(g.width, 1)));
  b.by = static_cast<std::int32_t>(std::min(by, std::max<std::int64_t>(g.height, 1)));
  b.bz = static_cast<std::int32_t>(std::min(bz, std::max<std::int64_t>(g.depth, 1)));
  b.nx = (g.width + b.bx - 1) / b.bx;
  b.ny = (g.height + b.by - 1) / b.by;
  const std::int64_t nz = (g.depth + b.bz - 1) / b.bz;
  b.count = b.nx * b.ny * nz;
  return b;
}

/** First run of row q that starts at or after column x. */
template <class Index>
__device__ __forceinline__ Index
FirstRunFrom(const RunArrays<Index> & runs, std::int64_t q, std::int64_t x)
{
  Index first = runs.rowOffsets[q];
  Index last = runs.rowOffsets[q + 1];
  while (first < last)
  {
    const Index middle = first + (last - first) / 2;
    if (runs.x[middle] >= x)
    {
      last = middle;
    }
    else
    {
      first = middle + 1;
    }
  }
  return first;
}

/** The brick row whose local indices hold i: the last j with segmentLocal[j] <= i
 *  among rows that are not empty. */
__device__ __forceinline__ int
BrickRowOf(const int * segmentLocal, int rows, int i)
{
  int lo = 0;
  int hi = rows; // segmentLocal[rows] > i
  while (hi - lo > 1)
  {
    const int middle = (lo + hi) / 2;
    if (segmentLocal[middle] <= i)
    {
      lo = middle;
    }
    else
    {
      hi = middle;
    }
  }
  return lo;
}

/** One block per brick (grid-stride over bricks): joins the runs of the
 *  brick that touch in shared memory, points each at its brick-local root
 *  (parent, which holds parent[i] = i before), sets linked for runs that
 *  touch another run in the brick, and crossing[a] = 1 for runs that may
 *  touch a run of another brick (0 for the others), which LinkRunsKernel
 *  then joins globally. A brick with more runs than BrickCapacity (not
 *  possible with MakeBricks) leaves all its runs crossing. Launch with
 *  BlockThreads threads. */
template <class Index, class Joins = AnyTouchingRuns>
__global__ void
__launch_bounds__(BlockThreads) LinkBrickRunsKernel(RunArrays<Index> runs,
                                                    Geometry         geometry,
                                                    Bricks           bricks,
                                                    bool             full,
                                                    Index *          parent,
                                                    std::uint8_t *   linked,
                                                    std::uint8_t *   crossing,
                                                    Joins            joins = Joins{})
{
  __shared__ unsigned local[BrickCapacity];
  __shared__ Index    segmentStart[BrickMaxRows]; // per brick row: its first run starting in the brick
  __shared__ Index    segmentEnd[BrickMaxRows];
  __shared__ int      segmentLocal[BrickMaxRows + 1]; // local index of that first run
  RowStep             steps[4];
  const int           stepCount = PrecedingRows(full, geometry.depth > 1, steps);
  for (std::int64_t brick = blockIdx.x; brick < bricks.count; brick += gridDim.x)
  {
    const std::int64_t ix = brick % bricks.nx;
    const std::int64_t iy = (brick / bricks.nx) % bricks.ny;
    const std::int64_t iz = brick / (bricks.nx * bricks.ny);
    const std::int64_t x0 = ix * bricks.bx;
    const std::int64_t x1 = min(x0 + bricks.bx, geometry.width);
    const std::int64_t y0 = iy * bricks.by;
    const std::int64_t y1 = min(y0 + bricks.by, geometry.height);
    const std::int64_t z0 = iz * bricks.bz;
    const std::int64_t z1 = min(z0 + bricks.bz, geometry.depth);
    const int          rowsY = static_cast<int>(y1 - y0);
    const int          rows = rowsY * static_cast<int>(z1 - z0);
    for (int t = threadIdx.x; t < rows; t += blockDim.x)
    {
      const std::int64_t q = (z0 + t / rowsY) * geometry.height + y0 + t % rowsY;
      segmentStart[t] = FirstRunFrom(runs, q, x0);
      segmentEnd[t] = FirstRunFrom(runs, q, x1);
    }
    __syncthreads();
    if (threadIdx.x == 0)
    {
      int total = 0;
      for (int t = 0; t < rows; ++t)
      {
        segmentLocal[t] = total;
        total += static_cast<int>(segmentEnd[t] - segmentStart[t]);
      }
      segmentLocal[rows] = total;
    }
    __syncthreads();
    const int  total = segmentLocal[rows];
    const bool fits = total <= bricks.capacity;
    for (int i = threadIdx.x; i < total && fits; i += blockDim.x)
    {
      local[i] = static_cast<unsigned>(i);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < total; i += blockDim.x)
    {
      const int   j = BrickRowOf(segmentLocal, rows, i);
      const Index a = segmentStart[j] + static_cast<Index>(i - segmentLocal[j]);
      if (!fits)
      {
        crossing[a] = 1;
        continue;
      }
      const std::int64_t y = y0 + j % rowsY;
      const std::int64_t z = z0 + j / rowsY;
      const std::int32_t lo = runs.x[a] - (full ? 1 : 0);
      const std::int32_t hi = runs.end[a] + (full ? 1 : 0);
      bool               cross = false;
      bool               joined = false;
      for (int s = 0; s < stepCount; ++s)
      {
        const std::int64_t q = NeighbourRow(geometry, y, z, steps[s]);
        if (q < 0)
        {
          continue;
        }
        const std::int64_t ny = y + steps[s].dy;
        const std::int64_t nz = z + steps[s].dz;
        if (ny < y0 || ny >= y1 || nz < z0)
        {
          cross = true; // a row of another brick (preceding rows never lie past z1)
          continue;
        }
        const int   k = static_cast<int>((nz - z0) * rowsY + (ny - y0));
        const Index begin = segmentStart[k];
        const Index end = segmentEnd[k];
        // Runs of that row outside the brick touch a only where they reach
        // into [lo, hi): the last one before the brick, the first one after.
        if ((begin > runs.rowOffsets[q] && runs.end[begin - 1] > lo) ||
            (end < runs.rowOffsets[q + 1] && runs.x[end] < hi))
        {
          cross = true;
        }
        // Lower bound: the first run of the segment ending past lo.
        Index first = begin;
        Index last = end;
        while (first < last)
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
        for (Index b = first; b < end && runs.x[b] < hi; ++b)
        {
          if (joins(a, b))
          {
            Merge(local, static_cast<unsigned>(i), static_cast<unsigned>(segmentLocal[k] + static_cast<int>(b - begin)));
            linked[b] = 1; // racing stores of the same value
            joined = true;
          }
        }
      }
      if (joined)
      {
        linked[a] = 1;
      }
      crossing[a] = cross ? 1 : 0;
    }
    __syncthreads();
    for (int i = threadIdx.x; i < total && fits; i += blockDim.x)
    {
      const int   j = BrickRowOf(segmentLocal, rows, i);
      const Index a = segmentStart[j] + static_cast<Index>(i - segmentLocal[j]);
      const int   root = static_cast<int>(FindRoot(local, static_cast<unsigned>(i)));
      if (root != i)
      {
        const int k = BrickRowOf(segmentLocal, rows, root);
        parent[a] = segmentStart[k] + static_cast<Index>(root - segmentLocal[k]);
      }
    }
    __syncthreads(); // the next brick reuses the shared arrays
  }
}

} // namespace cuda
} // namespace cca

#endif
