// Labels only under full connectivity (and the feature table's joins of the
// runs, StripJoin.cuh): the union-find over the runs of strips of two rows
// in a plane, of tubes of 2 x 2 rows (two rows of two slices) in a volume.
// Under full connectivity the foreground pixels of a 2 x 2 block (2 x 2 x 2
// in a volume) all touch each other (what the block labelings BKE and BUF of
// Allegretti 2020 build on), so along a strip every maximal run of columns
// that hold foreground in any of its rows is connected: the runs of the
// rows' OR. A strip has fewer runs than its rows together (near the
// percolation threshold fewer than any one row: the OR is denser), so the
// unions and the numbering work on fewer, longer units, while run
// detection, union-find and label writing stay the row scans of
// RunDetection.cuh, RowPairLinks.cuh and Compaction.cuh. Two runs of
// neighbour strips touch only where their facing image rows hold pixels at
// most one column apart (StripRows.cuh): the union-find finds those pairs
// from the facing rows' foreground bits (LinkByteRowsKernel).
//
// The numbering keeps ITK's order, the raster order of the components' first
// pixels, as the block labeling does (BlockLabeling.cuh): each run of the
// root's slice of strips offers its own first pixel (the first foreground
// pixel of the first of its rows that has one) to its root, the smallest
// offer is the component's first pixel, and a component's label is the rank
// of that pixel's bit in a bitmap of first pixels. The feature table keys
// its components by their first runs instead (StripLabelingStage::
// JoinImageRuns), with no first pixel offers.
#ifndef cca_cuda_StripLabeling_cuh
#define cca_cuda_StripLabeling_cuh

#include "BlockLabeling.cuh"
#include "Compaction.cuh"
#include "DeviceGeometry.cuh"
#include "FirstPixelRanks.cuh"
#include "Frame.cuh"
#include "LabelStage.cuh"
#include "RunDetection.cuh"
#include "StripJoin.cuh"
#include "StripRows.cuh"
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

/** The strip image: pixel x of strip row s is 1 where one of the strip's
 *  image rows (StripRowsOf) is foreground. A thread per 16 pixels. Every
 *  image row lies in one strip, so the kernel also writes the image's
 *  rows as bits (StripRows::bits), and the strip image's
 *  (StripRows::stripBits; lane i of the launch is word i). */
static __global__ void
StripImageKernel(const std::uint8_t * __restrict__ image,
                 Geometry                     pixels,
                 ForegroundTest<std::uint8_t> test,
                 std::uint8_t * __restrict__ strips,
                 std::int64_t stripRows,
                 std::uint16_t * __restrict__ rowBits,
                 std::uint16_t * __restrict__ stripBits)
{
  AwaitPrecedingKernel();
  const std::int64_t lanes = pixels.width / LanePixels;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < stripRows * lanes;
       i += stride)
  {
    const std::int64_t s = i / lanes;
    const std::int64_t x = (i % lanes) * LanePixels;
    const RowsOfStrip  rows = StripRowsOf(pixels, s);
    unsigned           bits = 0;
#pragma unroll
    for (int k = 0; k < RowsOfStrip::Most; ++k)
    {
      if (rows.Has(k))
      {
        const unsigned row = LaneForegroundAt(image + rows.offset[k], x, pixels.width, test);
        rowBits[(rows.offset[k] + x) / LanePixels] = static_cast<std::uint16_t>(row);
        bits |= row;
      }
    }
    stripBits[i] = static_cast<std::uint16_t>(bits);
    unsigned word[4];
#pragma unroll
    for (int k = 0; k < 4; ++k)
    {
      const unsigned b = bits >> (4 * k);
      word[k] = (b & 1u) | ((b >> 1) & 1u) << 8 | ((b >> 2) & 1u) << 16 | ((b >> 3) & 1u) << 24;
    }
    *reinterpret_cast<uint4 *>(strips + s * pixels.width + x) = make_uint4(word[0], word[1], word[2], word[3]);
  }
}

