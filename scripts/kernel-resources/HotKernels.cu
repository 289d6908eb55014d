// The kernels whose registers decide their occupancy at g = 1 (the votes,
// the numbering, the union-find), instantiated alone so that ptxas
// reports their registers, spills and shared memory in seconds instead
// of compiling the backend's hundreds of kernels (scripts/kernel-resources.sh).
// The template arguments are those the Default algorithm launches on a mask with 32-bit
// run indices: the votes in component order with whole components stored
// (VoteStores::WholeInChunks, many components) or merged, into a table of
// narrow entries (NarrowFeatures, where components are many; PlanarFeatures
// in 2D images) or of ComponentFeatures, the numbering with one and with NumberingClimbs climbs
// a thread, and with NumberingClimbs counting the largest component
// (LargestComponent.cuh), the stored pairs' count under face and full
// connectivity in planes and volumes (PrecedingPairs.cuh), and the
// union-find over runs (UnionFind.cuh) a row at a time and with the rows
// together, counting pairs under full connectivity, and a volume's row
// blocks in shared memory (RowBlocksInShared.cuh), with 32-bit rows
// (SmallImage) and 64-bit ones, and the foreground's totals
// (LargestBySubtraction.cuh).
#include "Compaction.cuh"
#include "FeatureUpdate.cuh"
#include "LargestBySubtraction.cuh"
#include "PrecedingPairs.cuh"
#include "QueuedMerges.cuh"
#include "RowBlocksInShared.cuh"
#include "UnionFind.cuh"

namespace cca
{
namespace cuda
{

using DefaultMaskVotes =
  VotePolicy<VoteFolding::ConflictDetection, SingleUnitComponents::WrittenWhole, UnitSpan::WholeRuns, PairVotes::All>;

// Taking a kernel's address instantiates it, without repeating its
// parameter list here.
const void * const HotKernels[] = {
  reinterpret_cast<const void *>(&AccumulateFeaturesKernel<std::uint32_t,
                                                           DefaultMaskVotes,
                                                           UpdateCounting::Off,
                                                           HotFolding::WarpSlots,
                                                           VoteStores::WholeInChunks,
                                                           NarrowFeatures>),
  reinterpret_cast<const void *>(&AccumulateFeaturesKernel<std::uint32_t,
                                                           DefaultMaskVotes,
                                                           UpdateCounting::Off,
                                                           HotFolding::WarpSlots,
                                                           VoteStores::Merged,
                                                           NarrowFeatures>),
  reinterpret_cast<const void *>(&AccumulateFeaturesKernel<std::uint32_t,
                                                           DefaultMaskVotes,
                                                           UpdateCounting::Off,
                                                           HotFolding::WarpSlots,
                                                           VoteStores::WholeInChunks,
                                                           PlanarFeatures>),
  reinterpret_cast<const void *>(&AccumulateFeaturesKernel<std::uint32_t,
                                                           DefaultMaskVotes,
                                                           UpdateCounting::Off,
                                                           HotFolding::WarpSlots,
                                                           VoteStores::Merged,
                                                           PlanarFeatures>),
  reinterpret_cast<const void *>(&AccumulateFeaturesKernel<std::uint32_t,
                                                           DefaultMaskVotes,
                                                           UpdateCounting::Off,
                                                           HotFolding::WarpSlots,
                                                           VoteStores::WholeInChunks>),
  reinterpret_cast<const void *>(&AccumulateFeaturesKernel<std::uint32_t,
                                                           DefaultMaskVotes,
                                                           UpdateCounting::Off,
                                                           HotFolding::WarpSlots,
                                                           VoteStores::Merged>),
  reinterpret_cast<const void *>(&AccumulateFeaturesKernel<std::uint32_t,
                                                           DefaultMaskVotes,
                                                           UpdateCounting::Off,
                                                           HotFolding::WarpSlots,
                                                           VoteStores::Merged,
                                                           NarrowFeatures,
                                                           true>),
  reinterpret_cast<const void *>(&NumberComponentsKernel<std::uint32_t, 1>),
  reinterpret_cast<const void *>(&NumberComponentsKernel<std::uint32_t, NumberingClimbs>),
  reinterpret_cast<const void *>(&NumberComponentsKernel<std::uint32_t, NumberingClimbs, true>),
  reinterpret_cast<const void *>(&CountPrecedingPairsKernel<std::uint32_t, false, false, false, false, true>),
  reinterpret_cast<const void *>(&CountPrecedingPairsKernel<std::uint32_t, false, false, false, true, true>),
  reinterpret_cast<const void *>(&CountPrecedingPairsKernel<std::uint32_t, false, false, true, true, true>),
  reinterpret_cast<const void *>(&CountPrecedingPairsKernel<std::uint32_t, false, true, false, false, true>),
  reinterpret_cast<const void *>(&CountPrecedingPairsKernel<std::uint32_t, false, true, false, true, true>),
  reinterpret_cast<const void *>(&CountPrecedingPairsKernel<std::uint32_t, false, false, true, true, true, true>),
  reinterpret_cast<const void *>(&CountPrecedingPairsKernel<std::uint32_t, false, true, false, true, true, true>),
  reinterpret_cast<const void *>(
    &LinkRunsKernel<std::uint32_t, PlainUnion, UnitSpan::WholeRuns, AnyTouchingRuns, false, true>),
  reinterpret_cast<const void *>(
    &LinkRunsKernel<std::uint32_t, PlainUnion, UnitSpan::WholeRuns, AnyTouchingRuns, false, false>),
  reinterpret_cast<const void *>(
    &LinkRunsKernel<std::uint32_t, PlainUnion, UnitSpan::WholeRuns, AnyTouchingRuns, true, true>),
  reinterpret_cast<const void *>(
    &LinkRunsKernel<std::uint32_t, PlainUnion, UnitSpan::WholeRuns, AnyTouchingRuns, true, false>),
  reinterpret_cast<const void *>(&LinkRunsQueuedKernel<std::uint32_t, true>),
  reinterpret_cast<const void *>(&LinkRunsQueuedKernel<std::uint32_t, false>),
  reinterpret_cast<const void *>(&LinkRowBlocksInSharedKernel<std::uint32_t, true, true>),
  reinterpret_cast<const void *>(&LinkRowBlocksInSharedKernel<std::uint32_t, false, true>),
  reinterpret_cast<const void *>(&LinkRowBlocksInSharedKernel<std::uint32_t, true, false>),
  reinterpret_cast<const void *>(&LinkRunsCountingPairsKernel<std::uint32_t, true, true>),
  reinterpret_cast<const void *>(&LinkRunsCountingPairsKernel<std::uint32_t, true, false>),
  reinterpret_cast<const void *>(&ForegroundTotalsKernel),
};

} // namespace cuda
} // namespace cca
