// Windisch 2023's tree merge kernel (TMK): the feature records of a labeled image
// are merged into one binary tree of feature nodes whose valid nodes are then
// moved to the front of the array, so that the host copies only those (with
// a guessed count first, and a second copy when the root's size says more).
//
// Steps (Windisch 2023 section 3.2), adapted to the backend's units:
//  1. initialisation: one leaf per labeling unit (run, HA sub-run or pixel)
//     instead of one per pixel pair: its record is the unit's vote (own
//     pixels plus its neighbour pairs with units of the same component in
//     the following rows; RunVotes.cuh) and its label is the root unit
//     of its component (the component's first unit in raster order);
//  2. merging of the trees of neighbouring segments with doubling span,
//     first inside a tile of TileNodes nodes in shared memory, then in
//     global memory with one kernel launch per span (a launch boundary is
//     the grid-wide sync of the paper, and needs no cooperative launch);
//  3. subtree sizes, one thread per leaf walking up (Alg. 2);
//  4. balancing: each valid node's pre-order position, from the sizes of
//     the left subtrees on its path (Alg. 3), is where it is written.
//
// The tree is a bitwise trie: a node at depth d shares the low d bits of
// its label with its path, and a label goes left or right by bit d. Labels
// are unique in a tree, so equal labels meet in one place and two records
// with equal labels never race: their merge is a plain (non-atomic) one.
// Merging segment B into segment A: every node of B re-inserts itself into
// A's tree (its child links cleared first, as in the paper's case (d)),
// either merging into A's node of its label or claiming an empty child slot
// with atomicCAS (case (b)); an empty A takes B's tree whole (case (c)).
// The paper moves B's root into A's slot for that; here each segment's root
// is kept in a small array instead (double-buffered across spans), so no
// node ever moves while others may read it.
#ifndef cca_cuda_TreeMergeCompaction_cuh
#define cca_cuda_TreeMergeCompaction_cuh

#include "DeviceGeometry.cuh"
#include "FeatureUpdate.cuh"
#include "RunDetection.cuh"
#include "RunFeatures.h"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** A node of the feature tree (the paper's object feature struct): the
 *  record kept whole, so the result equals the scan compaction's. */
template <class Index>
struct FeatureTreeNode
{
  ComponentFeatures record; ///< raw neighbour-pair counts until balancing
  Index             label;  ///< root unit of the component; NoTreeNode once merged away
  Index             parent;
  Index             left;  ///< child whose label has bit depth clear
  Index             right; ///< child whose label has bit depth set
  Index             size;  ///< nodes in the subtree; 0 until UpdateTreeSizesKernel
};

/** What the host copies: a valid node at its pre-order position. The root
 *  comes first, so its treeSize, the number of valid nodes, is in the first copy. */
struct CompactedFeatureNode
{
  ComponentFeatures record; ///< finished (ITK's intercept counts)
  std::int64_t      label;  ///< root unit: the host orders the nodes by it
  std::int64_t      treeSize;
};

/** "No node" for labels and links. */
template <class Index>
__host__ __device__ constexpr Index
NoTreeNode()
{
  return ~Index{ 0 };
}

/** Nodes per tile of the shared-memory merge, and its block size. */
constexpr int TileNodes = 128;

/** A child link that other threads may be claiming: read past the L1 cache,
 *  which is not coherent across multiprocessors within a launch. */
template <class Index>
__device__ __forceinline__ Index
LoadTreeLink(const Index * link)
{
  return *static_cast<const volatile Index *>(link);
}

/** Inserts node i into the tree rooted at root (case (b) or (d) of the
 *  paper): walks down by the bits of its label; merges its record into the
 *  node of the same label, or claims the first empty child slot on the way. */
