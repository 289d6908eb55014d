// Feature accumulation: each run votes its own contribution (RunFeatures.h,
// the formulas the CPU backend uses) plus its neighbour-pair counts with the
// runs of the following neighbour rows, into the table entry of its
// component. Votes of one warp for one component are first folded by
// conflict detection, then merged with integer atomics (order-independent,
// so the table is exact and reproducible).
#ifndef cca_cuda_FeatureUpdate_cuh
#define cca_cuda_FeatureUpdate_cuh

#include "ConflictDetection.cuh"
#include "DeviceGeometry.cuh"
#include "RunNeighbours.cuh"
#include "RunFeatures.h"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

__device__ __forceinline__ void
AtomicAddIfNonZero(std::int64_t * target, std::int64_t value)
{
  if (value != 0)
  {
    atomicAdd(reinterpret_cast<unsigned long long *>(target), static_cast<unsigned long long>(value));
  }
}

__device__ __forceinline__ void
AtomicAddIfNonZero(std::uint64_t * target, std::uint64_t value)
{
  if (value != 0)
  {
    atomicAdd(reinterpret_cast<unsigned long long *>(target), static_cast<unsigned long long>(value));
  }
}

/** table += f, field by field; interceptCounts still hold raw pair counts.
 *  Minima the component's root seeds (PrepareTableKernel) are not voted:
 *  min z always (the root is the component's first run in raster order),
 *  and in a single slice (planar) also min y and max z. Works on global and
 *  shared memory alike. */
__device__ __forceinline__ void
AtomicMergeFeatures(ComponentFeatures & table, const ComponentFeatures & f, bool planar)
{
  AtomicAddIfNonZero(&table.pixelCount, f.pixelCount);
  atomicMin(&table.boundingBoxMin[0], f.boundingBoxMin[0]);
  atomicMax(&table.boundingBoxMax[0], f.boundingBoxMax[0]);
  atomicMax(&table.boundingBoxMax[1], f.boundingBoxMax[1]);
  if (!planar)
  {
    atomicMin(&table.boundingBoxMin[1], f.boundingBoxMin[1]);
    atomicMax(&table.boundingBoxMax[2], f.boundingBoxMax[2]);
  }
  for (int i = 0; i < 3; ++i)
  {
    AtomicAddIfNonZero(&table.coordinateSum[i], f.coordinateSum[i]);
  }
  for (int i = 0; i < 6; ++i)
  {
    AtomicAddIfNonZero(&table.coordinateProductSum[i], f.coordinateProductSum[i]);
    AtomicAddIfNonZero(&table.pixelsOnFace[i], f.pixelsOnFace[i]);
  }
  AtomicAddIfNonZero(&table.pixelsOnBorder, f.pixelsOnBorder);
  for (int i = 0; i < NumberOfInterceptSlots; ++i)
  {
    AtomicAddIfNonZero(&table.interceptCounts[i], f.interceptCounts[i]);
  }
}

/** The vote of run a: its own features plus the neighbour pairs it forms
 *  with runs of the same component in the following neighbour rows. */
template <class Index>
__device__ __forceinline__ void
RunVote(const RunArrays<Index> & runs, const Index * label, const Geometry & geometry,
        const detail::Extent & extent, Index a, bool alone, ComponentFeatures & f)
{
  const std::int64_t r = runs.row[a];
  const std::int64_t y = r % geometry.height;
  const std::int64_t z = r / geometry.height;
  const std::int32_t x = runs.x[a];
  const std::int32_t length = runs.end[a] - x;
  detail::RunContribution(x, static_cast<std::int32_t>(y), static_cast<std::int32_t>(z), length, extent, f);
  if (alone)
  {
    return; // a component of one run has no pairs between runs
  }
  const Index key = label[a];
  RowStep     steps[4];
  const int   n = FollowingRows(geometry.depth > 1, steps);
  for (int s = 0; s < n; ++s)
  {
    const std::int64_t q = NeighbourRow(geometry, y, z, steps[s]);
    if (q >= 0)
    {
      // Pairs count pixels one column apart too: search the range widened by one.
      ForEachRunInRange(runs, q, x - 1, x + length + 1, [&](Index b) {
        if (label[b] == key)
        {
          detail::AddAdjacentPairs(x, length, runs.x[b], runs.end[b] - runs.x[b], steps[s].dy != 0,
                                   steps[s].dz != 0, f.interceptCounts);
        }
      });
    }
  }
}

