// Stage 3 of the host sequence (HostSequence.cuh): number the components.
// Roots are the first units of their components, so an exclusive scan of
// root flags in unit order numbers the components in raster order of their
// first pixels (ITK's order), with no gaps (Compaction.cuh).
#ifndef cca_cuda_NumberingStage_cuh
#define cca_cuda_NumberingStage_cuh

#include "Compaction.cuh"
#include "Frame.cuh"
#include "LabelStage.cuh"

#include "cca/Types.h"

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
  Index * rank;   ///< per unit, the roots before it; free once numbered (as many entries as units: >= runs);
                  ///< labels only of a mask: the same memory as label
  /** Where the count waits on the device when its read is deferred
   *  (NumberingStage::Run): count then holds an upper bound, the units,
   *  until ReadCount. Null once read. */
  const Index * deviceCount = nullptr;
};

template <class Device>
class NumberingStage
{
public:
  /** Numbers the components of l. deferCount: the count stays on the
   *  device (Components::deviceCount) and count holds the units, an upper
   *  bound, so that the outputs are queued behind the numbering without a
   *  wait; ReadCount reads it later. */
  template <class Index>
  Components<Index>
  Run(Device & device, const Frame & frame, const LabeledUnits<Index> & l, bool deferCount = false)
  {
    Components<Index> c{};
    const Index       units = l.units.count;
    if (units == 0)
    {
      return c;
    }
    const Options & o = frame.options;
    c.rank = Reserve<Index>(m_Rank, units, "component numbers");
    device.ExclusiveSumOf("scan", RootFlag<Index>{ l.parent }, c.rank, static_cast<std::int64_t>(units));
    auto * count = Reserve<Index>(m_Count, 1, "a count");
    // Labels only of a mask: the labels overwrite the ranks in place (only
    // roots' ranks are read, and a root's label is its own rank), and no
    // one asks for roots. The runs' grouping sorts the labels into the
    // ranks' memory, and the votes read the roots. (H100, labels only,
    // g = 1: 7.50 -> 6.25 bytes a pixel at 8192^2, 2D 4-conn. about 1 %
    // slower, its gathers reading lines that the labels' stores change.)
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
                    c.rank,
                    l.parent,
                    c.label,
                    c.rootOf,
                    count);
    };
    if (static_cast<std::int64_t>(units) >= m_ClimbingRuns)
    {
      launch(NumberComponentsKernel<Index, NumberingClimbs>, NumberingClimbs);
    }
    else
    {
      launch(NumberComponentsKernel<Index, 1>, 1);
    }
    if (deferCount)
    {
      c.count = units;
      c.deviceCount = count;
      return c;
    }
    c.count = device.Read(count, "reading a count from the device");
    return c;
  }

  /** Tests: from how many units a thread climbs from several
   *  (NumberComponentsKernel); -1: NumberingClimbingRuns. */
  void
  SetClimbingRuns(std::int64_t units)
  {
    m_ClimbingRuns = units < 0 ? NumberingClimbingRuns : units;
  }

  /** The count of c, read now if it was deferred. */
  template <class Index>
  static void
  ReadCount(Device & device, Components<Index> & c)
  {
    if (c.deviceCount != nullptr)
    {
      c.count = device.Read(c.deviceCount, "reading a count from the device");
      c.deviceCount = nullptr;
    }
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
  typename Device::Buffer m_Count;
  typename Device::Buffer m_Label;
  typename Device::Buffer m_RootOf;
  std::int64_t            m_ClimbingRuns = NumberingClimbingRuns;
};

} // namespace cuda
} // namespace cca

#endif