/** What the strip labeling gives the label image writer. */
template <class Index>
struct StripLabels
{
  StripRows            rows;   ///< the image, its geometry and foreground
  const std::uint8_t * strips; ///< the strip image (0/1 bytes)
  const Index *        rowOffsets;
  const Index *        runLabel; ///< per run, its component's label (1-based; StripRunLabelsKernel)
  /** The first pixel ranks the labels come from, and the count (an upper
   *  bound, the runs, until read when deferred). */
  FirstPixelLabels<Index> numbers;
};

/** The key of the pixel (x, y, z): its row (z height + y) times the
 *  image's 2-column blocks plus its block. Two components' first pixels
 *  never share one: two foreground pixels of one row and block touch. */
__host__ __device__ inline std::int64_t
         StripPixelKeyColumns(const Geometry & plane)
{
  return (plane.width + 1) / 2;
}

/** Toggles the bit of key in the first pixel bitmap. */
template <class Index>
__device__ __forceinline__ void
ToggleFirstPixelBit(unsigned * firstPixels, Index key)
{
  atomicXor(firstPixels + key / 32, 1u << (key % 32));
}

/** After the unions, per strip run: points it straight at its root (the
 *  flattening) and, if it lies in the root's slice of strips
 *  (FirstStripOfSlice), offers its first pixel to the root: the first
 *  foreground pixel of the first of its rows (raster order) that has one.
 *  The smallest offer is the component's first pixel. Only those runs
 *  offer: the root is the component's first run, in its first slice of
 *  strips, whose rows hold the component's first pixel (in a plane, the
 *  root's strip row; in a volume, its tube slice), and the runs of later
 *  slices come later in raster order. Nor does a run other than the root
 *  whose first pixel is in its strip's last row: the root's first pixel
 *  is in an earlier row, or in the same row further left (the root is the
 *  component's first run of its strip row, and within a slice a later
 *  strip row's last row comes later).
 *
 *  Each offer that lowers a root's key (atomicMin) also marks the key in
 *  firstPixels and unmarks the key it replaced: the keys of one root
 *  form a chain from the first offer that landed to the smallest, each
 *  but the last toggled twice, so once every offer has landed exactly the
 *  components' first pixels are marked, whatever the order of the
 *  toggles (keys of different runs differ: their pixels are in different
 *  2-column blocks of a row or in different rows). */
template <class Index>
__global__ void
OfferStripFirstPixelsKernel(RunArrays<Index> runs,
                            StripRows        image,
                            Index *          parent,
                            Index *          firstKey,
                            unsigned *       firstPixels)
{
  AwaitPrecedingKernel();
  const Geometry &   g = image.pixels;
  const std::int64_t keyColumns = StripPixelKeyColumns(g);
  const int          lastRow = StripsAreTubes(g) ? RowsOfStrip::Most - 1 : 1;
  const Index        stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < runs.count; i += stride)
  {
    // No root changes any more: a plain walk.
    const Index root = ClimbToRoot<CachedLoads>(parent, i);
    parent[i] = root;
    const StripPosition strip = StripPositionOf(g, static_cast<std::int64_t>(runs.row[i]));
    if (root != i && root < runs.rowOffsets[FirstStripOfSlice(g, strip)])
    {
      continue;
    }
    const std::int32_t x0 = runs.x[i];
    const std::int32_t x1 = runs.end[i];
    const RowsOfStrip  rows = StripRowsAt(g, strip);
    std::int32_t       x = x1;
    int                firstRow = 0;
#pragma unroll
    for (int k = 0; k < RowsOfStrip::Most; ++k)
    {
      if (x == x1 && rows.Has(k))
      {
        firstRow = k;
        for (x = x0; x < x1 && !image.test(image.image[rows.offset[k] + x]); ++x)
        {}
      }
    }
    if (x == x1 || (root != i && firstRow == lastRow)) // every run has a foreground pixel
    {
      continue;
    }
    const Index key = static_cast<Index>(StripImageRow(g, strip, firstRow) * keyColumns + x / 2);
    // The read first: in a large component many offers are already beaten.
    if (key < firstKey[root])
    {
      const Index replaced = atomicMin(firstKey + root, key);
      if (key < replaced)
      {
        ToggleFirstPixelBit(firstPixels, key);
        if (replaced != static_cast<Index>(~Index{ 0 }))
        {
          ToggleFirstPixelBit(firstPixels, replaced);
        }
      }
    }
  }
}

