// Labels only of planes under full connectivity: the union-find over the
// runs of strips of two rows. Under 8-connectivity the foreground pixels of
// a 2 x 2 block all touch each other (what the block labelings BKE and BUF
// of Allegretti 2020 build on), so along a strip every maximal run
// of columns that hold foreground in either row is connected: the runs of
// the rows' OR. A strip has fewer runs than its two rows together (near the
// percolation threshold fewer than either row: the OR is denser), so the
// unions, searches and numbering work on fewer, longer units, while run
// detection, search and label writing stay the row scans of RunDetection.cuh,
// UnionFind.cuh and Compaction.cuh. Two runs of neighbour strips touch only
// where the lower row of the first and the upper row of the second hold
// pixels at most one column apart (TouchingStripRuns); the union-find tests
// that for each pair of runs whose columns overlap.
//
// The numbering keeps ITK's order, the raster order of the components' first
// pixels, as the block labeling does (BlockLabeling.cuh): each run offers
// its own first pixel (the first of its upper row, else the first of its
// lower row) to its root unless a foreground neighbour precedes it, the
// smallest offer is the component's first pixel, and a component's label is
// the rank of that pixel's bit in a bitmap of first pixels.
#ifndef cca_cuda_StripLabeling_cuh
#define cca_cuda_StripLabeling_cuh

#include "BlockLabeling.cuh"
#include "Compaction.cuh"
#include "DeviceGeometry.cuh"
#include "FirstPixelRanks.cuh"
#include "Frame.cuh"
#include "LabelStage.cuh"
#include "RunDetection.cuh"
#include "UnionFind.cuh"
#include "UpdateCounts.cuh"

#include <cstdint>
#include <cstring>
#include <limits>

namespace cca
{
namespace cuda
{

/** The rows of strip images are 0/1 bytes. */
__host__ __device__ inline ForegroundTest<std::uint8_t>
         StripForeground()
{
  return ForegroundTest<std::uint8_t>{ 0, false, false };
}

/** The strip image: pixel x of strip p is 1 where row 2p or 2p + 1 of the
 *  plane is foreground (the last strip of an odd height has one row). A
 *  thread per 16 pixels of a strip. */
__global__ void
StripImageKernel(const std::uint8_t * __restrict__ image,
                 Geometry                     plane,
                 ForegroundTest<std::uint8_t> test,
                 std::uint8_t * __restrict__ strips,
                 std::int64_t stripRows)
{
  const std::int64_t lanes = plane.width / LanePixels;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < stripRows * lanes;
       i += stride)
  {
    const std::int64_t   p = i / lanes;
    const std::int64_t   x = (i % lanes) * LanePixels;
    const std::uint8_t * upper = image + 2 * p * plane.width;
    unsigned             bits = LaneForegroundAt(upper, x, plane.width, test);
    if (2 * p + 1 < plane.height)
    {
      bits |= LaneForegroundAt(upper + plane.width, x, plane.width, test);
    }
    unsigned word[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
    {
      const unsigned b = bits >> (4 * k);
      word[k] = (b & 1u) | ((b >> 1) & 1u) << 8 | ((b >> 2) & 1u) << 16 | ((b >> 3) & 1u) << 24;
    }
    *reinterpret_cast<uint4 *>(strips + p * plane.width + x) = make_uint4(word[0], word[1], word[2], word[3]);
  }
}

/** What the strip labeling gives the label image writer. */
template <class Index>
struct StripLabels
{
  const std::uint8_t *         plane;  ///< the plane's pixels
  ForegroundTest<std::uint8_t> test;   ///< its foreground
  Geometry                     pixels; ///< its geometry
  const std::uint8_t *         strips; ///< the strip image (0/1 bytes)
  const Index *                rowOffsets;
  const Index *                parent; ///< per run, its root run (flattened)
  /** Per root run, its component's first pixel key and label; the count
   *  (an upper bound, the runs, until read when deferred). */
  FirstPixelLabels<Index> numbers;
};

/** The label of strip run i (1-based). */
template <class Index>
__device__ __forceinline__ Index
StripRunLabel(const StripLabels<Index> & l, Index i)
{
  return FirstPixelLabel(l.numbers, l.parent[i]);
}

/** The key of the pixel (x, y): its row times the plane's 2-column blocks
 *  plus its block. Two components' first pixels never share one: two
 *  foreground pixels of one row and block touch. */
__host__ __device__ inline std::int64_t
         StripPixelKeyColumns(const Geometry & plane)
{
  return (plane.width + 1) / 2;
}

/** After the unions, per strip run: points it straight at its root (the
 *  flattening) and offers its first pixel to the root unless a foreground
 *  neighbour precedes it; the smallest offer is the component's first
 *  pixel. A run's first pixel is the first of its upper row or, when that
 *  row is empty along the run, its start in the lower row; only row 2p - 1
 *  can hold a neighbour before the first (the run's own pixels before it
 *  are background, and so is the column before the run). */
template <class Index>
__global__ void
OfferStripFirstPixelsKernel(RunArrays<Index>             runs,
                            const std::uint8_t *         plane,
                            Geometry                     pixels,
                            ForegroundTest<std::uint8_t> test,
                            Index *                      parent,
                            Index *                      firstKey)
{
  const std::int64_t keyColumns = StripPixelKeyColumns(pixels);
  const Index        stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < runs.count; i += stride)
  {
    // No root changes any more: a plain walk.
    const Index root = ClimbToRoot<CachedLoads>(parent, i);
    parent[i] = root;
    const std::int64_t   p = static_cast<std::int64_t>(runs.row[i]);
    const std::int32_t   x0 = runs.x[i];
    const std::int32_t   x1 = runs.end[i];
    const std::uint8_t * upper = plane + 2 * p * pixels.width;
    std::int32_t         x = x0;
    while (x < x1 && !test(upper[x]))
    {
      ++x;
    }
    std::int64_t y = 2 * p;
    bool         preceded = false;
    if (x == x1)
    {
      x = x0;
      ++y;
    }
    else if (p > 0)
    {
      const std::uint8_t * above = upper - pixels.width;
      const std::int32_t   end = min(x + 2, static_cast<std::int32_t>(pixels.width));
      for (std::int32_t u = max(x - 1, 0); u < end && !preceded; ++u)
      {
        preceded = test(above[u]);
      }
    }
    const Index key = static_cast<Index>(y * keyColumns + x / 2);
    // The read first: in a large component most offers are already beaten.
    if (!preceded && key < firstKey[root])
    {
      atomicMin(firstKey + root, key);
    }
  }
}

/** Sets the bit of each root run's first pixel key in firstPixels. */
template <class Index>
__global__ void
MarkStripFirstPixelsKernel(Index count,
                           const Index * __restrict__ parent,
                           const Index * __restrict__ firstKey,
                           std::uint64_t keys,
                           unsigned *    firstPixels)
{
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    if (parent[i] == i)
    {
      const Index key = firstKey[i];
      // Every root has been offered a key; the check keeps the writes in
      // bounds if not (the unset key, all ones, is never below keys).
      if (static_cast<std::uint64_t>(key) < keys)
      {
        atomicOr(firstPixels + key / 32, 1u << (key % 32));
      }
    }
  }
}

