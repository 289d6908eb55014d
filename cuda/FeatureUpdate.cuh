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

/** table += f, field by field; interceptCounts still hold raw pair counts. */
__device__ __forceinline__ void
AtomicMergeFeatures(ComponentFeatures & table, const ComponentFeatures & f)
{
  AtomicAddIfNonZero(&table.pixelCount, f.pixelCount);
  for (int i = 0; i < 3; ++i)
  {
    atomicMin(&table.boundingBoxMin[i], f.boundingBoxMin[i]);
    atomicMax(&table.boundingBoxMax[i], f.boundingBoxMax[i]);
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
        const detail::Extent & extent, Index a, ComponentFeatures & f)
{
  const std::int64_t r = runs.row[a];
  const std::int64_t y = r % geometry.height;
  const std::int64_t z = r / geometry.height;
  const std::int32_t x = runs.x[a];
  const std::int32_t length = runs.end[a] - x;
  detail::RunContribution(x, static_cast<std::int32_t>(y), static_cast<std::int32_t>(z), length, extent, f);
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

template <class Index>
__global__ void
ClearFeaturesKernel(Index count, ComponentFeatures * table)
{
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c < count; c += stride)
  {
    detail::ClearFeatures(table[c]);
  }
}

/** One lane per run; whole warps iterate together because conflict
 *  detection needs all 32 lanes. label[i] is the 0-based component of run i. */
template <class Index>
__global__ void
AccumulateFeaturesKernel(RunArrays<Index> runs, const Index * __restrict__ label, Geometry geometry,
                         detail::Extent extent, ComponentFeatures * table)
{
  const std::int64_t stride = WarpCount() * WarpSize;
  for (std::int64_t base = GlobalWarp() * WarpSize; base < static_cast<std::int64_t>(runs.count); base += stride)
  {
    const Index a = static_cast<Index>(base + LaneId());
    const bool  valid = a < runs.count;
    // Invalid lanes get a key no run has (labels are < count).
    Index             key = runs.count;
    ComponentFeatures f;
    if (valid)
    {
      key = label[a];
      RunVote(runs, label, geometry, extent, a, f);
    }
    else
    {
      detail::ClearFeatures(f);
    }
    const bool leader =
      WarpCombineByKey(key, f, [](ComponentFeatures & x, const ComponentFeatures & y) { detail::MergeFeatures(x, y); });
    if (leader && valid)
    {
      AtomicMergeFeatures(table[key], f);
    }
  }
}

/** Turns the raw pair counts into ITK's intercept counts. */
template <class Index>
__global__ void
FinalizeFeaturesKernel(Index count, ComponentFeatures * table)
{
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c < count; c += stride)
  {
    detail::FinalizeIntercepts(table[c]);
  }
}

} // namespace cuda
} // namespace cca

#endif