template <class Index>
__device__ __forceinline__ void
InsertIntoTree(FeatureTreeNode<Index> * nodes, Index root, Index i)
{
  FeatureTreeNode<Index> & node = nodes[i];
  const Index              label = node.label;
  // Its old children re-insert themselves; it must be childless when it
  // becomes reachable. Atomic stores: readers of these links are lock-free.
  atomicExch(&node.left, NoTreeNode<Index>());
  atomicExch(&node.right, NoTreeNode<Index>());
  __threadfence();
  Index current = root;
  for (int depth = 0;; ++depth)
  {
    FeatureTreeNode<Index> & target = nodes[current];
    if (target.label == label)
    {
      detail::MergeFeatures(target.record, node.record); // the only merge into target: labels are unique
      node.label = NoTreeNode<Index>();
      return;
    }
    Index * slot = ((label >> depth) & 1) != 0 ? &target.right : &target.left;
    Index   child = LoadTreeLink(slot);
    if (child == NoTreeNode<Index>())
    {
      child = atomicCAS(slot, NoTreeNode<Index>(), i);
      if (child == NoTreeNode<Index>())
      {
        node.parent = current;
        return;
      }
    }
    current = child; // taken meanwhile (or before): go on below it
  }
}

/** One merge of segments of span nodes into segments of 2 * span, for node
 *  i < count: rootIn[k] is the root of nodes [k * span, (k + 1) * span)
 *  (NoTreeNode when all are merged away), rootOut[k] receives that of
 *  [2k * span, (2k + 2) * span). Every valid node of an odd segment joins
 *  the tree of the even segment before it; the first node of an even
 *  segment writes the merged root. */
template <class Index>
__device__ __forceinline__ void
MergeStep(FeatureTreeNode<Index> * nodes, Index count, const Index * rootIn, Index * rootOut, Index span, Index i)
{
  const Index segment = i / span;
  if (segment % 2 == 0)
  {
    if (i % span == 0)
    {
      Index root = rootIn[segment];
      if (root == NoTreeNode<Index>() && (segment + 1) * span < count)
      {
        root = rootIn[segment + 1]; // case (c): an empty target takes the source tree whole
      }
      rootOut[segment / 2] = root;
    }
    return;
  }
  const Index targetRoot = rootIn[segment - 1];
  if (targetRoot != NoTreeNode<Index>() && nodes[i].label != NoTreeNode<Index>())
  {
    InsertIntoTree(nodes, targetRoot, i);
  }
}

/** Steps 1 and 2a: the leaves of TileNodes consecutive units, merged into
 *  one tree per tile in shared memory, stored to nodes[unit] with global
 *  links; tileRoots[t] = the root of tile t. label (the dense component of
 *  each unit) decides which neighbour pairs count (fullMask: RunVote's);
 *  rootUnit (the flattened union-find parents) gives the node labels.
 *  Launch with TileNodes threads. */
template <class Index, class Votes>
__global__ void
__launch_bounds__(TileNodes) BuildTileTreesKernel(RunArrays<Index> units,
                                                  const Index * __restrict__ label,
                                                  const Index * __restrict__ rootUnit,
                                                  Geometry                 geometry,
                                                  detail::ImageFaces       faces,
                                                  bool                     fullMask,
                                                  FeatureTreeNode<Index> * nodes,
                                                  Index *                  tileRoots)
{
  AwaitPrecedingKernel();
  static_assert(sizeof(FeatureTreeNode<Index>) % 8 == 0, "nodes are copied as 64-bit words");
  constexpr int Words = sizeof(FeatureTreeNode<Index>) / 8;
  __shared__ FeatureTreeNode<Index> tile[TileNodes];
  __shared__ Index                  roots[2][TileNodes];
  const Index                       t = static_cast<Index>(threadIdx.x);
  for (Index start = static_cast<Index>(blockIdx.x) * TileNodes; start < units.count;
       start += static_cast<Index>(gridDim.x) * TileNodes)
  {
    const Index local = units.count - start < Index{ TileNodes } ? units.count - start : Index{ TileNodes };
    if (t < local)
    {
      FeatureTreeNode<Index> & node = tile[t];
      const Index              u = start + t;
      RunVote<Index, Votes>(units, label, geometry, faces, u, node.record, fullMask);
      node.label = rootUnit[u];
      node.parent = NoTreeNode<Index>();
      node.left = NoTreeNode<Index>();
      node.right = NoTreeNode<Index>();
      node.size = 0;
      roots[0][t] = t;
    }
    __syncthreads();
    int in = 0;
    for (Index span = 1; span < local; span *= 2)
    {
      if (t < local)
      {
        MergeStep(tile, local, roots[in], roots[1 - in], span, t);
      }
      __syncthreads();
      in = 1 - in;
    }
    if (t < local)
    {
      FeatureTreeNode<Index> & node = tile[t];
      auto                     toGlobal = [&](Index & link) {
        if (link != NoTreeNode<Index>())
        {
          link += start;
        }
      };
      toGlobal(node.parent);
      toGlobal(node.left);
      toGlobal(node.right);
    }
    if (t == 0)
    {
      const Index root = roots[in][0];
      tileRoots[start / TileNodes] = root == NoTreeNode<Index>() ? root : start + root;
    }
    __syncthreads();
    // Consecutive words, so that a warp's stores are contiguous.
    const auto * staged = reinterpret_cast<const std::uint64_t *>(tile);
    auto *       out = reinterpret_cast<std::uint64_t *>(nodes + start);
    const Index  words = local * Words;
    for (Index w = t; w < words; w += TileNodes)
    {
      out[w] = staged[w];
    }
    __syncthreads();
  }
}

