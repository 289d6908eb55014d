// Labels only under full connectivity: the union-find over blocks of 2 x 2
// pixels (2 x 2 x 2 voxels in a volume) instead of runs, after the
// block-based labelings of Allegretti 2020 (BUF, BKE). Under full
// connectivity the foreground pixels of such a block all touch each other,
// so the block is the unit: a quarter (an eighth) as many nodes as pixels,
// each joined with the preceding blocks it touches (4 in 2D, 13 in 3D),
// which a test of two bit masks tells without reading the image again. In a
// volume near the percolation threshold, where runs are 2 to 6 voxels long,
// these are fewer and shorter walks than the union-find over runs; where
// runs are long the runs win, so the host sequence chooses by their mean
// length; in planes the runs won everywhere (HostSequence.cuh gives the
// measurements).
//
// The numbering keeps ITK's order, the raster order of the components'
// first pixels. A component's first pixel is the first pixel of its block
// and has no foreground neighbour before it in raster order; each block
// whose first pixel passes that test (few do near the threshold) offers it
// to its root (atomicMin of its key, below). The key of a pixel is its row
// times the blocks per row plus its block column: the first pixels of two
// components never share a key (same row and block column: same block), and
// keys keep their raster order. A bit per key marks the roots' keys; a
// component's label is the rank of its bit (popcounts of the bitmap's
// words, then an exclusive scan of them).
#ifndef cca_cuda_BlockLabeling_cuh
#define cca_cuda_BlockLabeling_cuh

#include "DeviceGeometry.cuh"
#include "FirstPixelRanks.cuh"
#include "Frame.cuh"
#include "UnionFind.cuh"

#include "PathUses.h"
#include "PixelTypeDispatch.h"

#include <algorithm>
#include <cstdint>

