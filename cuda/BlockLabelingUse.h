// When the CUDA backend labels by blocks of pixels (BlockLabeling.cuh) or
// by the runs of strips of two rows (StripLabeling.cuh) instead of runs,
// and when it joins runs from the rows' foreground bits. Plain C++: the test hooks
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

/** Where the union-find may join the runs of a byte mask from the rows'
 *  foreground bits (LinkByteRowsKernel; LabelStage::LinksByRowBits),
 *  whether it does. The strip labeling's runs are always joined that way. */
enum class RowBitLinksUse
{
  Automatic, ///< labels only, where the runs are short and the density suits it (LabelStage.cuh)
  Always,    ///< every byte mask whose rows fit, with or without the table
  Never
};

} // namespace cuda
} // namespace cca

#endif
