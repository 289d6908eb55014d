// The units (or runs) grouped by component: a stable radix sort of their
// indices by label, so raster order holds within a component. Two stages
// take them in that order: the runs' grouping for the LabelMap's lines
// (OutputStage.cuh) and, in the default algorithm, the feature votes
// (VotedTables.cuh), whose warps then hold mostly one component's units and
// fold them into one merge of the table entry instead of one per warp that
// meets the component. One sort serves both when their labels are the same.
#ifndef cca_cuda_ComponentOrder_cuh
#define cca_cuda_ComponentOrder_cuh

#include "Compaction.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Number of bits needed for values 0 .. n - 1 (at least 1). */
inline int
BitsFor(std::uint64_t n)
{
  int bits = 1;
  while (bits < 64 && (std::uint64_t{ 1 } << bits) < n)
  {
    ++bits;
  }
  return bits;
}

/** Indices in component order and their labels, both count long; null when
 *  not sorted. */
template <class Index>
struct ComponentOrder
{
  const Index * index = nullptr;
  const Index * label = nullptr;
};

/** Sorts indices 0 .. count - 1 by label (labels below 2^keyBits) into
 *  buffers of its own; the sorted labels go to keysOut (count entries, the
 *  caller's scratch). */
template <class Device>
class ComponentOrderStage
{
public:
  template <class Index>
  ComponentOrder<Index>
  Sort(Device & device, const Index * label, Index count, int keyBits, Index * keysOut)
  {
    auto * valuesIn = Reserve<Index>(m_ValuesIn, count, "indices in raster order");
    auto * valuesOut = Reserve<Index>(m_ValuesOut, count, "indices in component order");
    LaunchIota(device, "iota kernel", count, valuesIn);
    device.SortPairs(
      "sorting by component", label, keysOut, valuesIn, valuesOut, static_cast<std::int64_t>(count), keyBits);
    return ComponentOrder<Index>{ valuesOut, keysOut };
  }

private:
  typename Device::Buffer m_ValuesIn;
  typename Device::Buffer m_ValuesOut;
};

} // namespace cuda
} // namespace cca

#endif
