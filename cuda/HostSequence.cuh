// The CUDA backend's host sequence, written once against a device and run
// by the backend on the GPU (StreamDevice.cuh) and by the emulation tests on
// CPU threads (test/gpu/emulation/EmulatedDevice.h). One run, stage by stage:
//   1. upload the image (UploadStage.cuh), in slabs of rows: the units of each
//      slab are counted (the first pass of their detection) as it arrives,
//      and the foreground of a sample of rows with them, while the next
//      slabs are copied; then the feature image if any;
//   2. label the units: detect them, join them into components (LabelStage.cuh;
//      a byte volume of short runs under full connectivity through the
//      runs of its tubes of 2 x 2 rows, StripJoin.cuh); or, labels only
//      under full connectivity, label the runs of strips or tubes
//      (StripLabeling.cuh) or blocks of 2 x 2 x 2 pixels
//      (BlockLabeling.cuh) and go to 6;
//   3. number the components in raster order (NumberingStage.cuh), or
//      group the runs of a label image by value (ValueGroupingStage.cuh);
//   4. build the feature table, one stage per FeatureCompaction
//      (VotedTables.cuh: Scan and None; TreeMergeTable.cuh: TreeMerge);
//      apply the selection (SelectionStage.cuh); vote the intensity group
//      (IntensityStage.cuh) and sort the histograms (HistogramStage.cuh);
//   5. write the per-run and per-pixel outputs (OutputStage.cuh); the label
//      image already after 3 where no selection follows, as side work
//      beside the sort of 4 with the pairs the votes add (SideWork);
//   6. download the table and the outputs, then finish the table on the
//      host where the compaction needs it, and the intensity group.
// Each stage owns its device buffers, kept across runs (they only grow; the
// device takes them from the process's memory pools).
// The strategy (Strategies.cuh) is a template argument of every stage: a
// new strategy or compaction is written once, and emulated for free.
//
// A Device has (all work in order, as on one CUDA stream):
//   using Buffer;                          device memory kept across runs: void * Reserve(bytes, what),
//                                          contents undefined after each Reserve
//   Begin()                                before a run: earlier work done, BytesToHost() cleared
//   Launch(what, blocks, threads, kernel, args...)
//   LaunchAllBlocksTogether(...)           Launch for a grid of ResidentBlocks that split the work in
//                                          fixed shares: all blocks start once the kernel before is done
//   ResidentBlocks(kernel, threads)        blocks of kernel that fit on the device at once
//   Fill(destination, byte, bytes, what)
//   Read(const T * source, what) -> T      waits for the work so far (on the GPU, for a kernel
//                                          that writes the value into mapped host memory)
//   Read(const A * a, const B * b, what) -> std::pair<A, B>   the same, one wait for both
//   Scratch<T>(slot, count, what)          per-call scratch of the pixel labelings (PixelLabeling.cuh)
//   ExclusiveSum(what, in, out, count)     out[i] = in[0] + ... + in[i - 1]
//   ExclusiveSumOf(what, f, out, count)    out[i] = f(0) + ... + f(i - 1)
//   SortPairs(what, keysIn, keysOut, valuesIn, valuesOut, count, endBit)   stable by key, keys < 2^endBit
//   SortKeys(what, keysIn, keysOut, count, endBit)                         keys < 2^endBit
//   Upload(destination, bytes, producer, slabBytes, onSlab)
//                                          host bytes (DensePixels.h) to device memory, slab by slab;
//                                          onSlab(begin, end) once a slab is queued: work queued then
//                                          sees it (images in device memory are read in place instead)
//   Download(host, source, bytes)          device memory to the host; returns when it is there
//   DownloadLater(host, source, bytes)     the same, there once FinishDownloads() returns
//   DownloadWidened(host, source, count)   count 32-bit values to the host as 64-bit ones
//   DownloadWidenedFeaturesLater(host, source, count)
//                                          a narrow feature table widened on the host, there once
//                                          FinishDownloads() returns
//   BeginSideWork(), EndSideWork()         launches and fills between them go to a second stream,
//                                          after the work so far, beside what follows on the run's
//   JoinSideWork()                         ... until the run's stream waits for them here (End
//                                          first); End and Join do nothing where none is open or waiting
//   Record(Milestone), Wait(), Milliseconds(from, to), BytesToHost()
#ifndef cca_cuda_HostSequence_cuh
#define cca_cuda_HostSequence_cuh

#include "BlockLabeling.cuh"
#include "ComponentOrder.cuh"
#include "ForegroundBits.cuh"
#include "Frame.cuh"
#include "HistogramStage.cuh"
#include "IntensityStage.cuh"
#include "LabelStage.cuh"
#include "Milestones.h"
#include "NumberingStage.cuh"
#include "OutputStage.cuh"
#include "SelectionStage.cuh"
#include "StripLabeling.cuh"
#include "Strategies.cuh"
#include "StridedGather.cuh"
#include "TreeMergeTable.cuh"
#include "UpdateCounts.cuh"
#include "UploadStage.cuh"
#include "ValueGroupingStage.cuh"
#include "VotedTables.cuh"

#include "DensePixels.h"
#include "ForegroundBits.h"
#include "PixelTypeDispatch.h"

