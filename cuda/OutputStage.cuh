// Stage 5 of the host sequence (HostSequence.cuh): write the outputs that
// are per run and per pixel, then copy them to the host: the component of
// each full run, the label image (the run detection pass again, each pixel
// its run's label), and the runs grouped by component (a stable radix sort
// of run indices by label keeps raster order within a component). Runs
// labeled with the component count belong to objects a selection removed:
// background in the label image, sorted past the last group and not copied.
// A block labeling (BlockLabeling.cuh) gives the label image only, each
// pixel its block's label. A label image in the caller's device memory is
// written there, never copied; a 64-bit label image in host memory crosses
// the bus as 32-bit labels while the labels fit, and is widened on the host.
#ifndef cca_cuda_OutputStage_cuh
#define cca_cuda_OutputStage_cuh

#include "BlockLabeling.cuh"
#include "Compaction.cuh"
#include "ComponentOrder.cuh"
#include "Frame.cuh"
#include "LabelStage.cuh"
#include "NumberingStage.cuh"
#include "StripLabeling.cuh"

#include "PixelTypeDispatch.h"
#include "ResizeForOverwrite.h"

#include "cca/Types.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace cca
{
namespace cuda
{

template <class Device>
class OutputStage
{
public:
  /** The outputs frame.options asks for, on the device, but the label
   *  image if BeginWithLabelImage wrote it (then runLabel is what that
   *  returned). sorted: the runs in component order by runLabel if sorted
   *  already (the feature votes' order), else empty; sorts: the engine's
   *  index sort, which sorts them otherwise. */
  template <class Index, class S>
  void
  Write(Device &                      device,
        const Frame &                 frame,
        const void *                  image,
        const LabeledUnits<Index> &   l,
        const Components<Index> &     c,
        IndexSortStage<Device> &      sorts,
        bool                          labelImageWritten,
        const Index *                 runLabel,
        const ComponentOrder<Index> & sorted = {})
  {
    if (!labelImageWritten)
    {
      runLabel = BeginWithLabelImage<Index, S>(device, frame, image, l, c, runLabel);
    }
    // c's count, which the downloads size by: a label image queued before
    // the count was read began with its bound (HostSequence).
    m_Components = static_cast<std::size_t>(c.count);
    if (l.units.count != 0 && frame.options.computeRuns)
    {
      // Records exist only where the units are the runs, every run's
      // written by the union-find or the pairs' pass (PrecedingPairs.cuh).
      GroupRuns(device, frame, l.runs, l.precedingPairs.records, runLabel, c, sorts, sorted);
    }
  }

  /** Where the feature votes write the runs grouped by component in
   *  GroupRuns' stead (the run gathering is then left out), or empty.
   *  Asked once a run, before the votes and the pairs' pass after the
   *  labels. They can where they take the runs in the order GroupRuns would
   *  (ordered: the votes' sort by the final labels, no selection after it,
   *  or placed: one component, whose runs the pairs' pass places,
   *  PlacedLargest.cuh) and read every run's RunRecord, which holds all a
   *  grouped run needs; the run gathering read the records in that order
   *  again (H200, 512^3 6-conn. d = 0.3: 368 us). */
  template <class Index>
  RunGroups
  GroupRunsInVotes(const Frame & frame, const LabeledUnits<Index> & l, const Components<Index> & c, bool ordered)
  {
    m_VoteGroups = {};
    if (frame.options.computeRuns && l.units.count != 0 && ordered && l.precedingPairs.records != nullptr &&
        !frame.options.selection.Active())
    {
      m_VoteGroups.runs = Reserve<cca::Run>(m_GroupedRuns, l.runs.count, "grouped runs");
      m_VoteGroups.offsets = Reserve<std::int64_t>(m_RunOffsets, static_cast<std::size_t>(c.count) + 1, "run offsets");
      m_VoteGroups.components = static_cast<std::int64_t>(c.count);
    }
    return m_VoteGroups;
  }

  /** Starts the run's outputs and writes the label image if asked; returns
   *  the runs' labels (fullRunLabel, or RunLabels; null without units).
   *  Write calls it, or the host sequence first, right after the numbering,
   *  where no selection follows (the labels are final then): the label
   *  image then keeps the GPU busy while the host dispatches the sort and
   *  the table's kernels, which the GPU otherwise waited for
   *  (benchmark/results/h200-host-waits, call 6). */
  template <class Index, class S>
  const Index *
  BeginWithLabelImage(Device &                    device,
                      const Frame &               frame,
                      const void *                image,
                      const LabeledUnits<Index> & l,
                      const Components<Index> &   c,
                      const Index *               fullRunLabel = nullptr)
  {
    Begin(l.runs.count, c.count);
    if (l.units.count == 0)
    {
      // No foreground at all: a label image in device memory is cleared here,
      // with the outputs (timed as they are); one in host memory on download.
      if (frame.options.labelImageType != LabelImageType::None &&
          frame.options.labelImageMemory == MemorySpace::CudaDevice)
      {
        device.Fill(frame.options.labelImage,
                    0,
                    static_cast<std::size_t>(frame.pixels) * LabelBytes(frame.options),
                    "clearing the label image");
      }
      return nullptr;
    }
    const Index * runLabel = fullRunLabel != nullptr ? fullRunLabel : RunLabels<Index, S>(device, l, c);
    if (frame.options.labelImageType != LabelImageType::None)
    {
      WriteLabelImage(device, frame, image, l.runs, runLabel, c.count);
    }
    return runLabel;
  }

  /** The label image of a block labeling (BlockLabeling.cuh), the only
   *  output that labeling gives. */
  template <class Index>
  void
  WriteLabelsOnly(Device & device, const Frame & frame, const BlockLabels<Index> & l)
  {
    LaunchLabelsOnly(frame, l.numbers.count, [&](auto * labels) {
      using Label = std::remove_pointer_t<decltype(labels)>;
      device.Launch("block label image kernel",
                    LineBlocks(l.grid),
                    LineThreads(l.grid),
                    BlockLabelImageKernel<Index, Label>,
                    l,
                    labels);
    });
  }

  /** The label image of a strip labeling (StripLabeling.cuh), the only
   *  output that labeling gives. */
  template <class Index>
  void
  WriteLabelsOnly(Device & device, const Frame & frame, const StripLabels<Index> & l)
  {
    LaunchLabelsOnly(frame, l.numbers.count, [&](auto * labels) {
      using Label = std::remove_pointer_t<decltype(labels)>;
      device.Launch("strip label image kernel",
                    BlocksFor(StripGeometry(l.rows.pixels).rows, WarpsPerBlock),
                    BlockThreads,
                    WriteStripLabelImageKernel<Index, Label>,
                    l,
                    labels);
    });
  }

  /** The component of each full run (its first unit's, when units are pieces of runs). */
  template <class Index, class S>
  const Index *
  RunLabels(Device & device, const LabeledUnits<Index> & l, const Components<Index> & c)
  {
    if constexpr (S::SplitUnits)
    {
      auto * labels = Reserve<Index>(m_RunLabel, l.runs.count, "full run labels");
      device.Launch("run label kernel",
                    BlocksFor(static_cast<std::int64_t>(l.runs.count), BlockThreads),
                    BlockThreads,
                    RunLabelsFromUnitsKernel<Index>,
                    l.runs,
                    l.units,
                    c.label,
                    labels);
      return labels;
    }
    else
    {
      return c.label;
    }
  }

  /** Copies the runs grouped by object into result, there once
   *  device.FinishDownloads() returns. */
  void
  DownloadRuns(Device & device, const Options & options, Result & result)
  {
    const bool selection = options.selection.Active();
    if (!options.computeRuns)
    {
      result.runs.clear();
      result.runOffsets.clear();
    }
    else
    {
      // Sized, not cleared first: a reused result zeroes only what it grows
      // by. Without a selection every run belongs to an object; with one,
      // the runs of removed objects come after the last offset, read first.
      result.runOffsets.resize(m_Components + 1);
      if (m_Runs == 0)
      {
        result.runOffsets[0] = 0;
        result.runs.clear();
        return;
      }
      device.DownloadLater(result.runOffsets.data(), m_Offsets, result.runOffsets.size() * sizeof(std::int64_t));
      std::size_t kept = m_Runs;
      if (selection)
      {
        device.FinishDownloads();
        kept = static_cast<std::size_t>(result.runOffsets.back());
      }
      ResizeForOverwrite(result.runs, kept, options.numberOfThreads);
      device.DownloadLater(result.runs.data(), m_Grouped, kept * sizeof(cca::Run));
    }
  }

  /** After device.FinishDownloads(): the runs sized without a selection
   *  are those the offsets end with, else an error, never wrong runs. */
  static void
  CheckDownloadedRuns(const Options & options, const Result & result)
  {
    if (options.computeRuns && !result.runOffsets.empty() &&
        result.runOffsets.back() != static_cast<std::int64_t>(result.runs.size()))
    {
      throw Error(Error::Kind::Cuda, "internal error: the runs grouped by object do not end where their offsets do");
    }
  }

  /** Copies the label image into the caller's, where it is on the host. */
  void
  DownloadLabelImage(Device & device, const Frame & frame)
  {
    const Options & options = frame.options;
    if (options.labelImageType != LabelImageType::None)
    {
      const std::size_t bytes = static_cast<std::size_t>(frame.pixels) * LabelBytes(options);
      const bool        onDevice = options.labelImageMemory == MemorySpace::CudaDevice;
      if (m_Labels == nullptr) // no foreground at all: a device label image is cleared already
      {
        if (!onDevice)
        {
          std::memset(options.labelImage, 0, bytes);
        }
      }
      else if (m_DeviceLabelBytes < LabelBytes(options))
      {
        device.DownloadWidened(static_cast<std::uint64_t *>(options.labelImage),
                               static_cast<const std::uint32_t *>(m_Labels),
                               static_cast<std::size_t>(frame.pixels));
      }
      else if (!onDevice) // a device label image was written in place
      {
        device.Download(options.labelImage, m_Labels, bytes);
      }
    }
  }

private:
  static std::size_t
  LabelBytes(const Options & options)
  {
    return options.labelImageType == LabelImageType::UInt64 ? 8 : 4;
  }

  template <class Index>
  void
  WriteLabelImage(Device &                 device,
                  const Frame &            frame,
                  const void *             image,
                  const RunArrays<Index> & runs,
                  const Index *            runLabel,
                  Index                    removed)
  {
    const std::size_t labelBytes = LabelTarget(frame);
    const unsigned    rowBlocks = BlocksFor(frame.geometry.rows, WarpsPerBlock);
    const bool        values = frame.options.objects != Objects::ForegroundComponents;
    DispatchPixelType(frame.image.pixelType, [&](auto zero) {
      using T = decltype(zero);
      const auto * in = static_cast<const T *>(image);
      // runArrays: the runs' starts and ends, for the kernel that reads them.
      auto launch = [&](auto kernel, auto * labels, auto... runArrays) {
        device.Launch("label image kernel",
                      rowBlocks,
                      BlockThreads,
                      kernel,
                      in,
                      frame.geometry,
                      ForegroundOf<T>(frame.options),
                      runs.rowOffsets,
                      runLabel,
                      labels,
                      removed,
                      runArrays...);
      };
      auto * labels64 = static_cast<std::uint64_t *>(m_Labels);
      auto * labels32 = static_cast<std::uint32_t *>(m_Labels);
      // A byte mask in rows of whole 16-byte loads: the byte row scan
      // (Compaction.cuh, RunDetection.cuh).
      if constexpr (std::is_same_v<T, std::uint8_t>)
      {
        if (FitsByteRowScan(frame, in, m_Labels))
        {
          const bool fromRuns = FillsRowsFromRuns(frame.geometry, runs);
          auto       launchByte = [&](auto * labels) {
            using LabelT = std::remove_pointer_t<decltype(labels)>;
            if (fromRuns)
            {
              launch(WriteByteLabelImageKernel<Index, LabelT, true>, labels, runs.x, runs.end);
            }
            else
            {
              const std::int32_t * unused = nullptr;
              launch(WriteByteLabelImageKernel<Index, LabelT, false>, labels, unused, unused);
            }
          };
          labelBytes == 8 ? launchByte(labels64) : launchByte(labels32);
          return;
        }
      }
      if (values)
      {
        labelBytes == 8 ? launch(WriteLabelImageKernel<T, Index, std::uint64_t, RunBreaks::ValueChanges>, labels64)
                        : launch(WriteLabelImageKernel<T, Index, std::uint32_t, RunBreaks::ValueChanges>, labels32);
      }
      else
      {
        labelBytes == 8 ? launch(WriteLabelImageKernel<T, Index, std::uint64_t>, labels64)
                        : launch(WriteLabelImageKernel<T, Index, std::uint32_t>, labels32);
      }
    });
  }

  /** The outputs of a labeling that gives the label image only: launch(labels)
   *  writes it, called with the label image as 64- or 32-bit labels
   *  (LabelTarget), unless none is asked. */
  template <class Launch>
  void
  LaunchLabelsOnly(const Frame & frame, std::uint64_t components, Launch && launch)
  {
    Begin(0, components);
    if (frame.options.labelImageType == LabelImageType::None)
    {
      return;
    }
    LabelTarget(frame) == 8 ? launch(static_cast<std::uint64_t *>(m_Labels))
                            : launch(static_cast<std::uint32_t *>(m_Labels));
  }

  /** A run's outputs start: its counts known, nothing written yet. */
  void
  Begin(std::uint64_t runs, std::uint64_t components)
  {
    m_Runs = static_cast<std::size_t>(runs);
    m_Components = static_cast<std::size_t>(components);
    m_Labels = nullptr;
    m_Grouped = nullptr;
    m_Offsets = nullptr;
  }

  /** Where the label image is written (m_Labels) and its bytes per label
   *  there (returned, and m_DeviceLabelBytes), once m_Components is known: a
   *  label image in device memory (the caller's) is written in place; one
   *  for the host in 32 bits while the labels fit (half the transfer). */
  std::size_t
  LabelTarget(const Frame & frame)
  {
    const bool        onDevice = frame.options.labelImageMemory == MemorySpace::CudaDevice;
    const bool        narrow = !onDevice && m_Components <= std::numeric_limits<std::uint32_t>::max();
    const std::size_t labelBytes = narrow ? 4 : LabelBytes(frame.options);
    m_DeviceLabelBytes = labelBytes;
    m_Labels = onDevice ? frame.options.labelImage
                        : m_LabelImage.Reserve(static_cast<std::size_t>(frame.pixels) * labelBytes, "the label image");
    return labelBytes;
  }

  template <class Index>
  void
  GroupRuns(Device &                      device,
            const Frame &                 frame,
            const RunArrays<Index> &      runs,
            const RunRecord *             records,
            const Index *                 runLabel,
            const Components<Index> &     c,
            IndexSortStage<Device> &      sorts,
            const ComponentOrder<Index> & sorted)
  {
    if (m_VoteGroups.runs != nullptr) // written by the votes (GroupRunsInVotes), this run only
    {
      m_Grouped = m_VoteGroups.runs;
      m_Offsets = m_VoteGroups.offsets;
      m_VoteGroups = {};
      return;
    }
    const Index    count = runs.count;
    const unsigned runBlocks = BlocksFor(static_cast<std::int64_t>(count), BlockThreads);
    m_Grouped = Reserve<cca::Run>(m_GroupedRuns, count, "grouped runs");
    m_Offsets = Reserve<std::int64_t>(m_RunOffsets, static_cast<std::size_t>(c.count) + 1, "run offsets");
    // The runs in component order: sorted by label (here, or already for
    // the feature votes), or, with one component and no selection (a single
    // organ's mask, a full image), in raster order as they are (H200,
    // 8192^2 all foreground: the sort's five kernels took 19 of 248 us).
    ComponentOrder<Index> order = sorted;
    if (order.index == nullptr && (c.count > 1 || frame.options.selection.Active()))
    {
      // The ranks are no longer needed (at least as many as the runs).
      order =
        sorts.ByComponent(device,
                          runLabel,
                          count,
                          BitsFor(static_cast<std::uint64_t>(c.count) + (frame.options.selection.Active() ? 1 : 0)),
                          c.rank);
    }
    const Index * sortedRun = order.index;
    const Index * sortedLabel = order.index != nullptr ? order.label : runLabel;
    device.Launch("run gathering kernel",
                  runBlocks,
                  BlockThreads,
                  GatherRunsKernel<Index>,
                  runs,
                  records,
                  frame.geometry,
                  sortedRun,
                  sortedLabel,
                  RunGroups{ m_Grouped, m_Offsets, static_cast<std::int64_t>(c.count) });
  }

  typename Device::Buffer m_RunLabel; ///< per full run, when the units are pieces of runs
  typename Device::Buffer m_LabelImage;
  typename Device::Buffer m_GroupedRuns;
  typename Device::Buffer m_RunOffsets;
  void *                  m_Labels = nullptr;
  std::size_t             m_DeviceLabelBytes = 0; ///< bytes of a label in m_Labels
  cca::Run *              m_Grouped = nullptr;
  std::int64_t *          m_Offsets = nullptr;
  RunGroups               m_VoteGroups; ///< GroupRunsInVotes
  std::size_t             m_Runs = 0;
  std::size_t             m_Components = 0;
};

} // namespace cuda
} // namespace cca

#endif
