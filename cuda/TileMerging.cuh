// Tile Merging (TM, Asad 2019 section II, after Oliveira et al. and Stava
// and Benes) on the pixel label grid of PixelLabeling.cuh, with Early
// (section III-C) or Late (III-D) property computation:
//   1. Local Merge: one block per tile; the tile is labeled in shared
//      memory and written back as global raster indices, every pixel
//      pointing at the tile-local smallest raster index of its component.
//   2. Global Merge: the pixel pairs that cross a tile border (and, in 3D,
//      a z slice) are joined by lock-free union-find on the global grid.
//   3. Path Compression: every foreground pixel points straight at its root.
// Early: the records start on every pixel (initialised before labeling, the
// paper's alternative 2); Local Merge moves each pixel's record into its
// local root with atomics, and Path Compression moves each local root's
// record into its final root, as LE's Analysis does.
//
// Against the paper:
// - Local Merge solves the tile with union-find in shared memory (atomicMin
//   links to the smaller local index, as UnionFind.cuh does globally) instead
//   of iterating label propagation: one pass, no convergence loop.
// - Global Merge is one kernel over all tile borders at once, not log2 levels
//   of merging 2 x 2 groups of tiles with intermediate Path Compressions: the
//   lock-free union (atomicMin, retried on conflict) needs no ordering of the
//   merges. Nor are sizes restricted to powers of two: partial tiles at the
//   right and bottom edges are handled.
// - 3D: tiles are 2D tiles of one z slice; Global Merge also joins every
//   pixel with its neighbours in the previous slice.
#ifndef cca_cuda_TileMerging_cuh
#define cca_cuda_TileMerging_cuh

#include "DependentLaunch.cuh"
#include "PixelLabeling.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

namespace tile_merging
{

// 32 x 16 tiles, one thread per pixel. A tile row is one warp: loads and
// stores of the grid are whole 128-byte lines (32-bit labels). 512 threads
// keep the H100 fully occupied (4 blocks = 2048 threads per SM, 2 KiB of
// shared memory each) while halving the tile-row borders that 32 x 8 tiles
// would leave to the (atomic, scattered) Global Merge: 32 + 15 (face) or
// 32 + 30 (full) border pixels per 512.
constexpr int TileWidth = 32;
constexpr int TileHeight = 16;
constexpr int TilePixels = TileWidth * TileHeight;
constexpr int TileThreads = TilePixels; ///< the Local Merge kernel's required block size

/** Tiles of the image: a grid of tilesX x tilesY in each z slice. */
struct Tiling
{
  std::int64_t tilesX;
  std::int64_t tilesY;
  std::int64_t count; ///< tilesX * tilesY * depth

