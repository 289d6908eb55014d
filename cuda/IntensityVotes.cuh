// The intensity group's votes (Options::intensity): each full run reads its
// feature pixels once (IntensityRecord.h: the sums of powers, the weighted
// sums, the extremes); where keys repeat in a warp (large components), the
// lanes fold their records by object with conflict detection, sum by sum so
// that a record is never held twice in registers; the block folds the votes
// for its first run's object in shared memory (the giant component above
// the percolation threshold), and the leaders merge into the object's entry
// with atomics: word by word with carries for the exact integer sums
// (order-free, so the table is exact and reproducible; the low words of all
// sums are sent at once, then the carries, so a leader waits for one round
// trip, not one per sum), double atomics for the real ones, an atomic min
// and max for the extremes' keys. Only the sums the image can make nonzero
// are voted (a plane has no z). Where the key has no room for the pixel
// index (64-bit values), a second pass finds the last pixel of each object
// holding its extreme.
#ifndef cca_cuda_IntensityVotes_cuh
#define cca_cuda_IntensityVotes_cuh

#include "ConflictDetection.cuh"
#include "DeviceGeometry.cuh"
#include "IntensityRecord.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** target[i] += v[i] for i < Sums, exactly: word by word with carries. The
 *  same word of every sum is sent before any result is awaited, so a voter
 *  waits W - 1 round trips, not one per sum; the top words need no result
 *  and go as reductions. */
template <int Sums, int W>
__device__ __forceinline__ void
AtomicAddSums(detail::WideSum<W> * target, const detail::WideSum<W> * v)
{
  unsigned long long carry[Sums];
#pragma unroll
  for (int i = 0; i < Sums; ++i)
  {
    carry[i] = 0;
  }
#pragma unroll
  for (int j = 0; j < W; ++j)
  {
#pragma unroll
    for (int i = 0; i < Sums; ++i)
    {
      const unsigned long long add = v[i].word[j] + carry[i];
      unsigned long long       next = add < carry[i] ? 1u : 0u; // v's word was all ones and a carry came in
      if (add != 0)
      {
        auto * word = reinterpret_cast<unsigned long long *>(&target[i].word[j]);
        if (j + 1 < W)
        {
          const unsigned long long old = atomicAdd(word, add);
          next += old + add < old ? 1u : 0u;
        }
        else
        {
          atomicAdd(word, add);
        }
      }
      carry[i] = next;
    }
  }
}

template <int Sums>
__device__ __forceinline__ void
AtomicAddSums(double * target, const double * v)
{
#pragma unroll
  for (int i = 0; i < Sums; ++i)
  {
    if (v[i] != 0)
    {
      atomicAdd(&target[i], v[i]);
    }
  }
}

/** table += r: the extremes' keys and the first Sums sums. */
template <int Sums, class Sum>
__device__ __forceinline__ void
AtomicMergeIntensity(detail::IntensityRecord<Sum> & table, const detail::IntensityRecord<Sum> & r)
{
  atomicMin(reinterpret_cast<unsigned long long *>(&table.minimumKey), static_cast<unsigned long long>(r.minimumKey));
  atomicMax(reinterpret_cast<unsigned long long *>(&table.maximumKey), static_cast<unsigned long long>(r.maximumKey));
  AtomicAddSums<Sums>(table.sums, r.sums);
}

/** Folds lane source's record into r where fold is true (WarpFoldPeers):
 *  the extremes, then one sum at a time. Unpacked keys carry their index
 *  beside them; packed ones hold it and are unique, so the index fields are
 *  not needed. */
template <int Sums, class Sum>
__device__ __forceinline__ void
FoldIntensityFrom(detail::IntensityRecord<Sum> & r, int source, bool fold, bool packed)
{
  const std::uint64_t minimumKey = ShuffleValue(r.minimumKey, source);
  const std::uint64_t maximumKey = ShuffleValue(r.maximumKey, source);
  std::int64_t        minimumIndex = -1;
  std::int64_t        maximumIndex = -1;
  if (!packed)
  {
    minimumIndex = ShuffleValue(r.minimumIndex, source);
    maximumIndex = ShuffleValue(r.maximumIndex, source);
  }
  if (fold)
  {
    detail::MergeExtremes(r, minimumKey, minimumIndex, maximumKey, maximumIndex);
  }
#pragma unroll
  for (int i = 0; i < Sums; ++i)
  {
    const Sum other = ShuffleValue(r.sums[i], source);
    if (fold)
    {
      detail::AddSum(r.sums[i], other);
    }
  }
}

/** Every record of the table neutral (ClearIntensity), written word by word
 *  across the threads so that the stores coalesce. */
template <class Sum>
__global__ void
ClearIntensityKernel(std::int64_t count, detail::IntensityRecord<Sum> * table)
{
  using Record = detail::IntensityRecord<Sum>;
  static_assert(sizeof(Record) % 8 == 0, "records are written as 64-bit words");
  constexpr int Words = sizeof(Record) / 8;
  __shared__ std::uint64_t neutral[Words];
  if (threadIdx.x == 0)
  {
    Record r;
    detail::ClearIntensity(r);
    std::memcpy(neutral, &r, sizeof(r));
  }
  __syncthreads();
  auto * const       words = reinterpret_cast<std::uint64_t *>(table);
  const std::int64_t total = count * Words;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t w = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; w < total; w += stride)
  {
    words[w] = neutral[w % Words];
  }
}

/** Lanes of a warp whose key repeats an earlier lane's, up to which every
 *  lane votes for itself: folding shuffles every sum for all 32 lanes,
 *  which costs more than the atomics of a few repeated keys (near or below
 *  the percolation threshold); at and above it large components fill the
 *  warps and folding saves most atomics. */
constexpr int MaximumUnfoldedRepeats = 4;

/** One lane per full run, whole warps together (conflict detection needs
 *  all 32 lanes); runs labeled `removed` (objects a selection left out) do
 *  not vote. feature: the feature image, dense, x fastest. Sums: the sums
 *  voted (FirstWeightedSum without weighted moments, PlanarIntensitySums
 *  for a plane, NumberOfIntensitySums for a volume). */
template <class T, class Index, int Sums>
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
  constexpr bool    Weighted = Sums > detail::FirstWeightedSum;
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
    // Every lane votes for itself unless keys repeat enough to fold.
    const unsigned peers = __match_any_sync(FullWarp, key);
    bool           leader = true;
    if (__popc(__ballot_sync(FullWarp, (peers & LanesBelow()) != 0)) > MaximumUnfoldedRepeats)
    {
      leader = WarpFoldPeers(peers, [&](int source, bool fold) { FoldIntensityFrom<Sums>(r, source, fold, packed); });
    }
    if (leader && key != removed)
    {
      if (key == hotKey)
      {
        AtomicMergeIntensity<Sums>(hot, r);
      }
      else
      {
        AtomicMergeIntensity<Sums>(table[key], r);
      }
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && hotKey != removed)
  {
    AtomicMergeIntensity<Sums>(table[hotKey], hot);
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
