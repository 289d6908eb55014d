// Stage 2 of the host sequence (HostSequence.cuh): label the units. The
// strategy's units are detected (UnitDetection.cuh: counted per row, slab
// by slab while the image arrives (CountUnits), then scanned and stored),
// then joined: by the lock-free union-find over units
// (UnionFind.cuh, or the on-the-fly feature merge of OnTheFlyMerge.cuh), or
// by a pixel labeling on the label grid (PixelLabeling.cuh), whose labels
// become the units' parents. Units that are pieces of runs need the full
// runs too: the outputs are written per run. In a label image runs also
// break where the value changes and carry their value's key; the
// components of each value join runs of one value only, and the values
// themselves (Objects::LabelValues) are grouped later (ValueGroupingStage.cuh).
#ifndef cca_cuda_LabelStage_cuh
#define cca_cuda_LabelStage_cuh

#include "ByteRowBlocksInShared.cuh"
#include "Compaction.cuh"
#include "DependentLaunch.cuh"
#include "ForegroundPairs.cuh"
#include "Frame.cuh"
#include "OnTheFlyMerge.cuh"
#include "PixelLabeling.cuh"
#include "PrecedingPairs.cuh"
#include "QueuedMerges.cuh"
#include "RowBlocksInShared.cuh"
#include "RowPairLinks.cuh"
#include "RunDetection.cuh"
#include "Strategies.cuh"
#include "StripRows.cuh"
#include "UnionFind.cuh"
#include "UnitDetection.cuh"
#include "UpdateCounts.cuh"

#include "IntensityRecord.h"
#include "PixelTypeDispatch.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <tuple>

namespace cca
{
namespace cuda
{

/** The units of a run, joined into components. */
template <class Index>
struct LabeledUnits
{
  RunArrays<Index> units; ///< the labeling units: runs, HA sub-runs or pixels
  /** Per unit, its union-find parent; a root is its component's first
   *  unit. Flattened (every unit its root) only for the tables keyed by
   *  root units: the numbering climbs the trees. */
  Index *        parent;
  std::uint8_t * linked; ///< per unit, 1 when its component has other units
  /** On-the-fly merges (FeatureMerge::OnTheFly): per unit, the record the
   *  unions moved along (a root unit holds its component's); else null. */
  ComponentFeatures * unitFeatures;
  RunArrays<Index>    runs; ///< the full runs (the units themselves unless they are pieces of runs)
  /** Label images: per run, the key of its value (detail::ValueKey); else null. */
  std::uint64_t * runKeys;
  /** With the feature votes under full connectivity, where the union-find
   *  counts no pairs (precedingPairs), a byte mask in rows of whole 16-byte
   *  loads whose units are short (PairsFromPixelsPerRun): the votes count
   *  the units' neighbour pairs from its pixels (ForegroundPairs.cuh);
   *  else no image. */
  ForegroundRows pairPixels;
  /** With the default algorithm's votes on a mask, each run's pairs with
   *  the runs of its component in its preceding rows (PrecedingPairs.cuh):
   *  under full connectivity counted by the union-find where
   *  LinkRunsKernel joins the runs, under face connectivity by
   *  CountPrecedingPairsKernel once the labels exist
   *  (pairsAfterLabels), with every run's RunRecord where the rows fit
   *  them; else null. */
  PrecedingPairs precedingPairs;
  bool           pairsAfterLabels = false;
  /** Whether CountPrecedingPairsKernel and the default strategy's
   *  union-find (LinkRunsKernel) find rows in 32-bit arithmetic: a
   *  SmallImage (RunNeighbours.cuh), unless a test asks for 64 bits
   *  (LabelStage::SetWideRowArithmetic). */
  bool smallRows = false;
};

/** The key of each run's value (label images). */
template <class T, class Index>
__global__ void
RunKeysKernel(RunArrays<Index> runs,
              const T * __restrict__ image,
              std::int64_t width,
              std::uint64_t * __restrict__ keys)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < runs.count; i += stride)
  {
    keys[i] = detail::ValueKey(image[static_cast<std::int64_t>(runs.row[i]) * width + runs.x[i]]);
  }
}

/** Strategies that label label images: full runs joined by the union-find
 *  with plain or conflict-detection votes (FLSL, FLSL_CD; cca::ValidateInput
 *  refuses the others). */
template <class S>
constexpr bool LabelsLabelImages =
  S::Units::Span == UnitSpan::WholeRuns && !S::LabelsPixels && S::Merge != FeatureMerge::OnTheFly;

template <class Device>
class LabelStage
{
public:
  /** UnitDetection::CountUnits: the first pass of the unit detection on
   *  rows [firstRow, endRow) of image, called as the image arrives. */
  template <class Index, class Units>
  void
  CountUnits(Device & device, const Frame & frame, const void * image, std::int64_t firstRow, std::int64_t endRow)
  {
    m_Detection.template CountUnits<Index, Units>(device, frame, image, firstRow, endRow);
  }

  /** UnitDetection::CountedUnits: how many units CountUnits counted in all
   *  rows (one wait, once a run). */
  template <class Index>
  Index
  CountedUnits(Device & device, const Frame & frame)
  {
    return m_Detection.template CountedUnits<Index>(device, frame);
  }

  /** UnitDetection::CountedForegroundFraction: the sampled foreground
   *  fraction, known once CountedUnits ran this run, else -1. */
  double
  CountedForegroundFraction() const
  {
    return m_Detection.CountedForegroundFraction();
  }

