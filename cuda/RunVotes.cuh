// What one run (unit) votes for its component: its own features
// (RunFeatures.h, the formulas the CPU backend uses) plus its neighbour
// pairs, the intercept counts of ITK's perimeter: the stored counts with
// its preceding rows (PrecedingPairs.cuh), pairs counted from the mask's
// pixels (ForegroundPairs.cuh), or a search of the following rows' runs.
// The vote policies (VotePolicy) say which pairs count and how a warp's
// votes reach the table; the votes kernel is FeatureUpdate.cuh's.
#ifndef cca_cuda_RunVotes_cuh
#define cca_cuda_RunVotes_cuh

#include "DeviceGeometry.cuh"
#include "ForegroundPairs.cuh"
#include "PrecedingPairs.cuh"
#include "RunDetection.cuh"
#include "RunNeighbours.cuh"
#include "RunRecord.cuh"
#include "RunFeatures.h"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

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

} // namespace cuda
} // namespace cca

#endif
