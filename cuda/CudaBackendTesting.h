// Test hooks of the CUDA backend (used by test/gpu only).
#ifndef cca_cuda_CudaBackendTesting_h
#define cca_cuda_CudaBackendTesting_h

#include "PathUses.h"

#include <cstddef>
#include <cstdint>

namespace cca
{
namespace cuda
{

/** When true, CUDA backends use 64-bit run indices even for small images, so
 *  that tests reach the path large images take. */
void
SetForceWideRunIndex(bool force);
bool
ForceWideRunIndex();

/** Upload slabs of about this many bytes (whole rows, at least one) in all
 *  CUDA backends, so that small test images take many slabs; 0: the default. */
void
SetUploadSlabBytes(std::size_t bytes);
std::size_t
UploadSlabBytes();

/** Uploads and downloads of at least fromBytes go by regions, one per copy
 *  thread, in pieces of pieceBytes (HostStaging::UploadByRegions and
 *  DownloadByRegions), in all CUDA backends, so that small test images take
 *  that path; 0, 0: the defaults. */
void
SetRegionCopies(std::size_t fromBytes, std::size_t pieceBytes);

/** Host masks whose foreground bits take at least fromBytes (up to
 *  HostStaging::StreamedUploadCapacity) are read by the unpacking kernel
 *  from page-locked host memory while the copy threads pack them, in
 *  pieces of pieceBytes (rounded up to 16; HostStaging::UploadStreamed),
 *  in all CUDA backends; 0, 0: the defaults (from 4 MiB,
 *  HostStaging::DefaultStreamedUploadBytes; 64 KiB pieces);
 *  NeverStreamedUploads: never (they go by regions or slabs). Tests take
 *  every path; benchmarks compare. */
constexpr std::size_t NeverStreamedUploads = ~std::size_t{ 0 };
void
SetStreamedUploads(std::size_t fromBytes, std::size_t pieceBytes);
/** Streamed uploads made by the CUDA backends of the process so far. */
std::int64_t
StreamedUploadsMade();

/** When CUDA backends label by blocks where that labeling fits
 *  (BlockLabeling.cuh); Automatic by default. */
void
SetBlockLabeling(BlockLabelingUse use);
BlockLabelingUse
BlockLabeling();

/** When CUDA backends label under full connectivity with labels only by
 *  the runs of strips of two rows (tubes of 2 x 2 rows in volumes) where
 *  that fits (StripLabeling.cuh), and when they join the feature table's
 *  runs through them (StripJoin.cuh); Automatic by default. */
void
SetStripLabeling(StripLabelingUse use);

/** From how many units (runs, or pieces of runs) the numbering of CUDA
 *  backends climbs from several a thread (NumberComponentsKernel), so that
 *  small test images take that path; -1: the default. */
void
SetNumberingClimbingRuns(std::int64_t units);

/** Up to how many words of root bits (32 units a word) the numbering of
 *  CUDA backends ranks the roots in one block (RankRootsInOneBlockKernel)
 *  instead of FlagRootsKernel and CUB's scan, so that small test images
 *  take either path; 0: never; -1: the default. */
void
SetNumberingOneBlockRootWords(std::int64_t words);

/** How many blocks of rows (and slices) a level of the union-find of CUDA
 *  backends joins (ForEachLinkPass); 0: the default (LabelStage's
 *  VolumeFanIn, 512, in volumes; LongRunsPlaneFanIn, 8, in planes of long
 *  runs). Tests take every path; benchmarks compare. */
void
SetLinkFanIn(std::int64_t fanIn);

/** Whether CUDA backends join the runs of byte masks from the rows'
 *  foreground bits (LinkByteRowsKernel) where that was faster (Automatic,
 *  the default), always, or never. Tests take both paths; benchmarks
 *  compare them. */
void
SetRowBitLinks(RowBitLinksUse use);

/** Whether CUDA backends leave the end index of a byte mask's runs, with
 *  which the searches for a neighbour row's runs take one load
 *  (Automatic, the default) or halve the row's runs (Never;
 *  cuda/RunNeighbours.cuh). Tests take both; benchmarks compare them. */
void
SetRunEndIndex(RunEndIndexUse use);

/** Whether CUDA backends count the feature votes' stored pairs under full
 *  connectivity once the labels exist (CountPrecedingPairsKernel) instead
 *  of in the union-find (false, the default); with RowBitLinksUse::Always
 *  the union-find then joins the runs from the rows' bits. Benchmarks
 *  compare them. */
void
SetFullPairsAfterLabels(bool afterLabels);

/** Whether the feature votes of CUDA backends take the units in component
 *  order where the runs' grouping sorts them anyway (Automatic, the
 *  default), always, or never. Tests take both orders; benchmarks compare
 *  them. */
void
SetVoteOrder(VoteOrderUse use);

/** Whether the feature votes of CUDA backends, in component order, store
 *  the components whose runs lie in one warp's chunk whole (Automatic,
 *  the default: where components are many among the runs), always, or
 *  never (cuda/WholeComponents.cuh). Tests take both; benchmarks compare
 *  them. */
void
SetWholeComponents(WholeComponentsUse use);

/** Whether the default algorithm's dense feature table in CUDA backends
 *  holds 32-bit counts (src/NarrowFeatures.h) where they fit, widened on
 *  the device where components are few and on the host where many
 *  (Automatic, the default), always on the host, or never. Tests take
 *  each; benchmarks compare them. */
void
SetNarrowTable(NarrowTableUse use);

/** Whether a 2D image's narrow table in CUDA backends holds planar
 *  entries (PlanarFeatures, 96 bytes; Automatic, the default) or
 *  NarrowFeatures (160). Tests take both; benchmarks compare them. */
void
SetPlanarTable(PlanarTableUse use);

/** Whether the component order in CUDA backends leaves the largest
 *  component's units out of its radix sort (cuda/LargestComponent.cuh):
 *  where it holds many units (Automatic, the default), always, or never.
 *  Tests take all three; benchmarks compare them. */
void
SetLargestApart(LargestApartUse use);

/** Whether CUDA backends take the largest component's table entry as the
 *  foreground's totals less the other entries (cuda/LargestBySubtraction.cuh):
 *  where it holds a share of the units (Automatic, the default), always
 *  where the numbering found it, or never; only under full connectivity on
 *  a byte mask of whole 16-byte rows. Tests take all three; benchmarks
 *  compare them. */
void
SetLargestSubtracted(LargestSubtractedUse use);
/** Threads a block of the default algorithm's feature votes
 *  (AccumulateFeaturesKernel), with the dense table's narrow entries or
 *  wide ones: the update-counting test expects one global merge a block. */
int
FeatureVoteBlockThreads(bool narrowEntries);
/** Rows of the blocks the union-find of CUDA backends joins first
 *  (ForEachLinkPass); 0: the default (LabelStage's choice by dimension
 *  and run length). Benchmarks compare. */
void
SetLinkBlockRows(std::int64_t rows);

/** The links a block of the volumes' first union-find pass holds in
 *  shared memory in CUDA backends (cuda/RowBlocksInShared.cuh), and of a
 *  plane's first pass from its rows' bits (cuda/ByteRowBlocksInShared.cuh):
 *  0, the default, where the rows hold enough runs; positive, at most that
 *  many, in every image the pass can join (so few that most blocks join
 *  their runs in global memory instead, or the volumes' default 3,072);
 *  negative, that pass in global memory. Tests take all; benchmarks
 *  compare the first and the last. */
void
SetSharedLinkCapacity(std::int32_t capacity);

/** Whether the union-find passes of CUDA backends over a mask's whole runs
 *  (those in global memory and the shared row blocks) queue each warp's
 *  merges, a pair a lane (cuda/QueuedMerges.cuh; true, the default), or
 *  merge each run's own. Tests take both; benchmarks compare them. */
void
SetQueuedMerges(bool queued);

/** Whether CUDA backends launch their kernels as programmatic dependent
 *  launches where the GPU has them (cuda/DependentLaunch.cuh); true by
 *  default. Benchmarks compare the two; the tests run both. */
void
SetDependentLaunches(bool dependent);

/** Whether CUDA backends queue the work that needs only the labels (the
 *  label image, the stored pairs' count) on a second stream, beside the
 *  sort into component order (true, the default; HostSequence's SideWork),
 *  or everything in order on one stream. Benchmarks compare the two; the
 *  tests run both. */
void
SetSideStream(bool side);

/** Whether CUDA backends give CUB's sorts and scans their counts as 32-bit
 *  integers where they fit (true, the default: CUB then tunes for 32-bit
 *  offsets, and its radix sort runs about a tenth faster) or always as
 *  64-bit ones, as counts from 2^31 on are. Benchmarks compare the two;
 *  the tests run both, so that the 64-bit path is checked on small images. */
void
SetNarrowCubCounts(bool narrow);

/** Where CUDA backends widen 32-bit labels into a 64-bit host label image
 *  that lies in a page-locked block of the host image pool (HostImageMemory):
 *  on the host as the staged pieces arrive (half the bytes cross the bus,
 *  the host writes them with streaming stores), or on the device, slab by
 *  slab DMA'd into place (twice the bytes on the bus, no host thread).
 *  Automatic, the default: on the host where it has the streaming stores
 *  (StreamingStores.h), else on the device. Tests take each. */
enum class PinnedLabelWidening
{
  Automatic,
  OnHost,
  OnDevice
};
void
SetPinnedLabelWidening(PinnedLabelWidening where);

/** The foreground fraction that the last run of a CUDA backend in this
 *  process sampled while counting runs (one row in 64, at most about 512 rows), as it chose its
 *  labeling kernels by it; -1 when that run read no sample. */
double
LastSampledForegroundFraction();

/** How many times, over all CUDA backends of the process, the tree merge
 *  compaction needed a second copy (its guessed node count was too small). */
std::int64_t
TreeMergeSecondCopies();

/** What the host reads of the device (StreamDevice::Read) on the current
 *  GPU: whether it took the values from mapped host memory that the device
 *  writes (not a copy), and how many of the values were not the ones that
 *  kernels queued before each read stored there (late kernels, so that the
 *  host must wait for them: one value, two at once, a 16-byte value), over
 *  reads by two devices in turn, the second taking the first's host slot
 *  from the process's cache where no other idle block of that size is. */
struct DeviceReadsChecked
{
  bool         fromMappedMemory = false;
  std::int64_t reads = 0;
  std::int64_t wrong = 0;
};
DeviceReadsChecked
CheckDeviceReads(int readsPerDevice);

} // namespace cuda
} // namespace cca

#endif