  /** Detects and joins the units of strategy S in the uploaded image, whose
   *  rows CountUnits counted; prepares the update counters (they count per
   *  unit). joinedLater: the units are the image rows' whole runs, which
   *  the caller joins through the strips (StripLabelingStage::JoinImageRuns):
   *  they are detected, not joined, and the votes' stored pairs are counted
   *  once the labels exist. */
  template <class Index, class S>
  LabeledUnits<Index>
  Run(Device & device, const Frame & frame, const void * image, UpdateCounts<Device> & counts, bool joinedLater = false)
  {
    LabeledUnits<Index> l{};
    const Objects       objects = frame.options.objects;
    if (objects != Objects::ForegroundComponents && !LabelsLabelImages<S>)
    {
      throw Error(Error::Kind::InvalidInput, "this algorithm does not label label images");
    }
    // Units joined from the rows' foreground bits with labels only: the
    // numbering and the label image need the runs' parents and row
    // offsets, not their starts, ends and rows.
    const auto * rowBits = !joinedLater && LinksByRowBits<Index, S>(device, frame, image)
                             ? static_cast<const std::uint8_t *>(image)
                             : nullptr;
    // A strip image's runs keep theirs: the first pixels are found on them.
    const bool parentsOnly = rowBits != nullptr && LabelsOnlyOfMask(frame.options) && m_StripRows.image == nullptr;
    // Its rows are then joined in blocks in shared memory where they hold
    // enough runs, if the runs' end index gives each warp the runs before
    // its part of a row (JoinUnits).
    const bool endIndexForBlocks = parentsOnly && frame.geometry.depth == 1 && m_SharedLinkCapacity >= 0 &&
                                   m_Detection.RunEndIndex() != RunEndIndexUse::Never;
    // Runs joined through the strips get their parents there (JoinImageRuns).
    l.units = m_Detection.template Detect<Index, typename S::Units>(
      device, frame, image, l.parent, !parentsOnly, endIndexForBlocks, !joinedLater, m_SharedLinkCapacity);
    if constexpr (LabelsLabelImages<S>)
    {
      if (objects != Objects::ForegroundComponents)
      {
        l.runKeys = Reserve<std::uint64_t>(m_RunKeys, l.units.count, "run value keys");
        if (l.units.count > 0)
        {
          DispatchPixelType(frame.image.pixelType, [&](auto zero) {
            using T = decltype(zero);
            device.Launch("run key kernel",
                          BlocksFor(static_cast<std::int64_t>(l.units.count), BlockThreads),
                          BlockThreads,
                          RunKeysKernel<T, Index>,
                          l.units,
                          static_cast<const T *>(image),
                          frame.geometry.width,
                          l.runKeys);
          });
        }
      }
    }
    const Index unitCount = l.units.count;
    // Only the feature votes read the link flags (ValueGroupingStage writes
    // its own): labels only keep neither the flags nor their stores.
    const bool votes = frame.options.computeFeatures;
    l.linked = votes ? Reserve<std::uint8_t>(m_Linked, unitCount, "run link flags") : nullptr;
    const bool countsPairs = !joinedLater && CountsPrecedingPairs<S>(frame, rowBits);
    l.pairsAfterLabels = CountsPairsAfterLabels<S>(frame, joinedLater, rowBits);
    l.smallRows = SmallImage(frame.geometry) && !m_WideRowArithmetic;
    if (votes && frame.fullMask && !countsPairs && !l.pairsAfterLabels && FitsByteRowScan(frame, image) &&
        static_cast<std::int64_t>(unitCount) * PairsFromPixelsPerRun > frame.pixels)
    {
      l.pairPixels = ForegroundRows{ static_cast<const std::uint8_t *>(image),
                                     frame.geometry.width,
                                     ForegroundOf<std::uint8_t>(frame.options) };
    }
    if (countsPairs || l.pairsAfterLabels)
    {
      if (m_RecordsWhereFit && RunRecordsFit(frame.geometry))
      {
        l.precedingPairs.records = Reserve<RunRecord>(m_RunRecords, unitCount, "the runs' records");
      }
      else
      {
        l.precedingPairs.row =
          Reserve<std::uint32_t>(m_RowPairs, unitCount, "the runs' pairs with their previous rows");
      }
      if (frame.geometry.depth > 1)
      {
        l.precedingPairs.slice =
          Reserve<std::uint64_t>(m_SlicePairs, unitCount, "the runs' pairs with their previous slices");
      }
    }
    counts.Prepare(device, frame.options.countAtomicUpdates, static_cast<std::int64_t>(unitCount));
    if (unitCount > 0)
    {
      const unsigned blocks = BlocksFor(static_cast<std::int64_t>(unitCount), BlockThreads);
      if (votes)
      {
        device.Fill(l.linked, 0, unitCount, "clearing run link flags");
      }
      if constexpr (S::Merge == FeatureMerge::OnTheFly)
      {
        l.unitFeatures = Reserve<ComponentFeatures>(m_UnitFeatures, unitCount, "unit features");
        device.Launch("unit feature kernel",
                      blocks,
                      BlockThreads,
                      InitUnitFeaturesKernel<Index, S::Units::Span>,
                      l.units,
                      frame.geometry,
                      frame.faces,
                      frame.full,
                      l.unitFeatures);
      }
      if constexpr (S::LabelsPixels)
      {
        LabelPixels<Index, S>(device, frame, l, counts.Moves());
      }
      else
      {
        if (objects != Objects::LabelValues && !joinedLater) // values are grouped, not joined
        {
          JoinUnits<Index, S>(device, frame, rowBits, l, counts.Moves());
        }
      }
    }
    l.runs = l.units;
    if constexpr (S::SplitUnits)
    {
      l.runs = m_Detection.template DetectFullRuns<Index>(device, frame, image);
    }
    std::get<LabeledUnits<Index>>(m_Last) = l;
    return l;
  }

  /** Tests: rows of the blocks the union-find labels first (0: the default). */
  void
  SetBlockRows(std::int64_t rows)
  {
    m_BlockRows = rows;
  }

