// The intensity group's votes (Options::intensity): each full run reads its
// feature pixels once (IntensityRecord.h: the sums of powers, the weighted
// sums, the extremes), the lanes of a warp fold their records by object
// with conflict detection, the block folds the votes for its first run's
// object in shared memory (the giant component above the percolation
// threshold), and the leaders merge into the object's entry with atomics:
// word by word with carries for the exact integer sums (order-free, so the
// table is exact and reproducible), double atomics for the real ones, an
// atomic min and max for the extremes' keys. Where the key has no room for
// the pixel index (64-bit values), a second pass finds the last pixel of
// each object holding its extreme.
#ifndef cca_cuda_IntensityVotes_cuh
#define cca_cuda_IntensityVotes_cuh

#include "ConflictDetection.cuh"
#include "DeviceGeometry.cuh"
#include "IntensityRecord.h"

#include <cstdint>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** target += v, exactly: word by word, the carry of each word added to the next. */
template <int W>
__device__ __forceinline__ void
AtomicAddSum(detail::WideSum<W> & target, const detail::WideSum<W> & v)
{
  unsigned long long carry = 0;
  for (int i = 0; i < W; ++i)
  {
    const unsigned long long add = v.word[i] + carry;
    carry = add < carry ? 1u : 0u; // v.word[i] was all ones and a carry came in
    if (add != 0)
    {
      const unsigned long long old = atomicAdd(reinterpret_cast<unsigned long long *>(&target.word[i]), add);
      carry += old + add < old ? 1u : 0u;
    }
  }
}

__device__ __forceinline__ void
AtomicAddSum(double & target, double v)
{
  if (v != 0)
  {
    atomicAdd(&target, v);
  }
}

/** table += r: extremes' keys and the sums (the weighted ones when asked). */
template <bool Weighted, class Sum>
__device__ __forceinline__ void
AtomicMergeIntensity(detail::IntensityRecord<Sum> & table, const detail::IntensityRecord<Sum> & r)
{
  atomicMin(reinterpret_cast<unsigned long long *>(&table.minimumKey), static_cast<unsigned long long>(r.minimumKey));
  atomicMax(reinterpret_cast<unsigned long long *>(&table.maximumKey), static_cast<unsigned long long>(r.maximumKey));
  constexpr int sums = Weighted ? detail::NumberOfIntensitySums : detail::FirstWeightedSum;
  for (int i = 0; i < sums; ++i)
  {
    AtomicAddSum(table.sums[i], r.sums[i]);
  }
}

template <class Sum>
__global__ void
ClearIntensityKernel(std::int64_t count, detail::IntensityRecord<Sum> * table)
{
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    detail::ClearIntensity(table[i]);
  }
}

/** One lane per full run, whole warps together (conflict detection needs
 *  all 32 lanes); runs labeled `removed` (objects a selection left out) do
 *  not vote. feature: the feature image, dense, x fastest. */
template <class T, class Index, bool Weighted>
__global__ void
IntensityVotesKernel(RunArrays<Index> runs,
                     const Index * __restrict__ label,
                     Index removed,
                     const T * __restrict__ feature,
                     Geometry                                             geometry,
                     bool                                                 packed,
                     detail::IntensityRecord<detail::IntensitySum_t<T>> * table)
{
  using Record = detail::IntensityRecord<detail::IntensitySum_t<T>>;
  __shared__ Record hot;
  __shared__ Index  hotKey;
  if (threadIdx.x == 0)
  {
    const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x;
    hotKey = first < static_cast<std::int64_t>(runs.count) ? label[first] : removed;
    detail::ClearIntensity(hot);
  }
  __syncthreads();

  const std::int64_t stride = WarpCount() * WarpSize;
  for (std::int64_t base = GlobalWarp() * WarpSize; base < static_cast<std::int64_t>(runs.count); base += stride)
  {
    const Index a = static_cast<Index>(base + LaneId());
    Index       key = removed;
    if (a < runs.count)
    {
      key = label[a];
    }
    Record r;
    if (key != removed)
    {
      const std::int64_t row = runs.row[a];
      detail::RunIntensity(feature + row * geometry.width,
                           1,
                           runs.x[a],
                           runs.end[a] - runs.x[a],
                           row % geometry.height,
                           row / geometry.height,
                           row * geometry.width,
                           packed,
                           Weighted,
                           r);
    }
    else
    {
      detail::ClearIntensity(r);
    }
    const bool leader =
      WarpCombineByKey(key, r, [](Record & x, const Record & y) { detail::MergeIntensity(x, y, Weighted); });
    if (leader && key != removed)
    {
      if (key == hotKey)
      {
        AtomicMergeIntensity<Weighted>(hot, r);
      }
      else
      {
        AtomicMergeIntensity<Weighted>(table[key], r);
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && hotKey != removed)
  {
    AtomicMergeIntensity<Weighted>(table[hotKey], hot);
  }
}

/** Unpacked extremes: the last pixel (raster order) of each object holding
 *  its minimum and its maximum, once the keys are final. */
template <class T, class Index>
__global__ void
ExtremeIndicesKernel(RunArrays<Index> runs,
                     const Index * __restrict__ label,
                     Index removed,
                     const T * __restrict__ feature,
                     Geometry                                             geometry,
                     detail::IntensityRecord<detail::IntensitySum_t<T>> * table)
{
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index a = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; a < runs.count; a += stride)
  {
    const Index key = label[a];
    if (key == removed)
    {
      continue;
    }
    const std::uint64_t minimum = table[key].minimumKey;
    const std::uint64_t maximum = table[key].maximumKey;
    const std::int64_t  row = static_cast<std::int64_t>(runs.row[a]) * geometry.width;
    long long           lastMinimum = -1;
    long long           lastMaximum = -1;
    for (std::int32_t x = runs.x[a]; x < runs.end[a]; ++x)
    {
      const std::uint64_t k = detail::ValueKey(feature[row + x]);
      lastMinimum = k == minimum ? row + x : lastMinimum;
      lastMaximum = k == maximum ? row + x : lastMaximum;
    }
    if (lastMinimum >= 0)
    {
      atomicMax(reinterpret_cast<long long *>(&table[key].minimumIndex), lastMinimum);
    }
    if (lastMaximum >= 0)
    {
      atomicMax(reinterpret_cast<long long *>(&table[key].maximumIndex), lastMaximum);
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
