// Stage 4 of the host sequence (HostSequence.cuh), the feature table, for
// FeatureCompaction::TreeMerge: Windisch 2023's tree merge kernel
// (TreeMergeCompaction.cuh) builds, sizes and balances the feature tree of
// the units, so that only the valid nodes are copied to the host: a guessed
// count first (the paper's user-provided object count; here the last run's
// count plus a margin), the rest when the root says there are more. The host
// then orders the nodes by label (their root units: the scan's numbering).
#ifndef cca_cuda_TreeMergeTable_cuh
#define cca_cuda_TreeMergeTable_cuh

#include "ComponentOrder.cuh"
#include "FeatureUpdate.cuh"
#include "Frame.cuh"
#include "LabelStage.cuh"
#include "NumberingStage.cuh"
#include "TreeMergeCompaction.cuh"
#include "UpdateCounts.cuh"

#include "cca/Types.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cca
{
namespace cuda
{

/** The tree of a run before balancing, in device memory (for tests). */
template <class Index>
struct FeatureTree
{
  const FeatureTreeNode<Index> * nodes; ///< one per unit; merged-away nodes have label NoTreeNode
  const Index *                  root;  ///< the root's index
  Index                          count;
};

template <class Device>
class TreeMergeTable
{
public:
  static constexpr FeatureCompaction Compaction = FeatureCompaction::TreeMerge;

  /** The first copy before the backend has seen a frame. */
  static constexpr std::int64_t InitialCopyGuess = 1024;

  /** TMK does the feature accumulation itself, from the units' records
   *  (order: ignored). */
  template <class Index, class S>
  void
  Build(Device &                    device,
        const Frame &               frame,
        const LabeledUnits<Index> & l,
        const Components<Index> &   c,
        const UpdateCounts<Device> &,
        const ComponentOrder<Index> &)
  {
    m_Capacity = static_cast<std::int64_t>(l.units.count);
    m_Components = static_cast<std::int64_t>(c.count);
    m_Compacted = nullptr;
    if (l.units.count > 0)
    {
      m_Compacted = BuildTree<Index, S::Units::Span>(device, frame, l.units, c.label, l.parent);
    }
  }

  /** The valid nodes: a guessed count, then the rest if the root says there are more. */
  void
  Download(Device & device, Result &, int)
  {
    m_HostNodes.clear();
    if (m_Components == 0)
    {
      return;
    }
    const std::int64_t first = std::max<std::int64_t>(1, std::min(m_CopyGuess, m_Capacity));
    m_HostNodes.resize(static_cast<std::size_t>(first));
    device.Download(m_HostNodes.data(), m_Compacted, m_HostNodes.size() * sizeof(CompactedFeatureNode));
    const std::int64_t valid = m_HostNodes[0].treeSize; // the root comes first
    if (valid < 1 || valid > m_Capacity || valid != m_Components)
    {
      throw Error(Error::Kind::Cuda,
                  "the tree merge compaction found " + std::to_string(valid) + " nodes for " +
                    std::to_string(m_Components) + " components");
    }
    if (valid > first)
    {
      m_HostNodes.resize(static_cast<std::size_t>(valid));
      device.Download(m_HostNodes.data() + first,
                      m_Compacted + first,
                      static_cast<std::size_t>(valid - first) * sizeof(CompactedFeatureNode));
      ++m_SecondCopies;
    }
    m_HostNodes.resize(static_cast<std::size_t>(valid));
    m_CopyGuess = valid + valid / 4 + 16; // the count plus a safety margin
  }

  void
  Finish(Result & result)
  {
    FeaturesInLabelOrder(m_HostNodes, result.features);
  }

  /** Copies that needed a second one (the guess was too small), over all runs. */
  std::int64_t
  SecondCopies() const
  {
    return m_SecondCopies;
  }

  /** The tree of the last run with Index, before balancing. */
  template <class Index>
  FeatureTree<Index>
  LastTree() const
  {
    return FeatureTree<Index>{ static_cast<const FeatureTreeNode<Index> *>(m_LastNodes),
                               static_cast<const Index *>(m_LastRoot),
                               static_cast<Index>(m_Capacity) };
  }

private:
  /** Builds, sizes and balances the tree; returns the compacted nodes on the
   *  device (valid ones first). */
  template <class Index, UnitSpan Span>
  const CompactedFeatureNode *
  BuildTree(Device &                 device,
            const Frame &            frame,
            const RunArrays<Index> & units,
            const Index *            label,
            const Index *            rootUnit)
  {
    const Index    count = units.count;
    const unsigned nodeBlocks = BlocksFor(static_cast<std::int64_t>(count), BlockThreads);
    auto *         nodes = Reserve<FeatureTreeNode<Index>>(m_Nodes, count, "feature tree nodes");
    Index          segments = (count + TileNodes - 1) / TileNodes;
    Index *        rootIn = Reserve<Index>(m_Roots[0], segments, "feature tree roots");
    Index *        rootOut = Reserve<Index>(m_Roots[1], (segments + 1) / 2, "feature tree roots");
    // The leaf records: every unit votes (no single-unit shortcut), pairs with units of its component.
    using TreeVotes = VotePolicy<VoteFolding::None, SingleUnitComponents::Voted, Span, PairVotes::All>;
    device.Launch("tree tile kernel",
                  BlocksFor(static_cast<std::int64_t>(count), TileNodes),
                  TileNodes,
                  BuildTileTreesKernel<Index, TreeVotes>,
                  units,
                  label,
                  rootUnit,
                  frame.geometry,
                  frame.faces,
                  frame.fullMask,
                  nodes,
                  rootIn);
    for (Index span = TileNodes; segments > 1; span *= 2, segments = (segments + 1) / 2)
    {
      device.Launch(
        "tree merge kernel", nodeBlocks, BlockThreads, MergeTreesKernel<Index>, nodes, count, rootIn, rootOut, span);
      std::swap(rootIn, rootOut);
    }
    device.Launch("tree size kernel", nodeBlocks, BlockThreads, UpdateTreeSizesKernel<Index>, nodes, count);
    auto * compacted = Reserve<CompactedFeatureNode>(m_Out, count, "compacted tree nodes");
    device.Launch(
      "tree balancing kernel", nodeBlocks, BlockThreads, BalanceTreeKernel<Index>, nodes, count, rootIn, compacted);
    m_LastNodes = nodes;
    m_LastRoot = rootIn;
    return compacted;
  }

  /** The features of the nodes in order of their labels: an LSD radix sort
   *  of (label, node) pairs, 11 bits a pass. */
  static void
  FeaturesInLabelOrder(const std::vector<CompactedFeatureNode> & nodes, std::vector<ComponentFeatures> & features)
  {
    const std::size_t          n = nodes.size();
    std::vector<std::uint64_t> keys(n), sortedKeys(n);
    std::vector<std::size_t>   order(n), sortedOrder(n);
    std::uint64_t              largest = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
      keys[i] = static_cast<std::uint64_t>(nodes[i].label);
      order[i] = i;
      largest = std::max(largest, keys[i]);
    }
    constexpr int            Bits = 11;
    constexpr std::uint64_t  Mask = (std::uint64_t{ 1 } << Bits) - 1;
    std::vector<std::size_t> start(std::size_t{ 1 } << Bits);
    for (int shift = 0; shift < 64 && (largest >> shift) != 0; shift += Bits)
    {
      std::fill(start.begin(), start.end(), 0);
      for (const std::uint64_t key : keys)
      {
        ++start[(key >> shift) & Mask];
      }
      std::size_t sum = 0;
      for (std::size_t & b : start)
      {
        const std::size_t c = b;
        b = sum;
        sum += c;
      }
      for (std::size_t k = 0; k < n; ++k)
      {
        const std::size_t to = start[(keys[k] >> shift) & Mask]++;
        sortedKeys[to] = keys[k];
        sortedOrder[to] = order[k];
      }
      keys.swap(sortedKeys);
      order.swap(sortedOrder);
    }
    features.resize(n);
    for (std::size_t k = 0; k < n; ++k)
    {
      features[k] = nodes[order[k]].record;
    }
  }

  typename Device::Buffer           m_Nodes;    ///< one node per unit
  typename Device::Buffer           m_Roots[2]; ///< the root of each segment, per span (double-buffered)
  typename Device::Buffer           m_Out;      ///< the balanced nodes, valid ones first
  const CompactedFeatureNode *      m_Compacted = nullptr;
  std::vector<CompactedFeatureNode> m_HostNodes;
  std::int64_t                      m_Capacity = 0;
  std::int64_t                      m_Components = 0;
  std::int64_t                      m_CopyGuess = InitialCopyGuess;
  std::int64_t                      m_SecondCopies = 0;
  const void *                      m_LastNodes = nullptr;
  const void *                      m_LastRoot = nullptr;
};

} // namespace cuda
} // namespace cca

#endif