  /** Tests and benchmarks: under full connectivity, the votes' stored
   *  pairs counted once the labels exist (CountPrecedingPairsKernel), as
   *  under face connectivity, instead of by the union-find
   *  (LinkRunsCountingPairsKernel), which can then be any, the one over
   *  the rows' bits too (SetRowBitLinks). */
  void
  SetFullPairsAfterLabels(bool afterLabels)
  {
    m_FullPairsAfterLabels = afterLabels;
  }

  /** Tests: whether runs get records where the rows fit them (false: the
   *  stored pairs alone, as where the rows do not fit: RunRecordsFit). */
  void
  SetRunRecords(bool records)
  {
    m_RecordsWhereFit = records;
  }

  /** Tests: whether the pairs' count and the union-find find rows in
   *  64-bit arithmetic even where the image is small enough for 32 bits
   *  (LabeledUnits::smallRows), so that both paths are checked on small
   *  images. */
  void
  SetWideRowArithmetic(bool wide)
  {
    m_WideRowArithmetic = wide;
  }

  /** Tests and benchmarks: the links a block of the volumes' first
   *  union-find pass in shared memory holds (LinkRowBlocksInSharedKernel),
   *  and of a plane's rows joined from their bits
   *  (LinkByteRowBlocksInSharedKernel): 0, the default, SharedLinkCapacity
   *  (ByteRowSharedLinks) where the rows hold enough runs (SharedBlockRows,
   *  ByteRowSharedBlockRows); positive, at most that many, in every image
   *  the pass can join (in blocks of 8 rows, 4 from the bits, where the
   *  default finds none), so that tests reach it on small images and,
   *  with few links, the blocks that join their runs in global memory
   *  instead; negative, that pass in global memory (LinkRunsKernel,
   *  LinkByteRowsKernel), as before. */
  void
  SetSharedLinkCapacity(std::int32_t capacity)
  {
    m_SharedLinkCapacity = capacity < SharedLinkCapacity ? capacity : SharedLinkCapacity;
  }

  /** Tests and benchmarks: whether the union-find passes over a mask's
   *  whole runs that LinkRunsKernel would take, and the shared row blocks
   *  (LinkRowBlocksInSharedKernel), queue each warp's merges
   *  (QueuedMerges.cuh; true, the default) or merge each run's own
   *  (false); and whether a plane's passes from the rows' bits
   *  (LinkByteRowBlocksInSharedKernel, LinkByteRowsKernel), and a sparse
   *  volume's (VolumeQueuedEventsDensity), queue each stretch's events
   *  across the warp (true) or join them by their lanes (false). */
  void
  SetQueuedMerges(bool queued)
  {
    m_QueuedMerges = queued;
  }

  /** Tests and benchmarks: blocks (and slices) joined by a level of the
   *  union-find (ForEachLinkPass; 0 or 1: the default, VolumeFanIn or
   *  LongRunsPlaneFanIn). */
  void
  SetLinkFanIn(std::int64_t fanIn)
  {
    m_LinkFanIn = fanIn;
  }

  /** Tests and benchmarks: whether the runs of byte masks that fit are
   *  joined from the rows' foreground bits (LinkByteRowsKernel) where it
   *  is faster (Automatic), always, or never. */
  void
  SetRowBitLinks(RowBitLinksUse use)
  {
    m_RowBitLinks = use;
  }

  /** Tests and benchmarks: whether the runs of byte masks that fit get
   *  their end index (UnitDetection::SetRunEndIndex). */
  void
  SetRunEndIndex(RunEndIndexUse use)
  {
    m_Detection.SetRunEndIndex(use);
  }

  /** The runs to come are those of a strip image over rows
   *  (StripLabeling.cuh): runs of neighbour strips are joined only where
   *  their facing rows' pixels touch (StripRows.cuh). rowsForeground: the
   *  rows' sampled foreground fraction (-1: not sampled), the density that
   *  decides how the strips' passes join (the strips' own, sampled from
   *  the strip image, is higher: a strip pixel is set where any of its
   *  rows' pixels is). */
  void
  SetStripRows(const StripRows & rows, double rowsForeground)
  {
    m_StripRows = rows;
    m_StripRowsForeground = rowsForeground;
  }

  /** The device arrays of the last run with Index (the emulation tests read them). */
  template <class Index>
  const LabeledUnits<Index> &
  Last() const
  {
    return std::get<LabeledUnits<Index>>(m_Last);
  }

private:
  /** Whether the votes add each run's stored pairs with its preceding rows
   *  (PrecedingPairs.cuh) instead of searching its following rows: the
   *  default algorithm's table (dense or sparse) of a mask's whole runs.
   *  The papers' strategies vote as reproduced. Who counts the pairs
   *  depends on the connectivity (CountsPrecedingPairs,
   *  CountsPairsAfterLabels). */
  template <class S>
  static bool
  VotesAddStoredPairs(const Frame & frame)
  {
    return std::is_same_v<typename S::Units, FullRuns> && !S::LabelsPixels && S::Merge != FeatureMerge::OnTheFly &&
           S::Votes::Pairs == PairVotes::All && frame.options.algorithm == Algorithm::Default &&
           frame.options.computeFeatures && frame.options.objects == Objects::ForegroundComponents &&
           frame.options.featureCompaction != FeatureCompaction::TreeMerge;
  }

  /** Whether the union-find counts the stored pairs (VotesAddStoredPairs):
   *  under full connectivity, where every touching run shares a run's
   *  component, and its whole runs are joined by LinkRunsKernel (rowBits
   *  null), unless SetFullPairsAfterLabels moved the count after the labels. */
  template <class S>
  bool
  CountsPrecedingPairs(const Frame & frame, const std::uint8_t * rowBits) const
  {
    return VotesAddStoredPairs<S>(frame) && frame.full && rowBits == nullptr && !m_FullPairsAfterLabels;
  }

