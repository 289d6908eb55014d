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
#include "ForegroundPairs.cuh"
#include "PlacedLargest.cuh"
#include "PrecedingPairs.cuh"
#include "RunGroups.cuh"
#include "RunDetection.cuh"
#include "RunNeighbours.cuh"
#include "RunFeatures.h"
#include "WholeComponents.cuh"

#include "cca/Types.h"

#include <cstdint>
#include <cstring>
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

/** Which neighbour pairs a vote counts. All: every pair with a run of the
 *  same component (labels known). Certain: the pairs known to lie in one
 *  component before any labeling (the on-the-fly merge has no labels yet):
 *  with Full connectivity every pair, with Face connectivity the pairs of
 *  units in face-adjacent rows that share a column (they are connected).
 *  Conditional: the others, for a vote after labeling (labels checked). */
enum class PairVotes
{
  All,
  Certain,
  Conditional
};

/** How the votes of a warp reach the table. None: every voting lane merges
 *  its record with plain atomics. ConflictDetection: a warp folds its votes
 *  per component with __match_any_sync and masked reductions, and a block
 *  folds the votes for its first unit's component in shared memory. */
enum class VoteFolding
{
  None,
  ConflictDetection
};

/** Components of a single unit: Voted like the others, or WrittenWhole by
 *  PrepareTableKernel (they cast no vote). */
enum class SingleUnitComponents
{
  Voted,
  WrittenWhole
};

/** How a feature phase votes (strategy policy; default: FLSL+CD). With
 *  units that are pieces of runs (UnitSpan::RunPieces: pixels, HA sub-runs),
 *  a unit that continues the previous unit of its row adds the x pair
 *  across their border. */
template <VoteFolding FoldingV, SingleUnitComponents SinglesV, UnitSpan SpanV, PairVotes PairsV>
struct VotePolicy
{
  static constexpr bool                 ConflictDetection = FoldingV == VoteFolding::ConflictDetection;
  static constexpr SingleUnitComponents Singles = SinglesV;
  static constexpr bool                 WholeSingleUnits = SinglesV == SingleUnitComponents::WrittenWhole;
  static constexpr bool                 SplitUnits = SpanV == UnitSpan::RunPieces;
  static constexpr PairVotes            Pairs = PairsV;
  static_assert(!(ConflictDetection && PairsV == PairVotes::Conditional),
                "conflict detection folds into the lowest lane of a key: every lane of it must vote");
};
using DefaultVotes =
  VotePolicy<VoteFolding::ConflictDetection, SingleUnitComponents::WrittenWhole, UnitSpan::WholeRuns, PairVotes::All>;

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

/** Adds run a's pairs with the runs of its component in its preceding
 *  rows (row (y, z), pixels [x, x + length)): the stored counts
 *  (PrecedingPairs.cuh), or where a group's counts did not fit, from a
 *  search of that group's rows. fullMask: every touching run lies in a's
 *  component; else those whose label is key. */