#include "cca/Types.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace cca
{
namespace cuda
{

/** Stage 4, one table stage per cca::FeatureCompaction. */
template <class Device>
using FeatureTables = std::tuple<DenseTable<Device>, SparseTable<Device>, TreeMergeTable<Device>>;

/** Calls f(table) with the table stage of compaction. */
template <class Tables, class F>
void
WithFeatureTable(Tables & tables, FeatureCompaction compaction, F && f)
{
  const bool found = std::apply(
    [&](auto &... table) { return ((table.Compaction == compaction ? (f(table), true) : false) || ...); }, tables);
  if (!found)
  {
    throw Error(Error::Kind::InvalidInput, "unknown feature compaction");
  }
}

/** A stretch of side work (StreamDevice::BeginSideWork) in a run: begun
 *  where asked, ended by End, the run's stream made to wait for it by Join
 *  (the device's End and Join do nothing where no side work is open or
 *  waiting); Join again, errors aside, if the run throws, so that nothing
 *  later on the run's stream (or a buffer it gives back) overtakes the
 *  side work. */
template <class Device>
class SideWork
{
public:
  SideWork(Device & device, bool begin)
    : m_Device(device)
  {
    if (begin)
    {
      device.BeginSideWork();
    }
  }
  ~SideWork()
  {
    try
    {
      Join();
    }
    catch (...)
    {
      // Already unwinding from the run's error; the next run's Begin waits for the side stream.
    }
  }
  SideWork(const SideWork &) = delete;
  SideWork &
  operator=(const SideWork &) = delete;

  void
  End()
  {
    m_Device.EndSideWork();
  }

  void
  Join()
  {
    m_Device.JoinSideWork(); // ends it first
  }

private:
  Device & m_Device;
};

template <class Device>
class HostSequence
{
public:
  /** Labels image with the strategy of options.algorithm (Strategies.cuh)
   *  and fills result (all but backendUsed and times.totalMs). */
  void
  Run(Device & device, const ImageView & image, const Options & options, Result & result)
  {
    if (UsesWideIndex(image, options))
    {
      RunWithIndex<unsigned long long>(device, image, options, result);
    }
    else
    {
      RunWithIndex<std::uint32_t>(device, image, options, result);
    }
  }

  /** Whether Run labels image with 64-bit unit indices (NeedsWideIndex of
   *  the strategy of options.algorithm). */
  bool
  UsesWideIndex(const ImageView & image, const Options & options) const
  {
    bool wide = false;
    WithStrategy(options.algorithm,
                 [&](auto entry) { wide = NeedsWideIndex<typename decltype(entry)::Strategy>(image); });
    return wide;
  }

  /** Run with unit indices of type Index, as Run chooses them: the two
   *  widths can be compiled in separate files (the emulation tests' library
   *  does, to halve its longest compile; the CUDA backend compiles its runs
   *  in three, CudaHostSequence.cuh). */
  template <class Index>
  void
  RunWithIndex(Device & device, const ImageView & image, const Options & options, Result & result)
  {
    WithStrategy(options.algorithm, [&](auto entry) {
      RunStrategy<Index, typename decltype(entry)::Strategy>(device, image, options, result);
    });
  }

  /** The same with strategy S and unit index type Index (tests run
   *  strategies outside the table this way). */
  template <class Index, class S>
  void
  RunStrategy(Device & device, const ImageView & image, const Options & options, Result & result);

  /** Tests: 64-bit unit indices even for small images (the path of large ones). */
  void
  SetForceWideIndex(bool force)
  {
    m_ForceWideIndex = force;
  }

  /** Tests: upload slabs of about this many bytes (0: the default), so that
   *  small images take many slabs. */
  void
  SetSlabBytes(std::size_t bytes)
  {
    m_Upload.SetSlabBytes(bytes);
  }

  /** Tests: rows of the blocks the union-find labels first (0: the default). */
  void
  SetBlockRows(std::int64_t rows)
  {
    m_Labeling.SetBlockRows(rows);
  }

  /** Tests and benchmarks: LabelStage::SetFullPairsAfterLabels. */
  void
  SetFullPairsAfterLabels(bool afterLabels)
  {
    m_Labeling.SetFullPairsAfterLabels(afterLabels);
  }

  /** Tests and benchmarks: LabelStage::SetQueuedMerges. */
  void
  SetQueuedMerges(bool queued)
  {
    m_Labeling.SetQueuedMerges(queued);
  }

  /** Tests and benchmarks: LabelStage::SetSharedLinkCapacity. */
  void
  SetSharedLinkCapacity(std::int32_t capacity)
  {
    m_Labeling.SetSharedLinkCapacity(capacity);
  }

  /** Tests: LabelStage::SetWideRowArithmetic. */
  void
  SetWideRowArithmetic(bool wide)
  {
    m_Labeling.SetWideRowArithmetic(wide);
  }

  /** Tests: whether runs get records where the rows fit them (LabelStage::SetRunRecords). */
  void
  SetRunRecords(bool records)
  {
    m_Labeling.SetRunRecords(records);
  }

  /** Tests and benchmarks: blocks a level of the union-find joins (0: the default). */
  void
  SetLinkFanIn(std::int64_t fanIn)
  {
    m_Labeling.SetLinkFanIn(fanIn);
  }

  /** Tests and benchmarks: whether the runs of byte masks that fit are
   *  joined from the rows' foreground bits (LabelStage::LinksByRowBits)
   *  where that is faster (Automatic), always, or never. */
  void
  SetRowBitLinks(RowBitLinksUse use)
  {
    m_Labeling.SetRowBitLinks(use);
  }

  /** Tests and benchmarks: whether the runs of byte masks get their end
   *  index (LabelStage::SetRunEndIndex). */
  void
  SetRunEndIndex(RunEndIndexUse use)
  {
    m_Labeling.SetRunEndIndex(use);
  }

  /** Tests and benchmarks: whether the feature votes take the units in
   *  component order (VotesInComponentOrder). */
  void
  SetVoteOrder(VoteOrderUse use)
  {
    m_VoteOrder = use;
  }

  /** Tests and benchmarks: whether the component order leaves the largest
   *  component's units out of its sort (LargestApart). */
  void
  SetLargestApart(LargestApartUse use)
  {
    m_LargestApart = use;
  }

  /** Tests and benchmarks: whether the largest component's entry is the
   *  foreground's totals less the others (LargestSubtractedFor). */
  void
  SetLargestSubtracted(LargestSubtractedUse use)
  {
    m_LargestSubtracted = use;
  }

  /** Tests: whether the last run's pairs' pass placed the largest
   *  component's runs (PlacedLargest.cuh). */
  bool
  PlacedLargestLastRun() const
  {
    return m_PlacedLargestLastRun;
  }

  /** Tests and benchmarks: whether the votes in component order store the
   *  components of a chunk whole (VotesStoreWholeComponents). */
  void
  SetWholeComponents(WholeComponentsUse use)
  {
    m_WholeComponents = use;
  }

  /** Tests and benchmarks: whether the dense table's entries are narrow
   *  where they fit, and where they are widened (TableEntriesFor). */
  void
  SetNarrowTable(NarrowTableUse use)
  {
    m_NarrowTable = use;
  }

  /** Tests and benchmarks: whether a 2D image's narrow table holds planar
   *  entries. */
  void
  SetPlanarTable(PlanarTableUse use)
  {
    m_PlanarTable = use;
  }

  /** Tests and benchmarks: when runs that fit the block labeling take it
   *  (Automatic: by the runs' mean length). */
  void
  SetBlockLabeling(BlockLabelingUse use)
  {
    m_BlockLabeling = use;
  }

  /** Tests and benchmarks: when planes that fit the strip labeling take
   *  it (Automatic: by the runs' mean length and the foreground fraction). */
  void
  SetStripLabeling(StripLabelingUse use)
  {
    m_StripLabeling = use;
  }

  /** Tests: from how many units the numbering climbs from several a
   *  thread (NumberingStage::SetClimbingRuns); -1: the default. */
  void
  SetNumberingClimbingRuns(std::int64_t units)
  {
    m_Numbering.SetClimbingRuns(units);
  }

  /** Copies of the tree merge compaction that needed a second one, over all runs. */
  std::int64_t
  TreeMergeSecondCopies() const
  {
    return std::get<TreeMergeTable<Device>>(m_Tables).SecondCopies();
  }

  /** The stages, for tests that inspect the device arrays of the last run. */
  const LabelStage<Device> &
  Labeling() const
  {
    return m_Labeling;
  }
  const TreeMergeTable<Device> &
  TreeMerge() const
  {
    return std::get<TreeMergeTable<Device>>(m_Tables);
  }

private:
  /** The objects that stages 2 to 5 over units leave for the download. */
  template <class Index>
  struct MeasuredObjects
  {
    Index                 count; ///< objects (after the selection)
    const std::uint64_t * keys;  ///< per object, its value's key on the device (label images), else null
  };

  /** Stages 2 to 5 over the strategy's units: labels and joins them,
   *  numbers the components, builds the table, applies the selection, votes
   *  the intensity group and writes the outputs. */
  template <class Index, class S>
  MeasuredObjects<Index>
  LabelAndMeasureUnits(Device &      device,
                       const Frame & frame,
                       const void *  deviceImage,
                       const void *  deviceFeature,
                       Result &      result)
  {
    const Options &           options = frame.options;
    const bool                intensity = options.intensity.Requested();
    const bool                labelImage = options.objects != Objects::ForegroundComponents;
    const bool                byStrips = JoinsRunsByStrips<Index, S>(device, frame, deviceImage);
    const LabeledUnits<Index> labeled =
      m_Labeling.template Run<Index, S>(device, frame, deviceImage, m_Counts, byStrips);
    if (byStrips)
    {
      m_Strips.template JoinImageRuns<Index, S>(
        device, frame, deviceImage, SampledForegroundFraction<Index>(device, frame), labeled);
    }
    device.Record(Milestone::UnitsLabeled);
    // Labels only of a mask need the count only for the result: it is read
    // once the label image is queued, not between the numbering and the
    // label image. With 32-bit units there are fewer than 2^31 components,
    // so its bound (the units) decides the label image's width as the
    // count would (OutputStage::LabelTarget) and cannot overflow it.
    const bool        deferCount = LabelsOnlyOfMask(options) && sizeof(Index) == 4;
    const bool        groupsSameLabels = options.computeRuns && !options.selection.Active() && !S::SplitUnits;
    const bool        features = options.computeFeatures;
    const bool        findLargest = features && LooksForLargest<S>(options, labeled.units.count, groupsSameLabels);
    Components<Index> components = options.objects == Objects::LabelValues
                                     ? m_Grouping.Run(device, frame, labeled, m_Sorts)
                                     : m_Numbering.Run(device, frame, labeled, deferCount, findLargest);
    if (options.objects == Objects::LabelValueComponents)
    {
      m_Grouping.KeysOfComponents(device, labeled, components);
    }
    result.objectsFound = static_cast<std::int64_t>(components.count);
    // Labels only (cca::ValidateInput: then no selection, no feature image): no table.
    // Without a selection the labels are final now: the label image goes
    // first, ahead of the table (OutputStage::BeginWithLabelImage).
    const bool labelImageFirst =
      features && !options.selection.Active() && options.labelImageType != LabelImageType::None;
    const Index * runLabel = nullptr;
    // The dense table's stored pairs that wait for the labels
    // (CountPairsAfterLabels; the sparse table counts its own).
    const bool pairsFirst = features && options.featureCompaction == FeatureCompaction::Scan &&
                            labeled.pairsAfterLabels && labeled.units.count > 0;
    // The largest component's entry from the foreground's totals: its runs
    // vote their bounding box only, and no pairs are counted for them
    // (LargestBySubtraction.cuh).
    SubtractedLargest<Index> subtracted =
      features ? LargestSubtractedFor<Index, S>(frame, deviceImage, components, labeled) : SubtractedLargest<Index>{};
    // The units in component order for the votes, sorted once for them and
    // the runs' grouping when that sorts by the same labels (ComponentOrder.cuh).
    const bool ordered = features && VotesInComponentOrder<S>(options, components.count, groupsSameLabels);
    // The dense table's votes in the runs' grouping order group them too,
    // where they can (OutputStage::GroupRunsInVotes); where the pairs' pass
    // places the subtracted component's runs, it groups those
    // (PlacedLargest.cuh), the votes the others.
    const bool votesInGroupOrder = features && options.featureCompaction == FeatureCompaction::Scan && groupsSameLabels;
    // Without update counting (the pass and the votes have a variant for
    // it), a component of several runs (each of them linked, which the
    // pass reads before a label under full connectivity).
    const bool placing = votesInGroupOrder && subtracted.Active() && pairsFirst && components.largest.units > 1 &&
                         !options.countAtomicUpdates && labeled.precedingPairs.records != nullptr &&
                         (ordered || components.count == 1);
    const RunGroups groups =
      m_Outputs.GroupRunsInVotes(frame, labeled, components, votesInGroupOrder && (ordered || placing));
    PlacedLargest<Index> placed;
    if (placing && groups.runs != nullptr)
    {
      const LargestComponent<Index> & largest = components.largest;
      subtracted.placed = PlacedRange<Index>{ largest.unitsBefore, largest.units, largest.label };
      placed = PlacedLargest<Index>{ groups,
                                     subtracted.placed,
                                     labeled.units.count,
                                     largest.bits,
                                     m_Sorts.LargestWordRanks(device, labeled.units.count, largest),
                                     subtracted.Box() };
    }
    m_PlacedLargestLastRun = placed.Active();
    // The label image and those pairs read the labels and the runs, which
    // nothing after them writes, and nothing reads what they write before
    // the table: they run as side work beside the component order's sort
    // (StreamDevice::BeginSideWork), joined before the table's votes, a
    // grid that wants every multiprocessor. The foreground's totals read
    // the image only: they run on the run's stream beside the side work
    // (where the pass places the largest component's runs, the longer
    // path: at 512^3 26-conn. d = 0.5 the label image and the pass take
    // 660 us, the sort's split 62), ahead of it in the GPU's dispatch.
    // Their words are cleared first, since the pass adds into them too.
    // (The label image beside the pass as well, on the run's stream, made
    // no difference: benchmark/results/h200-totals-beside call 2.)
    if (subtracted.Active())
    {
      ClearSubtractedWords(device, subtracted);
    }
    SideWork<Device> side(device, labelImageFirst || pairsFirst);
    if (labelImageFirst)
    {
      NumberingStage<Device>::CheckLabelImageRange(frame, static_cast<std::uint64_t>(components.count));
      runLabel = m_Outputs.template BeginWithLabelImage<Index, S>(device, frame, deviceImage, labeled, components);
    }
    if (pairsFirst)
    {
      CountPairsAfterLabels<Index, S>(device, frame, labeled, components.label, subtracted, placed);
    }
    side.End();
    if (subtracted.Active())
    {
      QueueForegroundTotals(device, frame, deviceImage, subtracted);
    }
    ComponentOrder<Index> order;
    if (ordered)
    {
      // The ranks are no longer needed (at least as many as the units).
      const int bits = BitsFor(static_cast<std::uint64_t>(components.count));
      order = placed.Active() || LargestApart(components.largest, labeled.units.count, components.count)
                ? m_Sorts.ByComponentAroundLargest(device,
                                                   components.label,
                                                   labeled.units.count,
                                                   bits,
                                                   components.rank,
                                                   components.largest,
                                                   placed.wordRank,
                                                   !placed.Active())
                : m_Sorts.ByComponent(device, components.label, labeled.units.count, bits, components.rank);
    }
    side.Join();
    if (features)
    {
      WithFeatureTable(m_Tables, options.featureCompaction, [&](auto & table) {
        if constexpr (std::is_same_v<std::decay_t<decltype(table)>, DenseTable<Device>>)
        {
          table.template Build<Index, S>(device,
                                         frame,
                                         labeled,
                                         components,
                                         m_Counts,
                                         order,
                                         groups,
                                         !placed.Active() &&
                                           VotesStoreWholeComponents(order, components.count, labeled.units.count),
                                         TableEntriesFor<Index, S>(options, frame.pixels, components.count, intensity),
                                         m_PlanarTable == PlanarTableUse::Automatic && !frame.faces.hasZAxis,
                                         subtracted);
        }
        else
        {
          table.template Build<Index, S>(device, frame, labeled, components, m_Counts, order);
        }
      });
    }
    DenseTable<Device> &  dense = std::get<DenseTable<Device>>(m_Tables); // the only table with groups
    const std::uint64_t * objectKeys = labelImage ? m_Grouping.ObjectKeys() : nullptr;
    if (options.selection.Active())
    {
      components = m_Selection.Run(device, frame, labeled, components, dense.Table());
      dense.Select(device, m_Selection.template NewToOld<Index>(), components.count);
      if (objectKeys != nullptr && components.count > 0)
      {
        auto * kept = Reserve<std::uint64_t>(m_SelectedKeys, components.count, "selected object keys");
        device.Launch("key gathering kernel",
                      BlocksFor(static_cast<std::int64_t>(components.count), BlockThreads),
                      BlockThreads,
                      GatherKernel<std::uint64_t, Index>,
                      components.count,
                      m_Selection.template NewToOld<Index>(),
                      objectKeys,
                      kept);
        objectKeys = kept;
      }
    }
    if (!labelImageFirst) // else checked before it, with the same count (no selection)
    {
      NumberingStage<Device>::CheckLabelImageRange(frame, static_cast<std::uint64_t>(components.count));
    }
    if (labeled.units.count > 0)
    {
      if (!labelImageFirst)
      {
        runLabel = m_Outputs.template RunLabels<Index, S>(device, labeled, components);
      }
      if (intensity)
      {
        m_Intensity.Vote(
          device, frame, deviceFeature, labeled.runs, runLabel, components.count, components.count, dense.Table());
        m_Histograms.Build(
          device, frame, deviceFeature, labeled.runs, runLabel, components.count, components.count, dense.Table());
      }
    }
    else if (intensity)
    {
      m_Intensity.Vote(device, frame, deviceFeature, labeled.runs, runLabel, Index{ 0 }, Index{ 0 }, dense.Table());
      m_Histograms.Build(device, frame, deviceFeature, labeled.runs, runLabel, Index{ 0 }, Index{ 0 }, dense.Table());
    }
    m_Outputs.template Write<Index, S>(device,
                                       frame,
                                       deviceImage,
                                       labeled,
                                       components,
                                       m_Sorts,
                                       labelImageFirst,
                                       runLabel,
                                       groupsSameLabels ? order : ComponentOrder<Index>{});
    if (components.deviceCount != nullptr) // deferred: labels only, no selection
    {
      NumberingStage<Device>::ReadCount(device, components);
      result.objectsFound = static_cast<std::int64_t>(components.count);
    }
    return MeasuredObjects<Index>{ components.count, objectKeys };
  }

  /** Whether the feature votes take the units in component order: the
   *  default algorithm's dense table, where the runs' grouping sorts them
   *  by the same labels anyway (sharedSort), or as a test or benchmark asks.
   *  The papers' strategies vote in raster order, as reproduced. */
  template <class S, class Index>
  bool
  VotesInComponentOrder(const Options & options, Index components, bool sharedSort) const
  {
    return components >= 2 && VotesMayTakeComponentOrder<S>(options, sharedSort);
  }

  /** VotesInComponentOrder whatever the component count (not yet known
   *  where the numbering is queued). */
  template <class S>
  bool
  VotesMayTakeComponentOrder(const Options & options, bool sharedSort) const
  {
    if (options.algorithm != Algorithm::Default || options.featureCompaction != FeatureCompaction::Scan ||
        S::Merge == FeatureMerge::OnTheFly || m_VoteOrder == VoteOrderUse::Never)
    {
      return false;
    }
    return m_VoteOrder == VoteOrderUse::Always || sharedSort;
  }

  /** Whether the numbering looks for the largest component
   *  (LargestComponent.cuh): where the votes may take the units in
   *  component order and there are at least LargestApartLeastUnits, or
   *  always as a test asks. */
  template <class S, class Index>
  bool
  LooksForLargest(const Options & options, Index units, bool sharedSort) const
  {
    return m_LargestApart != LargestApartUse::Never && VotesMayTakeComponentOrder<S>(options, sharedSort) &&
           (m_LargestApart == LargestApartUse::Always || m_LargestSubtracted == LargestSubtractedUse::Always ||
            static_cast<std::int64_t>(units) >= LargestApartLeastUnits);
  }

  /** The largest component (found by LooksForLargest) whose table entry
   *  is the foreground's totals less the other entries
   *  (LargestBySubtraction.cuh): the components of a byte mask of whole
   *  16-byte rows (the totals' kernel reads it 16 pixels a lane), under
   *  full connectivity or with the pairs counted after the labels, for
   *  the default algorithm's dense table, where its runs are many among
   *  the pixels and the other components few among the runs (the
   *  constants below, planes' own), or always as a test asks; else none
   *  (NoLabel). */
  template <class Index, class S>
  SubtractedLargest<Index>
  LargestSubtractedFor(const Frame &               frame,
                       const void *                image,
                       const Components<Index> &   c,
                       const LabeledUnits<Index> & l)
  {
    const Options & options = frame.options;
    const Index     units = l.units.count;
    // A mask's components, whose pairs between components (face
    // connectivity) the pairs' pass after the labels counts.
    const bool pairsKnown = options.objects == Objects::ForegroundComponents && (frame.fullMask || l.pairsAfterLabels);
    if (m_LargestSubtracted == LargestSubtractedUse::Never || c.largest.bits == nullptr || !pairsKnown ||
        !FitsByteRowScan(frame, image) || options.algorithm != Algorithm::Default ||
        options.featureCompaction != FeatureCompaction::Scan || S::Merge == FeatureMerge::OnTheFly)
    {
      return {};
    }
    const double mostComponentsPerUnit = frame.geometry.depth > 1 ? LargestSubtractedMostComponentsPerUnit
                                                                  : LargestSubtractedMostComponentsPerUnitInPlanes;
    if (m_LargestSubtracted == LargestSubtractedUse::Automatic &&
        (static_cast<double>(c.largest.units) <
           LargestSubtractedLeastUnitsPerPixel * static_cast<double>(frame.pixels) ||
         static_cast<double>(c.count) > mostComponentsPerUnit * static_cast<double>(units)))
    {
      return {};
    }
    SubtractedLargest<Index> s;
    s.label = c.largest.label;
    s.words =
      Reserve<unsigned long long>(m_SubtractedWords, SubtractedLargest<Index>::Words, "the foreground's totals");
    return s;
  }

  /** Whether the component order leaves the units of the largest
   *  component (found by LooksForLargest) out of its sort: where it holds
   *  at least LargestApartLeastShare of the units and the components are
   *  more than LargestApartLeastComponents, or always as a test asks. */
  template <class Index>
  bool
  LargestApart(const LargestComponent<Index> & largest, Index units, Index components) const
  {
    if (largest.bits == nullptr || m_LargestApart == LargestApartUse::Never)
    {
      return false;
    }
    return m_LargestApart == LargestApartUse::Always ||
           (static_cast<double>(largest.units) >= LargestApartLeastShare * static_cast<double>(units) &&
            static_cast<std::int64_t>(components) > LargestApartLeastComponents);
  }

  /** Whether the dense table's votes in component order store the
   *  components of a warp's chunk whole (WholeComponents.cuh): where
   *  components are at least WholeComponentsLeastShare of the units, or as
   *  a test or benchmark asks. With few components nearly every chunk
   *  holds one that crosses its boundaries, and the passes over the
   *  boundaries cost more than the prepared table's passes over the
   *  components (H200, full table, g = 1 and 4, each image both ways in
   *  one call: from 0.10 components a unit never slower, 0.03 to 0.73 ms
   *  faster an image from 0.14 up; below 0.07 up to 0.18 ms slower;
   *  benchmark/results/h200-whole-components-in-chunks call 4). Since the
   *  later kernels, 8192^2 8-conn. g = 1 d = 0.4 (0.066) took 2.26-2.29
   *  ms whole against 2.40-2.41 prepared, while 512^3 6-conn. g = 1
   *  d = 0.5 (0.036) lost 0.11 ms and 8192^2 8-conn. g = 4 d = 0.3
   *  (0.056) was even (benchmark/results/h200-plane-strips-retired call
   *  4): the threshold lies between 0.056 and 0.066. */
  template <class Index>
  bool
  VotesStoreWholeComponents(const ComponentOrder<Index> & order, Index components, Index units) const
  {
    if (order.label == nullptr || m_WholeComponents == WholeComponentsUse::Never)
    {
      return false;
    }
    return m_WholeComponents == WholeComponentsUse::Always ||
           static_cast<double>(components) >= WholeComponentsLeastShare * static_cast<double>(units);
  }

  /** From how many components the dense table's narrow entries are
   *  widened on the host as they arrive (Automatic). Fewer are widened on
   *  the device (at most 14 MB more, some microseconds), so that they go to
   *  the host in the one gathered copy of the run's results
   *  (HostStaging::GatherBytes, 8 MiB: at most 38,836 wide entries); from
   *  65,536 wide entries would take a copy of their own anyway, and their
   *  widening on the device would cost more than the narrow votes save. */
  static constexpr std::int64_t NarrowTableLeastComponents = std::int64_t{ 1 } << 16;

  /** The dense table's entries (DenseTable::Build): NarrowFeatures, 160
   *  bytes instead of 216, whose votes fold fewer words and store less
   *  (H200, full table, summed: g = 1 +3 to +7 %, a giant component's
   *  votes 3-4 % faster; benchmark/results/h200-narrow-counts), in 2D
   *  images PlanarFeatures, 96 (m_PlanarTable; against 160: g = 1 +8 to
   *  +10 %, g = 4 +7 %; benchmark/results/h200-planar-entries), for the
   *  default algorithm with 32-bit indices on an image whose counts fit
   *  32 bits (NarrowFeaturesMostPixels). Many components are widened on
   *  the host, unless a selection or the intensity statistics read the
   *  table on the device (their widening there would cost more than the
   *  votes save: ComponentFeatures then); few on the device. */
  template <class Index, class S>
  TableEntries
  TableEntriesFor(const Options & options, std::int64_t pixels, Index components, bool intensity) const
  {
    if (!DenseTable<Device>::template NarrowEntriesFit<Index, S> || m_NarrowTable == NarrowTableUse::Never ||
        options.algorithm != Algorithm::Default || pixels > NarrowFeaturesMostPixels)
    {
      return TableEntries::Wide;
    }
    const bool many = m_NarrowTable == NarrowTableUse::HostWidening ||
                      static_cast<std::int64_t>(components) >= NarrowTableLeastComponents;
    if (!many)
    {
      return TableEntries::NarrowWidenedOnDevice;
    }
    return options.selection.Active() || intensity ? TableEntries::Wide : TableEntries::NarrowWidenedOnHost;
  }

  /** Whether this run labels by blocks (BlockLabeling.cuh) instead of
   *  units: the default algorithm, where the block labeling fits, in a
   *  volume whose runs (counted during the upload) are short, or as a test
   *  or benchmark asks. */
  template <class Index>
  bool
  LabelsByBlocks(Device & device, const Frame & frame)
  {
    if (frame.options.algorithm != Algorithm::Default || !BlockLabelingStage<Device>::Fits(frame) ||
        m_BlockLabeling == BlockLabelingUse::Never)
    {
      return false;
    }
    if (m_BlockLabeling == BlockLabelingUse::Always)
    {
      return true;
    }
    if (frame.geometry.depth == 1)
    {
      return false;
    }
    const auto   runs = static_cast<std::int64_t>(m_Labeling.template CountedUnits<Index>(device, frame));
    const double density = m_Labeling.CountedForegroundFraction();
    return runs * BlockPixelsPerRunVolume > frame.pixels && density >= BlockLeastDensityVolume;
  }

  /** The image's sampled foreground fraction (LabelStage::
   *  CountedForegroundFraction), read with the run count where the
   *  labeling's choice did not read it already (a forced choice): the
   *  strips' passes join by the image's density, whatever chose them. */
  template <class Index>
  double
  SampledForegroundFraction(Device & device, const Frame & frame)
  {
    m_Labeling.template CountedUnits<Index>(device, frame);
    return m_Labeling.CountedForegroundFraction();
  }

  /** Whether this run labels the runs of strips of two rows, or of tubes
   *  of 2 x 2 rows in a volume (StripLabeling.cuh), instead of the rows'
   *  runs or the blocks: where that fits, in a plane whose runs (counted
   *  during the upload) are short and whose sampled foreground fraction is
   *  at least StripLeastDensity, in a volume whose runs are short, or as a
   *  test or benchmark asks. */
  template <class Index>
  bool
  LabelsByStrips(Device & device, const Frame & frame, const void * image)
  {
    if (m_StripLabeling == StripLabelingUse::Never || !StripLabelingStage<Device>::Fits(frame, image) ||
        !StripLabelingStage<Device>::template KeysFit<Index>(frame))
    {
      return false;
    }
    if (m_StripLabeling == StripLabelingUse::Always)
    {
      return true;
    }
    const auto runs = static_cast<std::int64_t>(m_Labeling.template CountedUnits<Index>(device, frame));
    if (frame.geometry.depth > 1)
    {
      return runs * TubePixelsPerRun > frame.pixels;
    }
    return runs * StripPixelsPerRun > frame.pixels && m_Labeling.CountedForegroundFraction() >= StripLeastDensity;
  }

  /** Whether the runs of the image rows are joined through the strips
   *  (StripLabelingStage::JoinImageRuns) instead of by the union-find over
   *  them: the default algorithm's whole runs of a byte mask under full
   *  connectivity, with a feature table or runs (labels only take the
   *  strips' labels themselves, LabelsByStrips), in a volume whose runs
   *  are short and whose sampled foreground fraction is at least
   *  JoinStripLeastDensity, or as a test or benchmark asks
   *  (SetStripLabeling). A plane's runs are joined from its rows' bits
   *  instead (see JoinStripLeastDensity). */
  template <class Index, class S>
  bool
  JoinsRunsByStrips(Device & device, const Frame & frame, const void * image)
  {
    if constexpr (!std::is_same_v<typename S::Units, FullRuns> || S::LabelsPixels || S::Merge == FeatureMerge::OnTheFly)
    {
      return false;
    }
    else
    {
      if (m_StripLabeling == StripLabelingUse::Never || LabelsOnlyOfMask(frame.options) ||
          !StripLabelingStage<Device>::FitsJoin(frame, image))
      {
        return false;
      }
      if (m_StripLabeling == StripLabelingUse::Always)
      {
        return true;
      }
      if (frame.geometry.depth == 1)
      {
        return false;
      }
      const auto runs = static_cast<std::int64_t>(m_Labeling.template CountedUnits<Index>(device, frame));
      return runs * JoinStripPixelsPerRun > frame.pixels &&
             m_Labeling.CountedForegroundFraction() >= JoinStripLeastDensity;
    }
  }

  /** 32-bit unit indices while the unit count (at most one per two pixels
   *  of a row, rounded up, for full runs; one per pixel for pieces of runs)
   *  stays below 2^31, which keeps index arithmetic in range. */
  template <class S>
  bool
  NeedsWideIndex(const ImageView & image) const
  {
    const std::int64_t rows = image.size[1] * image.size[2];
    const std::int64_t unitBound = S::SplitUnits ? rows * image.size[0] : rows * ((image.size[0] + 1) / 2);
    return m_ForceWideIndex || unitBound >= (std::int64_t{ 1 } << 31);
  }

  /** In a volume the block labeling is taken when the runs are shorter on
   *  average than BlockPixelsPerRunVolume pixels of a row (background
   *  included) and the sampled foreground fraction d is at least
   *  BlockLeastDensityVolume. A random image has about d (1 - d) runs a
   *  pixel, so the run length alone cannot tell d = 0.1 from d = 0.9. On
   *  the H100 (512^3, 26-connectivity, labels only, per image) the blocks
   *  took 3.8 / 4.3 / 4.3 / 4.1 / 3.8 / 3.4 / 3.0 / 2.6 / 2.1 ms at g = 1,
   *  d = 0.1 ... 0.9 (11, 6.3, 4.8, 4.2, 4, 4.2, 4.8, 6.3, 11 pixels a run)
   *  where the runs joined from the rows' bits took 2.0 / 3.5 / 4.7 / 5.2 /
   *  5.8 / 5.8 / 5.4 / 4.6 / 3.5; wherever g >= 4 (16 and more pixels a
   *  run) and on the all-foreground image the runs won. In a plane the
   *  blocks were slower everywhere (8192^2, 8-connectivity, g = 1, d =
   *  0.5: 4.0 against 1.8 ms), so planes keep the runs. */
  static constexpr std::int64_t BlockPixelsPerRunVolume = 14;
  static constexpr double       BlockLeastDensityVolume = 0.25;
  /** A plane takes the strips when its runs are shorter on average than
   *  StripPixelsPerRun pixels of a row and its sampled foreground fraction
   *  is at least StripLeastDensity. On the H200 (8192^2, 8-connectivity,
   *  labels only, per image, benchmark/results/h200-tube-labeling/, the
   *  strips joined from the facing rows' bits) the strips took 0.99 / 1.24
   *  / 1.06 / 0.91 / 0.74 / 0.60 / 0.47 ms at g = 1, d = 0.3 ... 0.9 where
   *  the rows' runs took 1.05 / 1.33 / 1.40 / 1.41 / 1.34 / 1.10 / 0.76;
   *  at d = 0.2 (0.86 against 0.67 ms) and below, at g >= 4 and on the
   *  all-foreground image (16 and more pixels a run) the rows won. Since
   *  the rows' union-find takes a row in parts (ByteRowLinkParts) the rows
   *  win at d = 0.3 too: 0.79-0.80 against 0.92-0.94 ms, while at d = 0.4
   *  the strips still do, 1.05-1.06 against 1.26-1.30
   *  (benchmark/results/h200-label-image-parts/, calls 6 and 7); the
   *  threshold is between the two, where the benchmark has no image. */
  static constexpr std::int64_t StripPixelsPerRun = 12;
  /** A volume's feature table joins its runs through the tubes where its
   *  runs average fewer than JoinStripPixelsPerRun pixels of a row and its
   *  sampled foreground fraction is at least JoinStripLeastDensity. On the
   *  H200 (512^3, 26-connectivity, full table, label + features per image,
   *  benchmark/results/h200-group-runs/ call 2) the tubes took 4.05 / 4.90
   *  / 5.72 / 5.86 / 5.91 / 5.48 / 4.88 / 3.98 / 2.69 ms at g = 1,
   *  d = 0.1 ... 0.9 where the union-find over the runs took 3.52 / 5.43 /
   *  6.89 / 7.92 / 8.94 / 8.95 / 8.26 / 6.69 / 4.22; at g = 4 (16 and more
   *  pixels a run) and on the all-foreground image the runs won. A plane
   *  took its strips from a fraction of 0.45 on until its table's runs
   *  were joined from the rows' bits (RowBitsPlaneTableDensity); since,
   *  the rows win at every density (8192^2, 8-connectivity, g = 1, full
   *  table, per image, two rounds, benchmark/results/
   *  h200-plane-strips-retired/ call 1: 1.81-1.82 / 1.77-1.78 / 1.59-1.61
   *  / 1.28 / 0.88 ms at d = 0.5 ... 0.9 against the strips' 2.08 /
   *  1.83-1.84 / 1.62-1.64 / 1.35 / 0.99; summed 49.4-49.5 -> 51.1-51.4
   *  Gpix/s), so planes never take them by default. */
  static constexpr std::int64_t JoinStripPixelsPerRun = 12;
  static constexpr double       JoinStripLeastDensity = 0.15;
  static constexpr double       StripLeastDensity = 0.35;
  /** Components a unit from which the votes store whole components
   *  (VotesStoreWholeComponents). */
  static constexpr double WholeComponentsLeastShare = 0.06;
  /** Units from which the numbering looks for the largest component, the
   *  share of them it must hold and the components there must be for the
   *  component order to leave its units out of the sort (LooksForLargest,
   *  LargestApart). With at most 256 components CUB's radix sort of all
   *  units is one pass of 8-bit digits, and leaving the largest out was
   *  0.05-0.1 ms an image slower (H200, full table, 512^3 26-conn. g = 1
   *  d = 0.4-0.7, 8192^2 8-conn. d = 0.8-0.9). Above, left out, one
   *  binary: 512^3 6-conn. g = 1 d = 0.4-0.7 0.41-0.57 ms an image faster,
   *  26-conn. d = 0.2-0.3 0.21-0.34, 8192^2 4-conn. d = 0.6-0.8 0.14-0.22,
   *  8-conn. d = 0.5 0.27 (benchmark/results/h200-largest-apart calls 1
   *  and 5). */
  static constexpr std::int64_t LargestApartLeastUnits = std::int64_t{ 1 } << 20;
  static constexpr double       LargestApartLeastShare = 0.4;
  static constexpr std::int64_t LargestApartLeastComponents = 256;
  /** Where the largest component's entry is the foreground's totals less
   *  the others (LargestSubtractedFor): its runs at least this many a
   *  pixel, the components at most this many a run (in volumes; planes
   *  below). The totals cost the same whatever the runs, the others' sum
   *  a pass over their entries, and each run of the largest component
   *  saves its vote and its pairs' search. H200, full table, 26-conn., a s s a, per image
   *  (benchmark/results/h200-largest-subtracted call 1, subtracted from a
   *  share of 0.3 of the runs, the totals then about 0.3 ms at 512^3 and
   *  0.1 ms at 8192^2): 512^3 g = 1 d = 0.2 ... 0.9 (0.09-0.25 runs a
   *  voxel, at most 0.005 components a run) 0.14-0.68 ms an image faster,
   *  d = 0.1 (0.14 components a run) 0.38 slower; g = 4 (at most 0.063
   *  runs a voxel) 0.25-0.31 slower; 8192^2 8-conn. g = 1 within 0.02 ms
   *  up to d = 0.7, 0.06-0.08 slower at d = 0.8-0.9, g = 4 0.10-0.13
   *  slower: in planes the votes of the largest component cost about what
   *  the totals do. Reading each row once took 0.15 ms off the totals at
   *  512^3 (call 3); forced at g = 4 they still lost. Under face
   *  connectivity, where the pairs' pass also counts the pairs between
   *  components (benchmark/results/h200-face-subtracted call 1, always
   *  against never, n a a n): 512^3 6-conn. g = 1 d = 0.7 ... 0.9 (at
   *  most 0.003 components a run) 0.26-0.52 ms an image faster, d = 0.6
   *  (0.011) even, d = 0.1 ... 0.5 0.3-1.5 ms slower; g = 4 0.06-0.38 and
   *  8192^2 4-conn. 0.04-0.51 slower everywhere. Since the placing pass
   *  queues the other runs' searches (CountPrecedingPairsKernel), p
   *  against p --largest-subtracted always, per image, p a a p
   *  (benchmark/results/h200-queued-placing-searches calls 2 and 3):
   *  512^3 6-conn. g = 1 d = 0.4 (0.103 components a run) 5.21 -> 4.60
   *  ms, d = 0.5 (0.036) 5.07 -> 3.86, d = 0.6 (0.011) 4.93 -> 3.61,
   *  d = 0.3 (0.274) 5.57 -> 7.52; 26-conn. d = 0.1 (0.140) 3.13 -> 3.31:
   *  the bound now lies between 0.103 and 0.140. */
  static constexpr double LargestSubtractedLeastUnitsPerPixel = 0.08;
  static constexpr double LargestSubtractedMostComponentsPerUnit = 0.12;
  /** The same in planes, where the pairs' pass also places the largest
   *  component's runs (PlacedLargest.cuh; before, planes did not gain from
   *  the subtraction alone). H200, full table, 8192^2, always against
   *  never, v a e e a v (benchmark/results/h200-planes-placed call 1), per
   *  image: 8-conn. g = 1 d = 0.5 (0.013 components a run) 0.25 ms
   *  faster, d = 0.6 ... 0.9 (at most 0.002) 0.11-0.29 faster, d = 0.4
   *  (0.066) 0.4 slower; 4-conn. d = 0.8 and 0.9 (at most 0.009)
   *  0.04-0.06 faster, d = 0.7 (0.035) within 0.03 ms (left out: the
   *  losses begin at 0.066), d = 0.6 (0.106) and below 0.2-0.8 slower;
   *  g = 4 (fewer than 0.08 runs a pixel) and the all-on image slower
   *  everywhere. With the placing pass's searches queued (as above, calls
   *  2 and 3): 4-conn. d = 0.7 (0.035) 1.66 -> 1.45 ms, d = 0.6 (0.106)
   *  1.94 -> 1.98; 8-conn. d = 0.4 (0.066) 2.21 -> 2.67, d = 0.3 (0.225)
   *  1.91 -> 2.12: the bound now lies between 0.035 and 0.066. */
  static constexpr double LargestSubtractedMostComponentsPerUnitInPlanes = 0.05;
  /** A volume takes the tubes when its runs are shorter on average than
   *  TubePixelsPerRun pixels of a row: at g = 1, d = 0.1 ... 0.9 (11 and
   *  fewer pixels a run) and at g = 4, d = 0.2 ... 0.8 (16 to 25), not at
   *  g = 4, d = 0.1 and 0.9 (44), g >= 16 (64 and more) nor on the
   *  all-foreground image. On the H200 (512^3, 26-connectivity, labels
   *  only, per image, benchmark/results/h200-tube-labeling/) the tubes took
   *  1.84 / 2.30 / 2.29 / 2.06 / 1.82 / 1.53 / 1.31 / 1.14 / 0.99 ms at
   *  g = 1, d = 0.1 ... 0.9 where the rows and blocks took 2.13 / 3.80 /
   *  4.25 / 4.03 / 3.73 / 3.35 / 2.99 / 2.61 / 2.10, and 1.11 / 1.22 /
   *  1.30 / 1.36 / 1.34 / 1.30 / 1.23 ms at g = 4, d = 0.2 ... 0.8 where
   *  the rows took 1.13 / 1.39 / 1.52 / 1.57 / 1.55 / 1.55 / 1.38; at
   *  g = 4, d = 0.1, at g = 16 and on the all-foreground image the rows
   *  won by 0.05-0.38 ms (the strip image, the first pixels' bitmap and
   *  four rows a warp cost more than fewer runs save). */
  static constexpr std::int64_t TubePixelsPerRun = 32;

  UploadStage<Device>        m_Upload;
  UploadStage<Device>        m_FeatureUpload;
  LabelStage<Device>         m_Labeling;
  NumberingStage<Device>     m_Numbering;
  ValueGroupingStage<Device> m_Grouping;
  FeatureTables<Device>      m_Tables;
  SelectionStage<Device>     m_Selection;
  IntensityStage<Device>     m_Intensity;
  HistogramStage<Device>     m_Histograms;
  BlockLabelingStage<Device> m_Blocks;
  StripLabelingStage<Device> m_Strips;
  OutputStage<Device>        m_Outputs;
  /** One index sort for the engine: a label image's grouping by value, the
   *  votes' component order and the runs' grouping take it in turn, each
   *  done with it before the next (IndexSortStage, ComponentOrder.cuh). */
  IndexSortStage<Device>     m_Sorts;
  UpdateCounts<Device>       m_Counts;
  typename Device::Buffer    m_SelectedKeys;
  std::vector<double>        m_Medians;
  std::vector<std::uint64_t> m_HostKeys;
  bool                       m_ForceWideIndex = false;
  BlockLabelingUse           m_BlockLabeling = BlockLabelingUse::Automatic;
  StripLabelingUse           m_StripLabeling = StripLabelingUse::Automatic;
  VoteOrderUse               m_VoteOrder = VoteOrderUse::Automatic;
  WholeComponentsUse         m_WholeComponents = WholeComponentsUse::Automatic;
  NarrowTableUse             m_NarrowTable = NarrowTableUse::Automatic;
  PlanarTableUse             m_PlanarTable = PlanarTableUse::Automatic;
  LargestApartUse            m_LargestApart = LargestApartUse::Automatic;
  LargestSubtractedUse       m_LargestSubtracted = LargestSubtractedUse::Automatic;
  bool                       m_PlacedLargestLastRun = false;
  typename Device::Buffer    m_SubtractedWords;
};

/* Out of the class, not inline: the CUDA backend compiles some of its
 * instantiations in files of their own (CudaHostSequence.cuh). */
template <class Device>
template <class Index, class S>
void
HostSequence<Device>::RunStrategy(Device & device, const ImageView & image, const Options & options, Result & result)
{
  if constexpr (S::LabelsPixels)
  {
    if (image.dimension == 3 && !S::Labeling::Supports3D)
    {
      throw Error(Error::Kind::InvalidInput,
                  std::string("the algorithm ") + AlgorithmName(options.algorithm) + " labels 2D images only");
    }
  }
  // A host image whose foreground is all that matters crosses the bus as
  // bits; from then on the stages see the 0/1 image they unpack into.
  const bool                    asBits = TravelsAsForegroundBits(image, options);
  std::optional<ForegroundMask> mask;
  if (asBits)
  {
    mask.emplace(image, options);
  }
  const Frame input = MakeFrame(image, options);
  const Frame frame = asBits ? MakeFrame(mask->Image(), mask->Rules()) : input;
  const bool  intensity = options.intensity.Requested();
  const bool  labelImage = options.objects != Objects::ForegroundComponents;
  device.Begin();

  device.Record(Milestone::Start);
  // The strategy's units are counted slab by slab as the image arrives.
  using Needs = typename UploadStage<Device>::Needs;
  const void * deviceImage =
    m_Upload.Run(device,
                 input,
                 asBits ? Needs::Foreground : Needs::Pixels,
                 [&](const void * slab, std::int64_t firstRow, std::int64_t endRow) {
                   m_Labeling.template CountUnits<Index, typename S::Units>(device, frame, slab, firstRow, endRow);
                 });
  const void * deviceFeature = nullptr;
  if (intensity)
  {
    // In host memory (cca::ValidateInput): uploaded whole.
    const Frame feature = MakeFrame(options.intensity.featureImage, options);
    deviceFeature = m_FeatureUpload.Run(
      device, feature, UploadStage<Device>::Needs::Pixels, [](const void *, std::int64_t, std::int64_t) {});
  }
  device.Record(Milestone::ImageUploaded);
  const bool            features = options.computeFeatures;
  const std::uint64_t * objectKeys = nullptr;
  Index                 componentCount = 0;
  // Labelings that give the label image only (blocks, strips): the count
  // read once the label image is queued, as for the units
  // (LabelAndMeasureUnits): with 32-bit indices its bound decides the
  // label image's width as the count would.
  const bool deferCount = sizeof(Index) == 4;
  const auto labelsOnly = [&](const auto & labels) {
    device.Record(Milestone::UnitsLabeled);
    NumberingStage<Device>::CheckLabelImageRange(frame, static_cast<std::uint64_t>(labels.numbers.count));
    m_Outputs.WriteLabelsOnly(device, frame, labels);
    componentCount = labels.numbers.deviceCount != nullptr
                       ? device.Read(labels.numbers.deviceCount, "reading a count from the device")
                       : labels.numbers.count;
    result.objectsFound = static_cast<std::int64_t>(componentCount);
  };
  if (LabelsByStrips<Index>(device, frame, deviceImage))
  {
    labelsOnly(m_Strips.template Run<Index, S>(
      device, frame, deviceImage, SampledForegroundFraction<Index>(device, frame), deferCount));
  }
  else if (LabelsByBlocks<Index>(device, frame))
  {
    labelsOnly(m_Blocks.template Run<Index>(device, frame, deviceImage, deferCount));
  }
  else
  {
    const MeasuredObjects<Index> measured =
      LabelAndMeasureUnits<Index, S>(device, frame, deviceImage, deviceFeature, result);
    componentCount = measured.count;
    objectKeys = measured.keys;
  }
  device.Record(Milestone::OutputsComputed);

  result.componentCount = static_cast<std::int64_t>(componentCount);
  if (features)
  {
    WithFeatureTable(m_Tables, options.featureCompaction, [&](auto & table) {
      table.Download(device, result, options.numberOfThreads);
    });
  }
  else
  {
    result.features.clear();
  }
  m_Outputs.DownloadRuns(device, options, result);
  std::vector<double> & medians = m_Medians;
  if (intensity)
  {
    m_Intensity.Download(device);
    m_Histograms.Download(device, frame, medians, result);
  }
  std::vector<std::uint64_t> & keys = m_HostKeys;
  keys.resize(labelImage ? static_cast<std::size_t>(componentCount) : 0);
  if (!keys.empty())
  {
    device.DownloadLater(keys.data(), objectKeys, keys.size() * sizeof(std::uint64_t));
  }
  std::vector<Index> newToOld(options.selection.Active() ? static_cast<std::size_t>(componentCount) : 0);
  if (!newToOld.empty())
  {
    device.DownloadLater(newToOld.data(), m_Selection.template NewToOld<Index>(), newToOld.size() * sizeof(Index));
  }
  device.FinishDownloads();
  m_Outputs.CheckDownloadedRuns(options, result);
  device.Record(Milestone::ObjectsDownloaded);
  if (features)
  {
    WithFeatureTable(m_Tables, options.featureCompaction, [&](auto & table) { table.Finish(result); });
  }
  if (intensity)
  {
    m_Intensity.Finish(frame, medians, result);
  }
  if (labelImage)
  {
    result.labelValues.resize(keys.size());
    DispatchPixelType(image.pixelType, [&](auto zero) {
      using T = decltype(zero);
      for (std::size_t k = 0; k < keys.size(); ++k)
      {
        result.labelValues[k] = detail::IntegerOfKey<T>(keys[k]);
      }
    });
  }
  if (options.selection.Active())
  {
    result.sourceNumbers.resize(newToOld.size());
    for (std::size_t k = 0; k < newToOld.size(); ++k)
    {
      result.sourceNumbers[k] = static_cast<std::int64_t>(newToOld[k]) + 1;
    }
  }
  // The objects are complete: the caller may use them while the label
  // image, the largest copy by far, comes last.
  if (options.objectsReady)
  {
    options.objectsReady();
  }
  device.Record(Milestone::LabelImageCopyBegins);
  m_Outputs.DownloadLabelImage(device, frame);
  device.Record(Milestone::OutputsDownloaded);
  device.Wait();

  result.times.uploadMs = device.Milliseconds(Milestone::Start, Milestone::ImageUploaded);
  result.times.labelMs = device.Milliseconds(Milestone::ImageUploaded, Milestone::UnitsLabeled);
  result.times.featuresMs = device.Milliseconds(Milestone::UnitsLabeled, Milestone::OutputsComputed);
  // The copies, not the host's work on the objects between them.
  result.times.downloadMs = device.Milliseconds(Milestone::OutputsComputed, Milestone::ObjectsDownloaded) +
                            device.Milliseconds(Milestone::LabelImageCopyBegins, Milestone::OutputsDownloaded);
  if (options.countAtomicUpdates)
  {
    m_Counts.Total(device, result);
  }
  result.bytesCopiedToHost = device.BytesToHost();
  result.bytesCopiedToDevice = m_Upload.BytesToDevice() + (intensity ? m_FeatureUpload.BytesToDevice() : 0);
}

} // namespace cuda
} // namespace cca

#endif