  /** Whether CountPrecedingPairsKernel counts the stored pairs
   *  (VotesAddStoredPairs) once the labels exist: under face connectivity,
   *  however the runs were joined, where the union-find cannot know which
   *  diagonal neighbours share a component. In raster order a warp's runs
   *  search the same few rows; the votes, in component order, searched the
   *  following rows of runs all over the image. Under full connectivity
   *  where SetFullPairsAfterLabels asks it (the label comparison then
   *  always holds), where the strips join the runs (joinedLater: no
   *  union-find over the runs to count them), and where the rows' bits
   *  join them (rowBits: that union-find meets the touching runs a
   *  stretch of pixels at a time, not a run's neighbours together). */
  template <class S>
  bool
  CountsPairsAfterLabels(const Frame & frame, bool joinedLater, const std::uint8_t * rowBits) const
  {
    return VotesAddStoredPairs<S>(frame) &&
           (!frame.full || m_FullPairsAfterLabels || joinedLater || rowBits != nullptr);
  }

  /** Whether the union-find joins the runs from the foreground bits of
   *  each pair of neighbour rows (LinkByteRowsKernel, RowPairLinks.cuh):
   *  it can for the whole runs of a byte mask in rows of whole lane loads,
   *  joined by PlainUnion. It reads every pixel of both rows for every
   *  neighbour row, where LinkRunsKernel searches per run, so it pays
   *  where runs are short, and it is taken only where it was faster on the
   *  H100 (labels only, 8192^2 and 512^3 g = 1, A/B in one call): where
   *  runs average at most RowBitsPixelsPerRun pixels and, by the sampled
   *  foreground fraction d (CountedForegroundFraction),
   *  - planes under face connectivity, any d (d = 0.1-0.5: 0.09-0.24 ms
   *    an image less; d = 0.6-0.9 within +-0.09 ms);
   *  - planes under full connectivity up to RowBitsFullPlaneDensity
   *    (d = 0.1-0.3: 0.06-0.09 ms less; d = 0.4-0.6: 0.1-0.2 ms more);
   *  - 6-connected volumes up to RowBitsFaceVolumeDensity (d = 0.1-0.4:
   *    0.15-0.51 ms less; d = 0.5-0.9: 0.1-0.6 ms more: every pass of the
   *    row and slice levels reads its rows again);
   *  - 26-connected volumes that the block labeling leaves to the runs
   *    (d = 0.1-0.9: 0.3-1.6 ms less).
   *  Nor wherever runs are long (g >= 4, all foreground: 0.02-0.50 ms
   *  slower). With the default algorithm's feature table only in planes,
   *  from RowBitsPlaneTableDensity on: under face connectivity (H200,
   *  8192^2 g = 1, label + features per image, d = 0.2 ... 0.9: 0.01 /
   *  0.03 / 0.05 / 0.05-0.07 / -0.02-0.00 / 0.07-0.09 / 0.09-0.10 /
   *  0.03-0.04 ms less, the numbering climbing shallower trees; d = 0.1
   *  0.02 ms more;
   *  benchmark/results/h200-pairs-after-labels/ call 1), and under full
   *  connectivity, where the perimeter's pairs are then counted after the
   *  labels (CountsPairsAfterLabels) instead of by the union-find over
   *  the runs (CountsPrecedingPairs), since the rows' bits are joined in
   *  blocks in shared memory with queued events (8192^2 8-conn. g = 1,
   *  kernels per image, d = 0.2 / 0.3 / 0.4: 0.05 / 0.15 / 0.33 ms less;
   *  d = 0.1 0.02-0.07 ms more; benchmark/results/
   *  h200-volume-queued-events call 4; at d = 0.5 ... 0.9, where the
   *  strips had joined the runs, 0.03-0.26 ms less than they took,
   *  h200-plane-strips-retired call 1; before those
   *  blocks, no faster: h200-pairs-after-labels call 1). A 6-connected
   *  volume's table gained at most 0.05 ms an image from them (d = 0.2-0.3)
   *  and lost 0.12-0.89 ms elsewhere (h200-pairs-after-labels call 4;
   *  again 0.04-1.8 ms at d = 0.4-0.9 with the queued events,
   *  h200-volume-queued-events call 4). */
  template <class Index, class S>
  bool
  LinksByRowBits(Device & device, const Frame & frame, const void * image)
  {
    const bool fits = std::is_same_v<typename S::Units, FullRuns> && !S::LabelsPixels &&
                      S::Merge != FeatureMerge::OnTheFly && FitsByteRowScan(frame, image);
    // A strip image's runs touch where their facing image rows do
    // (StripRows.cuh), found only from those rows' bits; the strip
    // labeling takes only images that fit (StripLabelingStage::Fits).
    if (m_StripRows.image != nullptr)
    {
      if (!fits)
      {
        throw Error(Error::Kind::InvalidInput,
                    "internal error: the strip labeling took an image whose rows the byte row scan cannot read");
      }
      return true;
    }
    if (!fits || m_RowBitLinks == RowBitLinksUse::Never)
    {
      return false;
    }
    if (m_RowBitLinks == RowBitLinksUse::Always)
    {
      return true;
    }
    const bool labelsOnly = LabelsOnlyOfMask(frame.options);
    const bool planeTable = VotesAddStoredPairs<S>(frame) && frame.geometry.depth == 1;
    if (!labelsOnly && !planeTable)
    {
      return false;
    }
    // Counted during the upload: the scan of the counts is kept for the
    // run detection.
    const auto runs = static_cast<std::int64_t>(CountedUnits<Index>(device, frame));
    if (runs * RowBitsPixelsPerRun < frame.pixels)
    {
      return false;
    }
    // CountedUnits, above or during the block labeling's choice, read the sample too.
    const double density = m_Detection.CountedForegroundFraction();
    if (!labelsOnly)
    {
      return density >= RowBitsPlaneTableDensity;
    }
    if (frame.geometry.depth == 1)
    {
      return !frame.full || density <= RowBitsFullPlaneDensity;
    }
    return frame.full || density <= RowBitsFaceVolumeDensity;
  }