  __host__ __device__ static Tiling
  Of(const Geometry & g)
  {
    const std::int64_t x = (g.width + TileWidth - 1) / TileWidth;
    const std::int64_t y = (g.height + TileHeight - 1) / TileHeight;
    return Tiling{ x, y, x * y * g.depth };
  }
};

/** Early: whether pixel p still holds a record with pixels in it. */
template <class Index>
__device__ __forceinline__ bool
HoldsRecord(const PixelLabelingProblem<Index> & problem, Index p)
{
  return problem.features[problem.unitAt[p]].pixelCount != 0;
}

/** Local Merge: one block of TileThreads threads per tile (block-stride loop
 *  over the tiles). Thread t owns the tile pixel (t % TileWidth,
 *  t / TileWidth); the local index t follows raster order inside the tile, so
 *  the smallest local index of a component is also its smallest raster index
 *  in the tile. Early: every non-root pixel's record moves to its local root. */
template <class Index, bool Early>
__global__ void
__launch_bounds__(TileThreads) LocalMergeKernel(PixelLabelingProblem<Index> problem)
{
  AwaitPrecedingKernel();
  // Tile-local union-find: parent local index, or NoPixel for background
  // and pixels outside the image (partial tiles at the edges).
  constexpr int  NoPixel = -1;
  __shared__ int parentOf[TilePixels];

  const Geometry & g = problem.geometry;
  const Tiling     tiling = Tiling::Of(g);
  const int        local = static_cast<int>(threadIdx.x);
  const int        lx = local % TileWidth;
  const int        ly = local / TileWidth;
  for (std::int64_t tile = blockIdx.x; tile < tiling.count; tile += gridDim.x)
  {
    const std::int64_t tx = tile % tiling.tilesX;
    const std::int64_t ty = (tile / tiling.tilesX) % tiling.tilesY;
    const std::int64_t z = tile / (tiling.tilesX * tiling.tilesY);
    const std::int64_t x0 = tx * TileWidth;
    const std::int64_t y0 = ty * TileHeight;
    const std::int64_t x = x0 + lx;
    const std::int64_t y = y0 + ly;
    const std::int64_t p = (z * g.height + y) * g.width + x;
    const bool         foreground = x < g.width && y < g.height && problem.label[p] != BackgroundLabel<Index>();
    parentOf[local] = foreground ? local : NoPixel;
    __syncthreads();
    if (foreground)
    {
      // The preceding neighbours inside the tile (the others are Global
      // Merge's), written out: a step table would live in local memory.
      auto join = [&](int nx, int ny) {
        const int q = ny * TileWidth + nx;
        if (nx >= 0 && nx < TileWidth && ny >= 0 && parentOf[q] != NoPixel) // NoPixel never changes here
        {
          Merge(parentOf, local, q);
        }
      };
      join(lx - 1, ly);
      join(lx, ly - 1);
      if (problem.full)
      {
        join(lx - 1, ly - 1);
        join(lx + 1, ly - 1);
      }
    }
    __syncthreads();
    if (foreground)
    {
      const int   root = FindRoot(parentOf, local);
      const Index rootPixel =
        static_cast<Index>((z * g.height + y0 + root / TileWidth) * g.width + x0 + root % TileWidth);
      problem.label[p] = rootPixel;
      if constexpr (Early)
      {
        if (rootPixel != static_cast<Index>(p))
        {
          EarlyMove(problem, static_cast<Index>(p), rootPixel); // atomics: pixels of one tile share roots
        }
      }
    }
    __syncthreads(); // parentOf is reused by the block's next tile
  }
}

/** Joins pixel p = (x, y, z) with its preceding neighbours in other tiles
 *  (other tile column, tile row or z slice); the pairs within a tile are
 *  Local Merge's. Plain union: Early records move in Path Compression. */
template <class Index>
__device__ __forceinline__ void
JoinAcrossTiles(const PixelLabelingProblem<Index> & problem,
                std::int64_t                        x,
                std::int64_t                        y,
                std::int64_t                        z,
                const PixelStep (&steps)[13],
                int n)
{
  const Geometry &   g = problem.geometry;
  const std::int64_t p = (z * g.height + y) * g.width + x;
  if (problem.label[p] == BackgroundLabel<Index>())
  {
    return;
  }
  for (int s = 0; s < n; ++s)
  {
    const PixelStep &  step = steps[s];
    const std::int64_t q = NeighbourPixel(g, x, y, z, step);
    const bool         otherTile =
      step.dz != 0 || (x + step.dx) / TileWidth != x / TileWidth || (y + step.dy) / TileHeight != y / TileHeight;
    if (q >= 0 && otherTile && problem.label[q] != BackgroundLabel<Index>())
    {
      Merge(problem.label, static_cast<Index>(p), static_cast<Index>(q));
    }
  }
}

/** Global Merge of a 2D image (depth 1): a grid-stride loop over the border
 *  pixels of every tile that can have a preceding neighbour in another tile:
 *  the top row, the left column below it and, with full connectivity, the
 *  right column below it (its up-right neighbour is in the next tile). */
template <class Index>
__global__ void
GlobalMergeBordersKernel(PixelLabelingProblem<Index> problem)
{
  AwaitPrecedingKernel();
  const Geometry &   g = problem.geometry;
  const Tiling       tiling = Tiling::Of(g);
  const std::int64_t perTile = TileWidth + (TileHeight - 1) * (problem.full ? 2 : 1);
  const std::int64_t slots = tiling.count * perTile;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  PixelStep          steps[13];
  const int          n = PrecedingPixels(problem.full, problem.volume, steps);
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < slots; i += stride)
  {
    const std::int64_t tile = i / perTile;
    const std::int64_t k = i % perTile;
    std::int64_t       lx;
    std::int64_t       ly;
    if (k < TileWidth)
    {
      lx = k;
      ly = 0;
    }
    else if (k < TileWidth + TileHeight - 1)
    {
      lx = 0;
      ly = k - TileWidth + 1;
    }
    else
    {
      lx = TileWidth - 1;
      ly = k - (TileWidth + TileHeight - 1) + 1;
    }
    const std::int64_t x = (tile % tiling.tilesX) * TileWidth + lx;
    const std::int64_t y = (tile / tiling.tilesX) * TileHeight + ly;
    if (x < g.width && y < g.height)
    {
      JoinAcrossTiles(problem, x, y, std::int64_t{ 0 }, steps, n);
    }
  }
}

