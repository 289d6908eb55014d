// The runs of the largest component put in their places by the pairs' pass
// after the labels. Where that component's entry comes from the foreground's
// totals (LargestBySubtraction.cuh), its runs needed from the feature votes
// only their bounding box and their place among the runs grouped by
// component; for that the pass stored each run's 16-byte record and 8 bytes
// of slice pairs, and the votes read the component order's index, label and
// the record back, then wrote the grouped run: 64 bytes a run moved for a
// run's 16 bytes of output. The pass, which reads each run's place anyway,
// instead writes the grouped run itself (its place: the runs of the
// components numbered before, then its rank among the component's runs, a
// rank of bits as the sort's split ranks them, LargestComponent.cuh) and
// folds its bounding box into a few words; the votes and the sort then
// leave the component's runs out altogether.
#ifndef cca_cuda_PlacedLargest_cuh
#define cca_cuda_PlacedLargest_cuh

#include "BitRanks.cuh"
#include "DeviceGeometry.cuh"
#include "RunFeatures.h"
#include "RunGroups.cuh"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Copies of the bounding box's words that the blocks of the pass spread
 *  their atomics over (block b into copy b % BoxCopies): one copy for every
 *  block of a grid of many would queue them on six addresses. */
constexpr int PlacedBoxCopies = 16;

/** The words of one copy: min x, y, z, then max x, y, z, each as a
 *  maximum (PlacedBoxWord), 0 where no run voted. */
constexpr int PlacedBoxWords = 6;

/** The places of the component order that the placed component's runs
 *  take: units of them from first (the runs of the components numbered
 *  before it), its label label; none by default. The pass fills them, the
 *  votes leave them out and visit the others, the j-th at Position(j). */
template <class Index>
struct PlacedRange
{
  Index first = 0;
  Index units = 0;
  Index label = NoLabel<Index>;

  __host__ __device__ Index
  Position(Index j) const
  {
    return j < first ? j : j + units;
  }

  /** The label at position k of the order (sortedLabel's, which holds
   *  none in the skipped places). */
  __device__ __forceinline__ Index
  LabelAt(const Index * sortedLabel, Index k) const
  {
    return k >= first && k - first < units ? label : sortedLabel[k];
  }
};

/** What the pass needs to place the largest component's runs, all of
 *  them, or nothing where groups.runs is null. */
template <class Index>
struct PlacedLargest
{
  RunGroups            groups; ///< the runs grouped by component, their offsets
  PlacedRange<Index>   places;
  Index                count = 0;          ///< all runs
  const unsigned *     bits = nullptr;     ///< LargestComponent::bits: its runs
  const Index *        wordRank = nullptr; ///< the set bits before each word of bits
  unsigned long long * box = nullptr;      ///< PlacedBoxCopies x PlacedBoxWords

  __host__ __device__ bool
  Active() const
  {
    return groups.runs != nullptr;
  }
};

/** A bounding box coordinate as a word whose maximum the atomics keep: a
 *  maximum as v + 1, a minimum as 2^31 - v (coordinates are below 2^31);
 *  0, every word's start, is no coordinate. */
__host__ __device__ inline unsigned long long
PlacedBoxWord(std::int32_t v, bool minimum)
{
  return minimum ? (std::uint64_t{ 1 } << 31) - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v) + 1;
}

/** The coordinate of PlacedBoxWord's word. */
__host__ __device__ inline std::int32_t
         PlacedBoxCoordinate(unsigned long long word, bool minimum)
{
  return minimum ? static_cast<std::int32_t>((std::uint64_t{ 1 } << 31) - word) : static_cast<std::int32_t>(word - 1);
}

/** Puts a run of the largest component, [x, end) in row (y, z), its rank
 *  among that component's runs (RankOfBit of bits), in its place among the
 *  grouped runs (GroupRunAt, as the votes put the others). */
template <class Index>
__device__ __forceinline__ void
PlaceLargestRun(const PlacedLargest<Index> & p,
                Index                        rank,
                std::int32_t                 x,
                std::int32_t                 end,
                std::int64_t                 y,
                std::int64_t                 z)
{
  GroupRunAt(
    p.groups,
    p.places.first + rank,
    p.count,
    p.places.label,
    rank == 0,
    cca::Run{ x, static_cast<std::int32_t>(y), static_cast<std::int32_t>(z), static_cast<std::int32_t>(end - x) });
}

/** A thread's share of the largest component's bounding box: the runs it
 *  placed (none: every coordinate at its neutral value). */