  /** The lock-free union-find over the units, then (for the tables keyed by
   *  root units) every unit its root.
   *  rowBits: the mask whose rows' foreground bits give the pairs of
   *  touching runs (LinksByRowBits), or null. */
  template <class Index, class S>
  void
  JoinUnits(Device &              device,
            const Frame &         frame,
            const std::uint8_t *  rowBits,
            LabeledUnits<Index> & l,
            UpdateCounter         moves)
  {
    const unsigned blocks = BlocksFor(static_cast<std::int64_t>(l.units.count), BlockThreads);
    // Within blocks of rows first, then the block borders and the slices
    // level by level (ForEachLinkPass: no long chains of roots), then, for
    // the tables keyed by root units, every unit its root.
    // bytes: the rows of a mask whose pairs of touching runs the foreground
    // bits give (LinkByteRowsKernel: no search of the neighbour rows), or null.
    auto link = [&](auto join, auto joins, const std::uint8_t * bytes) {
      using Join = decltype(join);
      using Joins = decltype(joins);
      constexpr bool defaultRuns = std::is_same_v<Join, PlainUnion> && std::is_same_v<Joins, AnyTouchingRuns> &&
                                   S::Units::Span == UnitSpan::WholeRuns;
      const bool longRuns = static_cast<std::int64_t>(l.units.count) < FlattenBelowRunsPerRow * frame.geometry.rows;
      // A volume's runs, unless the union-find counts their pairs, are
      // joined within row blocks in shared memory, in blocks of as many
      // rows as the links hold, where a row has runs for most of a block's
      // threads (RowBlocksInShared.cuh, SharedBlockRows). H200, 512^3
      // 6-conn. g = 1, summed, g s s g: full table 34.23 / 34.30 -> 36.38 /
      // 36.47 Gvox/s, labels only 69.5 / 69.7 -> 78.6 / 79.1 (d = 0.5-0.8:
      // 0.2-0.9 ms less an image; d = 0.2 0.06 ms more;
      // benchmark/results/h200-g1-kernel-map call 4).
      const bool sharedCandidate = defaultRuns && bytes == nullptr && frame.geometry.depth > 1 &&
                                   m_SharedLinkCapacity >= 0 && !(l.precedingPairs.Stored() && !l.pairsAfterLabels);
      std::int64_t sharedRows = 0;
      if (sharedCandidate)
      {
        sharedRows = SharedBlockRows(static_cast<double>(l.units.count) / static_cast<double>(frame.geometry.rows));
        // Tests that set the links take the pass wherever it can run, in
        // blocks of 8 rows where the rows hold too few runs for the default.
        if (sharedRows == 0 && m_SharedLinkCapacity > 0)
        {
          sharedRows = 8;
        }
      }
      const bool inShared = sharedCandidate && (m_BlockRows > 0 || sharedRows > 0);
      // A plane's rows joined from their bits, likewise in blocks of rows
      // in shared memory (ByteRowBlockRows).
      // The runs' end index, where it covers the rows whose bits are read.
      const std::uint32_t * endWords =
        bytes != nullptr && l.units.endWordsPerRow * RunEndWordPixels == frame.geometry.width ? l.units.endWords
                                                                                              : nullptr;
      const std::int64_t byteSharedRows =
        bytes != nullptr && m_StripRows.image == nullptr && m_SharedLinkCapacity >= 0
          ? ByteRowBlockRows(
              frame.geometry, static_cast<std::int64_t>(l.units.count), endWords != nullptr, m_SharedLinkCapacity)
          : 0;
      const bool         byteRowsInShared = byteSharedRows > 0;
      const std::int64_t blockRows =
        m_BlockRows > 0
          ? m_BlockRows
          : (inShared ? sharedRows
                      : (byteRowsInShared ? byteSharedRows
                                          : (frame.geometry.depth > 1 ? DefaultVolumeBlockRows
                                                                      : (longRuns ? LongRunsPlaneBlockRows : 0))));
      const bool compress = longRuns && blockRows > 0;
      // A plane's byte row blocks are joined in one level: each level is a
      // launch whose walks wait on the L2 in turn, and the levels of eight
      // blocks left the last three a few rows each at about 30 us
      // (8192^2 4-conn. g = 1 full table, summed: fan-in 8 46.32 / 45.81,
      // 64 47.15 / 47.05, one level 47.34 / 47.34 Gpix/s; main 45.34 /
      // 45.89; H200, benchmark/results/h200-plane-kernels call 5).
      // A block of rows in shared memory a thread block (the grid: slices
      // x these, RowBlockOfThisBlock).
      const std::int64_t rowBlocksPerSlice = blockRows > 0 ? RowBlocksPerSlice(frame.geometry, blockRows) : 0;
      const std::int64_t fanIn =
        m_LinkFanIn > 1 ? m_LinkFanIn
                        : (frame.geometry.depth > 1
                             ? VolumeFanIn
                             : (byteRowsInShared ? std::max<std::int64_t>(2, rowBlocksPerSlice) : LongRunsPlaneFanIn));
      ForEachLinkPass(frame.geometry, blockRows, fanIn, [&](const LinkPass & p) {
        // The first row level joins at blockRows, the first slice level at slice 1.
        const bool firstLevel = p.lines > 0 && p.spacing == (p.rows == LinkedRows::PreviousSlice ? 1 : blockRows);
        if (compress && firstLevel)
        {
          device.Launch("flatten kernel", blocks, BlockThreads, FlattenKernel<Index>, l.units.count, l.parent);
        }
        if (bytes != nullptr)
        {
          if (byteRowsInShared && p.lines == 0)
          {
            const std::int32_t capacity = m_SharedLinkCapacity > 0 && m_SharedLinkCapacity < ByteRowSharedLinks
                                            ? m_SharedLinkCapacity
                                            : ByteRowSharedLinks;
            const auto         inSharedBy = [&](auto kernel) {
              device.Launch("union-find kernel (byte row blocks in shared memory)",
                            static_cast<unsigned>(frame.geometry.depth * rowBlocksPerSlice),
                            ByteRowSharedThreads,
                            kernel,
                            bytes,
                            frame.geometry,
                            ForegroundOf<std::uint8_t>(frame.options),
                            frame.full,
                            l.units.rowOffsets,
                            l.parent,
                            l.linked, // null with labels only
                            blockRows,
                            capacity,
                            endWords,
                            l.units.endWordsPerRow);
            };
            // Each stretch's events queued across the warp, a join a lane.
            m_QueuedMerges ? inSharedBy(LinkByteRowBlocksInSharedKernel<Index, true>)
                           : inSharedBy(LinkByteRowBlocksInSharedKernel<Index, false>);
            return;
          }
          const auto launchByteRows = [&](auto kernel) {
            device.Launch("union-find kernel",
                          BlocksFor(PassWarps(p, frame.geometry), WarpsPerBlock),
                          BlockThreads,
                          kernel,
                          bytes,
                          frame.geometry,
                          ForegroundOf<std::uint8_t>(frame.options),
                          frame.full,
                          l.units.rowOffsets,
                          l.parent,
                          l.linked, // null with labels only
                          p,
                          m_StripRows,
                          endWords,
                          l.units.endWordsPerRow);
          };
          // The strips of a plane face their neighbours with one row a
          // side: their links test for no second row, and find a row's
          // place without a division (H200, labels only, 8192^2 8-conn.
          // g = 1, summed, three rounds in one call: 116.0-116.3 ->
          // 118.8-119.2 Gpix/s, 1.50-1.51x BKE's 79.1 in the same
          // command). A volume of two slices has its tubes in one slice.
          const bool planes = frame.geometry.depth == 1;
          // A plane's passes queue each stretch's events across the warp,
          // a join a lane (H200, 8192^2 g = 1, d = 0.5, ncu: 8-conn.
          // strips 407 -> 296 us, 4-conn. borders 125 -> 90 us; summed,
          // labels only, 8-conn. 121.7 / 120.6 -> 130.4 / 129.4 Gpix/s);
          // a volume's too below VolumeQueuedEventsDensity (a volume's
          // tubes by the density of the image rows they cover); above it a
          // volume's lanes join their own, each reusing the giant
          // component's root it met (queued everywhere, 512^3 26-conn. g = 1
          // labels only, ms an image: d = 0.3 2.01 -> 1.76, d = 0.7 1.22 ->
          // 1.53). Queued below 0.45, summed, labels only: 26-conn.
          // 103.8 -> 109.2, 6-conn. 83.4 -> 87.5 Gpix/s; 26-conn. full
          // table 41.2 -> 41.9 (benchmark/results/h200-volume-queued-events).
          const double density =
            m_StripRows.image != nullptr ? m_StripRowsForeground : m_Detection.CountedForegroundFraction();
          const bool sparse = density >= 0.0 && density < VolumeQueuedEventsDensity;
          const auto launchFacing = [&](auto facing, auto volume) {
            constexpr int  F = decltype(facing)::value;
            constexpr bool V = decltype(volume)::value;
            m_QueuedMerges && (!V || sparse) ? launchByteRows(LinkByteRowsKernel<Index, F, V, true>)
                                             : launchByteRows(LinkByteRowsKernel<Index, F, V, false>);
          };
          const auto byFacing = [&](auto facing) {
            planes ? launchFacing(facing, std::false_type{}) : launchFacing(facing, std::true_type{});
          };
          if (m_StripRows.image == nullptr)
          {
            byFacing(std::integral_constant<int, 0>{});
          }
          else if (!StripsAreTubes(m_StripRows.pixels))
          {
            launchFacing(std::integral_constant<int, 1>{}, std::false_type{});
          }
          else
          {
            byFacing(std::integral_constant<int, 2>{});
          }
          return;
        }
        if (inShared && p.lines == 0)
        {
          const auto capacity = m_SharedLinkCapacity > 0 ? m_SharedLinkCapacity : SharedLinkCapacity;
          const auto inSharedBy = [&](auto kernel) {
            device.Launch("union-find kernel (row blocks in shared memory)",
                          static_cast<unsigned>(frame.geometry.depth * rowBlocksPerSlice),
                          SharedLinkThreads,
                          kernel,
                          l.units,
                          frame.geometry,
                          frame.full,
                          l.parent,
                          l.linked, // null with labels only
                          blockRows,
                          capacity);
          };
          // Each warp's merges queued here too (H200, 512^3 6-conn. g = 1
          // d = 0.5: the pass 599 -> 549 us; summed, full table, one round
          // o q, 37.37 -> 37.54 Gvox/s; benchmark/results/h200-shared-row-pairs
          // call 6).
          if (m_QueuedMerges)
          {
            l.smallRows ? inSharedBy(LinkRowBlocksInSharedKernel<Index, true, true>)
                        : inSharedBy(LinkRowBlocksInSharedKernel<Index, false, true>);
          }
          else
          {
            l.smallRows ? inSharedBy(LinkRowBlocksInSharedKernel<Index, true, false>)
                        : inSharedBy(LinkRowBlocksInSharedKernel<Index, false, false>);
          }
          return;
        }
        const unsigned passBlocks =
          LinkPassBlocks(p, frame.geometry, static_cast<std::int64_t>(l.units.count), BlockThreads);
        const bool together = SearchesRowsTogether(frame.full, frame.geometry, p);
        const auto launch = [&](auto kernel, auto... arguments) {
          device.Launch("union-find kernel", passBlocks, BlockThreads, kernel, l.units, frame.geometry, arguments...);
        };
        const auto plain = [&](auto kernel) {
          launch(kernel, frame.full, l.parent, l.linked /* null with labels only */, join, joins, p);
        };
        const auto byRows = [&](auto small) {
          constexpr bool Small = decltype(small)::value;
          if constexpr (defaultRuns)
          {
            if (l.precedingPairs.Stored() && !l.pairsAfterLabels) // full connectivity (CountsPrecedingPairs)
            {
              together
                ? launch(LinkRunsCountingPairsKernel<Index, true, Small>, l.parent, l.linked, p, l.precedingPairs)
                : launch(LinkRunsCountingPairsKernel<Index, false, Small>, l.parent, l.linked, p, l.precedingPairs);
              return;
            }
            // Each warp's merges queued, a pair a lane (QueuedMerges.cuh;
            // H200, 512^3 6-conn. g = 1, summed: full table +2.3 %, labels
            // only +3.8 %, benchmark/results/h200-shared-row-pairs call 4).
            if (m_QueuedMerges && !together)
            {
              launch(LinkRunsQueuedKernel<Index, Small>, frame.full, l.parent, l.linked, p);
              return;
            }
          }
          together ? plain(LinkRunsKernel<Index, Join, S::Units::Span, Joins, true, Small>)
                   : plain(LinkRunsKernel<Index, Join, S::Units::Span, Joins, false, Small>);
        };
        // The default strategy's runs: their rows in 32-bit arithmetic
        // where the image is small (LabeledUnits::smallRows; H200, 512^3
        // 6-conn. g = 1 d = 0.3: the rows' pass 479 -> 441 us,
        // benchmark/results/h200-union-find-rows). The other strategies
        // keep 64 bits.
        if constexpr (defaultRuns)
        {
          l.smallRows ? byRows(std::true_type{}) : byRows(std::false_type{});
        }
        else
        {
          byRows(std::false_type{});
        }
      });
      // The sparse table and the tree merge key each unit by its root,
      // read straight from parent. Elsewhere the trees stay as they are:
      // the numbering climbs them anyway (NumberComponentsKernel) and gives
      // the dense table its labels and roots, so a flattening pass would
      // only move that climb (H200, full table, 2D 4-conn. g = 4, d = 0.5:
      // 84 of 1202 us).
      if (frame.options.computeFeatures && frame.options.featureCompaction != FeatureCompaction::Scan)
      {
        device.Launch("flatten kernel", blocks, BlockThreads, FlattenKernel<Index>, l.units.count, l.parent);
      }
    };
    if constexpr (S::Merge == FeatureMerge::OnTheFly)
    {
      link(OnTheFlyUnion{ l.unitFeatures, moves }, AnyTouchingRuns{}, nullptr);
    }
    else if (l.runKeys != nullptr)
    {
      if constexpr (LabelsLabelImages<S>)
      {
        link(PlainUnion{}, SameValueRuns{ l.runKeys }, nullptr);
      }
    }
    else
    {
      link(PlainUnion{}, AnyTouchingRuns{}, rowBits);
    }
  }