/** Global Merge of a volume: every pixel has neighbours in the previous z
 *  slice (another tile), so a grid-stride loop over all pixels. */
template <class Index>
__global__ void
GlobalMergeVolumeKernel(PixelLabelingProblem<Index> problem)
{
  AwaitPrecedingKernel();
  const Geometry &   g = problem.geometry;
  const std::int64_t pixels = problem.Pixels();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  PixelStep          steps[13];
  const int          n = PrecedingPixels(problem.full, problem.volume, steps);
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < pixels; p += stride)
  {
    JoinAcrossTiles(problem, p % g.width, (p / g.width) % g.height, p / (g.width * g.height), steps, n);
  }
}

/** Path Compression: every foreground pixel points straight at its root
 *  (FindRoot's halving next to the plain stores of other threads is safe:
 *  links only ever move towards the root). Early: a pixel that still holds
 *  a record is a local root (Local Merge emptied the others); it moves the
 *  record into its final root, which no thread moves any more. */
template <class Index, bool Early>
__global__ void
PathCompressionKernel(PixelLabelingProblem<Index> problem)
{
  AwaitPrecedingKernel();
  const std::int64_t pixels = problem.Pixels();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < pixels; i += stride)
  {
    const Index p = static_cast<Index>(i);
    if (problem.label[p] == BackgroundLabel<Index>())
    {
      continue;
    }
    const Index root = FindRoot(problem.label, p);
    problem.label[p] = root;
    if constexpr (Early)
    {
      if (root != p && HoldsRecord(problem, p))
      {
        EarlyMove(problem, p, root);
      }
    }
  }
}

} // namespace tile_merging

struct TileMerging
{
  static constexpr bool Supports3D = true;

  template <class Index, bool Early, class Device>
  static void
  Label(const PixelLabelingProblem<Index> & problem, Device & device)
  {
    const tile_merging::Tiling tiling = tile_merging::Tiling::Of(problem.geometry);
    device.Launch("TM local merge kernel",
                  BlocksFor(tiling.count, 1),
                  tile_merging::TileThreads,
                  tile_merging::LocalMergeKernel<Index, Early>,
                  problem);
    if (problem.geometry.depth > 1)
    {
      device.Launch("TM global merge kernel",
                    BlocksFor(problem.Pixels(), BlockThreads),
                    BlockThreads,
                    tile_merging::GlobalMergeVolumeKernel<Index>,
                    problem);
    }
    else if (tiling.count > 1)
    {
      const std::int64_t borderPixels =
        tiling.count * (tile_merging::TileWidth + (tile_merging::TileHeight - 1) * (problem.full ? 2 : 1));
      device.Launch("TM global merge kernel",
                    BlocksFor(borderPixels, BlockThreads),
                    BlockThreads,
                    tile_merging::GlobalMergeBordersKernel<Index>,
                    problem);
    }
    device.Launch("TM path compression kernel",
                  BlocksFor(problem.Pixels(), BlockThreads),
                  BlockThreads,
                  tile_merging::PathCompressionKernel<Index, Early>,
                  problem);
  }
};

} // namespace cuda
} // namespace cca

#endif
