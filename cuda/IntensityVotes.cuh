// The intensity group's votes (Options::intensity): each full run reads its
// feature pixels once (IntensityRecord.h: the sums of powers, the weighted
// sums, the extremes); where keys repeat in a warp (large components), the
// lanes fold their records by object with conflict detection, sum by sum so
// that a record is never held twice in registers; the block folds the votes
// for its first run's object in shared memory (the giant component above
// the percolation threshold), and the leaders merge into the object's entry
// with atomics: an atomic min and max for the extremes' keys, double atomics
// for the real sums, and for the exact integer sums (order-free, so the
// table is exact and reproducible) one of two ways. A sum whose total the
// object's size and extent bound below 2^63 (NarrowIntensitySums) adds only
// its low word, modulo 2^64; these words of the warp's leaders are sent
// transposed through shared memory, consecutive lanes to consecutive sums
// of one record, which the L1 merges into few L2 requests (the votes are
// bound by the L2's atomic throughput). The other sums go word by word with
// carries (the low words of all sums at once, then the carries, so a leader
// waits for one round trip, not one per sum). Only the sums the image can
// make nonzero are voted (a plane has no z). Where the key has no room for
// the pixel index (64-bit values), a second pass finds the last pixel of
// each object holding its extreme.
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

/** A record as the device keeps it (the table, the block's shared record):
 *  the extremes, then only the Sums sums voted, the words of the exact sums
 *  grouped by rank (word j of sum i at words[j][i]) so that the low words,
 *  which the transposed votes add, lie side by side. All bits 0 is the
 *  neutral record, so that clearing the table is a memset: the minimum's
 *  key is kept complemented (its atomic min becomes an atomic max) and the
 *  extremes' indices plus one (-1, none, is 0). HostRecord makes the host's
 *  IntensityRecord of it. */
template <class Sum, int Sums>
struct DeviceIntensityRecord;
template <int W, int Sums>
struct DeviceIntensityRecord<detail::WideSum<W>, Sums>
{
  std::uint64_t minimumKey; ///< complemented
  std::uint64_t maximumKey;
  std::int64_t  minimumIndex; ///< plus one
  std::int64_t  maximumIndex; ///< plus one
  std::uint64_t words[W][Sums];

  __device__ __forceinline__ unsigned long long *
  Word(int sum, int rank)
  {
    return reinterpret_cast<unsigned long long *>(&words[rank][sum]);
  }
};
template <int Sums>
struct DeviceIntensityRecord<double, Sums>
{
  std::uint64_t minimumKey; ///< complemented
  std::uint64_t maximumKey;
  std::int64_t  minimumIndex; ///< plus one
  std::int64_t  maximumIndex; ///< plus one
  double        sums[Sums];
};

/** The host's record of a downloaded device record (the sums it leaves out
 *  are 0). */
template <class Sum, int Sums>
__host__ __device__ detail::IntensityRecord<Sum>
                    HostRecord(const DeviceIntensityRecord<Sum, Sums> & d)
{
  detail::IntensityRecord<Sum> r;
  detail::ClearIntensity(r);
  r.minimumKey = ~d.minimumKey;
  r.maximumKey = d.maximumKey;
  r.minimumIndex = d.minimumIndex - 1;
  r.maximumIndex = d.maximumIndex - 1;
  for (int i = 0; i < Sums; ++i)
  {
    if constexpr (std::is_same<Sum, double>::value)
    {
      r.sums[i] = d.sums[i];
    }
    else
    {
      for (int j = 0; j < static_cast<int>(sizeof(Sum) / 8); ++j)
      {
        r.sums[i].word[j] = d.words[j][i];
      }
    }
  }
  return r;
}

/** target's sums i < Sums whose bit is set in `wide` += v[i], exactly: word
 *  by word with carries. The same word of every sum is sent before any
 *  result is awaited, so a voter waits W - 1 round trips, not one per sum;
 *  the top words need no result and go as reductions. */
template <int Sums, int W>
__device__ __forceinline__ void
AtomicAddSums(DeviceIntensityRecord<detail::WideSum<W>, Sums> & target,
              const detail::WideSum<W> *                        v,
              unsigned                                          wide = ~0u)
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
      if (((wide >> i) & 1u) == 0)
      {
        continue;
      }
      const unsigned long long add = v[i].word[j] + carry[i];
      unsigned long long       next = add < carry[i] ? 1u : 0u; // v's word was all ones and a carry came in
      if (add != 0)
      {
        if (j + 1 < W)
        {
          const unsigned long long old = atomicAdd(target.Word(i, j), add);
          next += old + add < old ? 1u : 0u;
        }
        else
        {
          atomicAdd(target.Word(i, j), add);
        }
      }
      carry[i] = next;
    }
  }
}