  /** A pixel labeling on the grid of the papers (raster indices in, first
   *  pixels of the components out), turned back into the units' parents. */
  template <class Index, class S>
  void
  LabelPixels(Device & device, const Frame & frame, LabeledUnits<Index> & l, UpdateCounter moves)
  {
    const unsigned blocks = BlocksFor(static_cast<std::int64_t>(l.units.count), BlockThreads);
    const auto     pixels = static_cast<std::size_t>(frame.pixels);
    auto *         grid = Reserve<Index>(m_PixelLabels, pixels, "the pixel label grid");
    auto *         unitAt = Reserve<Index>(m_UnitAt, pixels, "the unit of each pixel");
    device.Fill(grid, 0xff, pixels * sizeof(Index), "clearing the pixel label grid");
    device.Launch(
      "prelabel kernel", blocks, BlockThreads, PrelabelFromUnitsKernel<Index>, l.units, frame.geometry, grid, unitAt);
    const PixelLabelingProblem<Index> problem{ frame.geometry, frame.full, frame.volume, grid,
                                               l.unitFeatures, unitAt,     moves };
    S::Labeling::template Label<Index, S::Merge == FeatureMerge::OnTheFly>(problem, device);
    device.Launch("parent kernel",
                  blocks,
                  BlockThreads,
                  ParentsFromLabelsKernel<Index>,
                  l.units,
                  frame.geometry,
                  grid,
                  unitAt,
                  l.parent,
                  l.linked);
  }

