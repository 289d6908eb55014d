// After the feature table (HostSequence.cuh), Options::selection on the
// device: objects outside the size limits are dropped, the keepLargest
// largest of the others kept, and the rest numbered by decreasing size or
// in their order; ties in size keep the objects' order (a stable radix sort
// of size keys), RelabelComponentImageFilter's rule, the one of
// src/ObjectOrder.h. Every later stage (intensity votes, histograms, run
// grouping, label image) sees the new numbers, and removed objects get the
// number K (the count kept): they cost no vote, no copy to the host.
#ifndef cca_cuda_SelectionStage_cuh
#define cca_cuda_SelectionStage_cuh

#include "Compaction.cuh"
#include "DependentLaunch.cuh"
#include "Frame.cuh"
#include "LabelStage.cuh"
#include "NumberingStage.cuh"
#include "OutputStage.cuh"

#include "cca/Types.h"

#include <algorithm>
#include <cstdint>

namespace cca
{
namespace cuda
{

/** flags[c] = 1 when object c's size lies within the limits; flags[count] = 0. */
template <class Index>
__global__ void
SizeFlagsKernel(Index count,
                const ComponentFeatures * __restrict__ table,
                std::int64_t minimum,
                std::int64_t maximum,
                Index * __restrict__ flags)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c <= count; c += stride)
  {
    const std::int64_t size = c < count ? table[c].pixelCount : -1;
    flags[c] = size >= minimum && size <= maximum ? 1 : 0;
  }
}

/** Sort keys: larger objects first, objects out of the limits last. */
template <class Index>
__global__ void
SizeKeysKernel(Index count,
               const ComponentFeatures * __restrict__ table,
               const Index * __restrict__ flags,
               std::uint64_t largest,
               std::uint64_t * __restrict__ keys,
               Index * __restrict__ order)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c < count; c += stride)
  {
    keys[c] = flags[c] != 0 ? largest - static_cast<std::uint64_t>(table[c].pixelCount) : largest + 1;
    order[c] = c;
  }
}

/** flags[c] = 1 for the objects among the first kept of the size order. */
template <class Index>
__global__ void
ChosenFlagsKernel(Index count, const Index * __restrict__ bySize, Index kept, Index * __restrict__ flags)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index k = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; k <= count; k += stride)
  {
    if (k == count)
    {
      flags[count] = 0;
    }
    else
    {
      flags[bySize[k]] = k < kept ? 1 : 0;
    }
  }
}

/** newToOld[positions[c]] = c where flags[c]: the flagged objects in order. */
template <class Index>
__global__ void
CompactFlaggedKernel(Index count,
                     const Index * __restrict__ flags,
                     const Index * __restrict__ positions,
                     Index * __restrict__ newToOld)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c < count; c += stride)
  {
    if (flags[c] != 0)
    {
      newToOld[positions[c]] = c;
    }
  }
}

/** newNumber[c] = kept (removed) for every object, then the kept ones' numbers. */
template <class Index>
__global__ void
RemovedNumbersKernel(Index count, Index kept, Index * __restrict__ newNumber)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c < count; c += stride)
  {
    newNumber[c] = kept;
  }
}
template <class Index>
__global__ void
NewNumbersKernel(Index kept, const Index * __restrict__ newToOld, Index * __restrict__ newNumber)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index n = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; n < kept; n += stride)
  {
    newNumber[newToOld[n]] = n;
  }
}

