// When the CUDA backend labels by blocks of pixels (BlockLabeling.cuh) or
// by the runs of strips of two rows (StripLabeling.cuh) instead of runs. Plain C++: the test hooks
// (CudaBackendTesting.h) and the benchmarks name it too.
#ifndef cca_cuda_BlockLabelingUse_h
#define cca_cuda_BlockLabelingUse_h

namespace cca
{
namespace cuda
{

/** Where the block labeling fits (labels only, full connectivity, the
 *  default algorithm; BlockLabelingStage::Fits), whether it is taken. */
enum class BlockLabelingUse
{
  Automatic, ///< when the runs are short (HostSequence.cuh)
  Always,
  Never
};

/** Where the strip labeling fits (labels only of a byte plane under full
 *  connectivity; StripLabelingStage::Fits), whether it is taken. */
enum class StripLabelingUse
{
  Automatic, ///< when the runs are short and the plane dense enough (HostSequence.cuh)
  Always,
  Never
};

} // namespace cuda
} // namespace cca

#endif