namespace cca
{
namespace cuda
{

/** The blocks of an image: 2 pixels along x and y, and along z when the
 *  image has more than one slice; blocks at the far borders may be cut. */
struct BlockGrid
{
  Geometry     pixels;
  std::int64_t columns; ///< blocks along x
  std::int64_t rows;    ///< blocks along y
  std::int64_t slices;  ///< blocks along z
  std::int64_t count;   ///< all blocks
  std::int64_t keys;    ///< pixel rows x block columns: the key space of first pixels
};

inline BlockGrid
MakeBlockGrid(const Geometry & g)
{
  BlockGrid b;
  b.pixels = g;
  b.columns = (g.width + 1) / 2;
  b.rows = (g.height + 1) / 2;
  b.slices = g.depth > 1 ? (g.depth + 1) / 2 : 1;
  b.count = b.columns * b.rows * b.slices;
  b.keys = g.rows * b.columns;
  return b;
}

/** Bit of the pixel at (lx, ly, lz) in its block's mask: raster order. */
__host__ __device__ constexpr int
BlockBit(int lx, int ly, int lz)
{
  return (lz * 2 + ly) * 2 + lx;
}

/** The pixels of a block on its side towards the neighbour block at offset
 *  (ox, oy, oz): under full connectivity each of them touches each pixel of
 *  the neighbour's opposite side, BlockSide(-ox, -oy, -oz). */
__host__ __device__ constexpr unsigned
BlockSide(int ox, int oy, int oz)
{
  unsigned mask = 0;
  for (int l = 0; l < 8; ++l)
  {
    const int lx = l & 1;
    const int ly = (l >> 1) & 1;
    const int lz = l >> 2;
    if ((ox == 0 || lx == (ox > 0 ? 1 : 0)) && (oy == 0 || ly == (oy > 0 ? 1 : 0)) &&
        (oz == 0 || lz == (oz > 0 ? 1 : 0)))
    {
      mask |= 1u << l;
    }
  }
  return mask;
}

/** Whether a block with mask a and the block at offset (ox, oy, oz) from it,
 *  with mask b, have touching foreground pixels. */
__host__ __device__ constexpr bool
BlocksTouch(unsigned a, unsigned b, int ox, int oy, int oz)
{
  return (a & BlockSide(ox, oy, oz)) != 0 && (b & BlockSide(-ox, -oy, -oz)) != 0;
}

/** Offsets that precede (0, 0, 0) in raster order, the face neighbours
 *  first: the 13 of a volume, of which the last 4 are those of a plane. */
struct PrecedingOffset
{
  int x;
  int y;
  int z;
};
__host__ __device__ constexpr PrecedingOffset
Preceding(int i)
{
  constexpr PrecedingOffset offsets[13] = { { -1, 0, 0 },  { 0, 0, -1 },  { -1, -1, -1 }, { 0, -1, -1 }, { 1, -1, -1 },
                                            { -1, 0, -1 }, { 1, 0, -1 },  { -1, 1, -1 },  { 0, 1, -1 },  { 1, 1, -1 },
                                            { 0, -1, 0 },  { -1, -1, 0 }, { 1, -1, 0 } };
  return offsets[i];
}
/** The preceding offsets of a plane, face neighbours first. */
__host__ __device__ constexpr PrecedingOffset
PrecedingInPlane(int i)
{
  constexpr PrecedingOffset offsets[4] = { { -1, 0, 0 }, { 0, -1, 0 }, { -1, -1, 0 }, { 1, -1, 0 } };
  return offsets[i];
}

/** Calls f(offset) for each offset preceding (0, 0, 0) (13 in a volume, 4
 *  in a plane), face neighbours first. */
template <class F>
__device__ __forceinline__ void
ForEachPreceding(bool volume, F && f)
{
  if (volume)
  {
#pragma unroll
    for (int i = 0; i < 13; ++i)
    {
      if (f(Preceding(i)))
      {
        return;
      }
    }
  }
  else
  {
#pragma unroll
    for (int i = 0; i < 4; ++i)
    {
      if (f(PrecedingInPlane(i)))
      {
        return;
      }
    }
  }
}

/** Block coordinates. */
struct BlockAt
{
  std::int64_t x;
  std::int64_t y;
  std::int64_t z;
};

/** Lines of blocks (one y and z) of the grid. */
__host__ __device__ inline std::int64_t
         BlockLines(const BlockGrid & g)
{
  return g.rows * g.slices;
}

/** Calls f(first, y, z) for the lines of blocks this CUDA block
 *  takes (a grid-stride loop over lines; first: the line's first block):
 *  coordinates from one division per line, not three per block (64-bit
 *  divisions cost tens of instructions each). */
template <class F>
__device__ __forceinline__ void
ForEachLineOfBlocks(const BlockGrid & g, F && f)
{
  const std::int64_t lines = BlockLines(g);
  for (std::int64_t line = blockIdx.x; line < lines; line += gridDim.x)
  {
    const std::int64_t z = line / g.rows;
    f(line * g.columns, line - z * g.rows, z);
  }
}

/** Calls f(b, at) for every block of the lines this CUDA block takes, the
 *  threads along x. */
template <class F>
__device__ __forceinline__ void
ForEachBlock(const BlockGrid & g, F && f)
{
  ForEachLineOfBlocks(g, [&](std::int64_t first, std::int64_t y, std::int64_t z) {
    for (std::int64_t x = threadIdx.x; x < g.columns; x += blockDim.x)
    {
      f(first + x, BlockAt{ x, y, z });
    }
  });
}

/** Blocks and threads of the kernels that walk the grid line by line: a
 *  CUDA block per line (capped; the loops cover the rest), as many threads
 *  as a line needs in whole warps, at most BlockThreads. */
inline unsigned
LineBlocks(const BlockGrid & g)
{
  return BlocksFor(BlockLines(g), 1);
}
inline int
LineThreads(const BlockGrid & g)
{
  const std::int64_t warps = (g.columns + WarpSize - 1) / WarpSize;
  return static_cast<int>(std::min<std::int64_t>(warps * WarpSize, BlockThreads));
}

/** Calls f(ly, lz, offset) for each row of pixels of the block at at that
 *  lies in the image: ly, lz its place in the block, offset the index of
 *  the block's first pixel in that row. */
template <class F>
__device__ __forceinline__ void
ForEachRowOfBlock(const Geometry & p, const BlockAt & at, F && f)
{
  for (int lz = 0; lz < 2; ++lz)
  {
    const std::int64_t z = (p.depth > 1 ? 2 * at.z : at.z) + lz;
    if ((lz == 1 && p.depth == 1) || z >= p.depth)
    {
      break;
    }
    for (int ly = 0; ly < 2; ++ly)
    {
      const std::int64_t y = 2 * at.y + ly;
      if (y >= p.height)
      {
        break;
      }
      f(ly, lz, (z * p.height + y) * p.width + 2 * at.x);
    }
  }
}

/** The mask of the foreground pixels of the block at at (BlockBit). */
template <class T>
__device__ __forceinline__ unsigned
BlockMaskAt(const T * __restrict__ image, const Geometry & p, const BlockAt & at, ForegroundTest<T> foreground)
{
  const bool second = 2 * at.x + 1 < p.width;
  unsigned   mask = 0;
  ForEachRowOfBlock(p, at, [&](int ly, int lz, std::int64_t offset) {
    const T * row = image + offset;
    T         pair[2] = { row[0], T{} };
    if constexpr (sizeof(T) == 1)
    {
      if (second && (reinterpret_cast<std::uintptr_t>(row) & 1u) == 0) // one 2-byte load
      {
        const auto both = *reinterpret_cast<const std::uint16_t *>(row);
        pair[0] = static_cast<T>(both & 0xffu);
        pair[1] = static_cast<T>(both >> 8);
      }
      else if (second)
      {
        pair[1] = row[1];
      }
    }
    else if (second)
    {
      pair[1] = row[1];
    }
    mask |= foreground(pair[0]) ? 1u << BlockBit(0, ly, lz) : 0u;
    mask |= second && foreground(pair[1]) ? 1u << BlockBit(1, ly, lz) : 0u;
  });
  return mask;
}

/** Per block: the mask of its foreground pixels. Foreground blocks get a
 *  parent and no first pixel offered yet (background blocks are never read
 *  again but for their masks). A warp takes 32 consecutive blocks of a line
 *  (lane = x mod 32, as BlockMergeKernel assumes): blocks joined to their
 *  left neighbour within the warp point straight at the first block of
 *  their joined stretch, so the union-find starts from short trees instead
 *  of chains along the rows that every later walk climbs. */
template <class T, class Index>
__global__ void
BlockMaskKernel(const T * __restrict__ image,
                BlockGrid         g,
                ForegroundTest<T> foreground,
                std::uint8_t * __restrict__ masks,
                Index * __restrict__ parent,
                Index * __restrict__ firstKey)
{
  AwaitPrecedingKernel();
  const int lane = static_cast<int>(LaneId());
  ForEachLineOfBlocks(g, [&](std::int64_t firstOfLine, std::int64_t y, std::int64_t z) {
    // Whole warps in every step (the threads are whole warps): the shuffles
    // see all lanes; a warp's blocks are 32 consecutive ones of one line.
    for (std::int64_t warpX = threadIdx.x - lane; warpX < g.columns; warpX += blockDim.x)
    {
      const BlockAt      at{ warpX + lane, y, z };
      const std::int64_t b = firstOfLine + at.x;
      const unsigned     mask = at.x < g.columns ? BlockMaskAt(image, g.pixels, at, foreground) : 0u;
      if (at.x < g.columns)
      {
        masks[b] = static_cast<std::uint8_t>(mask);
      }
      const unsigned left = __shfl_up_sync(FullWarp, mask, 1);
      const bool     joinedLeft = lane > 0 && BlocksTouch(mask, left, -1, 0, 0);
      const unsigned starts = __ballot_sync(FullWarp, !joinedLeft);
      if (mask != 0)
      {
        const int start = 31 - __clz(starts & (FullWarp >> (31 - lane))); // the last start at or below this lane
        parent[b] = static_cast<Index>(firstOfLine + warpX + start);
        firstKey[b] = ~Index{ 0 };
      }
    }
  });
}

/** Index of the block at offset o from at, or -1 outside the grid. */
__device__ __forceinline__ std::int64_t
                           NeighbourBlock(const BlockGrid & g, const BlockAt & at, const PrecedingOffset & o)
{
  const std::int64_t x = at.x + o.x;
  const std::int64_t y = at.y + o.y;
  const std::int64_t z = at.z + o.z;
  if (x < 0 || x >= g.columns || y < 0 || y >= g.rows || z < 0)
  {
    return -1;
  }
  return (z * g.rows + y) * g.columns + x;
}

/** One thread per foreground block: joins it with every preceding block
 *  that has a pixel touching one of its own, starting each later union from
 *  the root the last one met (as LinkRunsKernel does). Unions that other
 *  ones make anyway are left out: with the left neighbour within a warp
 *  (BlockMaskKernel linked them), and with a block that touches the left
 *  neighbour, the block below or the block above too, when that one is
 *  joined to this block: in a dense region most blocks then make one or two
 *  unions, not 4 (2D) or 13 (3D). One pass over all blocks: the passes of
 *  ForEachLinkPass (slices, then levels of rows and slices), which shorten
 *  the chains of the union-find over runs, made this labeling slower on the
 *  H200 (512^3, g = 1: 34 -> 28 Gvox/s). */
template <class Index>
__global__ void
BlockMergeKernel(BlockGrid g, const std::uint8_t * __restrict__ masks, Index * parent)
{
  AwaitPrecedingKernel();
  // Walks without halving: the trees start flat (BlockMaskKernel), and an
  // atomic per step cost more than the shorter paths saved (H100, 512^3,
  // g = 1, blocks only: 37.9 -> 41.8 Gvox/s; in planes, 34.3 -> 33.7 Gpix/s,
  // where the runs label anyway).
  const MergeThrough<CachedLoads, false> join{};
  const bool                             volume = g.pixels.depth > 1;
  ForEachBlock(g, [&](std::int64_t b, const BlockAt & at) {
    const unsigned mask = masks[b];
    if (mask == 0)
    {
      return;
    }
    const unsigned left = at.x > 0 ? masks[b - 1] : 0u;
    const bool     joinedLeft = BlocksTouch(mask, left, -1, 0, 0);
    RootMet<Index> met(static_cast<Index>(b));
    // The other lanes were linked by BlockMaskKernel.
    if (joinedLeft && at.x % WarpSize == 0)
    {
      met.Join(join, parent, static_cast<Index>(b - 1));
    }
    // The blocks straight below (0, 0, -1) and above (0, -1, 0), when this
    // block touches them: their masks (else 0).
    unsigned below = 0;
    unsigned above = 0;
    ForEachPreceding(volume, [&](const PrecedingOffset & o) {
      if ((o.x == -1 && o.y == 0 && o.z == 0) || (mask & BlockSide(o.x, o.y, o.z)) == 0)
      {
        return false;
      }
      const std::int64_t n = NeighbourBlock(g, at, o);
      if (n < 0)
      {
        return false;
      }
      const unsigned neighbour = masks[n];
      if ((neighbour & BlockSide(-o.x, -o.y, -o.z)) == 0)
      {
        return false;
      }
      if (o.x == 0 && o.y == 0) // (0, 0, -1): visited before the rest of its slice
      {
        below = neighbour;
      }
      else if (o.x == 0 && o.z == 0) // (0, -1, 0): visited before the rest of its row
      {
        above = neighbour;
      }
      // Left out when another path joins them anyway. n lies at
      // (o.x + 1, o.y, o.z) from the left neighbour (a preceding offset of
      // it whenever o.x <= 0), at (o.x, o.y, 0) from the block below when in
      // the previous slice, at (o.x, 0, 0) from the block above when in the
      // previous row. The union with the block below or above is never left
      // out for these two reasons, and the others lead to pairs of smaller
      // blocks, so every pair left out is joined through kept ones.
      const bool viaLeft = joinedLeft && o.x <= 0 && BlocksTouch(left, neighbour, o.x + 1, o.y, o.z);
      const bool viaBelow = o.z == -1 && (o.x != 0 || o.y != 0) && BlocksTouch(below, neighbour, o.x, o.y, 0);
      const bool viaAbove = o.z == 0 && o.x != 0 && BlocksTouch(above, neighbour, o.x, 0, 0);
      if (viaLeft || viaBelow || viaAbove)
      {
        return false;
      }
      met.Join(join, parent, static_cast<Index>(n));
      return false;
    });
    if (met.Moved())
    {
      met.PointRun(parent);
    }
  });
}

/** Whether pixel (x, y, z) is foreground, from the block masks. */
__device__ __forceinline__ bool
ForegroundInMasks(const BlockGrid & g, const std::uint8_t * masks, std::int64_t x, std::int64_t y, std::int64_t z)
{
  const bool         volume = g.pixels.depth > 1;
  const std::int64_t b = ((volume ? z / 2 : z) * g.rows + y / 2) * g.columns + x / 2;
  return ((masks[b] >>
           BlockBit(static_cast<int>(x & 1), static_cast<int>(y & 1), volume ? static_cast<int>(z & 1) : 0)) &
          1u) != 0;
}

/** After the unions, per foreground block: points it straight at its root
 *  (the flattening), and if its first pixel has no foreground neighbour
 *  before it in raster order, offers that pixel's key to the root; the
 *  smallest offer is the component's first pixel. */
template <class Index>
__global__ void
OfferFirstPixelsKernel(BlockGrid g, const std::uint8_t * __restrict__ masks, Index * parent, Index * firstKey)
{
  AwaitPrecedingKernel();
  const Geometry & p = g.pixels;
  const bool       volume = p.depth > 1;
  ForEachBlock(g, [&](std::int64_t b, const BlockAt & at) {
    const unsigned mask = masks[b];
    if (mask == 0)
    {
      return;
    }
    // No root changes any more: a plain walk (a link read meanwhile is the
    // root another thread wrote, or an older link below it).
    const Index root = ClimbToRoot<CachedLoads>(parent, static_cast<Index>(b));
    parent[b] = root;
    const int          bit = __ffs(static_cast<int>(mask)) - 1; // raster order within the block
    const std::int64_t x = 2 * at.x + (bit & 1);
    const std::int64_t y = 2 * at.y + ((bit >> 1) & 1);
    const std::int64_t z = (volume ? 2 * at.z : at.z) + (bit >> 2);
    // Pixels of the block before this one are background; only those of
    // other blocks can precede it.
    bool preceded = false;
    ForEachPreceding(volume, [&](const PrecedingOffset & o) {
      const std::int64_t qx = x + o.x;
      const std::int64_t qy = y + o.y;
      const std::int64_t qz = z + o.z;
      preceded =
        qx >= 0 && qx < p.width && qy >= 0 && qy < p.height && qz >= 0 && ForegroundInMasks(g, masks, qx, qy, qz);
      return preceded;
    });
    const Index key = static_cast<Index>((z * p.height + y) * g.columns + at.x);
    // The read first: in a large component most offers are already beaten,
    // and atomics on one address queue at its L2 slice. A stale read is a
    // larger key, which only costs the atomic.
    if (!preceded && key < firstKey[root])
    {
      atomicMin(firstKey + root, key);
    }
  });
}

/** Sets the bit of each component's first pixel key in firstPixels. */
template <class Index>
__global__ void
MarkFirstPixelsKernel(BlockGrid g,
                      const std::uint8_t * __restrict__ masks,
                      const Index * __restrict__ parent,
                      const Index * __restrict__ firstKey,
                      unsigned * firstPixels)
{
  AwaitPrecedingKernel();
  ForEachBlock(g, [&](std::int64_t b, const BlockAt &) {
    if (masks[b] != 0 && parent[b] == static_cast<Index>(b))
    {
      const Index key = firstKey[b];
      // Every root has been offered a key; the check keeps the bitmap's
      // writes in bounds if not. Unsigned: the unset key, all ones, is then
      // never below the key count (as int64 it was -1 with 64-bit indices).
      if (static_cast<std::uint64_t>(key) < static_cast<std::uint64_t>(g.keys))
      {
        atomicOr(firstPixels + key / 32, 1u << (key % 32));
      }
    }
  });
}

/** The labels only, component by block: a block's label is the rank of its
 *  component's first pixel among all first pixels, plus one; background 0. */
template <class Index>
struct BlockLabels
{
  BlockGrid            grid;
  const std::uint8_t * masks;
  const Index *        parent; ///< per block, its root block
  /** Per root block, its component's first pixel key and label; the count
   *  (an upper bound, the blocks, until read when deferred). */
  FirstPixelLabels<Index> numbers;
};

template <class Index>
__device__ __forceinline__ Index
BlockLabel(const BlockLabels<Index> & l, std::int64_t b)
{
  return FirstPixelLabel(l.numbers, l.parent[b]);
}

/** Two labels at an address aligned to both: one vector store. */
__device__ __forceinline__ void
StorePair(std::uint32_t * to, std::uint32_t a, std::uint32_t b)
{
  *reinterpret_cast<uint2 *>(to) = make_uint2(a, b);
}
__device__ __forceinline__ void
StorePair(std::uint64_t * to, std::uint64_t a, std::uint64_t b)
{
  *reinterpret_cast<ulonglong2 *>(to) = make_ulonglong2(a, b);
}

/** Writes the label image: each pixel its block's label, background 0. */
template <class Index, class Label>
__global__ void
BlockLabelImageKernel(BlockLabels<Index> l, Label * __restrict__ labels)
{
  AwaitPrecedingKernel();
  const BlockGrid & g = l.grid;
  ForEachBlock(g, [&](std::int64_t b, const BlockAt & at) {
    const unsigned mask = l.masks[b];
    const Label    label = mask != 0 ? static_cast<Label>(BlockLabel(l, b)) : Label{ 0 };
    const bool     second = 2 * at.x + 1 < g.pixels.width;
    ForEachRowOfBlock(g.pixels, at, [&](int ly, int lz, std::int64_t offset) {
      Label *     row = labels + offset;
      const Label a = (mask >> BlockBit(0, ly, lz)) & 1u ? label : Label{ 0 };
      const Label c = (mask >> BlockBit(1, ly, lz)) & 1u ? label : Label{ 0 };
      if (second && (reinterpret_cast<std::uintptr_t>(row) % (2 * sizeof(Label))) == 0) // one store of both
      {
        StorePair(row, a, c);
      }
      else
      {
        row[0] = a;
        if (second)
        {
          row[1] = c;
        }
      }
    });
  });
}

/** The labeling over blocks, up to the labels (written by OutputStage). */
template <class Device>
class BlockLabelingStage
{
public:
  /** Whether runs of frame may take this path: labels only, components of
   *  the foreground under full connectivity, and no output but the label
   *  image and the count. */
  static bool
  Fits(const Frame & frame)
  {
    const Options & o = frame.options;
    return frame.full && LabelsOnlyOfMask(o) && !o.selection.Active() && !o.intensity.Requested() &&
           !o.countAtomicUpdates;
  }