  UnitDetection<Device>   m_Detection; ///< the units detected (the runs, for FLSL), and the full runs
  typename Device::Buffer m_Linked;
  typename Device::Buffer m_RowPairs;   ///< PrecedingPairs::row
  typename Device::Buffer m_RunRecords; ///< PrecedingPairs::records
  typename Device::Buffer m_SlicePairs; ///< PrecedingPairs::slice

  /** Rows of the blocks the union-find labels first in a volume: short
   *  enough that the chains within a block stay short, long enough that few
   *  rows are borders (H100, 512^3 labels only, summed: 32 -> 128 rows gave
   *  g = 4 and 16 3-5 %, g = 1 +1 %, all foreground -1 %; H200, g = 1: 64,
   *  128 and 256 rows within 1 %). A 2D image is joined in one pass over
   *  its rows unless its runs are long (FlattenBelowRunsPerRow): on the
   *  H200 (8192^2, labels only, summed, benchmark/results/h200-labels-g1/
   *  call 3) blocks of 64, 128 or 256 rows cost 2-7 % at g = 1 and 5-13 %
   *  at g = 4 and 16, with fan-in 8 or 64. */
  static constexpr std::int64_t DefaultVolumeBlockRows = 128;
  /** Rows of those blocks in a plane of long runs (FlattenBelowRunsPerRow):
   *  each row's runs join the row above's a thread each, and the chains a
   *  block's merges build are as long as its rows, which the later walks
   *  climb one L2 load a link. H100, 8192^2 all foreground, one binary,
   *  summed, 4- / 8-conn.: 128 rows 302.6-304.5 / 307.2-308.6 Gpix/s, 64
   *  rows 320.0 / 321.9-325.3, 32 rows 316.9-318.0 / 321.7-322.0, 256 rows
   *  283.2-287.6 / 282.8-290.2 (benchmark/results/h100-byte-row-spills). */
  static constexpr std::int64_t LongRunsPlaneBlockRows = 64;
  /** Runs a row below which the union-find flattens its trees
   *  (FlattenKernel) after the pass within row blocks and again before the
   *  slice levels; a 2D image of such long runs is then joined in row blocks
   *  and levels too. Long runs make large components, whose deep trees
   *  every later pass climbs. H100, labels only, summed: 512^3 (128-row
   *  blocks) g = 16 +5-6 %, all foreground +8-9 %, g = 4 and 1 within 1 %;
   *  8192^2 all foreground +7-10 % (no other image of the set has so few
   *  runs). Flattening every volume (with 32-row blocks) cost g = 1 11 %;
   *  on the H200, before the slices' first level alone, 512^3 6-conn.
   *  g = 1 5 % (full table) and 9 % (labels only): the flatten took 245 us
   *  and saved the slices' pass 47, whose walks climb the chains its own
   *  merges make (benchmark/results/h200-union-find-rows call 4). */
  static constexpr std::int64_t FlattenBelowRunsPerRow = 16;
  /** Blocks of rows (and slices) a level of the union-find joins
   *  (ForEachLinkPass). Each level is a launch, and the levels of pairs
   *  left few runs to most of them; wider groups chain more roots, which
   *  the later walks climb, but the blocks are labeled first, so a chain
   *  is one root a block, not a row. H200, summed
   *  (benchmark/results/h200-link-fan-in/): in volumes (512^3, 4 blocks of
   *  128 rows a slice, 512 slices) every width from 16 up to one level for
   *  all slices was within 1-2 %; against pairs in one binary, full table
   *  3D 6-conn. g = 1 / 4 / 16 / all foreground 18.5 / 67.2 / 162.2 / 262.0
   *  -> 18.8 / 70.1 / 167.7 / 279.6 Gvox/s (labels only g = 1 58.3 ->
   *  64.1). On the H100 with today's passes, 512 (one level for the
   *  slices of a 512^3 volume) against 64, without the run end index,
   *  summed: 26-conn. g = 16 178.3 -> 183.7 Gvox/s; 6- and 26-conn.
   *  together all foreground 316.3 -> 319.6, g = 4 91.5 -> 92.4, g = 1
   *  46.4 -> 46.6 (benchmark/results/h100-run-end-index calls 1-2); deeper volumes
   *  take a level for every 512 slices. Planes are joined in
   *  blocks only where their runs are long (FlattenBelowRunsPerRow), where
   *  8 gave 8192^2 all foreground 243 -> 256-260 Gpix/s (64: 254-255). */
  static constexpr std::int64_t VolumeFanIn = 512;
  static constexpr std::int64_t LongRunsPlaneFanIn = 8;
  std::int64_t                  m_LinkFanIn = 0;                ///< tests and benchmarks: > 1 overrides the default
  std::int64_t                  m_BlockRows = 0;                ///< tests: > 0 overrides the default
  bool                          m_RecordsWhereFit = true;       ///< tests: false leaves the runs without records
  bool                          m_FullPairsAfterLabels = false; ///< SetFullPairsAfterLabels
  bool                          m_WideRowArithmetic = false;    ///< SetWideRowArithmetic
  std::int32_t                  m_SharedLinkCapacity = 0;       ///< SetSharedLinkCapacity
  bool                          m_QueuedMerges = true;          ///< SetQueuedMerges
  /** Runs of a plane average at most this many pixels of a row (background
   *  included) where LinksByRowBits takes the bits: 8192^2 g = 1 averages
   *  4 to 11, g = 4 16 and more. */
  static constexpr std::int64_t RowBitsPixelsPerRun = 12;
  /** The highest sampled foreground fraction at which LinksByRowBits takes
   *  the bits in planes under full connectivity, and in 6-connected
   *  volumes: between the measured densities 0.3 and 0.4 (0.4 and 0.5). */
  static constexpr double RowBitsFullPlaneDensity = 0.35;
  static constexpr double RowBitsFaceVolumeDensity = 0.45;
  /** The lowest sampled foreground fraction at which LinksByRowBits takes
   *  the bits for the feature table of a plane: between the measured
   *  densities 0.1 and 0.2, under both connectivities. */
  static constexpr double RowBitsPlaneTableDensity = 0.15;
  /** The highest sampled foreground fraction at which a volume's passes
   *  from the rows' bits queue their events (LinkByteRowsKernel): between
   *  the measured densities 0.4 and 0.5 (512^3 26-conn. g = 1). */
  static constexpr double VolumeQueuedEventsDensity = 0.45;
  RowBitLinksUse          m_RowBitLinks = RowBitLinksUse::Automatic;
  StripRows               m_StripRows{};                ///< SetStripRows
  double                  m_StripRowsForeground = -1.0; ///< SetStripRows
  typename Device::Buffer m_RunKeys;
  typename Device::Buffer m_UnitFeatures;
  typename Device::Buffer m_PixelLabels; ///< the label grid of pixel labelings
  typename Device::Buffer m_UnitAt;      ///< pixel -> unit, for pixel labelings
  std::tuple<LabeledUnits<std::uint32_t>, LabeledUnits<unsigned long long>> m_Last{};
};

} // namespace cuda
} // namespace cca

#endif
