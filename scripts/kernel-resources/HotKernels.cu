// The kernels whose registers decide their occupancy at g = 1 (the votes,
// the numbering), instantiated alone so that ptxas reports their
// registers, spills and shared memory in seconds instead of compiling
// CudaBackend.cu's 657 kernels (scripts/kernel-resources.sh). The template
// arguments are those the Default algorithm launches on a mask with 32-bit
// run indices: the votes in component order with whole components stored
// (VoteStores::WholeInChunks, many components) or merged, the numbering
// with one and with NumberingClimbs climbs a thread.
#include "Compaction.cuh"
#include "FeatureUpdate.cuh"

namespace cca
{
namespace cuda
{

using DefaultMaskVotes =
  VotePolicy<VoteFolding::ConflictDetection, SingleUnitComponents::WrittenWhole, UnitSpan::WholeRuns, PairVotes::All>;

#define CCA_VOTES_INSTANCE(Stores)                                                                               \
  template __global__ void                                                                                       \
  AccumulateFeaturesKernel<std::uint32_t, DefaultMaskVotes, UpdateCounting::Off, HotFolding::WarpSlots, Stores>( \
    RunArrays<std::uint32_t>,                                                                                    \
    const std::uint8_t *,                                                                                        \
    const std::uint32_t *,                                                                                       \
    Geometry,                                                                                                    \
    detail::ImageFaces,                                                                                          \
    ComponentFeatures *,                                                                                         \
    UpdateCounter,                                                                                               \
    bool,                                                                                                        \
    ForegroundRows,                                                                                              \
    const std::uint32_t *,                                                                                       \
    PrecedingPairs,                                                                                              \
    const std::uint32_t *,                                                                                       \
    RunGroups);
CCA_VOTES_INSTANCE(VoteStores::WholeInChunks)
CCA_VOTES_INSTANCE(VoteStores::Merged)
#undef CCA_VOTES_INSTANCE

template __global__ void
NumberComponentsKernel<std::uint32_t, 1>(std::uint32_t,
                                         RootRanks<std::uint32_t>,
                                         const std::uint32_t *,
                                         std::uint32_t *,
                                         std::uint32_t *,
                                         std::uint32_t *);
template __global__ void
NumberComponentsKernel<std::uint32_t, NumberingClimbs>(std::uint32_t,
                                                       RootRanks<std::uint32_t>,
                                                       const std::uint32_t *,
                                                       std::uint32_t *,
                                                       std::uint32_t *,
                                                       std::uint32_t *);

} // namespace cuda
} // namespace cca
