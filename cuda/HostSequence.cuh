// The CUDA backend's host sequence, written once against a device and run
// by the backend on the GPU (StreamDevice.cuh) and by the emulation tests on
// CPU threads (test/gpu/emulation/EmulatedDevice.h). One run, stage by stage:
//   1. upload the image (UploadStage.cuh), in slabs of rows: the units of each
//      slab are counted (the first pass of their detection) as it arrives,
//      and the foreground of a sample of rows with them, while the next
//      slabs are copied; then the feature image if any;
//   2. label the units: detect them (UnitDetection.cuh), join them into
//      components (LabelStage.cuh; a byte volume of short runs under full
//      connectivity through the runs of its tubes of 2 x 2 rows,
//      StripJoin.cuh); or, labels only
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
// Which path a run takes (labeling, index width, the votes' order, the
// table's entries, the largest component) is PathChoices.cuh's to decide.
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
//   BeginSideWork(lane), EndSideWork()     launches and fills between them go to the side stream of
//                                          lane (0 or 1; SideLanes), after the work so far, beside
//                                          what follows on the run's and on the other lane
//   JoinSideWork(lane)                     ... until the run's stream waits for that lane here (End
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
#include "PathChoices.cuh"
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

/** The side lane (StreamDevice::BeginSideWork) of a label image queued
 *  before the component count is read, joined only at the run's end; lane
 *  0 takes the side work that the table reads. (Queued there on lane 0,
 *  the table's kernels waited for it: benchmark/results/h100-all-on-stages
 *  call 2.) */
