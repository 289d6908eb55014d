// How the feature votes' records (ComponentFeatures, NarrowFeatures or
// PlanarFeatures) come together: merged into a table entry with integer
// atomics (order-independent, so the table is exact and reproducible), or
// folded across a warp first: every lane's record summed where all 32 vote
// for one component, or the lanes of each component folded into its lowest
// lane by conflict detection (ConflictDetection.cuh), using what component
// order gives (FeatureUpdate.cuh's votes).
#ifndef cca_cuda_RecordFolds_cuh
#define cca_cuda_RecordFolds_cuh

#include "ConflictDetection.cuh"
#include "DeviceGeometry.cuh"
#include "RunFeatures.h"

#include "cca/Types.h"

#include <cstdint>
#include <type_traits>

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
AtomicAddIfNonZero(std::uint32_t * target, std::uint32_t value)
{
  if (value != 0)
  {
    atomicAdd(target, value);
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

/** table += f, field by field (Features: ComponentFeatures,
 *  NarrowFeatures or PlanarFeatures); interceptCounts still hold raw pair
 *  counts.
 *  Minima the component's root seeds (PrepareTableKernel) are not voted:
 *  min z always (the root is the component's first run in raster order),
 *  and in a single slice (planar) also min y and max z. Works on global and
 *  shared memory alike. */
template <class Features>
__device__ __forceinline__ void
AtomicMergeFeatures(Features & table, const Features & f, bool planar)
{
  AtomicAddIfNonZero(&table.pixelCount, f.pixelCount);
  atomicMin(&table.boundingBoxMin[0], f.boundingBoxMin[0]);
  atomicMax(&table.boundingBoxMax[0], f.boundingBoxMax[0]);
  atomicMax(&table.boundingBoxMax[1], f.boundingBoxMax[1]);
  if constexpr (detail::AxesOf<Features> == 3)
  {
    if (!planar)
    {
      atomicMin(&table.boundingBoxMin[1], f.boundingBoxMin[1]);
      atomicMax(&table.boundingBoxMax[2], f.boundingBoxMax[2]);
    }
  }
  for (int i = 0; i < detail::AxesOf<Features>; ++i)
  {
    AtomicAddIfNonZero(&table.coordinateSum[i], f.coordinateSum[i]);
  }
  for (int i = 0; i < detail::ProductsOf<Features>; ++i)
  {
    AtomicAddIfNonZero(&table.coordinateProductSum[i], f.coordinateProductSum[i]);
  }
  for (int i = 0; i < detail::FacesOf<Features>; ++i)
  {
    AtomicAddIfNonZero(&table.pixelsOnFace[i], f.pixelsOnFace[i]);
  }
  AtomicAddIfNonZero(&table.pixelsOnBorder, f.pixelsOnBorder);
  for (int i = 0; i < detail::SlotsOf<Features>; ++i)
  {
    AtomicAddIfNonZero(&table.interceptCounts[i], f.interceptCounts[i]);
  }
}

/** A count's sum over the warp, in the count's own width. */
__device__ __forceinline__ void
WarpSumCount(std::int64_t & v)
{
  v = static_cast<std::int64_t>(WarpSum64(static_cast<std::uint64_t>(v)));
}

__device__ __forceinline__ void
WarpSumCount(std::uint32_t & v)
{
  v = WarpSum32(v);
}

/** Conflict detection's common case above the percolation threshold: all 32
 *  lanes vote for one component. Field-wise warp reductions (one instruction
 *  per 32 bits on sm_80+) replace the general masked tree; every lane ends
 *  with the total. */
template <class Features>
__device__ __forceinline__ void
WarpSumFeatures(Features & f)
{
  WarpSumCount(f.pixelCount);
  for (int i = 0; i < detail::AxesOf<Features>; ++i)
  {
    f.boundingBoxMin[i] = WarpMin32(f.boundingBoxMin[i]);
    f.boundingBoxMax[i] = WarpMax32(f.boundingBoxMax[i]);
    WarpSumCount(f.coordinateSum[i]);
  }
  for (int i = 0; i < detail::ProductsOf<Features>; ++i)
  {
    f.coordinateProductSum[i] = WarpSum64(f.coordinateProductSum[i]);
  }
  for (int i = 0; i < detail::FacesOf<Features>; ++i)
  {
    WarpSumCount(f.pixelsOnFace[i]);
  }
  WarpSumCount(f.pixelsOnBorder);
  for (int i = 0; i < detail::SlotsOf<Features>; ++i)
  {
    WarpSumCount(f.interceptCounts[i]);
  }
}

/** The bounding box of the run at place alone, every other field cleared:
 *  the vote of a run of the component whose other fields come from the
 *  foreground's totals (LargestBySubtraction.cuh). */
template <class Features>
__device__ __forceinline__ void
BoundingBoxOf(const cca::Run & place, Features & f)
{
  detail::ClearFeatures(f);
  f.boundingBoxMin[0] = place.x;
  f.boundingBoxMax[0] = place.x + place.length - 1;
  f.boundingBoxMin[1] = static_cast<std::int32_t>(place.y);
  f.boundingBoxMax[1] = static_cast<std::int32_t>(place.y);
  if constexpr (detail::AxesOf<Features> == 3)
  {
    f.boundingBoxMin[2] = static_cast<std::int32_t>(place.z);
    f.boundingBoxMax[2] = static_cast<std::int32_t>(place.z);
  }
}

/** WarpSumFeatures of records that hold only a bounding box (BoundingBoxOf). */
template <class Features>
__device__ __forceinline__ void
WarpBoundingBox(Features & f)
{
  for (int i = 0; i < detail::AxesOf<Features>; ++i)
  {
    f.boundingBoxMin[i] = WarpMin32(f.boundingBoxMin[i]);
    f.boundingBoxMax[i] = WarpMax32(f.boundingBoxMax[i]);
  }
}

/** WarpCombineByKey for the votes of runs in component order (the votes
 *  that store whole components): a key's lanes are contiguous and hold its
 *  runs in raster order, so part of the record needs no fold. The leader
 *  (the lowest lane) holds the first run, whose row (planar records) or
 *  slice (the others) is the smallest, and the key's last lane the largest;
 *  the intercepts of the x class add up to the pixels less the runs (each
 *  run's n - 1 pairs); and where no lane of the warp touches the image's
 *  border, the border and face counts are all 0. Only the rest is
 *  shuffled: 15 of a planar record's 23 words in the common case. Returns
 *  true at the leader, whose record holds the key's votes; the other
 *  lanes' records are left partly folded. */
template <class Key, class Features>
__device__ __forceinline__ bool
WarpFoldOrderedRunVotes(Key key, Features & f)
{
  constexpr int  Last = detail::AxesOf<Features> - 1; // the axis of rows (planar) or slices
  constexpr int  XSlot = InterceptSlot(true, false, false);
  const unsigned peers = __match_any_sync(FullWarp, key);
  const bool     border = __any_sync(FullWarp, f.pixelsOnBorder != 0);
  const auto     lastRow = __shfl_sync(FullWarp, f.boundingBoxMax[Last], 31 - __clz(peers));
  const bool     leader = WarpFoldPeers(peers, [&](int source, bool fold) {
    // Field by field, each added as soon as it arrives: a second whole
    // record in registers spilled the volumes' records.
    const auto add = [&](auto & field) {
      const auto other = ShuffleValue(field, source);
      field = fold ? field + other : field;
    };
    const auto lower = [&](std::int32_t & field) {
      const std::int32_t other = ShuffleValue(field, source);
      field = fold && other < field ? other : field;
    };
    const auto upper = [&](std::int32_t & field) {
      const std::int32_t other = ShuffleValue(field, source);
      field = fold && other > field ? other : field;
    };
    add(f.pixelCount);
#pragma unroll
    for (int i = 0; i < Last; ++i)
    {
      lower(f.boundingBoxMin[i]);
      upper(f.boundingBoxMax[i]);
    }
#pragma unroll
    for (int i = 0; i <= Last; ++i)
    {
      add(f.coordinateSum[i]);
    }
#pragma unroll
    for (int i = 0; i < detail::ProductsOf<Features>; ++i)
    {
      add(f.coordinateProductSum[i]);
    }
#pragma unroll
    for (int i = 0; i < detail::SlotsOf<Features>; ++i)
    {
      if (i != XSlot)
      {
        add(f.interceptCounts[i]);
      }
    }
    if (border) // the same for every lane
    {
      add(f.pixelsOnBorder);
#pragma unroll
      for (int i = 0; i < detail::FacesOf<Features>; ++i)
      {
        add(f.pixelsOnFace[i]);
      }
    }
  });
  f.boundingBoxMax[Last] = lastRow;
  using Count = std::remove_reference_t<decltype(f.interceptCounts[0])>;
  f.interceptCounts[XSlot] = static_cast<Count>(f.pixelCount) - static_cast<Count>(__popc(peers));
  return leader;
}

} // namespace cuda
} // namespace cca

#endif
