// The feature votes (AccumulateFeaturesKernel): each run (unit) votes its
// own features and neighbour pairs (RunVotes.cuh) into the table entry of
// its component. A warp's votes for one component are first folded
// (RecordFolds.cuh), a block's votes for its hot component further in
// shared memory; in component order a component whose runs lie in one
// warp's chunk is stored whole (WholeComponents.cuh), the others are merged
// with integer atomics (order-independent, so the table is exact and
// reproducible) into entries written before the votes (TableEntries.cuh).
#ifndef cca_cuda_FeatureUpdate_cuh
#define cca_cuda_FeatureUpdate_cuh

#include "ConflictDetection.cuh"
#include "DeviceGeometry.cuh"
#include "ForegroundPairs.cuh"
#include "PlacedLargest.cuh"
#include "PrecedingPairs.cuh"
#include "RecordFolds.cuh"
#include "RunGroups.cuh"
#include "RunDetection.cuh"
#include "RunRecord.cuh"
#include "RunVotes.cuh"
#include "TableEntries.cuh"
#include "WholeComponents.cuh"

#include "cca/Types.h"

#include <cstdint>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** Whether AccumulateFeaturesKernel counts its atomic updates (a separate
 *  instantiation: the production kernel carries no counting code). */
enum class UpdateCounting
{
  Off,
  On
};

/** Optional instrumentation (Lemaitre 2021 section 4.1): per table entry, the
 *  number of atomic record merges it received. perEntry == nullptr: off. */
struct UpdateCounter
{
  unsigned long long * perEntry;
  __device__ __forceinline__ void
  Add(std::int64_t entry) const
  {
    if (perEntry != nullptr)
    {
      atomicAdd(perEntry + entry, 1ull);
    }
  }
};

/** How AccumulateFeaturesKernel folds a block's votes for its hot
 *  component. SharedAtomics: each warp's folded vote is merged into one
 *  shared record with shared-memory atomics (Lemaitre 2021's FLSL+CD as
 *  reproduced: its update counts include these merges). WarpSlots: each warp
 *  adds its folded votes into a record of its own in shared memory, with
 *  plain loads and stores, and the block sums its warps' records at the end
 *  (the default algorithm: near the percolation threshold the giant
 *  component's 64-bit shared atomics, contended by the block's warps, took
 *  most of the kernel's time). */
enum class HotFolding
{
  SharedAtomics,
  WarpSlots
};

/** Where the votes' records go. Merged: every vote is merged atomically
 *  into an entry PrepareTableKernel wrote. WholeInChunks (the default
 *  algorithm in component order): a component whose runs lie in one warp's
 *  chunk is stored whole by that warp, only those that cross a chunk
 *  boundary are merged (WholeComponents.cuh). */
enum class VoteStores
{
  Merged,
  WholeInChunks
};

/** Whether the vote policy Votes can store components whole
 *  (VoteStores::WholeInChunks): folded whole runs with every pair. Where
 *  it cannot, a request for whole components takes the prepared table. */
template <class Votes>
constexpr bool
PolicyStoresWhole()
{
  return Votes::ConflictDetection && Votes::WholeSingleUnits && Votes::Pairs == PairVotes::All && !Votes::SplitUnits;
}

/** The votes kernel's blocks. Narrow entries: 128 threads, at least five
 *  an SM, so at most 96 registers (65,536 for 640 threads, allocated in
 *  steps of 8), which their votes fit with 24 bytes of spills where they
 *  took 124 unbounded: 20 warps an SM instead of 16
 *  (H200, full table, summed, against 256-thread blocks in one call: g = 1
 *  +2.9 % in planes, +3.1 % and +3.7 % in 6- and 26-connected volumes;
 *  512^3 6-conn. g = 4 +2 %; benchmark/results/h200-vote-occupancy). Wide
 *  entries: 256 threads, two an SM, at most 128 registers (unbounded they
 *  took 126-127, and with one block an SM allowed 148, which would leave
 *  an SM 8 warps; held to 102 they spill 180-356 bytes). Planar entries
 *  (2D images, 96 bytes): 128 threads, eight an SM, at most 64 registers,
 *  which their votes fit with 8 bytes of spills: 32 warps an SM (H200, ncu,
 *  8192^2 g = 1 d = 0.5, against 160-byte entries at five an SM: 4-conn.
 *  1,030 -> 695 us a run, 8-conn. 530 -> 388 us, warps active 30 -> 45 %;
 *  benchmark/results/h200-planar-entries call 2). More blocks spill more
 *  than their warps gain: narrow entries at six or eight (80 or 64
 *  registers) and planar ones at ten (48) were slower on every g = 1 set
 *  (H100, 512^3 6-conn. 41.6 -> 41.3 and 35.3 Gvox/s, 8192^2 4-conn. 46.5
 *  -> 43.5-43.7 Gpix/s; benchmark/results/h100-whole-votes-placed call 1). */
