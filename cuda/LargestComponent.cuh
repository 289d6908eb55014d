// The component order without sorting the largest component's units.
// Above the percolation threshold one component holds most of the units
// (runs). They are in raster order already, and in the component order they
// take one contiguous place: after the units of the components numbered
// before it. So the radix sort of ComponentOrder.cuh needs only the other
// units. Before the numbering one warp samples the units' roots for the
// most frequent one (SampleLargestRootKernel); the numbering, which climbs
// every unit to its root anyway, marks that component's units and counts
// them and those of the components before it (roots before its root), read
// with the component count; the sort then takes the others out (a rank of
// bits, as the numbering ranks its roots), sorts them, and puts both in
// their places.
#ifndef cca_cuda_LargestComponent_cuh
#define cca_cuda_LargestComponent_cuh

#include "BitRanks.cuh"
#include "DeviceGeometry.cuh"
#include "UnionFind.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Units whose roots SampleLargestRootKernel samples, evenly spaced. */
constexpr int LargestComponentSamples = 128;

/** What the numbering counts of the largest component, read by the host
 *  with the component count: its root unit (SampleLargestRootKernel), its
 *  label (0-based), its units, and the units of the components numbered
 *  before it (NumberComponentsKernel). */
struct LargestComponentCounts
{
  unsigned long long root;
  unsigned long long label;
  unsigned long long units;
  unsigned long long unitsBefore;
};

/** The component found by sampling (the most frequent root among
 *  LargestComponentSamples units), with its counts; bits: bit j of word w
 *  is set where unit 32 w + j belongs to it (device memory), null where no
 *  component was looked for. */
template <class Index>
struct LargestComponent
{
  Index            label = 0;
  Index            units = 0;
  Index            unitsBefore = 0;
  const unsigned * bits = nullptr;
};

/** Where NumberComponentsKernel counts the largest component's units
 *  (counts, whose root SampleLargestRootKernel wrote) and marks them
 *  (bits); both null where it does not. */
struct LargestCounting
{
  LargestComponentCounts * counts = nullptr;
  unsigned *               bits = nullptr;
};

/** The value most frequent among the PerLane values of each of the 32
 *  lanes, the smaller one on a tie: every lane gets it. */
template <class Index, int PerLane>
__device__ Index
WarpMode(const Index (&value)[PerLane])
{
  unsigned hits[PerLane] = {};
  for (int source = 0; source < WarpSize; ++source)
  {
#pragma unroll
    for (int m = 0; m < PerLane; ++m)
    {
      const Index other = __shfl_sync(FullWarp, value[m], source);
#pragma unroll
      for (int j = 0; j < PerLane; ++j)
      {
        hits[j] += other == value[j] ? 1u : 0u;
      }
    }
  }
  unsigned best = hits[0];
  Index    key = value[0];
#pragma unroll
  for (int j = 1; j < PerLane; ++j)
  {
    if (hits[j] > best || (hits[j] == best && value[j] < key))
    {
      best = hits[j];
      key = value[j];
    }
  }
  for (int offset = WarpSize / 2; offset > 0; offset /= 2)
  {
    const unsigned otherBest = __shfl_xor_sync(FullWarp, best, offset);
    const Index    otherKey = __shfl_xor_sync(FullWarp, key, offset);
    if (otherBest > best || (otherBest == best && otherKey < key))
    {
      best = otherBest;
      key = otherKey;
    }
  }
  return key;
}

/** One warp: the most frequent root among LargestComponentSamples evenly
 *  spaced units of count (climbing parent) into counts->root, the other
 *  counts cleared for NumberComponentsKernel. */
template <class Index>
__global__ void
__launch_bounds__(WarpSize)
  SampleLargestRootKernel(Index count, const Index * __restrict__ parent, LargestComponentCounts * counts)
{
  AwaitPrecedingKernel();
  constexpr int PerLane = LargestComponentSamples / WarpSize;
  Index         node[PerLane];
  bool          active[PerLane];
#pragma unroll
  for (int m = 0; m < PerLane; ++m)
  {
    const std::uint64_t k = LaneId() + static_cast<std::uint64_t>(m) * WarpSize;
    node[m] = static_cast<Index>(k * static_cast<std::uint64_t>(count) / LargestComponentSamples);
    active[m] = true;
  }
  ClimbToRoots<CachedLoads>(parent, node, active);
  const Index root = WarpMode(node);
  if (LaneId() == 0)
  {
    counts->root = static_cast<unsigned long long>(root);
    counts->label = 0;
    counts->units = 0;
    counts->unitsBefore = 0;
  }
}