template <int Sums>
__device__ __forceinline__ void
AtomicAddSums(DeviceIntensityRecord<double, Sums> & target, const double * v, unsigned = ~0u)
{
#pragma unroll
  for (int i = 0; i < Sums; ++i)
  {
    if (v[i] != 0)
    {
      atomicAdd(&target.sums[i], v[i]);
    }
  }
}

/** The device record's extremes merged with r's (r as the host keeps them). */
template <class Sum, int Sums>
__device__ __forceinline__ void
AtomicMergeExtremes(DeviceIntensityRecord<Sum, Sums> & device, const detail::IntensityRecord<Sum> & r)
{
  atomicMax(reinterpret_cast<unsigned long long *>(&device.minimumKey), ~static_cast<unsigned long long>(r.minimumKey));
  atomicMax(reinterpret_cast<unsigned long long *>(&device.maximumKey), static_cast<unsigned long long>(r.maximumKey));
}

/** device += r: the extremes' keys and every word of the sums. */
template <class Sum, int Sums>
__device__ __forceinline__ void
AtomicMergeIntensity(DeviceIntensityRecord<Sum, Sums> & device, const detail::IntensityRecord<Sum> & r)
{
  AtomicMergeExtremes(device, r);
  AtomicAddSums(device, r.sums);
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

/** The narrow words of the warp's voting lanes (key != removed), transposed:
 *  stage holds each lane's low words; item k of the warp's 32 x Sums goes
 *  to lane k % 32, so that consecutive lanes add consecutive sums of one
 *  record and the L1 sends them as few requests. A sum goes only where the
 *  source lane's narrow mask has its bit. All 32 lanes must call it. */
template <int Sums, class Index, int W>
__device__ __forceinline__ void
AtomicAddNarrowWordsTransposed(std::uint64_t (&stage)[WarpSize][Sums],
                               Index                                             key,
                               Index                                             removed,
                               unsigned                                          narrow,
                               const detail::WideSum<W> *                        sums,
                               DeviceIntensityRecord<detail::WideSum<W>, Sums> * table)
{
  const unsigned lane = LaneId();
#pragma unroll
  for (int i = 0; i < Sums; ++i)
  {
    stage[lane][i] = sums[i].word[0];
  }
  __syncwarp();
#pragma unroll
  for (int round = 0; round < Sums; ++round)
  {
    const int           item = round * WarpSize + static_cast<int>(lane);
    const int           source = item / Sums;
    const int           sum = item % Sums;
    const Index         k = ShuffleValue(key, source);
    const unsigned      mask = __shfl_sync(FullWarp, narrow, source);
    const std::uint64_t word = stage[source][sum];
    if (k != removed && ((mask >> sum) & 1u) != 0 && word != 0)
    {
      atomicAdd(table[k].Word(sum, 0), static_cast<unsigned long long>(word));
    }
  }
  __syncwarp(); // stage is written again by the next run
}

/** Each object's narrow sums (NarrowIntensitySums) from its features. */
template <class T>
__global__ void
NarrowSumsKernel(std::int64_t count, const ComponentFeatures * features, std::uint16_t * narrow)
{
  AwaitPrecedingKernel();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t o = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; o < count; o += stride)
  {
    narrow[o] =
      static_cast<std::uint16_t>(detail::NarrowIntensitySums<T>(features[o].pixelCount, features[o].boundingBoxMax));
  }
}

/** Lanes of a warp whose key repeats an earlier lane's, up to which every
 *  lane votes for itself: folding shuffles every sum for all 32 lanes,
 *  which costs more than the atomics of a few repeated keys (near or below
 *  the percolation threshold); at and above it large components fill the
 *  warps and folding saves most atomics. */
constexpr int MaximumUnfoldedRepeats = 4;

/** Blocks of the votes kernel per SM that its registers must allow: left
 *  to itself the compiler takes 108-128 registers, two blocks of 256
 *  threads (25 % occupancy); capped at 80 registers (a few spilled),
 *  three blocks run and the votes take 6 % less time (8192^2, H100). */
constexpr int IntensityVoteBlocksPerSM = 3;

/** One lane per full run, whole warps together (conflict detection needs
 *  all 32 lanes); runs labeled `removed` (objects a selection left out) do
 *  not vote. feature: the feature image, dense, x fastest. Sums: the sums
 *  voted (FirstWeightedSum without weighted moments, PlanarIntensitySums
 *  for a plane, NumberOfIntensitySums for a volume). */