struct PlacedBox
{
  std::int32_t low[3] = { 0x7fffffff, 0x7fffffff, 0x7fffffff };
  std::int32_t high[3] = { -1, -1, -1 };

  __device__ __forceinline__ void
  Add(std::int32_t x, std::int32_t end, std::int32_t y, std::int32_t z)
  {
    low[0] = min(low[0], x);
    high[0] = max(high[0], end - 1);
    low[1] = min(low[1], y);
    high[1] = max(high[1], y);
    low[2] = min(low[2], z);
    high[2] = max(high[2], z);
  }
};

/** Each thread's PlacedBox in shared memory (word w of thread t at
 *  word[w][t]: no bank conflicts), where the pass keeps it: in registers
 *  through its loop, the box cost the search of the other runs 32-64
 *  bytes of spills. Threads: the block's. Trivial, for __shared__. */
template <int Threads>
struct PlacedBoxSlots
{
  std::int32_t word[PlacedBoxWords][Threads];

  /** The calling thread's box emptied (its own slots only: no barrier). */
  __device__ __forceinline__ void
  Clear()
  {
    const PlacedBox empty;
    for (int i = 0; i < 3; ++i)
    {
      word[i][threadIdx.x] = empty.low[i];
      word[3 + i][threadIdx.x] = empty.high[i];
    }
  }

  __device__ __forceinline__ void
  Add(std::int32_t x, std::int32_t end, std::int32_t y, std::int32_t z)
  {
    PlacedBox box = Mine();
    box.Add(x, end, y, z);
    for (int i = 0; i < 3; ++i)
    {
      word[i][threadIdx.x] = box.low[i];
      word[3 + i][threadIdx.x] = box.high[i];
    }
  }

  __device__ __forceinline__ PlacedBox
  Mine() const
  {
    PlacedBox box;
    for (int i = 0; i < 3; ++i)
    {
      box.low[i] = word[i][threadIdx.x];
      box.high[i] = word[3 + i][threadIdx.x];
    }
    return box;
  }
};

/** Folds every thread's box over the block, then into the block's copy of
 *  the words (box: PlacedLargest::box), an atomic a word. All threads of
 *  the block call it. */
__device__ __forceinline__ void
AddPlacedBox(const PlacedBox & mine, unsigned long long * box)
{
  __shared__ std::int32_t block[PlacedBoxWords];
  if (threadIdx.x < PlacedBoxWords)
  {
    const PlacedBox empty;
    block[threadIdx.x] = threadIdx.x < 3 ? empty.low[threadIdx.x] : empty.high[threadIdx.x - 3];
  }
  __syncthreads();
  std::int32_t low[3], high[3];
  for (int i = 0; i < 3; ++i)
  {
    low[i] = WarpMin32(mine.low[i]);
    high[i] = WarpMax32(mine.high[i]);
  }
  if (LaneId() == 0 && high[0] >= 0)
  {
    for (int i = 0; i < 3; ++i)
    {
      atomicMin(&block[i], low[i]);
      atomicMax(&block[3 + i], high[i]);
    }
  }
  __syncthreads();
  if (threadIdx.x < PlacedBoxWords && block[3] >= 0)
  {
    const bool minimum = threadIdx.x < 3;
    atomicMax(&box[(blockIdx.x % PlacedBoxCopies) * PlacedBoxWords + threadIdx.x],
              PlacedBoxWord(block[threadIdx.x], minimum));
  }
}

/** Merges the box the pass folded (PlacedBoxCopies copies) into entry f's
 *  bounding box (one thread). */
template <class Table>
__device__ __forceinline__ void
MergePlacedBox(const unsigned long long * box, Table & f)
{
  for (int i = 0; i < detail::AxesOf<Table>; ++i)
  {
    unsigned long long low = 0, high = 0;
    for (int c = 0; c < PlacedBoxCopies; ++c)
    {
      const unsigned long long l = box[c * PlacedBoxWords + i];
      const unsigned long long h = box[c * PlacedBoxWords + 3 + i];
      low = l > low ? l : low;
      high = h > high ? h : high;
    }
    if (high != 0)
    {
      const std::int32_t l = PlacedBoxCoordinate(low, true);
      const std::int32_t h = PlacedBoxCoordinate(high, false);
      f.boundingBoxMin[i] = l < f.boundingBoxMin[i] ? l : f.boundingBoxMin[i];
      f.boundingBoxMax[i] = h > f.boundingBoxMax[i] ? h : f.boundingBoxMax[i];
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
