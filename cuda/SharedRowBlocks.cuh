// What the union-find's first passes with their links in shared memory
// share (RowBlocksInShared.cuh over the runs' searches in volumes,
// ByteRowBlocksInShared.cuh over the rows' bits in planes): the grid of
// blocks of rows, a block's block-local links each its own root at the
// start, and every run pointed at its block's root at the end.
#ifndef cca_cuda_SharedRowBlocks_cuh
#define cca_cuda_SharedRowBlocks_cuh

#include "DeviceGeometry.cuh"
#include "UnionFind.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Blocks of blockRows rows in a slice of g: the grid of a pass is the
 *  image's slices times this, slice-major. */
__host__ __device__ inline std::int64_t
         RowBlocksPerSlice(const Geometry & g, std::int64_t blockRows)
{
  return (g.height + blockRows - 1) / blockRows;
}

/** The rows this thread block takes: its first image row and how many (in
 *  Coord arithmetic: 32-bit in small images). */
template <class Coord>
struct RowBlock
{
  Coord firstRow;
  Coord rows;
};

template <class Coord>
__device__ __forceinline__ RowBlock<Coord>
                           RowBlockOfThisBlock(const Geometry & geometry, std::int64_t blockRows)
{
  const auto         height = static_cast<Coord>(geometry.height);
  const std::int64_t blocksPerSlice = RowBlocksPerSlice(geometry, blockRows);
  const auto         z = static_cast<Coord>(blockIdx.x / blocksPerSlice);
  const auto         firstY = static_cast<Coord>((blockIdx.x % blocksPerSlice) * blockRows);
  const Coord endY = firstY + static_cast<Coord>(blockRows) < height ? firstY + static_cast<Coord>(blockRows) : height;
  return RowBlock<Coord>{ z * height + firstY, endY - firstY };
}

/** The block's count links, each its own root (before a barrier). */
__device__ __forceinline__ void
StartBlockLinks(std::uint32_t * local, std::uint32_t count)
{
  for (std::uint32_t i = threadIdx.x; i < count; i += blockDim.x)
  {
    local[i] = i;
  }
}

/** After the block's last union (and a barrier): every run begin + i of
 *  the block that is not its block's root points at it. The roots no
 *  longer move. */
template <class Index>
__device__ __forceinline__ void
PointRunsAtBlockRoots(const std::uint32_t * local, std::uint32_t count, Index * parent, Index begin)
{
  for (std::uint32_t i = threadIdx.x; i < count; i += blockDim.x)
  {
    const std::uint32_t root = ClimbToRoot(local, i);
    if (root != i)
    {
      parent[begin + i] = begin + static_cast<Index>(root);
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