template <class Index, class Count, int Slots>
__device__ __forceinline__ void
AddPrecedingPairs(const RunArrays<Index> & runs,
                  const Index *            label,
                  Index                    key,
                  bool                     fullMask,
                  const Geometry &         geometry,
                  const PrecedingPairs &   preceding,
                  std::uint32_t            rowPairs,
                  Index                    a,
                  std::int64_t             y,
                  std::int64_t             z,
                  std::int32_t             x,
                  std::int32_t             length,
                  Count (&pairCounts)[Slots])
{
  constexpr bool planarRecord = Slots < NumberOfInterceptSlots; // 2D images only
  const bool     rowCounted = AddRowPairs(rowPairs, pairCounts);
  bool           sliceCounted = true;
  if constexpr (!planarRecord)
  {
    sliceCounted = geometry.depth <= 1 || AddSlicePairs(preceding.slice[a], pairCounts);
  }
  if (rowCounted && sliceCounted)
  {
    return;
  }
  PairTally rowTally;   // the previous row of the slice
  PairTally sliceTally; // the previous slice's rows
  SearchPrecedingPairs(
    runs,
    geometry,
    y,
    z,
    x,
    x + length,
    !rowCounted,
    !sliceCounted,
    [&](Index b) { return fullMask || label[b] == key; },
    rowTally,
    sliceTally);
  // Constant slots: the record stays in registers.
  pairCounts[InterceptSlot(false, true, false)] += rowTally.same;
  pairCounts[InterceptSlot(true, true, false)] += rowTally.beside;
  if constexpr (!planarRecord)
  {
    pairCounts[InterceptSlot(false, false, true)] += sliceTally.same;
    pairCounts[InterceptSlot(true, false, true)] += sliceTally.beside;
    pairCounts[InterceptSlot(false, true, true)] += sliceTally.diagonal;
    pairCounts[InterceptSlot(true, true, true)] += sliceTally.diagonalBeside;
  }
}

/** The pair votes of unit a at place (UnitPlace), its vote key key (any
 *  for PairVotes::Certain): the neighbour pairs it forms with units of the
 *  same component in the following neighbour rows (pair counts add up over
 *  any partition of a run into units), added to f's intercept counts.
 *  label may be null for PairVotes::Certain. fullMask (Frame::fullMask):
 *  full connectivity on a mask's components, where every unit the
 *  neighbour search finds shares a's component (Certain and Conditional
 *  votes, on masks only, take it as the connectivity). pixels: with
 *  fullMask, the byte mask whose foreground gives PairVotes::All's pairs of
 *  units up to LongestRunCountedByPixels long (ForegroundPairs.cuh) instead
 *  of the neighbour rows' units. preceding: with PairVotes::All, the pairs
 *  with the preceding rows that the union-find counted (full connectivity)
 *  or CountPrecedingPairsKernel after it (face connectivity;
 *  PrecedingPairs.cuh), which replace the search of the following rows;
 *  null: not counted. Returns whether the search of the following rows
 *  counted a pair (what makes a PairVotes::Conditional vote not empty). */
