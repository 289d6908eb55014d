// The CUDA backend's strategies, one per cca::Algorithm, as compositions of
// the building blocks beside this file, and the table that pairs each
// algorithm with its strategy. A strategy names a labeling unit (how
// RunDetection.cuh cuts rows), a labeling (the lock-free union-find over
// units, or a pixel labeling) and a feature merge (how FeatureUpdate.cuh
// votes, or the on-the-fly merge of OnTheFlyMerge.cuh). The host sequence
// (HostSequence.cuh) runs any of them; every strategy gives the same table
// as the default (FLSL+CD).
//
// Units joined by union-find are the family of Lemaitre 2021 (naive, HA,
// HA+CD, HA+OTF, FLSL, FLSL+OTF, FLSL+CD); against the paper, every strategy
// handles 2D and 3D images and both connectivities. HA (Hennequin 2018: 2D,
// 4-connectivity, strips of rows with border merging) keeps its defining
// trait, sub-runs cut at 32-pixel warp-block borders, and joins them through
// the common union-find, across block borders and rows alike. The
// on-the-fly merge moves a whole feature record field by field (atomicExch,
// then the matching atomic); the pair counts of units that only touch
// diagonally under Face connectivity are not known to lie in one component
// before labeling, so they are voted after it (plain atomics). Naive votes
// every foreground pixel, isolated ones too. Units smaller than runs share
// the default's back end: runs are detected as well, each takes its first
// unit's component, and the numbering, run grouping and label image are the
// default's. The pixel labelings (Cabaret 2017's DLP-GPU, Asad 2019's Label
// Equivalence and Tile Merging) label pixel units on a grid
// (PixelLabeling.cuh).
#ifndef cca_cuda_Strategies_cuh
#define cca_cuda_Strategies_cuh

#include "DistancelessLabelPropagation.cuh"
#include "FeatureUpdate.cuh"
#include "LabelEquivalence.cuh"
#include "RunDetection.cuh"
#include "TileMerging.cuh"

#include "cca/Types.h"

