// The units (or runs) grouped by component: a stable radix sort of their
// indices by label, so raster order holds within a component. Two stages
// take them in that order: the runs' grouping for the LabelMap's lines
// (OutputStage.cuh) and, in the default algorithm, the feature votes
// (VotedTables.cuh), whose warps then hold mostly one component's units and
// fold them into one merge of the table entry instead of one per warp that
// meets the component. One sort serves both when their labels are the same.
// The runs of a label image are grouped by value with the same sort
// (ValueGroupingStage.cuh). Where one component holds many of the units, its
// units are left out of the sort (LargestComponent.cuh).
#ifndef cca_cuda_ComponentOrder_cuh
#define cca_cuda_ComponentOrder_cuh

#include "Compaction.cuh"
#include "LargestComponent.cuh"

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

  /** Each word of largest's bits (count units) the units of largest
   *  before it, for RankOfBit: ByComponentAroundLargest's, or the pairs'
   *  pass's where it places them (PlacedLargest.cuh) first. */
  template <class Index>
  const Index *
  LargestWordRanks(Device & device, Index count, const LargestComponent<Index> & largest)
  {
    const std::int64_t words = (static_cast<std::int64_t>(count) + 31) / 32;
    auto *             wordRank =
      Reserve<Index>(m_WordRanks, static_cast<std::size_t>(words), "largest component's units before words");
    device.ExclusiveSumOf("scan", BitsInWord<Index>{ largest.bits, static_cast<Index>(words) }, wordRank, words);
    return wordRank;
  }

  /** The same order, with the units of largest (the numbering's, for these
   *  labels) placed where they go and only the others sorted
   *  (LargestComponent.cuh): straight into their places where no
   *  component is numbered before the largest, else beside them first.
   *  wordRank: LargestWordRanks' if queued already, else null;
   *  placeLargest false: largest's places are left unwritten (the pairs'
   *  pass placed its runs and the votes skip them, PlacedLargest.cuh). */
  template <class Index>
  ComponentOrder<Index>
  ByComponentAroundLargest(Device &                        device,
                           const Index *                   label,
                           Index                           count,
                           int                             keyBits,
                           Index *                         keysOut,
                           const LargestComponent<Index> & largest,
                           const Index *                   wordRank = nullptr,
                           bool                            placeLargest = true)
  {
    const Index others = count - largest.units;
    auto *      keys = Reserve<Index>(m_OtherKeys, others, "labels of the other components");
    auto *      values = Reserve<Index>(m_ValuesIn, others, "indices of the other components");
    auto *      order = Reserve<Index>(m_ValuesOut, count, "indices sorted by key");
    if (wordRank == nullptr)
    {
      wordRank = LargestWordRanks(device, count, largest);
    }
    const std::int64_t perBlock = std::int64_t{ BlockThreads } * LargestSplitSteps;
    device.Launch("largest component split kernel",
                  BlocksFor(static_cast<std::int64_t>(count), perBlock),
                  BlockThreads,
                  SplitAroundLargestKernel<Index>,
                  count,
                  label,
                  largest.bits,
                  wordRank,
                  largest.label,
                  largest.unitsBefore,
                  keys,
                  values,
                  keysOut,
                  order,
                  placeLargest);
    if (others == 0)
    {
      return ComponentOrder<Index>{ order, keysOut };
    }
    if (largest.unitsBefore == 0)
    {
      device.SortPairs("sorting by component",
                       keys,
                       keysOut + largest.units,
                       values,
                       order + largest.units,
                       static_cast<std::int64_t>(others),
                       keyBits);
      return ComponentOrder<Index>{ order, keysOut };
    }
    auto * sortedKeys = Reserve<Index>(m_SortedKeys, others, "other components' sorted labels");
    auto * sortedValues = Reserve<Index>(m_SortedValues, others, "other components' sorted indices");
    device.SortPairs(
      "sorting by component", keys, sortedKeys, values, sortedValues, static_cast<std::int64_t>(others), keyBits);
    device.Launch("largest component placing kernel",
                  BlocksFor(static_cast<std::int64_t>(others), perBlock),
                  BlockThreads,
                  PlaceAroundLargestKernel<Index>,
                  others,
                  largest.units,
                  largest.unitsBefore,
                  sortedKeys,
                  sortedValues,
                  keysOut,
                  order);
    return ComponentOrder<Index>{ order, keysOut };
  }

private:
  typename Device::Buffer m_ValuesIn;
  typename Device::Buffer m_ValuesOut;
  typename Device::Buffer m_WordRanks;    ///< ByComponentAroundLargest only
  typename Device::Buffer m_OtherKeys;    ///< ByComponentAroundLargest only
  typename Device::Buffer m_SortedKeys;   ///< ByComponentAroundLargest only
  typename Device::Buffer m_SortedValues; ///< ByComponentAroundLargest only
};

} // namespace cuda
} // namespace cca

#endif