template <class Index, class Votes = DefaultVotes, class Features>
__device__ __forceinline__ bool
AddRunPairVotes(const RunArrays<Index> & runs,
                const Index *            label,
                const Geometry &         geometry,
                Index                    a,
                const cca::Run &         place,
                Index                    key,
                Features &               f,
                bool                     fullMask,
                ForegroundRows           pixels,
                PrecedingPairs           preceding,
                std::uint32_t            rowPairs)
{
  const std::int64_t y = place.y;
  const std::int64_t z = place.z;
  const std::int32_t x = place.x;
  const std::int32_t length = place.length;
  bool               any = false;
  if (Votes::Pairs == PairVotes::All && preceding.Stored())
  {
    AddPrecedingPairs(runs, label, key, fullMask, geometry, preceding, rowPairs, a, y, z, x, length, f.interceptCounts);
    return any;
  }
  const bool countsPixels =
    Votes::Pairs == PairVotes::All && fullMask && pixels.image != nullptr && length <= LongestRunCountedByPixels;
  if (countsPixels)
  {
    AddFollowingRowsPairs(pixels, geometry, y, z, x, length, f.interceptCounts);
    return any;
  }
  RowStep steps[4];
  FollowingRows(steps);
  const auto visit = [&](int s, Index b) {
    bool counts;
    if constexpr (Votes::Pairs == PairVotes::All)
    {
      // Units that touch under full connectivity lie in one component
      // of a mask: no label loads (H100, full table, summed: 8- and
      // 26-conn. g = 1 and 4 +1-3 %; the same shortcut for face pairs
      // that share a column cost face connectivity about 1 %).
      counts = fullMask || label[b] == key;
    }
    else
    {
      const bool faceRow = (steps[s].dy != 0) != (steps[s].dz != 0);
      const bool certain = fullMask || (faceRow && detail::Overlap(x, x + length - 1, runs.x[b], runs.end[b] - 1) > 0);
      counts = Votes::Pairs == PairVotes::Certain ? certain : !certain && label[b] == key;
    }
    if (counts)
    {
      detail::AddAdjacentPairs(
        x, length, runs.x[b], runs.end[b] - runs.x[b], steps[s].dy != 0, steps[s].dz != 0, f.interceptCounts);
      any = true;
    }
  };
  // Pairs count pixels one column apart too: the ranges are widened by one.
  const std::int32_t lo = x - 1;
  const std::int32_t hi = x + length + 1;
  constexpr bool     planarRecord = detail::SlotsOf<Features> < NumberOfInterceptSlots; // 2D images only
  if (!planarRecord && geometry.depth > 1)
  {
    // A volume's four rows are searched together: one after another, their
    // binary searches' dependent loads were the votes' longest wait (H200,
    // full table, summed, same call: 6-conn. g = 1 / 4 +3 / +2.5 %,
    // 26-conn. g = 4 +5 %, measured when the default algorithm searched
    // here; it now adds stored pairs, and the search serves the papers'
    // strategies and the objects of label images).
    std::int64_t q[4];
#pragma unroll
    for (int s = 0; s < 4; ++s)
    {
      q[s] = NeighbourRow(geometry, y, z, steps[s]);
    }
    ForEachRunInRanges(runs, q, lo, hi, visit);
  }
  else
  {
    const std::int64_t q = NeighbourRow(geometry, y, z, steps[0]);
    if (q >= 0)
    {
      ForEachRunInRange(runs, q, lo, hi, [&](Index b) { visit(0, b); });
    }
  }
  return any;
}

/** The vote of unit a at place (UnitPlace), its vote key key: its own
 *  features (RunContribution) plus its pair votes (AddRunPairVotes, whose
 *  arguments these are). Returns false when the vote is empty (only
 *  possible for PairVotes::Conditional). */
template <class Index, class Votes = DefaultVotes, class Features>
__device__ __forceinline__ bool
RunVoteAt(const RunArrays<Index> &   runs,
          const Index *              label,
          const Geometry &           geometry,
          const detail::ImageFaces & faces,
          Index                      a,
          const cca::Run &           place,
          Index                      key,
          Features &                 f,
          bool                       fullMask,
          ForegroundRows             pixels,
          PrecedingPairs             preceding,
          std::uint32_t              rowPairs)
{
  bool any = true;
  if constexpr (Votes::Pairs == PairVotes::Conditional)
  {
    detail::ClearFeatures(f);
    any = false;
  }
  else
  {
    detail::RunContribution(place.x, place.y, place.z, place.length, faces, f);
    if constexpr (Votes::SplitUnits)
    {
      const std::int64_t row = place.y + static_cast<std::int64_t>(place.z) * geometry.height;
      if (a > runs.rowOffsets[row] && runs.end[a - 1] == place.x)
      {
        f.interceptCounts[InterceptSlot(true, false, false)] += 1; // the pair (x - 1, x) inside the run
      }
    }
  }
  const bool paired =
    AddRunPairVotes<Index, Votes>(runs, label, geometry, a, place, key, f, fullMask, pixels, preceding, rowPairs);
  return any || paired;
}

/** RunVoteAt with unit a's place and key read from runs and label, for
 *  the strategies that store no pairs and count none from pixels (the
 *  on-the-fly merges, the tree merge). */