/** Units a thread of SplitAroundLargestKernel and PlaceAroundLargestKernel
 *  takes, blockDim.x apart: one a thread left the blocks too short for
 *  their scheduling (512^3 6-conn. g = 1 d = 0.5: 163 us for 34 M units,
 *  H200, ncu). */
constexpr int LargestSplitSteps = 8;

/** Takes the largest component's units out of the count units: unit i of
 *  it (bit i of bits, rank r among its units: wordRank gives each word's
 *  units before it) goes to its place in the component order, unitsBefore
 *  + r, with its label largest (unless placeLargest is false: where the
 *  pairs' pass placed its runs, PlacedLargest.cuh, nothing reads those
 *  places); every other unit goes, in raster order, to keys (its label)
 *  and values (its index) at i - r, for the sort of the others. */
template <class Index>
__global__ void
__launch_bounds__(BlockThreads) SplitAroundLargestKernel(Index count,
                                                         const Index * __restrict__ label,
                                                         const unsigned * __restrict__ bits,
                                                         const Index * __restrict__ wordRank,
                                                         Index largest,
                                                         Index unitsBefore,
                                                         Index * __restrict__ keys,
                                                         Index * __restrict__ values,
                                                         Index * __restrict__ orderLabel,
                                                         Index * __restrict__ orderIndex,
                                                         bool placeLargest)
{
  AwaitPrecedingKernel();
  const std::int64_t chunk = static_cast<std::int64_t>(blockDim.x) * LargestSplitSteps;
  const std::int64_t n = static_cast<std::int64_t>(count);
  for (std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * chunk + threadIdx.x; first < n;
       first += static_cast<std::int64_t>(gridDim.x) * chunk)
  {
    Index    l[LargestSplitSteps];
    unsigned w[LargestSplitSteps];
    Index    r[LargestSplitSteps];
#pragma unroll
    for (int k = 0; k < LargestSplitSteps; ++k)
    {
      const std::int64_t i = first + static_cast<std::int64_t>(k) * blockDim.x;
      if (i < n)
      {
        l[k] = label[i];
        w[k] = bits[i / 32];
        r[k] = wordRank[i / 32];
      }
    }
#pragma unroll
    for (int k = 0; k < LargestSplitSteps; ++k)
    {
      const std::int64_t i = first + static_cast<std::int64_t>(k) * blockDim.x;
      if (i < n)
      {
        const unsigned bit = 1u << (i % 32);
        const Index    rank = r[k] + static_cast<Index>(__popc(w[k] & (bit - 1u)));
        if ((w[k] & bit) != 0)
        {
          if (placeLargest)
          {
            orderLabel[unitsBefore + rank] = largest;
            orderIndex[unitsBefore + rank] = static_cast<Index>(i);
          }
        }
        else
        {
          keys[static_cast<Index>(i) - rank] = l[k];
          values[static_cast<Index>(i) - rank] = static_cast<Index>(i);
        }
      }
    }
  }
}

/** The other units' sorted keys and values (others of each) into the
 *  component order: those numbered before the largest component first
 *  (unitsBefore of them), then, after its largestUnits, the rest. */
template <class Index>
__global__ void
__launch_bounds__(BlockThreads) PlaceAroundLargestKernel(Index others,
                                                         Index largestUnits,
                                                         Index unitsBefore,
                                                         const Index * __restrict__ sortedKeys,
                                                         const Index * __restrict__ sortedValues,
                                                         Index * __restrict__ orderLabel,
                                                         Index * __restrict__ orderIndex)
{
  AwaitPrecedingKernel();
  const std::int64_t chunk = static_cast<std::int64_t>(blockDim.x) * LargestSplitSteps;
  const std::int64_t n = static_cast<std::int64_t>(others);
  for (std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * chunk + threadIdx.x; first < n;
       first += static_cast<std::int64_t>(gridDim.x) * chunk)
  {
#pragma unroll
    for (int k = 0; k < LargestSplitSteps; ++k)
    {
      const std::int64_t q = first + static_cast<std::int64_t>(k) * blockDim.x;
      if (q < n)
      {
        const Index p =
          static_cast<Index>(q) < unitsBefore ? static_cast<Index>(q) : static_cast<Index>(q) + largestUnits;
        orderLabel[p] = sortedKeys[q];
        orderIndex[p] = sortedValues[q];
      }
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
