// Stage 3 of the host sequence (HostSequence.cuh) for label images whose
// values are the objects (Objects::LabelValues), in place of the numbering:
// the runs, sorted by their values' keys (a stable radix sort keeps raster
// order within a value), are numbered by a scan of the places where the key
// changes, so the objects come in increasing order of their values and each
// object's root is its first run, as the table stages expect. Also the key
// of every object's value, for Result::labelValues, in both label modes.
#ifndef cca_cuda_ValueGroupingStage_cuh
#define cca_cuda_ValueGroupingStage_cuh

#include "Compaction.cuh"
#include "ComponentOrder.cuh"
#include "DependentLaunch.cuh"
#include "Frame.cuh"
#include "LabelStage.cuh"
#include "NumberingStage.cuh"
#include "OutputStage.cuh"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** 1 where a sorted key starts a new value. */
template <class Index>
struct KeyStarts
{
  const std::uint64_t * sortedKeys;
  __host__ __device__ Index
  operator()(Index k) const
  {
    return k == 0 || sortedKeys[k] != sortedKeys[k - 1] ? 1 : 0;
  }
};

/** From the runs sorted by key: each run's object, each object's first run
 *  and key, and which runs share their object with others. */
template <class Index>
__global__ void
NumberValuesKernel(Index count,
                   const std::uint64_t * __restrict__ sortedKeys,
                   const Index * __restrict__ sortedRuns,
                   const Index * __restrict__ startsBefore,
                   Index * __restrict__ label,
                   Index * __restrict__ rootOf,
                   std::uint64_t * __restrict__ objectKeys,
                   std::uint8_t * __restrict__ linked,
                   Index * __restrict__ objectCount)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index k = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; k < count; k += stride)
  {
    const bool  first = k == 0 || sortedKeys[k] != sortedKeys[k - 1];
    const bool  last = k == count - 1 || sortedKeys[k] != sortedKeys[k + 1];
    const Index object = startsBefore[k] + (first ? 1 : 0) - 1;
    const Index run = sortedRuns[k];
    label[run] = object;
    if (linked != nullptr) // null: labels only, no feature votes read it
    {
      linked[run] = first && last ? 0 : 1;
    }
    if (first)
    {
      rootOf[object] = run;
      objectKeys[object] = sortedKeys[k];
    }
    if (k == count - 1)
    {
      *objectCount = object + 1;
    }
  }
}

template <class Device>
class ValueGroupingStage
{
public:
  /** Objects::LabelValues: the objects of the runs' values, in increasing
   *  order of the values, the runs sorted by sorts (the engine's one set of
   *  sort buffers; the sorted runs are not needed once this returns). Fills
   *  l.linked. */
  template <class Index>
  Components<Index>
  Run(Device & device, const Frame & frame, const LabeledUnits<Index> & l, IndexSortStage<Device> & sorts)
  {
    Components<Index> c{};
    const Index       runs = l.units.count;
    m_Keys = nullptr;
    if (runs == 0)
    {
      return c;
    }
    const unsigned blocks = BlocksFor(static_cast<std::int64_t>(runs), BlockThreads);
    auto *         sortedKeys = Reserve<std::uint64_t>(m_SortedKeys, runs, "sorted value keys");
    const Index *  sortedRuns = sorts.ByKey(
      device, "sorting runs by value", l.runKeys, runs, 8 * PixelTypeSize(frame.image.pixelType), sortedKeys);
    c.rank = Reserve<Index>(m_Rank, runs, "value starts before each run");
    device.ExclusiveSumOf("scan", KeyStarts<Index>{ sortedKeys }, c.rank, static_cast<std::int64_t>(runs));
    c.label = Reserve<Index>(m_Label, runs, "run objects");
    c.rootOf = Reserve<Index>(m_RootOf, runs, "object roots");
    m_Keys = Reserve<std::uint64_t>(m_ObjectKeys, runs, "object value keys");
    auto * count = Reserve<Index>(m_Count, 1, "a count");
    device.Launch("value numbering kernel",
                  blocks,
                  BlockThreads,
                  NumberValuesKernel<Index>,
                  runs,
                  sortedKeys,
                  sortedRuns,
                  c.rank,
                  c.label,
                  c.rootOf,
                  m_Keys,
                  l.linked,
                  count);
    c.count = device.Read(count, "reading a count from the device");
    return c;
  }

  /** Objects::LabelValueComponents: each component's value, its root run's. */
  template <class Index>
  void
  KeysOfComponents(Device & device, const LabeledUnits<Index> & l, const Components<Index> & c)
  {
    m_Keys = nullptr;
    if (c.count == 0)
    {
      return;
    }
    m_Keys = Reserve<std::uint64_t>(m_ObjectKeys, c.count, "object value keys");
    device.Launch("object key kernel",
                  BlocksFor(static_cast<std::int64_t>(c.count), BlockThreads),
                  BlockThreads,
                  GatherKernel<std::uint64_t, Index>,
                  c.count,
                  c.rootOf,
                  l.runKeys,
                  m_Keys);
  }

  /** Per object, the key of its value (null when there are none). */
  std::uint64_t *
  ObjectKeys() const
  {
    return m_Keys;
  }

private:
  typename Device::Buffer m_SortedKeys;
  typename Device::Buffer m_Rank;
  typename Device::Buffer m_Label;
  typename Device::Buffer m_RootOf;
  typename Device::Buffer m_ObjectKeys;
  typename Device::Buffer m_Count;
  std::uint64_t *         m_Keys = nullptr;
};

} // namespace cuda
} // namespace cca

#endif
