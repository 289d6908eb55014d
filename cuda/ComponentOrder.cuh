// The units (or runs) grouped by component: a stable radix sort of their
// indices by label, so raster order holds within a component. Two stages
// take them in that order: the runs' grouping for the LabelMap's lines
// (OutputStage.cuh) and, in the default algorithm, the feature votes
// (VotedTables.cuh), whose warps then hold mostly one component's units and
// fold them into one merge of the table entry instead of one per warp that
// meets the component. One sort serves both when their labels are the same.
// The runs of a label image are grouped by value with the same sort
// (ValueGroupingStage.cuh).
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

/** Stable sorts of the indices 0 .. count - 1 by a key each, into buffers
 *  of its own: an engine holds one set for every sort of units or runs
 *  (the component order here, the values of a label image's runs in
 *  ValueGroupingStage.cuh). */
template <class Device>
class IndexSortStage
{
public:
  /** The indices in increasing order of keys (keys below 2^keyBits, raster
   *  order among equal keys); the sorted keys go to keysOut (count
   *  entries, the caller's). */
  template <class Index, class Key>
  const Index *
  ByKey(Device & device, const char * what, const Key * keys, Index count, int keyBits, Key * keysOut)
  {
    auto * valuesIn = Reserve<Index>(m_ValuesIn, count, "indices in raster order");
    auto * valuesOut = Reserve<Index>(m_ValuesOut, count, "indices sorted by key");
    LaunchIota(device, "iota kernel", count, valuesIn);
    device.SortPairs(what, keys, keysOut, valuesIn, valuesOut, static_cast<std::int64_t>(count), keyBits);
    return valuesOut;
  }

  /** The indices in component order: sorted by label (labels below
   *  2^keyBits), the sorted labels in keysOut. */
  template <class Index>
  ComponentOrder<Index>
  ByComponent(Device & device, const Index * label, Index count, int keyBits, Index * keysOut)
  {
    return ComponentOrder<Index>{ ByKey(device, "sorting by component", label, count, keyBits, keysOut), keysOut };
  }

private:
  typename Device::Buffer m_ValuesIn;
  typename Device::Buffer m_ValuesOut;
};

} // namespace cuda
} // namespace cca

#endif