constexpr int LabelImageLane = 1;

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
  SideWork(Device & device, bool begin, int lane = 0)
    : m_Device(device)
    , m_Lane(lane)
  {
    if (begin)
    {
      device.BeginSideWork(lane);
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
    m_Device.JoinSideWork(m_Lane); // ends it first
  }

private:
  Device & m_Device;
  int      m_Lane;
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
                 [&](auto entry) { wide = m_Paths.NeedsWideIndex<typename decltype(entry)::Strategy>(image); });
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

  /** The choices of path (PathChoices.cuh): tests and benchmarks force
   *  them through its Set... uses. */
  PathChoices &
  Paths()
  {
    return m_Paths;
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

  /** Tests: whether the last run's pairs' pass placed the largest
   *  component's runs (PlacedLargest.cuh). */
  bool
  PlacedLargestLastRun() const
  {
    return m_PlacedLargestLastRun;
  }

  /** Tests: from how many units the numbering climbs from several a
   *  thread (NumberingStage::SetClimbingRuns); -1: the default. */
  void
  SetNumberingClimbingRuns(std::int64_t units)
  {
    m_Numbering.SetClimbingRuns(units);
  }

  /** Tests: up to how many words of root bits one block ranks the roots
   *  (NumberingStage::SetOneBlockRootWords); 0: never; -1: the default. */
  void
  SetNumberingOneBlockRootWords(std::int64_t words)
  {
    m_Numbering.SetOneBlockRootWords(words);
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
    const bool deferCount = LabelsOnlyOfMask(options) && sizeof(Index) == 4;
    const bool groupsSameLabels = options.computeRuns && !options.selection.Active() && !S::SplitUnits;
    const bool features = options.computeFeatures;
    const bool findLargest = features && m_Paths.LooksForLargest<S>(options, labeled.units.count, groupsSameLabels);
    // Labels only (cca::ValidateInput: then no selection, no feature image): no table.
    // Without a selection the labels are final now: the label image goes
    // first, ahead of the table (OutputStage::BeginWithLabelImage).
    const bool labelImageFirst =
      features && !options.selection.Active() && options.labelImageType != LabelImageType::None;
    // A mask's label image is queued even before the component count is
    // read, as side work on a lane of its own that only the run's end
    // joins: nothing in the run reads it. With 32-bit units the count's
    // bound, the units, decides as the count would (above), so it is
    // written while the host waits for the count and queues the table,
    // and beside the table's kernels, which waited for it where it shared
    // their lane with the pairs the votes read (H100, full table, summed:
    // 8192^2 all on +7-11 %, g = 16 +3-4 %, g = 1 +1-2 %). No range check:
    // 32-bit units number fewer than 2^32 components.
    const bool labelImageBeforeCount =
      labelImageFirst && options.objects == Objects::ForegroundComponents && sizeof(Index) == 4;
    Components<Index> components =
      options.objects == Objects::LabelValues
        ? m_Grouping.Run(device, frame, labeled, m_Sorts)
        : m_Numbering.Run(device, frame, labeled, deferCount || labelImageBeforeCount, findLargest);
    // Runs' labels made from their units' are read by the runs' grouping
    // too: they come first, on the run's stream.
    const Index *    runLabel = labelImageBeforeCount && labeled.units.count > 0
                                  ? m_Outputs.template RunLabels<Index, S>(device, labeled, components)
                                  : nullptr;
    SideWork<Device> labelImageLane(device, labelImageBeforeCount, LabelImageLane);
    if (labelImageBeforeCount)
    {
      runLabel =
        m_Outputs.template BeginWithLabelImage<Index, S>(device, frame, deviceImage, labeled, components, runLabel);
      labelImageLane.End();
      NumberingStage<Device>::ReadCount(device, components);
    }
    if (options.objects == Objects::LabelValueComponents)
    {
      m_Grouping.KeysOfComponents(device, labeled, components);
    }
    result.objectsFound = static_cast<std::int64_t>(components.count);
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
    const bool ordered = features && m_Paths.VotesInComponentOrder<S>(options, components.count, groupsSameLabels);
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
    // The label image (unless queued before the count) and those pairs read
    // the labels and the runs, which nothing after them writes, and nothing
    // reads what they write before the table: they run as side work beside
    // the component order's sort (StreamDevice::BeginSideWork), joined
    // before the table's votes, which read the pairs and are a grid that
    // wants every multiprocessor. The foreground's totals read
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
    const bool       labelImageBesideSort = labelImageFirst && !labelImageBeforeCount;
    SideWork<Device> side(device, labelImageBesideSort || pairsFirst);
    if (labelImageBesideSort)
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
      order = placed.Active() || m_Paths.LargestApart(components.largest, labeled.units.count, components.count)
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
          // Whole components by the share of those the votes visit: a
          // placed component and its runs are left out.
          table.template Build<Index, S>(
            device,
            frame,
            labeled,
            components,
            m_Counts,
            order,
            groups,
            m_Paths.VotesStoreWholeComponents(order,
                                              components.count - (subtracted.placed.units > 0 ? 1 : 0),
                                              labeled.units.count - subtracted.placed.units),
            m_Paths.TableEntriesFor<Index, S>(options, frame.pixels, components.count, intensity),
            m_Paths.PlanarEntries(frame),
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
    labelImageLane.Join();
    return MeasuredObjects<Index>{ components.count, objectKeys };
  }

  /** The largest component's entry from the foreground's totals, where
   *  PathChoices::SubtractsLargest takes it, with the totals' words; else
   *  none (NoLabel). */
  template <class Index, class S>
  SubtractedLargest<Index>
  LargestSubtractedFor(const Frame &               frame,
                       const void *                image,
                       const Components<Index> &   c,
                       const LabeledUnits<Index> & l)
  {
    if (!m_Paths.SubtractsLargest<Index, S>(frame, FitsByteRowScan(frame, image), c, l))
    {
      return {};
    }
    SubtractedLargest<Index> s;
    s.label = c.largest.label;
    s.words =
      Reserve<unsigned long long>(m_SubtractedWords, SubtractedLargest<Index>::Words, "the foreground's totals");
    return s;
  }

  /** The runs counted during the upload and the sampled foreground
   *  fraction, read from the device once (LabelStage::CountedUnits): what
   *  the labelings' choices need. */
  template <class Index>
  CountedRuns
  Counted(Device & device, const Frame & frame)
  {
    const auto runs = static_cast<std::int64_t>(m_Labeling.template CountedUnits<Index>(device, frame));
    return CountedRuns{ runs, m_Labeling.CountedForegroundFraction() };
  }

  /** PathChoices::LabelsByBlocks of this run. */
  template <class Index>
  bool
  LabelsByBlocks(Device & device, const Frame & frame)
  {
    return m_Paths.LabelsByBlocks(
      frame, BlockLabelingStage<Device>::Fits(frame), [&] { return Counted<Index>(device, frame); });
  }

  /** The image's sampled foreground fraction (LabelStage::
   *  CountedForegroundFraction), read with the run count where the
   *  labeling's choice did not read it already (a forced choice): the
   *  strips' passes join by the image's density, whatever chose them. */
  template <class Index>
  double
  SampledForegroundFraction(Device & device, const Frame & frame)
  {
    return Counted<Index>(device, frame).foregroundFraction;
  }

  /** PathChoices::LabelsByStrips of this run. */
  template <class Index>
  bool
  LabelsByStrips(Device & device, const Frame & frame, const void * image)
  {
    const bool fits =
      StripLabelingStage<Device>::Fits(frame, image) && StripLabelingStage<Device>::template KeysFit<Index>(frame);
    return m_Paths.LabelsByStrips(frame, fits, [&] { return Counted<Index>(device, frame); });
  }

  /** PathChoices::JoinsRunsByStrips of this run. */
  template <class Index, class S>
  bool
  JoinsRunsByStrips(Device & device, const Frame & frame, const void * image)
  {
    return m_Paths.template JoinsRunsByStrips<S>(
      frame, StripLabelingStage<Device>::FitsJoin(frame, image), [&] { return Counted<Index>(device, frame); });
  }

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
  PathChoices                m_Paths;
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