template <class Index, class Votes = DefaultVotes>
__device__ __forceinline__ bool
RunVote(const RunArrays<Index> &   runs,
        const Index *              label,
        const Geometry &           geometry,
        const detail::ImageFaces & faces,
        Index                      a,
        ComponentFeatures &        f,
        bool                       fullMask)
{
  const Index key = Votes::Pairs == PairVotes::Certain ? Index{ 0 } : label[a];
  return RunVoteAt<Index, Votes>(runs,
                                 label,
                                 geometry,
                                 faces,
                                 a,
                                 UnitPlace(runs, geometry, a),
                                 key,
                                 f,
                                 fullMask,
                                 ForegroundRows{},
                                 PrecedingPairs{},
                                 0);
}

constexpr int PrepareThreads = 128;

/** Writes every table entry once: a component of one run gets its finished
 *  features (unless Singles is Voted: then it votes like any other);
 *  others get cleared entries, seeded with the minima their root
 *  (first run) determines, for the votes to accumulate into. One thread per
 *  component builds its entry in shared memory; the block then stores its
 *  consecutive entries as one contiguous stretch (216- or 160-byte entries written
 *  lane by lane would touch 32 sectors per store). Launch with PrepareThreads. */
template <class Index, SingleUnitComponents Singles = SingleUnitComponents::WrittenWhole, class Table>
__global__ void
__launch_bounds__(PrepareThreads) PrepareTableKernel(RunArrays<Index> runs,
                                                     Index            componentCount,
                                                     const Index * __restrict__ rootOf,
                                                     const std::uint8_t * __restrict__ linked,
                                                     Geometry           geometry,
                                                     detail::ImageFaces faces,
                                                     Table *            table)
{
  AwaitPrecedingKernel();
  constexpr bool WholeSingleUnits = Singles == SingleUnitComponents::WrittenWhole;
  static_assert(sizeof(Table) % 8 == 0, "entries are copied as 64-bit words");
  constexpr int Words = sizeof(Table) / 8;
  __shared__ std::uint64_t staged[PrepareThreads * Words];
  const bool               planar = geometry.depth == 1;
  const std::int64_t       total = static_cast<std::int64_t>(componentCount);
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * PrepareThreads; base < total;
       base += static_cast<std::int64_t>(gridDim.x) * PrepareThreads)
  {
    const std::int64_t c = base + threadIdx.x;
    if (c < total)
    {
      const Index        root = rootOf[c];
      const std::int64_t r = runs.row[root];
      const auto         y = static_cast<std::int32_t>(r % geometry.height);
      const auto         z = static_cast<std::int32_t>(r / geometry.height);
      Table              f;
      if (!WholeSingleUnits || linked[root])
      {
        SeedEntry(y, z, planar, f);
      }
      else
      {
        detail::RunContribution(runs.x[root], y, z, runs.end[root] - runs.x[root], faces, f);
        detail::FinalizeIntercepts(f);
      }
      std::memcpy(staged + threadIdx.x * Words, &f, sizeof(f));
    }
    __syncthreads();
    const std::int64_t n = total - base < PrepareThreads ? total - base : PrepareThreads;
    auto *             out = reinterpret_cast<std::uint64_t *>(table + base);
    for (std::int64_t w = threadIdx.x; w < n * Words; w += PrepareThreads)
    {
      out[w] = staged[w];
    }
    __syncthreads();
  }
}

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
 *  benchmark/results/h200-planar-entries call 2). */
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

/** Turns the raw pair counts of components of several runs into ITK's
 *  intercept counts (one-run components were written finished, unless
 *  Singles is Voted: then every entry holds raw counts). */
template <class Index, SingleUnitComponents Singles = SingleUnitComponents::WrittenWhole, class Table>
__global__ void
FinalizeTableKernel(Index componentCount,
                    const Index * __restrict__ rootOf,
                    const std::uint8_t * __restrict__ linked,
                    Table * table)
{
  AwaitPrecedingKernel();
  constexpr bool WholeSingleUnits = Singles == SingleUnitComponents::WrittenWhole;
  const Index    stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c < componentCount; c += stride)
  {
    if (!WholeSingleUnits || linked[rootOf[c]])
    {
      detail::FinalizeIntercepts(table[c]);
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