/** The label image of a strip labeling: a warp per strip scans the strip
 *  image's row (ScanByteRow), takes a label per run it starts, and writes
 *  them to the foreground pixels of the strip's two rows, a stretch at a
 *  time (StoreStretchLabels). Rows are whole lane loads and the label image
 *  16-byte aligned (StripLabelingStage::Fits). */
template <class Index, class LabelT>
__global__ void
__launch_bounds__(BlockThreads) WriteStripLabelImageKernel(StripLabels<Index> l, LabelT * __restrict__ labels)
{
  __shared__ uint4   stagedStore[StagedStretchPieces<LabelT>];
  uint4 * const      staged = stagedStore + (threadIdx.x / WarpSize) * (StagedStretchPieces<LabelT> / WarpsPerBlock);
  const Geometry &   g = l.pixels;
  const std::int64_t stripRows = (g.height + 1) / 2;
  const auto         labelOf = [&](Index i) { return static_cast<LabelT>(StripRunLabel(l, i)); };
  for (std::int64_t p = GlobalWarp(); p < stripRows; p += WarpCount())
  {
    const Index          first = l.rowOffsets[p];
    const std::uint8_t * upper = l.plane + 2 * p * g.width;
    const bool           lower = 2 * p + 1 < g.height;
    LabelT *             out = labels + 2 * p * g.width;
    bool                 endsAtWidth = false;
    ScanByteRow(
      l.strips + p * g.width,
      g.width,
      StripForeground(),
      [&](const LanePixelRun & r) {
        LabelT   value[LanePixels];
        unsigned rowBits[2] = { 0u, 0u };
        if (r.x < g.width)
        {
          LaneRunLabels(r, first, labelOf, ~0u, value); // each row masks them below
          rowBits[0] = LaneForegroundAt(upper, r.x, g.width, l.test);
          rowBits[1] = lower ? LaneForegroundAt(upper + g.width, r.x, g.width, l.test) : 0u;
        }
        for (int row = 0; row < (lower ? 2 : 1); ++row)
        {
          LabelT masked[LanePixels];
#pragma unroll
          for (int j = 0; j < LanePixels; ++j)
          {
            masked[j] = (rowBits[row] >> j) & 1u ? value[j] : LabelT{ 0 };
          }
          StoreStretchLabels(staged, masked, out + row * g.width, r.x, g.width);
        }
      },
      endsAtWidth);
  }
}