template <class T, class Index, int Sums>
__global__ void
__launch_bounds__(BlockThreads, IntensityVoteBlocksPerSM)
  IntensityVotesKernel(RunArrays<Index> runs,
                       const Index * __restrict__ label,
                       Index removed,
                       const T * __restrict__ feature,
                       Geometry geometry,
                       bool     packed,
                       const std::uint16_t * __restrict__ narrowSums,
                       DeviceIntensityRecord<detail::IntensitySum_t<T>, Sums> * table)
{
  AwaitPrecedingKernel();
  using Record = detail::IntensityRecord<detail::IntensitySum_t<T>>;
  constexpr bool Weighted = Sums > detail::FirstWeightedSum;
  constexpr bool Exact = detail::ExactIntensitySums<T>;
  __shared__ DeviceIntensityRecord<detail::IntensitySum_t<T>, Sums> hot;
  __shared__ Index                                                  hotKey;
  if (threadIdx.x == 0)
  {
    const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x;
    hotKey = first < static_cast<std::int64_t>(runs.count) ? label[first] : removed;
    std::memset(&hot, 0, sizeof(hot)); // neutral as on the device (AtomicMergeExtremes)
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
    const unsigned narrow = Exact && key != removed ? narrowSums[key] : 0u;
    Record         r;
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
    const bool vote = leader && key != removed;
    if (vote && key == hotKey)
    {
      AtomicMergeIntensity(hot, r); // every word, exact: shared memory is cheap
    }
    const bool toTable = vote && key != hotKey;
    if constexpr (Exact)
    {
      // The narrow words of each warp's leaders, for the transposed votes.
      __shared__ std::uint64_t stage[BlockThreads / WarpSize][WarpSize][Sums];
      if (toTable)
      {
        auto & entry = table[key];
        AtomicMergeExtremes(entry, r);
        AtomicAddSums(entry, r.sums, ~narrow);
      }
      AtomicAddNarrowWordsTransposed<Sums>(
        stage[threadIdx.x / WarpSize], toTable ? key : removed, removed, narrow, r.sums, table);
    }
    else if (toTable)
    {
      AtomicMergeIntensity(table[key], r);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && hotKey != removed)
  {
    // The block's record: its narrow sums' low words are exact modulo 2^64
    // like any other vote's.
    auto &         entry = table[hotKey];
    const Record   merged = HostRecord(hot);
    const unsigned narrow = Exact ? narrowSums[hotKey] : 0u;
    AtomicMergeExtremes(entry, merged);
    AtomicAddSums(entry, merged.sums, ~narrow);
    if constexpr (Exact)
    {
#pragma unroll
      for (int i = 0; i < Sums; ++i)
      {
        if (((narrow >> i) & 1u) != 0 && merged.sums[i].word[0] != 0)
        {
          atomicAdd(entry.Word(i, 0), static_cast<unsigned long long>(merged.sums[i].word[0]));
        }
      }
    }
  }
}

/** Unpacked extremes: the last pixel (raster order) of each object holding
 *  its minimum and its maximum, once the keys are final. */
template <class T, class Index, int Sums>
__global__ void
ExtremeIndicesKernel(RunArrays<Index> runs,
                     const Index * __restrict__ label,
                     Index removed,
                     const T * __restrict__ feature,
                     Geometry                                                 geometry,
                     DeviceIntensityRecord<detail::IntensitySum_t<T>, Sums> * table)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index a = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; a < runs.count; a += stride)
  {
    const Index key = label[a];
    if (key == removed)
    {
      continue;
    }
    const std::uint64_t minimum = ~table[key].minimumKey; // complemented on the device
    const std::uint64_t maximum = table[key].maximumKey;
    const std::int64_t  row = static_cast<std::int64_t>(runs.row[a]) * geometry.width;
    long long           lastMinimum = -1;
    long long           lastMaximum = -1;
    for (std::int32_t x = runs.x[a]; x < runs.end[a]; ++x)
    {
      const T v = feature[row + x];
      // A NaN voted for no extreme; some NaNs' keys are the neutral ones.
      const bool          counts = !detail::IsNan(v);
      const std::uint64_t k = detail::ValueKey(v);
      lastMinimum = counts && k == minimum ? row + x : lastMinimum;
      lastMaximum = counts && k == maximum ? row + x : lastMaximum;
    }
    // Plus one on the device (AtomicMergeExtremes).
    if (lastMinimum >= 0)
    {
      atomicMax(reinterpret_cast<long long *>(&table[key].minimumIndex), lastMinimum + 1);
    }
    if (lastMaximum >= 0)
    {
      atomicMax(reinterpret_cast<long long *>(&table[key].maximumIndex), lastMaximum + 1);
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
