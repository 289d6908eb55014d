// The algorithm family of seed 000 (naive, HA, HA+CD, HA+OTF, FLSL,
// FLSL+OTF, FLSL+CD) as compositions of the building blocks beside this file:
// a strategy names a labeling unit (how RunDetection.cuh cuts rows) and a
// feature-merge policy (how FeatureUpdate.cuh votes, or the on-the-fly merge
// of OnTheFlyMerge.cuh). CudaBackend.cu runs any strategy with one host
// routine; every strategy gives the same table as the default (FLSL+CD).
//
// Against the papers: every strategy handles 2D and 3D images and both
// connectivities. HA (2D, 4-connectivity, strips of rows with border
// merging in the paper) keeps its defining trait, sub-runs cut at 32-pixel
// warp-block borders, and joins them through the common union-find, across
// block borders and rows alike. The on-the-fly merge moves a whole feature
// record field by field (atomicExch, then the matching atomic); the pair
// counts of units that only touch diagonally under Face connectivity are not
// known to lie in one component before labeling, so they are voted after it
// (plain atomics). Naive votes every foreground pixel, isolated ones too.
// Units smaller than runs share the default's back end: runs are detected
// as well, each takes its first unit's component, and the numbering, run
// grouping and label image are the default's.
//
// Instrumentation (Options::countAtomicUpdates): an update is one atomic
// merge of a feature record into an entry (a vote that reaches global or
// shared memory, the final merge of a block's shared entry, an on-the-fly
// move); writes of whole entries (PrepareTableKernel) are not updates.
#ifndef cca_cuda_Strategies_cuh
#define cca_cuda_Strategies_cuh

#include "DistancelessLabelPropagation.cuh"
#include "FeatureUpdate.cuh"
#include "LabelEquivalence.cuh"
#include "RunDetection.cuh"
#include "TileMerging.cuh"

#include <cstdint>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** How the features reach the table. */
enum class FeatureMerge
{
  Plain,             ///< every unit votes its record with plain atomics
  ConflictDetection, ///< the production vote: warp conflict detection, block fold, one-unit components written whole
  OnTheFly           ///< features move along the unions (seed 000 Alg. 2)
};

/** The labeling of seed 000's family: lock-free union-find over the units
 *  (LinkRunsKernel). The others label a pixel grid (PixelLabeling.cuh). */
struct UnitUnionFind
{
};

/** Units: FullRuns (FLSL), BlockRuns (HA: sub-runs of 32-pixel warp blocks,
 *  joined across block borders) or PixelRuns (naive: one unit per pixel).
 *  Labeling: UnitUnionFind, or a pixel labeling (its units are pixels).
 *  With a pixel labeling, FeatureMerge::OnTheFly is seed 004's Early
 *  computation (records merged by the labeling) and Plain its Late one
 *  (votes after the sequential relabeling). */
template <class UnitsT, FeatureMerge MergeV, class LabelingT = UnitUnionFind>
struct Strategy
{
  using Units = UnitsT;
  using Labeling = LabelingT;
  static constexpr bool LabelsPixels = !std::is_same<LabelingT, UnitUnionFind>::value;
  static_assert(!LabelsPixels || std::is_same<UnitsT, PixelRuns>::value, "pixel labelings work on pixel units");
  static constexpr FeatureMerge Merge = MergeV;
  /** Units are pieces of runs: joined within their row, and the run
   *  grouping and label image need the full runs detected separately. */
  static constexpr bool SplitUnits = UnitsT::PiecesOfRuns;
  using Votes = VotePolicy<MergeV == FeatureMerge::ConflictDetection ? VoteFolding::ConflictDetection
                                                                     : VoteFolding::None,
                           MergeV == FeatureMerge::ConflictDetection ? SingleUnitComponents::WrittenWhole
                                                                     : SingleUnitComponents::Voted,
                           UnitsT, PairVotes::All>;
};

using NaiveStrategy = Strategy<PixelRuns, FeatureMerge::Plain>;
using HaStrategy = Strategy<BlockRuns, FeatureMerge::Plain>;
using HaCdStrategy = Strategy<BlockRuns, FeatureMerge::ConflictDetection>;
using HaOtfStrategy = Strategy<BlockRuns, FeatureMerge::OnTheFly>;
using FlslStrategy = Strategy<FullRuns, FeatureMerge::Plain>;
using FlslOtfStrategy = Strategy<FullRuns, FeatureMerge::OnTheFly>;
using FlslCdStrategy = Strategy<FullRuns, FeatureMerge::ConflictDetection>; // Algorithm::Default
static_assert(std::is_same<FlslCdStrategy::Votes, DefaultVotes>::value, "the default path votes as before");
using DlpStrategy = Strategy<PixelRuns, FeatureMerge::ConflictDetection, DistancelessLabelPropagation>;
using LeEarlyStrategy = Strategy<PixelRuns, FeatureMerge::OnTheFly, LabelEquivalence>;
using LeLateStrategy = Strategy<PixelRuns, FeatureMerge::Plain, LabelEquivalence>;
using TmEarlyStrategy = Strategy<PixelRuns, FeatureMerge::OnTheFly, TileMerging>;
using TmLateStrategy = Strategy<PixelRuns, FeatureMerge::Plain, TileMerging>;

/** Instrumentation: totals[0] += sum of counts, totals[1] += sum of squares. */
__global__ void
UpdateTotalsKernel(std::int64_t n, const unsigned long long * __restrict__ counts, unsigned long long * totals)
{
  unsigned long long sum = 0;
  unsigned long long squares = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
  {
    const unsigned long long u = counts[i];
    sum += u;
    squares += u * u;
  }
  if (sum != 0)
  {
    atomicAdd(totals, sum);
    atomicAdd(totals + 1, squares);
  }
}

} // namespace cuda
} // namespace cca

#endif