/** After the ranks, per strip run: its root (flattened by the offers)
 *  becomes its label, in place, so that the label image reads one value a
 *  run, consecutive along a row, where it would climb from each run to
 *  its root's key and the key's rank: three dependent loads a run, a lane
 *  taking its runs one after another. Here the loads of different runs
 *  are independent, and a thread reads only its own run's link (a root is
 *  never read through another run's) and the roots' keys, which nothing
 *  writes here. */
template <class Index>
__global__ void
StripRunLabelsKernel(Index count, FirstPixelLabels<Index> numbers, Index * parentToLabel)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    parentToLabel[i] = FirstPixelLabel(numbers, parentToLabel[i]);
  }
}

/** The label image of a strip labeling: a warp per strip row scans the
 *  strip image's row (ScanByteRow), takes a label per run it starts, and
 *  writes them to the foreground pixels of the strip's image rows, a
 *  stretch at a time (StoreStretchLabels). Rows are whole lane loads and
 *  the label image 16-byte aligned (StripLabelingStage::Fits). */
template <class Index, class LabelT>
__global__ void
__launch_bounds__(BlockThreads) WriteStripLabelImageKernel(StripLabels<Index> l, LabelT * __restrict__ labels)
{
  AwaitPrecedingKernel();
  __shared__ uint4   stagedStore[StagedStretchPieces<LabelT>];
  uint4 * const      staged = stagedStore + (threadIdx.x / WarpSize) * (StagedStretchPieces<LabelT> / WarpsPerBlock);
  const Geometry &   g = l.rows.pixels;
  const std::int64_t stripRows = StripGeometry(g).rows;
  const auto         labelOf = [&](Index i) { return static_cast<LabelT>(l.runLabel[i]); };
  for (std::int64_t s = GlobalWarp(); s < stripRows; s += WarpCount())
  {
    const Index       first = l.rowOffsets[s];
    const RowsOfStrip rows = StripRowsOf(g, s);
    bool              endsAtWidth = false;
    ScanByteRow(
      l.strips + s * g.width,
      g.width,
      StripForeground(),
      [&](const LanePixelRun & r) {
        LabelT value[LanePixels];
        if (r.x < g.width)
        {
          LaneRunLabels(r, first, labelOf, ~0u, value); // each row masks them below
        }
#pragma unroll
        for (int k = 0; k < RowsOfStrip::Most; ++k)
        {
          if (!rows.Has(k)) // the same for the whole warp
          {
            continue;
          }
          const unsigned bits =
            r.x < g.width ? LaneForegroundAt(l.rows.image + rows.offset[k], r.x, g.width, l.rows.test) : 0u;
          LabelT masked[LanePixels];
#pragma unroll
          for (int j = 0; j < LanePixels; ++j)
          {
            masked[j] = (bits >> j) & 1u ? value[j] : LabelT{ 0 };
          }
          StoreStretchLabels(staged, masked, labels + rows.offset[k], r.x, g.width);
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
   *  connectivity, labels only, the default algorithm, rows of whole lane
   *  loads and, for the label image in the caller's device memory, 16-byte
   *  alignment. image: the image the kernels will read (null: not known
   *  yet, to be aligned by the upload). */
  static bool
  Fits(const Frame & frame, const void * image)
  {
    const Options & o = frame.options;
    const bool      labelsAligned = o.labelImageType == LabelImageType::None ||
                               o.labelImageMemory != MemorySpace::CudaDevice ||
                               reinterpret_cast<std::uintptr_t>(o.labelImage) % 16 == 0;
    return BlockLabelingStage<Device>::Fits(frame) && o.algorithm == Algorithm::Default &&
           frame.image.pixelType == PixelType::UInt8 && frame.geometry.width % LanePixels == 0 &&
           reinterpret_cast<std::uintptr_t>(image) % 16 == 0 && labelsAligned;
  }

  /** Whether the first pixel keys of frame fit Index. */
  template <class Index>
  static bool
  KeysFit(const Frame & frame)
  {
    const Geometry & g = frame.geometry;
    const auto       keys = static_cast<std::uint64_t>(g.rows * StripPixelKeyColumns(g));
    return keys < static_cast<std::uint64_t>(std::numeric_limits<Index>::max());
  }

  /** Whether the feature table's runs of frame may be joined through the
   *  strips (JoinImageRuns): a byte mask's components under full
   *  connectivity, the default algorithm, rows of whole lane loads. */
  static bool
  FitsJoin(const Frame & frame, const void * image)
  {
    return frame.full && frame.options.algorithm == Algorithm::Default && FitsByteRowScan(frame, image);
  }

  /** Labels the strips of the uploaded plane. rowsForeground: the
   *  image's sampled foreground fraction (LabelStage::
   *  CountedForegroundFraction; -1 where not sampled), which the strips'
   *  union-find takes for the image's density (LabelStage::SetStripRows).
   *  deferCount: the count stays on the device (StripLabels::numbers) and
   *  its count holds the runs, an upper bound, so that the label image is
   *  queued without a wait. */
  template <class Index, class S>
  StripLabels<Index>
  Run(Device & device, const Frame & frame, const void * image, double rowsForeground, bool deferCount = false)
  {
    const JoinedStrips<Index>   joined = JoinStrips<Index, S>(device, frame, image, rowsForeground);
    const StripRows &           rows = joined.rows;
    const LabeledUnits<Index> & units = joined.units;
    const RunArrays<Index> &    runs = units.units;
    const Geometry &            g = frame.geometry;

    StripLabels<Index> l{};
    l.rows = rows;
    l.strips = joined.strips;
    l.rowOffsets = runs.rowOffsets;
    l.runLabel = units.parent; // once StripRunLabelsKernel has run
    const std::uint64_t keys = static_cast<std::uint64_t>(g.rows * StripPixelKeyColumns(g));
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
                    rows,
                    units.parent,
                    firstKey,
                    bitmap.bits);
    }
    l.numbers = m_Ranks.Rank(device, bitmap, firstKey, deferCount, runs.count);
    if (runs.count > 0)
    {
      device.Launch("strip run label kernel",
                    BlocksFor(static_cast<std::int64_t>(runs.count), BlockThreads),
                    BlockThreads,
                    StripRunLabelsKernel<Index>,
                    runs.count,
                    l.numbers,
                    units.parent);
    }
    return l;
  }

  /** Joins the runs of the image rows of frame (image: its uploaded
   *  pixels; runs: LabelStage::Run's units, not joined) through the
   *  strips' union-find (StripJoin.cuh): each run's parent becomes its
   *  component's first run, with the link flags, as the union-find over
   *  the runs leaves them. FitsJoin must hold; rowsForeground as for Run. */
  template <class Index, class S>
  void
  JoinImageRuns(Device &                    device,
                const Frame &               frame,
                const void *                image,
                double                      rowsForeground,
                const LabeledUnits<Index> & runs)
  {
    if (runs.units.count == 0)
    {
      return;
    }
    const JoinedStrips<Index> joined = JoinStrips<Index, S>(device, frame, image, rowsForeground);
    const RunArrays<Index> &  strips = joined.units.units;
    auto * firstRun = Reserve<Index>(m_FirstKey, static_cast<std::size_t>(strips.count), "first runs of strip roots");
    device.Fill(firstRun, 0xff, static_cast<std::size_t>(strips.count) * sizeof(Index), "clearing first runs");
    const unsigned stripBlocks = BlocksFor(static_cast<std::int64_t>(strips.count), BlockThreads);
    device.Launch("first covered run kernel",
                  stripBlocks,
                  BlockThreads,
                  OfferFirstCoveredRunsKernel<Index>,
                  strips,
                  frame.geometry,
                  runs.units,
                  joined.units.parent,
                  firstRun);
    device.Launch("strip first run kernel",
                  stripBlocks,
                  BlockThreads,
                  StripFirstRunsKernel<Index>,
                  strips.count,
                  firstRun,
                  joined.units.parent);
    const auto covered = [&](auto kernel) {
      device.Launch("covered run kernel",
                    BlocksFor(static_cast<std::int64_t>(runs.units.count), BlockThreads * CoveredRunsTogether),
                    BlockThreads,
                    kernel,
                    runs.units,
                    frame.geometry,
                    strips,
                    joined.units.parent,
                    runs.parent,
                    runs.linked);
    };
    runs.smallRows ? covered(CoveredRunParentsKernel<Index, true>) : covered(CoveredRunParentsKernel<Index, false>);
  }

private:
  /** The strip image of an uploaded mask and its runs, joined. */
  template <class Index>
  struct JoinedStrips
  {
    StripRows            rows;
    const std::uint8_t * strips;
    LabeledUnits<Index>  units; ///< the strip image's runs; parent: their union-find, not flattened
  };

  /** The strip image of image and the union-find over its runs, joined
   *  where their facing rows touch. */
  template <class Index, class S>
  JoinedStrips<Index>
  JoinStrips(Device & device, const Frame & frame, const void * image, double rowsForeground)
  {
    const Geometry & g = frame.geometry;
    StripRows        rows{ static_cast<const std::uint8_t *>(image), g, ForegroundOf<std::uint8_t>(frame.options) };
    const Geometry   stripGeometry = StripGeometry(g);
    auto *           strips =
      Reserve<std::uint8_t>(m_Strips, static_cast<std::size_t>(stripGeometry.rows * g.width), "the strip image");
    // The image's rows as bits for the union-find's facing rows, and the
    // strip image's for its strip rows: each is read several times a row,
    // and bits stay in the L2 where bytes would not. H100, 512^3 26-conn.
    // g = 1, summed, against both as bytes turned into bits a load at a
    // time: full table 55.3 -> 57.5 Gvox/s (the image's rows alone as bits
    // 56.9), labels only 95.2 -> 103.4; 8192^2 8-conn. g = 1 and 512^3
    // g = 4 within the spread; 0.16 bytes a voxel more
    // (benchmark/results/h100-strip-row-bits call 2). Reading bytes only
    // where a switch asked for them cost the union-find's kernel 32 bytes
    // of stack in its tubes' form (LinkByteRowsKernel).
    const std::int64_t lanes = stripGeometry.rows * (g.width / LanePixels);
    auto * const       rowBits = Reserve<std::uint16_t>(
      m_ImageRowBits, static_cast<std::size_t>(g.rows * (g.width / LanePixels)), "the image's rows as bits");
    auto * const stripBits =
      Reserve<std::uint16_t>(m_StripRowBits, static_cast<std::size_t>(lanes), "the strip image's rows as bits");
    rows.bits = rowBits;
    rows.stripBits = stripBits;
    if (lanes > 0)
    {
      device.Launch("strip image kernel",
                    BlocksFor(lanes, BlockThreads),
                    BlockThreads,
                    StripImageKernel,
                    rows.image,
                    g,
                    rows.test,
                    strips,
                    stripGeometry.rows,
                    rowBits,
                    stripBits);
    }
    ImageView view;
    view.data = strips;
    view.memory = MemorySpace::CudaDevice;
    view.pixelType = PixelType::UInt8;
    view.dimension = frame.image.dimension;
    view.size[0] = g.width;
    view.size[1] = stripGeometry.height;
    view.size[2] = stripGeometry.depth;
    // The strips are labeled alone: no table, runs or selection of theirs.
    Options options = frame.options;
    options.foregroundRule = ForegroundRule::NotEqualTo;
    options.foregroundValue = 0;
    options.computeFeatures = false;
    options.computeRuns = false;
    options.selection = Selection{};
    options.intensity = IntensityOptions{};
    const Frame stripFrame = MakeFrame(view, options);
    m_Runs.template CountUnits<Index, FullRuns>(device, stripFrame, strips, 0, stripGeometry.rows);
    m_Runs.SetStripRows(rows, rowsForeground);
    return JoinedStrips<Index>{ rows, strips, m_Runs.template Run<Index, S>(device, stripFrame, strips, m_Counts) };
  }

  LabelStage<Device>      m_Runs;
  UpdateCounts<Device>    m_Counts;
  typename Device::Buffer m_Strips;
  typename Device::Buffer m_ImageRowBits; ///< StripRows::bits
  typename Device::Buffer m_StripRowBits; ///< StripRows::stripBits
  /** Per strip run: its first pixel key (Run), or for a root its first
   *  image run (JoinImageRuns). */
  typename Device::Buffer m_FirstKey;
  FirstPixelRanks<Device> m_Ranks;
};

} // namespace cuda
} // namespace cca

#endif