/** The labeling over strips, up to the labels (written by OutputStage). */
template <class Device>
class StripLabelingStage
{
public:
  /** Whether a run may take this path: a byte mask's components under full
   *  connectivity in a plane, labels only, the default algorithm, rows of
   *  whole lane loads and, for the label image in the caller's device
   *  memory, 16-byte alignment. image: the plane the kernels will read
   *  (null: not known yet, to be aligned by the upload). */
  static bool
  Fits(const Frame & frame, const void * image)
  {
    const Options & o = frame.options;
    const bool      labelsAligned = o.labelImageType == LabelImageType::None ||
                               o.labelImageMemory != MemorySpace::CudaDevice ||
                               reinterpret_cast<std::uintptr_t>(o.labelImage) % 16 == 0;
    return BlockLabelingStage<Device>::Fits(frame) && o.algorithm == Algorithm::Default &&
           frame.image.pixelType == PixelType::UInt8 && frame.geometry.depth == 1 &&
           frame.geometry.width % LanePixels == 0 && reinterpret_cast<std::uintptr_t>(image) % 16 == 0 && labelsAligned;
  }

  /** Whether the first pixel keys of frame fit Index. */
  template <class Index>
  static bool
  KeysFit(const Frame & frame)
  {
    const auto keys = static_cast<std::uint64_t>(frame.geometry.height * StripPixelKeyColumns(frame.geometry));
    return keys < static_cast<std::uint64_t>(std::numeric_limits<Index>::max());
  }

  /** Labels the strips of the uploaded plane. deferCount: the count stays
   *  on the device (StripLabels::numbers) and its count holds the runs, an
   *  upper bound, so that the label image is queued without a wait. */
  template <class Index, class S>
  StripLabels<Index>
  Run(Device & device, const Frame & frame, const void * image, bool deferCount = false)
  {
    const Geometry &   g = frame.geometry;
    const auto *       plane = static_cast<const std::uint8_t *>(image);
    const auto         test = ForegroundOf<std::uint8_t>(frame.options);
    const std::int64_t stripRows = (g.height + 1) / 2;
    auto * strips = Reserve<std::uint8_t>(m_Strips, static_cast<std::size_t>(stripRows * g.width), "the strip image");
    const std::int64_t lanes = stripRows * (g.width / LanePixels);
    if (lanes > 0)
    {
      device.Launch("strip image kernel",
                    BlocksFor(lanes, BlockThreads),
                    BlockThreads,
                    StripImageKernel,
                    plane,
                    g,
                    test,
                    strips,
                    stripRows);
    }
    // The runs of the strip image, joined where their pixels touch.
    ImageView view;
    view.data = strips;
    view.memory = MemorySpace::CudaDevice;
    view.pixelType = PixelType::UInt8;
    view.dimension = 2;
    view.size[0] = g.width;
    view.size[1] = stripRows;
    Options options = frame.options;
    options.foregroundRule = ForegroundRule::NotEqualTo;
    options.foregroundValue = 0;
    const Frame stripFrame = MakeFrame(view, options);
    m_Runs.template CountUnits<Index, FullRuns>(device, stripFrame, strips, 0, stripRows);
    m_Runs.SetStripRows(StripRows{ plane, g.width, test });
    const LabeledUnits<Index> units = m_Runs.template Run<Index, S>(device, stripFrame, strips, m_Counts);
    const RunArrays<Index> &  runs = units.units;

    StripLabels<Index> l{};
    l.plane = plane;
    l.test = test;
    l.pixels = g;
    l.strips = strips;
    l.rowOffsets = runs.rowOffsets;
    l.parent = units.parent;
    const std::uint64_t keys = static_cast<std::uint64_t>(g.height * StripPixelKeyColumns(g));
    auto *              firstKey = Reserve<Index>(m_FirstKey, static_cast<std::size_t>(runs.count), "first pixel keys");
    const FirstPixelBitmap<Index> bitmap = m_Ranks.template Clear<Index>(device, keys);
    if (runs.count > 0)
    {
      const unsigned blocks = BlocksFor(static_cast<std::int64_t>(runs.count), BlockThreads);
      device.Fill(firstKey, 0xff, static_cast<std::size_t>(runs.count) * sizeof(Index), "clearing first pixel keys");
      device.Launch("first pixel kernel",
                    blocks,
                    BlockThreads,
                    OfferStripFirstPixelsKernel<Index>,
                    runs,
                    plane,
                    g,
                    test,
                    units.parent,
                    firstKey);
      device.Launch("first pixel marking kernel",
                    blocks,
                    BlockThreads,
                    MarkStripFirstPixelsKernel<Index>,
                    runs.count,
                    units.parent,
                    firstKey,
                    keys,
                    bitmap.bits);
    }
    l.numbers = m_Ranks.Rank(device, bitmap, firstKey, deferCount, runs.count);
    return l;
  }

private:
  LabelStage<Device>      m_Runs;
  UpdateCounts<Device>    m_Counts;
  typename Device::Buffer m_Strips;
  typename Device::Buffer m_FirstKey;
  FirstPixelRanks<Device> m_Ranks;
};

} // namespace cuda
} // namespace cca

#endif