template <class Table>
constexpr int VoteBlockThreads = IsNarrowEntry<Table> ? 128 : BlockThreads;
template <class Table>
constexpr int VoteBlocksPerSM = std::is_same_v<Table, PlanarFeatures>   ? 8
                                : std::is_same_v<Table, NarrowFeatures> ? 5
                                                                        : 2;

/** One lane per run (unit); whole warps iterate together because conflict
 *  detection needs all 32 lanes, and a warp none of whose runs votes moves
 *  on. Runs that are components by themselves are done (PrepareTableKernel
 *  wrote them) unless Votes::WholeSingleUnits is false. With
 *  Votes::ConflictDetection, votes are folded per warp by conflict
 *  detection, and votes for the block's "hot" component (the one of its
 *  first run: above the percolation threshold, the giant one) are folded
 *  further in shared memory (HotFoldingV) and reach global memory once per
 *  block; without, each voting lane merges its record with plain atomics.
 *  fullMask, pixels, preceding: RunVote's. order: the units in component order
 *  (ComponentOrder.cuh; a warp then meets few components), or null for
 *  raster order. sortedLabel: with order, the units' labels (label's) in
 *  that order, or null: the votes take their keys from it, in order, where
 *  label[order[i]] lies all over memory, and a single-unit component is
 *  one whose neighbours in order have other labels, with no link flag read
 *  (H200, full table, same call: at 512^3 6-conn. g = 1 d = 0.3 the votes
 *  2.49 -> 2.15 ms; summed, +0.2 to +1.5 % in every image set measured,
 *  benchmark/results/h200-face-pairs-after-labels call 4). groups: with
 *  order, where every unit's run goes grouped by component (the units are
 *  the runs; OutputStage::GroupRunsInVotes), or empty. StoresV: with
 *  sortedLabel, VoteStores::WholeInChunks stores every component whose
 *  runs lie in one warp's chunk whole, one-run components too, and merges
 *  only the others. subtracted: the label of the component whose runs
 *  vote their bounding box only (LargestBySubtraction.cuh), or
 *  NoLabel. skipped (read where Skipping): the places of order left out,
 *  those of a component whose runs the pairs' pass placed
 *  (PlacedLargest.cuh). Counting: the
 *  instrumentation is compiled in
 *  (counter is ignored otherwise). Launch with VoteBlockThreads<Table> threads
 *  a block. */
template <class Index,
          class Votes = DefaultVotes,
          UpdateCounting CountingV = UpdateCounting::Off,
          HotFolding     HotFoldingV = HotFolding::SharedAtomics,
          VoteStores     StoresV = VoteStores::Merged,
          class Table = ComponentFeatures,
          bool Skipping = false>