/** Clears the table entries of components of several runs (one-run
 *  components are written whole by the vote kernel), seeded with the
 *  minima their root (first run) determines. One thread per run. */
template <class Index>
__global__ void
PrepareTableKernel(RunArrays<Index> runs, const Index * __restrict__ parent, const std::uint8_t * __restrict__ linked,
                   const Index * __restrict__ label, Geometry geometry, ComponentFeatures * table)
{
  const bool  planar = geometry.depth == 1;
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < runs.count; i += stride)
  {
    if (parent[i] == i && linked[i])
    {
      ComponentFeatures & f = table[label[i]];
      detail::ClearFeatures(f);
      const std::int64_t r = runs.row[i];
      f.boundingBoxMin[2] = static_cast<std::int32_t>(r / geometry.height);
      if (planar)
      {
        f.boundingBoxMin[1] = static_cast<std::int32_t>(r);
        f.boundingBoxMax[2] = 0;
      }
    }
  }
}

/** One lane per run; whole warps iterate together because conflict
 *  detection needs all 32 lanes. A run that is a component by itself writes
 *  its finished entry with plain stores. Other votes are folded per warp by
 *  conflict detection; votes for the block's "hot" component (the one of its
 *  first run: above the percolation threshold, the giant one) are folded
 *  further in shared memory and reach global memory once per block. */
template <class Index>
__global__ void
AccumulateFeaturesKernel(RunArrays<Index> runs, const std::uint8_t * __restrict__ linked,
                         const Index * __restrict__ label, Geometry geometry, detail::Extent extent,
                         ComponentFeatures * table)
{
  __shared__ ComponentFeatures hot;
  __shared__ Index             hotKey;
  const bool                   planar = geometry.depth == 1;
  if (threadIdx.x == 0)
  {
    const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x;
    hotKey = first < static_cast<std::int64_t>(runs.count) ? label[first] : runs.count;
    detail::ClearFeatures(hot);
  }
  __syncthreads();

  const std::int64_t stride = WarpCount() * WarpSize;
  for (std::int64_t base = GlobalWarp() * WarpSize; base < static_cast<std::int64_t>(runs.count); base += stride)
  {
    const Index a = static_cast<Index>(base + LaneId());
    const bool  valid = a < runs.count;
    // Invalid lanes get a key no run has (labels are < count).
    Index             key = runs.count;
    bool              alone = false;
    ComponentFeatures f;
    if (valid)
    {
      key = label[a];
      alone = linked[a] == 0;
      RunVote(runs, label, geometry, extent, a, alone, f);
    }
    else
    {
      detail::ClearFeatures(f);
    }
    const bool leader =
      WarpCombineByKey(key, f, [](ComponentFeatures & x, const ComponentFeatures & y) { detail::MergeFeatures(x, y); });
    if (leader && valid)
    {
      if (alone)
      {
        detail::FinalizeIntercepts(f);
        table[key] = f;
      }
      else if (key == hotKey)
      {
        AtomicMergeFeatures(hot, f, planar);
      }
      else
      {
        AtomicMergeFeatures(table[key], f, planar);
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && hot.pixelCount > 0)
  {
    AtomicMergeFeatures(table[hotKey], hot, planar);
  }
}

/** Turns the raw pair counts of components of several runs into ITK's
 *  intercept counts (one-run components were finished by the vote). */
template <class Index>
__global__ void
FinalizeTableKernel(Index count, const Index * __restrict__ parent, const std::uint8_t * __restrict__ linked,
                    const Index * __restrict__ label, ComponentFeatures * table)
{
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    if (parent[i] == i && linked[i])
    {
      detail::FinalizeIntercepts(table[label[i]]);
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