/** Step 2b: one span of the merge in global memory (MergeStep for every node). */
template <class Index>
__global__ void
MergeTreesKernel(FeatureTreeNode<Index> * nodes,
                 Index                    count,
                 const Index * __restrict__ rootIn,
                 Index * __restrict__ rootOut,
                 Index span)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    MergeStep(nodes, count, rootIn, rootOut, span, i);
  }
}

/** Step 3 (Alg. 2): one thread per leaf walks up to the root adding up
 *  sizes. At a node with two children the first thread to arrive leaves
 *  its subtree's total there (atomicCAS on the still-zero size) and stops;
 *  the second adds it to its own and goes on. (Alg. 2 as printed lets both
 *  go on, which would count the first one's part twice higher up.) */
template <class Index>
__global__ void
UpdateTreeSizesKernel(FeatureTreeNode<Index> * nodes, Index count)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    const FeatureTreeNode<Index> & leaf = nodes[i];
    if (leaf.label == NoTreeNode<Index>() || leaf.left != NoTreeNode<Index>() || leaf.right != NoTreeNode<Index>())
    {
      continue;
    }
    Index subtree = 1;
    nodes[i].size = subtree;
    for (Index current = i; nodes[current].parent != NoTreeNode<Index>();)
    {
      const Index              up = nodes[current].parent;
      FeatureTreeNode<Index> & node = nodes[up];
      if (node.left != NoTreeNode<Index>() && node.right != NoTreeNode<Index>())
      {
        const Index other = atomicCAS(&node.size, Index{ 0 }, subtree + 1);
        if (other == 0)
        {
          break; // the other child's thread completes this node
        }
        subtree += other;
      }
      else
      {
        subtree += 1;
      }
      node.size = subtree;
      current = up;
    }
  }
}

/** Step 4 (Alg. 3): each valid node goes to its pre-order position: one
 *  for every node above it on its path, plus the left subtree of every node
 *  where the path goes right. Written to a separate array (the paper
 *  balances in place behind a grid-wide sync), records finished on the way. */
template <class Index>
__global__ void
BalanceTreeKernel(const FeatureTreeNode<Index> * __restrict__ nodes,
                  Index count,
                  const Index * __restrict__ root,
                  CompactedFeatureNode * __restrict__ out)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    const FeatureTreeNode<Index> & node = nodes[i];
    const Index                    label = node.label;
    if (label == NoTreeNode<Index>())
    {
      continue;
    }
    Index position = 0;
    Index current = *root;
    for (int depth = 0; nodes[current].label != label; ++depth)
    {
      const FeatureTreeNode<Index> & above = nodes[current];
      position += 1;
      if (((label >> depth) & 1) != 0)
      {
        position += above.left != NoTreeNode<Index>() ? nodes[above.left].size : Index{ 0 };
        current = above.right;
      }
      else
      {
        current = above.left;
      }
    }
    CompactedFeatureNode compacted;
    compacted.record = node.record;
    detail::FinalizeIntercepts(compacted.record);
    compacted.label = static_cast<std::int64_t>(label);
    compacted.treeSize = static_cast<std::int64_t>(node.size);
    out[position] = compacted;
  }
}

} // namespace cuda
} // namespace cca

#endif