#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cca
{
namespace cuda
{

/** How the features reach the table. */
enum class FeatureMerge
{
  Plain,             ///< every unit votes its record with plain atomics
  ConflictDetection, ///< the production vote: warp conflict detection, block fold, one-unit components written whole
  OnTheFly           ///< features move along the unions (Lemaitre 2021 Alg. 2)
};

/** The labeling of Lemaitre 2021's family: lock-free union-find over the units
 *  (LinkRunsKernel). The others label a pixel grid (PixelLabeling.cuh). */
struct UnitUnionFind
{};

/** Units: FullRuns (FLSL), BlockRuns (HA: sub-runs of 32-pixel warp blocks,
 *  joined across block borders) or PixelRuns (naive: one unit per pixel).
 *  Labeling: UnitUnionFind, or a pixel labeling (its units are pixels).
 *  With a pixel labeling, FeatureMerge::OnTheFly is Asad 2019's Early
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
  static constexpr bool SplitUnits = UnitsT::Span == UnitSpan::RunPieces;
  using Votes =
    VotePolicy<MergeV == FeatureMerge::ConflictDetection ? VoteFolding::ConflictDetection : VoteFolding::None,
               MergeV == FeatureMerge::ConflictDetection ? SingleUnitComponents::WrittenWhole
                                                         : SingleUnitComponents::Voted,
               UnitsT::Span,
               PairVotes::All>;
};

/** One row of the strategy table: an algorithm and the strategy that runs it. */
template <Algorithm AlgorithmV, class StrategyT>
struct StrategyEntry
{
  static constexpr Algorithm algorithm = AlgorithmV;
  using Strategy = StrategyT;
};

/** Every cca::Algorithm and its strategy. Adding a strategy: one row here,
 *  the enum value and its name (cca/Types.h, src/Engine.cpp) and the ITK
 *  enum's mirror value; the host sequence, the CUDA backend and the
 *  emulation tests take it from here. */
using StrategyTable = std::tuple<
  StrategyEntry<Algorithm::Naive, Strategy<PixelRuns, FeatureMerge::Plain>>,
  StrategyEntry<Algorithm::HA, Strategy<BlockRuns, FeatureMerge::Plain>>,
  StrategyEntry<Algorithm::HA_CD, Strategy<BlockRuns, FeatureMerge::ConflictDetection>>,
  StrategyEntry<Algorithm::HA_OTF, Strategy<BlockRuns, FeatureMerge::OnTheFly>>,
  StrategyEntry<Algorithm::FLSL, Strategy<FullRuns, FeatureMerge::Plain>>,
  StrategyEntry<Algorithm::FLSL_OTF, Strategy<FullRuns, FeatureMerge::OnTheFly>>,
  StrategyEntry<Algorithm::FLSL_CD, Strategy<FullRuns, FeatureMerge::ConflictDetection>>,
  StrategyEntry<Algorithm::DLP, Strategy<PixelRuns, FeatureMerge::ConflictDetection, DistancelessLabelPropagation>>,
  StrategyEntry<Algorithm::LE_Early, Strategy<PixelRuns, FeatureMerge::OnTheFly, LabelEquivalence>>,
  StrategyEntry<Algorithm::LE_Late, Strategy<PixelRuns, FeatureMerge::Plain, LabelEquivalence>>,
  StrategyEntry<Algorithm::TM_Early, Strategy<PixelRuns, FeatureMerge::OnTheFly, TileMerging>>,
  StrategyEntry<Algorithm::TM_Late, Strategy<PixelRuns, FeatureMerge::Plain, TileMerging>>>;

/** What Algorithm::Default runs: the fastest, with two changes of its own
 *  that FLSL_CD as reproduced does not take: its warps fold the votes for a
 *  block's hot component without shared-memory atomics
 *  (HotFolding::WarpSlots, FeatureUpdate.cuh), and under full connectivity
 *  on a mask its union-find counts the perimeter's pixel pairs for the
 *  votes (PrecedingPairs.cuh, LabelStage::CountsPrecedingPairs). */
constexpr Algorithm FastestAlgorithm = Algorithm::FLSL_CD;

/** Rows of the table for algorithm. */
template <class... Entries>
constexpr int
RowsFor(Algorithm algorithm, std::tuple<Entries...> *)
{
  return ((Entries::algorithm == algorithm ? 1 : 0) + ... + 0);
}

/** Every algorithm but Default has one row. */
constexpr bool
TableCoversEveryAlgorithm()
{
  for (const Algorithm a : AllAlgorithms)
  {
    if (RowsFor(a, static_cast<StrategyTable *>(nullptr)) != (a == Algorithm::Default ? 0 : 1))
    {
      return false;
    }
  }
  return true;
}
static_assert(TableCoversEveryAlgorithm(), "every cca::Algorithm but Default needs exactly one row in StrategyTable");

/** The table's row of an algorithm. */
template <Algorithm AlgorithmV, class Table>
struct RowOf;
template <Algorithm AlgorithmV, class First, class... Rest>
struct RowOf<AlgorithmV, std::tuple<First, Rest...>>
  : std::conditional_t<First::algorithm == AlgorithmV, First, RowOf<AlgorithmV, std::tuple<Rest...>>>
{};

/** The strategy of an algorithm (Default: FastestAlgorithm). */
template <Algorithm AlgorithmV>
using StrategyOf =
  typename RowOf<AlgorithmV == Algorithm::Default ? FastestAlgorithm : AlgorithmV, StrategyTable>::Strategy;
static_assert(std::is_same<StrategyOf<Algorithm::Default>::Votes, DefaultVotes>::value,
              "the fastest strategy votes with the default policy");

/** Calls f(entry) with the StrategyEntry of algorithm (Default: FastestAlgorithm). */
template <class F>
void
WithStrategy(Algorithm algorithm, F && f)
{
  const Algorithm resolved = algorithm == Algorithm::Default ? FastestAlgorithm : algorithm;
  const bool      found = std::apply(
    [&](auto... entry) { return ((decltype(entry)::algorithm == resolved ? (f(entry), true) : false) || ...); },
    StrategyTable{});
  if (!found)
  {
    throw Error(Error::Kind::InvalidInput, "unknown algorithm");
  }
}

} // namespace cuda
} // namespace cca

#endif