__global__ void
__launch_bounds__(VoteBlockThreads<Table>, VoteBlocksPerSM<Table>)
  AccumulateFeaturesKernel(RunArrays<Index> runs,
                           const std::uint8_t * __restrict__ linked,
                           const Index * __restrict__ label,
                           Geometry           geometry,
                           detail::ImageFaces faces,
                           Table *            table,
                           UpdateCounter      counter,
                           bool               fullMask,
                           ForegroundRows     pixels,
                           const Index * __restrict__ order,
                           PrecedingPairs preceding,
                           const Index * __restrict__ sortedLabel,
                           RunGroups          groups,
                           Index              subtracted,
                           PlacedRange<Index> skipped)
{
  AwaitPrecedingKernel();
  // Skipping only: elsewhere nothing is left out, and the constants fold
  // the skip's arithmetic away.
  const PlacedRange<Index> skip = Skipping ? skipped : PlacedRange<Index>{};
  constexpr bool           Counting = CountingV == UpdateCounting::On;
  constexpr bool           Slots = Votes::ConflictDetection && HotFoldingV == HotFolding::WarpSlots;
  constexpr bool           Whole = StoresV == VoteStores::WholeInChunks;
  static_assert(!Whole || PolicyStoresWhole<Votes>(), "whole components are folded runs with every pair");
  constexpr int Warps = VoteBlockThreads<Table> / WarpSize;
  __shared__ std::uint64_t staging[Whole ? Warps : 1][Whole ? StagedRecords * RecordWords<Table> : 1];
  __shared__ Table         hot;
  __shared__ Table         warpHot[Slots ? Warps : 1];
  __shared__ Index         hotKey;
  const bool               planar = geometry.depth == 1;
  const int                warp = static_cast<int>(threadIdx.x) / WarpSize;
  // The units visited: all but skip's, the j-th at skip.Position(j).
  const Index visited = runs.count - skip.units;
  if constexpr (Votes::ConflictDetection)
  {
    if (threadIdx.x == 0)
    {
      const std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * blockDim.x;
      const Index        first = j < static_cast<std::int64_t>(visited) ? skip.Position(static_cast<Index>(j)) : 0;
      hotKey = j >= static_cast<std::int64_t>(visited) ? runs.count
               : sortedLabel != nullptr                ? sortedLabel[first]
                                                       : label[order != nullptr ? order[first] : first];
      detail::ClearFeatures(hot);
    }
    if constexpr (Slots)
    {
      if (LaneId() == 0)
      {
        detail::ClearFeatures(warpHot[warp]);
      }
    }
    __syncthreads();
  }

  const std::int64_t stride = WarpCount() * WarpSize;
  for (std::int64_t base = GlobalWarp() * WarpSize; base < static_cast<std::int64_t>(visited); base += stride)
  {
    const Index j = static_cast<Index>(base + LaneId());
    const bool  valid = j < visited;
    const Index i = valid ? skip.Position(j) : j;
    const Index a = valid && order != nullptr ? order[i] : i;
    // Invalid lanes get a key no run has (labels are < count).
    Index key = runs.count;
    bool  votes = false;
    bool  before = false; // the run before in order shares the key
    bool  after = false;
    Table f;
    if (valid && sortedLabel != nullptr)
    {
      key = sortedLabel[i];
      before = i > 0 && skip.LabelAt(sortedLabel, i - 1) == key;
      after = i + 1 < runs.count && skip.LabelAt(sortedLabel, i + 1) == key;
      votes = Whole || !Votes::WholeSingleUnits || before || after;
    }
    else if (valid)
    {
      key = label[a]; // unique for a one-run component: it folds with no other lane
      votes = !Votes::WholeSingleUnits || linked[a] != 0;
    }
    // With records, one read gives the run's place and row pairs; where
    // the votes group the runs, every run's (single-run components too).
    const bool    grouping = groups.runs != nullptr && valid;
    cca::Run      place{};
    std::uint32_t rowPairs = 0;
    if (votes || grouping)
    {
      if (preceding.records != nullptr)
      {
        const RunRecord record = preceding.records[a];
        place = RecordPlace(record, geometry);
        rowPairs = record.rowPairs;
      }
      else
      {
        place = UnitPlace(runs, geometry, a);
        rowPairs = preceding.row != nullptr ? preceding.row[a] : 0;
      }
    }
    if (grouping)
    {
      // Its label before it read again, not kept in before: that cost the
      // whole components' votes 4 bytes of spills.
      GroupRunAt(groups, i, runs.count, key, i == 0 || skip.LabelAt(sortedLabel, i - 1) != key, place);
    }
    if (!__any_sync(FullWarp, votes))
    {
      continue; // components of one run each: written whole
    }
    // The component whose other fields come from the foreground's totals
    // (LargestBySubtraction.cuh): its runs vote their bounding box only.
    const bool boxOnly = valid && key == subtracted;
    if (boxOnly)
    {
      BoundingBoxOf(place, f);
    }
    else if (Whole && votes)
    {
      // Every lane's own features in one stretch of code, then the pairs
      // where the component has several runs (a component of one run has
      // none, and none were counted for it). A branch of its own for the
      // one-run components had most warps compute both, a tenth of the
      // votes' instructions (8192^2 4-conn. g = 1 d = 0.5, ncu source
      // counters: benchmark/results/h200-votes-sass).
      detail::RunContribution(place.x, place.y, place.z, place.length, faces, f);
      if (before || after)
      {
        AddRunPairVotes<Index, Votes>(runs, label, geometry, a, place, key, f, fullMask, pixels, preceding, rowPairs);
      }
    }
    else if (votes)
    {
      const bool any =
        RunVoteAt<Index, Votes>(runs, label, geometry, faces, a, place, key, f, fullMask, pixels, preceding, rowPairs);
      if constexpr (Votes::Pairs == PairVotes::Conditional)
      {
        votes = any; // only conditional votes can be empty
      }
    }
    else
    {
      detail::ClearFeatures(f);
    }
    bool leader = true;
    if constexpr (Votes::ConflictDetection)
    {
      leader = LaneId() == 0;
      if (__all_sync(FullWarp, boxOnly))
      {
        WarpBoundingBox(f);
      }
      else if (__all_sync(FullWarp, key == __shfl_sync(FullWarp, key, 0)))
      {
        WarpSumFeatures(f); // one component: every lane votes (one-run components never share a warp)
      }
      else if constexpr (Whole)
      {
        leader = WarpFoldOrderedRunVotes(key, f); // sortedLabel: component order
      }
      else
      {
        leader = WarpCombineByKey(key, f, [](Table & x, const Table & y) { detail::MergeFeatures(x, y); });
      }
    }
    if constexpr (Whole)
    {
      const std::int64_t left = static_cast<std::int64_t>(visited) - 1 - base;
      const int          lastLane = left < WarpSize - 1 ? static_cast<int>(left) : WarpSize - 1;
      const auto         chunk = ChunkComponents::Of(key, before, after, lastLane);
      const bool         complete = votes && chunk.Complete(static_cast<std::int64_t>(key));
      if (leader && complete)
      {
        detail::FinalizeIntercepts(f);
      }
      StoreCompleteComponents(chunk, leader && complete, static_cast<std::int64_t>(key), f, staging[warp], table);
      if (complete)
      {
        votes = false; // stored: nothing to merge
      }
    }
    if (leader && votes)
    {
      if (Slots && key == hotKey)
      {
        detail::MergeFeatures(warpHot[warp], f); // the warp's own record: no other lane writes it now
      }
      else
      {
        if constexpr (Counting)
        {
          counter.Add(static_cast<std::int64_t>(key));
        }
        if (Votes::ConflictDetection && key == hotKey)
        {
          AtomicMergeFeatures(hot, f, planar);
        }
        else
        {
          AtomicMergeFeatures(table[key], f, planar);
        }
      }
    }
    if constexpr (Slots)
    {
      __syncwarp(); // the slot's next writer may be another lane
    }
  }
  if constexpr (Votes::ConflictDetection)
  {
    __syncthreads();
    if (threadIdx.x == 0)
    {
      if constexpr (Slots)
      {
        for (int w = 0; w < static_cast<int>(blockDim.x) / WarpSize; ++w)
        {
          detail::MergeFeatures(hot, warpHot[w]);
        }
      }
      // Voted: a vote sets the maxima (bounding-box-only votes, of the
      // component whose sums come from the foreground's totals, add no pixels).
      if (hot.boundingBoxMax[0] >= 0)
      {
        if constexpr (Counting)
        {
          counter.Add(static_cast<std::int64_t>(hotKey));
        }
        AtomicMergeFeatures(table[hotKey], hot, planar);
      }
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