  /** Labels the blocks of image. deferCount: the count stays on the
   *  device (BlockLabels::numbers) and its count holds the blocks, an
   *  upper bound, so that the label image is queued without a wait. */
  template <class Index>
  BlockLabels<Index>
  Run(Device & device, const Frame & frame, const void * image, bool deferCount = false)
  {
    BlockLabels<Index> l{};
    const BlockGrid    g = MakeBlockGrid(frame.geometry);
    l.grid = g;
    const auto     count = static_cast<std::size_t>(g.count);
    auto *         masks = Reserve<std::uint8_t>(m_Masks, count, "block masks");
    auto *         parent = Reserve<Index>(m_Parent, count, "block parents");
    auto *         firstKey = Reserve<Index>(m_FirstKey, count, "first pixel keys");
    const unsigned blocks = LineBlocks(g);
    const int      threads = LineThreads(g);
    DispatchPixelType(frame.image.pixelType, [&](auto zero) {
      using T = decltype(zero);
      device.Launch("block mask kernel",
                    blocks,
                    threads,
                    BlockMaskKernel<T, Index>,
                    static_cast<const T *>(image),
                    g,
                    ForegroundOf<T>(frame.options),
                    masks,
                    parent,
                    firstKey);
    });
    device.Launch("block union-find kernel", blocks, threads, BlockMergeKernel<Index>, g, masks, parent);
    device.Launch("first pixel kernel", blocks, threads, OfferFirstPixelsKernel<Index>, g, masks, parent, firstKey);
    const FirstPixelBitmap<Index> bitmap = m_Ranks.template Clear<Index>(device, static_cast<std::uint64_t>(g.keys));
    device.Launch("first pixel marking kernel",
                  blocks,
                  threads,
                  MarkFirstPixelsKernel<Index>,
                  g,
                  masks,
                  parent,
                  firstKey,
                  bitmap.bits);
    l.masks = masks;
    l.parent = parent;
    l.numbers = m_Ranks.Rank(device, bitmap, firstKey, deferCount, static_cast<Index>(g.count));
    return l;
  }

private:
  typename Device::Buffer m_Masks;
  typename Device::Buffer m_Parent;
  typename Device::Buffer m_FirstKey;
  FirstPixelRanks<Device> m_Ranks;
};

} // namespace cuda
} // namespace cca

#endif