template <class Device>
class SelectionStage
{
public:
  /** The components of c that frame.options.selection keeps, in its order;
   *  table holds c's features. Units of removed objects get the kept count
   *  as label. NewToOld() then gives each kept object's former number. */
  template <class Index>
  Components<Index>
  Run(Device &                    device,
      const Frame &               frame,
      const LabeledUnits<Index> & l,
      const Components<Index> &   c,
      const ComponentFeatures *   table)
  {
    const Selection & s = frame.options.selection;
    const Index       count = c.count;
    m_Kept = 0;
    m_NewToOld = nullptr;
    if (count == 0)
    {
      return c;
    }
    const unsigned blocks = BlocksFor(static_cast<std::int64_t>(count) + 1, BlockThreads);
    auto *         flags = Reserve<Index>(m_Flags, static_cast<std::size_t>(count) + 1, "selection flags");
    auto *         positions = Reserve<Index>(m_Positions, static_cast<std::size_t>(count) + 1, "selection positions");
    auto *         newToOld = Reserve<Index>(m_NewToOldBuffer, count, "the selection's order");
    device.Launch("size flag kernel",
                  blocks,
                  BlockThreads,
                  SizeFlagsKernel<Index>,
                  count,
                  table,
                  s.minimumPixels,
                  s.maximumPixels,
                  flags);
    device.ExclusiveSum("scan", flags, positions, static_cast<std::int64_t>(count) + 1);
    Index kept = device.Read(positions + count, "reading a count from the device");
    if (s.keepLargest > 0 || s.orderBySize)
    {
      // Stable: equal sizes keep the objects' order.
      const auto largest = static_cast<std::uint64_t>(frame.pixels);
      auto *     keys = Reserve<std::uint64_t>(m_Keys, count, "size keys");
      auto *     sortedKeys = Reserve<std::uint64_t>(m_SortedKeys, count, "sorted size keys");
      auto *     order = Reserve<Index>(m_Order, count, "object order");
      auto *     bySize = Reserve<Index>(m_BySize, count, "objects by size");
      device.Launch(
        "size key kernel", blocks, BlockThreads, SizeKeysKernel<Index>, count, table, flags, largest, keys, order);
      device.SortPairs("sorting objects by size",
                       keys,
                       sortedKeys,
                       order,
                       bySize,
                       static_cast<std::int64_t>(count),
                       BitsFor(largest + 2));
      if (s.keepLargest > 0)
      {
        kept = static_cast<Index>(std::min<std::int64_t>(static_cast<std::int64_t>(kept), s.keepLargest));
      }
      if (s.orderBySize)
      {
        newToOld = bySize;
      }
      else
      {
        device.Launch("chosen flag kernel", blocks, BlockThreads, ChosenFlagsKernel<Index>, count, bySize, kept, flags);
        device.ExclusiveSum("scan", flags, positions, static_cast<std::int64_t>(count) + 1);
        device.Launch(
          "compaction kernel", blocks, BlockThreads, CompactFlaggedKernel<Index>, count, flags, positions, newToOld);
      }
    }
    else
    {
      device.Launch(
        "compaction kernel", blocks, BlockThreads, CompactFlaggedKernel<Index>, count, flags, positions, newToOld);
    }
    m_Kept = kept;
    m_NewToOld = newToOld;

    auto * newNumber = Reserve<Index>(m_NewNumber, count, "new object numbers");
    device.Launch("removed number kernel", blocks, BlockThreads, RemovedNumbersKernel<Index>, count, kept, newNumber);
    if (kept > 0)
    {
      device.Launch("new number kernel",
                    BlocksFor(static_cast<std::int64_t>(kept), BlockThreads),
                    BlockThreads,
                    NewNumbersKernel<Index>,
                    kept,
                    newToOld,
                    newNumber);
    }
    Components<Index> selected = c;
    selected.count = kept;
    selected.label = Reserve<Index>(m_Labels, l.units.count, "unit labels after the selection");
    selected.rootOf = nullptr; // the table is built: roots are no longer needed
    // Each unit's new number: newNumber[label[u]].
    device.Launch("renumbering kernel",
                  BlocksFor(static_cast<std::int64_t>(l.units.count), BlockThreads),
                  BlockThreads,
                  GatherKernel<Index, Index>,
                  l.units.count,
                  c.label,
                  newNumber,
                  selected.label);
    return selected;
  }

  /** Per kept object, its number before the selection (device memory). */
  template <class Index>
  const Index *
  NewToOld() const
  {
    return static_cast<const Index *>(m_NewToOld);
  }
  std::uint64_t
  Kept() const
  {
    return m_Kept;
  }

private:
  typename Device::Buffer m_Flags;
  typename Device::Buffer m_Positions;
  typename Device::Buffer m_NewToOldBuffer;
  typename Device::Buffer m_Keys;
  typename Device::Buffer m_SortedKeys;
  typename Device::Buffer m_Order;
  typename Device::Buffer m_BySize;
  typename Device::Buffer m_NewNumber;
  typename Device::Buffer m_Labels;
  const void *            m_NewToOld = nullptr;
  std::uint64_t           m_Kept = 0;
};

} // namespace cuda
} // namespace cca

#endif
