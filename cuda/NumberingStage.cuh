// Stage 3 of the host sequence (HostSequence.cuh): number the components.
// Roots are the first units of their components, so a root's rank among the
// roots in unit order numbers the components in raster order of their first
// pixels (ITK's order), with no gaps: the roots as bits, 32 units a word,
// and an exclusive scan of the words' counts (RootRanks, Compaction.cuh).
#ifndef cca_cuda_NumberingStage_cuh
#define cca_cuda_NumberingStage_cuh

#include "Compaction.cuh"
#include "Frame.cuh"
#include "LabelStage.cuh"
#include "LargestComponent.cuh"

#include "cca/Types.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace cca
{
namespace cuda
{

/** The components of a run. */
template <class Index>
struct Components
{
  Index   count;  ///< components (0 when there are no units)
  Index * label;  ///< per unit, its component (0-based)
  Index * rootOf; ///< per component, its root unit (null without the feature table)
  Index * rank;   ///< as many entries as units (>= runs), free once numbered: the value grouping's value starts
                  ///< before each run (ValueGroupingStage); labels only of a mask: the same memory as label
  /** Where the count waits on the device when its read is deferred
   *  (NumberingStage::Run): count then holds an upper bound, the units,
   *  until ReadCount. Null once read. */
  const Index * deviceCount = nullptr;
  /** Where largest's counts wait on the device with a deferred count, to be
   *  read with it (ReadCount); else both null. */
  LargestCounting deviceLargest;
  /** Where NumberingStage::Run was asked to find it: the component of the
   *  most frequent root among sampled units (LargestComponent.cuh), whose
   *  units the component order need not sort; else its bits are null. */
  LargestComponent<Index> largest;
};

template <class Device>
class NumberingStage
{
public:
  /** Numbers the components of l. deferCount: the count stays on the
   *  device (Components::deviceCount) and count holds the units, an upper
   *  bound, so that the outputs are queued behind the numbering without a
   *  wait; ReadCount reads it later. findLargest: Components::largest is
   *  sampled and counted by the numbering (LargestComponent.cuh), and read
   *  with the count. */
  template <class Index>
  Components<Index>
  Run(Device &                    device,
      const Frame &               frame,
      const LabeledUnits<Index> & l,
      bool                        deferCount = false,
      bool                        findLargest = false)
  {
    Components<Index> c{};
    const Index       units = l.units.count;
    if (units == 0)
    {
      return c;
    }
    const Options &    o = frame.options;
    const std::int64_t words = (static_cast<std::int64_t>(units) + 31) / 32;
    // The largest component's root sampled first, for the numbering to count.
    LargestCounting largest;
    if (findLargest)
    {
      largest.counts = Reserve<LargestComponentCounts>(m_LargestCounts, 1, "largest component's counts");
      largest.bits = Reserve<unsigned>(m_LargestBits, static_cast<std::size_t>(words), "largest component's units");
      device.Launch(
        "largest root sampling kernel", 1, WarpSize, SampleLargestRootKernel<Index>, units, l.parent, largest.counts);
    }
    auto * const rootBits = Reserve<unsigned>(m_RootBits, static_cast<std::size_t>(words), "root bits");
    auto * const rootsBefore = Reserve<Index>(m_RootsBefore, static_cast<std::size_t>(words), "roots before words");
    if (words <= m_OneBlockRootWords)
    {
      device.Launch("root ranking kernel",
                    1,
                    BlockThreads,
                    RankRootsInOneBlockKernel<Index>,
                    units,
                    l.parent,
                    rootBits,
                    rootsBefore);
    }
    else
    {
      device.Launch("root flagging kernel",
                    BlocksFor(words, std::int64_t{ WarpsPerBlock } * RootWordsPerWarp),
                    BlockThreads,
                    FlagRootsKernel<Index>,
                    units,
                    l.parent,
                    rootBits);
      device.ExclusiveSumOf("scan", BitsInWord<Index>{ rootBits, static_cast<Index>(words) }, rootsBefore, words);
    }
    const RootRanks<Index> ranks{ rootBits, rootsBefore };
    // An entry a unit (Components::rank): the units' labels where labels
    // only are asked, and room for the sorts that follow.
    c.rank = Reserve<Index>(m_Rank, units, "component numbers");
    auto * count = Reserve<Index>(m_Count, 1, "a count");
    // Labels only of a mask: the labels take that memory, and no one asks
    // for roots. The runs' grouping sorts the labels into the ranks'
    // memory, and the votes read the roots. (H100, labels only, g = 1:
    // 7.50 -> 6.25 bytes a pixel at 8192^2, 2D 4-conn. about 1 % slower.)
    const bool labelsOnly = LabelsOnlyOfMask(o);
    c.label = labelsOnly ? c.rank : Reserve<Index>(m_Label, units, "run labels");
    c.rootOf = o.computeFeatures ? Reserve<Index>(m_RootOf, units, "component roots") // room for the most components
                                 : nullptr;
    const auto launch = [&](auto kernel, int climbs) {
      device.Launch("numbering kernel",
                    BlocksFor(static_cast<std::int64_t>(units), std::int64_t{ BlockThreads } * climbs),
                    BlockThreads,
                    kernel,
                    units,
                    ranks,
                    l.parent,
                    c.label,
                    c.rootOf,
                    count,
                    largest);
    };
    const bool climbing = static_cast<std::int64_t>(units) >= m_ClimbingRuns;
    if (largest.counts != nullptr)
    {
      climbing ? launch(NumberComponentsKernel<Index, NumberingClimbs, true>, NumberingClimbs)
               : launch(NumberComponentsKernel<Index, 1, true>, 1);
    }
    else
    {
      climbing ? launch(NumberComponentsKernel<Index, NumberingClimbs>, NumberingClimbs)
               : launch(NumberComponentsKernel<Index, 1>, 1);
    }
    c.count = units;
    c.deviceCount = count;
    c.deviceLargest = largest;
    if (!deferCount)
    {
      ReadCount(device, c);
    }
    return c;
  }

  /** Tests: from how many units a thread climbs from several
   *  (NumberComponentsKernel); -1: NumberingClimbingRuns. */
  void
  SetClimbingRuns(std::int64_t units)
  {
    m_ClimbingRuns = units < 0 ? NumberingClimbingRuns : units;
  }

  /** Tests: up to how many words of root bits (32 units a word) one block
   *  ranks the roots (RankRootsInOneBlockKernel) instead of
   *  FlagRootsKernel and CUB's scan; 0: never; -1: OneBlockRootWords,
   *  also the most its shared memory takes. */
  void
  SetOneBlockRootWords(std::int64_t words)
  {
    m_OneBlockRootWords = words < 0 ? OneBlockRootWords : std::min(words, OneBlockRootWords);
  }

  /** The count of c, and its largest component where the numbering
   *  counted it, read now if they were deferred. */
  template <class Index>
  static void
  ReadCount(Device & device, Components<Index> & c)
  {
    if (c.deviceCount == nullptr)
    {
      return;
    }
    if (c.deviceLargest.counts != nullptr)
    {
      const auto read =
        device.Read(c.deviceCount, c.deviceLargest.counts, "reading the component counts from the device");
      c.count = read.first;
      c.largest.label = static_cast<Index>(read.second.label);
      c.largest.units = static_cast<Index>(read.second.units);
      c.largest.unitsBefore = static_cast<Index>(read.second.unitsBefore);
      c.largest.bits = c.deviceLargest.bits;
    }
    else
    {
      c.count = device.Read(c.deviceCount, "reading a count from the device");
    }
    c.deviceCount = nullptr;
    c.deviceLargest = {};
  }

  /** Throws Error::Kind::Overflow when a uint32 label image cannot hold count objects. */
  static void
  CheckLabelImageRange(const Frame & frame, std::uint64_t count)
  {
    if (frame.options.labelImageType == LabelImageType::UInt32 && count > std::numeric_limits<std::uint32_t>::max())
    {
      throw Error(Error::Kind::Overflow,
                  "the image has " + std::to_string(count) + " components, more than a uint32 label image can hold");
    }
  }

private:
  typename Device::Buffer m_Rank;
  typename Device::Buffer m_RootBits;
  typename Device::Buffer m_RootsBefore;
  typename Device::Buffer m_Count;
  typename Device::Buffer m_Label;
  typename Device::Buffer m_RootOf;
  typename Device::Buffer m_LargestCounts;
  typename Device::Buffer m_LargestBits;
  std::int64_t            m_ClimbingRuns = NumberingClimbingRuns;
  std::int64_t            m_OneBlockRootWords = OneBlockRootWords;
};

} // namespace cuda
} // namespace cca

#endif
