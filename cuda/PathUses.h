// The CUDA backend's paths that tests and benchmarks can force either way
// instead of the automatic choice (PathChoices.cuh, LabelStage.cuh): when
// it labels by blocks of pixels (BlockLabeling.cuh) or by the runs of
// strips of two rows (StripLabeling.cuh) instead of runs, when it joins
// runs from the rows' foreground bits, how its feature votes take the
// units and store the table, and when its runs carry an end index for the
// searches of neighbour rows. Plain C++: the test hooks
// (CudaBackendTesting.h) and the benchmarks name it too.
#ifndef cca_cuda_PathUses_h
#define cca_cuda_PathUses_h

namespace cca
{
namespace cuda
{

/** Where the block labeling fits (labels only, full connectivity, the
 *  default algorithm; BlockLabelingStage::Fits), whether it is taken. */
enum class BlockLabelingUse
{
  Automatic, ///< when the runs are short (PathChoices.cuh)
  Always,
  Never
};

/** Where the strip labeling fits (labels only of a byte mask under full
 *  connectivity; StripLabelingStage::Fits), whether it is taken; and where
 *  the feature table's runs may be joined through the strips (a byte mask
 *  under full connectivity; StripLabelingStage::FitsJoin), whether they are. */
enum class StripLabelingUse
{
  Automatic, ///< when the runs are short and the image dense enough (PathChoices.cuh)
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

/** Whether the default algorithm's feature votes take the units in
 *  component order (ComponentOrder.cuh; PathChoices::VotesInComponentOrder). */
enum class VoteOrderUse
{
  Automatic, ///< where the runs' grouping sorts them anyway (the runs requested, no selection)
  Always,    ///< sorted for the votes alone too
  Never      ///< raster order
};

/** Whether the default algorithm's feature votes, in component order,
 *  store the components whose runs lie in one warp's chunk whole
 *  (WholeComponents.cuh; PathChoices::VotesStoreWholeComponents). */
enum class WholeComponentsUse
{
  Automatic, ///< where components are many among the runs (PathChoices.cuh)
  Always,    ///< wherever the votes take the units in component order
  Never      ///< every entry prepared, the votes merged into it
};

/** Whether the default algorithm's dense feature table holds its entries
 *  with 32-bit counts (src/NarrowFeatures.h), where the image's counts fit
 *  them, and where they are widened (PathChoices::TableEntriesFor). */
enum class NarrowTableUse
{
  Automatic,    ///< widened on the device where components are few, else on the host
  HostWidening, ///< widened on the host whatever their number (where nothing reads them on the device)
  Never         ///< ComponentFeatures entries
};

/** Whether the narrow table of a 2D image holds planar entries
 *  (PlanarFeatures, 96 bytes: without the z axis's fields) instead of
 *  NarrowFeatures (160). */
enum class PlanarTableUse
{
  Automatic, ///< planar entries in every 2D image whose table is narrow
  Never      ///< NarrowFeatures in 2D images too
};

/** Whether the component order leaves the largest component's units out
 *  of its sort (LargestComponent.cuh; PathChoices::LargestApart). */
enum class LargestApartUse
{
  Automatic, ///< where it holds at least a share of many units
  Always,    ///< wherever the units are sorted for the votes
  Never      ///< every unit sorted
};

/** Whether the largest component's table entry is the foreground's
 *  totals less the other entries, its runs voting their bounding box only
 *  (LargestBySubtraction.cuh; PathChoices::SubtractsLargest). Only
 *  for a byte mask of whole 16-byte rows, whatever the choice. */
enum class LargestSubtractedUse
{
  Automatic, ///< where it holds at least a share of the units
  Always,    ///< wherever the numbering found it
  Never      ///< every run votes
};

/** Whether the writer of a byte mask's runs leaves their end index, with
 *  which the searches for a neighbour row's runs take one load instead of
 *  a binary search (RunNeighbours.cuh; UnitDetection::DetectUnits). */
enum class RunEndIndexUse
{
  Automatic, ///< as Always, where the rows hold enough runs (UnitDetection.cuh, WritesRunEndIndex)
  Always,    ///< wherever the byte row scan writes the runs and rows have at most 65,536 pixels
  Never      ///< the searches halve the rows' runs
};

} // namespace cuda
} // namespace cca

#endif
