// Run detection (FLSL segment detection, Lemaitre 2021 Alg. 1): one warp walks a
// row 32 pixels at a time; __ballot_sync gives the foreground mask of the
// chunk, a shift with the previous chunk's last bit gives the run starts and
// ends, and __popc of the lanes below turns them into compressed-store
// positions. Two passes: count runs per row, then (after a scan of the
// counts) write them densely in raster order. In a label image runs also
// break where the value changes (RunBreaks::ValueChanges): a lane compares
// its pixel with its left neighbour's, taken by a shuffle. A byte mask whose
// rows are whole 16-byte loads is scanned 16 pixels a lane instead
// (ScanByteRow, below): a byte per lane and load left most of the load
// and store bandwidth unused.
#ifndef cca_cuda_RunDetection_cuh
#define cca_cuda_RunDetection_cuh

#include "DeviceGeometry.cuh"
#include "ForegroundTest.h"
#include "RunNeighbours.cuh"

#include <cstdint>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** The foreground rule of a pixel type (src/ForegroundTest.h), shared
 *  with the CPU backend and the upload of foreground bits. */
using cca::ForegroundTest;

/** Where runs end: where the foreground does (a binary image), or also
 *  where the value changes (a label image: Objects::LabelValues and
 *  LabelValueComponents). */
enum class RunBreaks
{
  Foreground,
  ValueChanges
};

/** The pixel of the lane below (lane 0: carried, the previous chunk's last). */
template <class T>
__device__ __forceinline__ T
PixelOfLaneBelow(T pixel, T carried)
{
  using Word = std::conditional_t<(sizeof(T) < 4), int, T>;
  const T below = static_cast<T>(__shfl_up_sync(FullWarp, static_cast<Word>(pixel), 1));
  return LaneId() == 0 ? carried : below;
}

/** Whether labeling units are whole runs, or may be pieces of runs (pixels,
 *  HA sub-runs): those are joined within their row by the labeling and the
 *  votes, and the outputs need the full runs detected separately. */
enum class UnitSpan
{
  WholeRuns,
  RunPieces
};

/** Labeling units: how ScanRow cuts the foreground of a row into the
 *  segments it reports. Each policy turns the chunk's foreground mask and
 *  the foreground bit left of the chunk (carry) into the lanes where a unit
 *  starts and the lanes one past a unit's end. Chunks are 32-aligned, so a
 *  chunk is one warp-wide block of the HA algorithm. Span: whole runs or
 *  pieces of runs, what the labeling and the votes need to know of a cut. */
struct FullRuns // FLSL (Lemaitre 2021 Alg. 1): maximal runs
{
  static constexpr UnitSpan Span = UnitSpan::WholeRuns;
  __device__ __forceinline__ static void
  Split(unsigned mask, unsigned carry, unsigned & starts, unsigned & ends)
  {
    const unsigned previous = (mask << 1) | carry;
    starts = mask & ~previous;
    ends = ~mask & previous;
  }
};
struct BlockRuns // HA: sub-runs cut at every 32-pixel block border
{
  static constexpr UnitSpan Span = UnitSpan::RunPieces;
  __device__ __forceinline__ static void
  Split(unsigned mask, unsigned carry, unsigned & starts, unsigned & ends)
  {
    const unsigned inside = mask << 1; // the left neighbour, within the block only
    starts = mask & ~inside;
    ends = (~mask & inside) | carry; // a sub-run reaching the block end ends at the next block's lane 0
  }
};
struct PixelRuns // Naive: every foreground pixel is a unit
{
  static constexpr UnitSpan Span = UnitSpan::RunPieces;
  __device__ __forceinline__ static void
  Split(unsigned mask, unsigned carry, unsigned & starts, unsigned & ends)
  {
    starts = mask;
    ends = (mask << 1) | carry;
  }
};

/** One 32-pixel chunk of a row as seen by one lane. Masks are warp-wide;
 *  startsBefore / endsBefore count the starts / ends in earlier chunks. */
struct RowChunk
{
  std::int64_t x; ///< this lane's pixel (may be >= width: then not foreground)
  bool         foreground;
  unsigned     starts; ///< lanes whose pixel starts a run
  unsigned     ends;   ///< lanes whose pixel is the first background pixel after a run
  std::int64_t startsBefore;
  std::int64_t endsBefore;
};

/** Walks a row with the whole warp (all 32 lanes must call it) and calls
 *  visit(chunk) once per 32-pixel chunk. Returns the number of runs of the
 *  row; when the row ends in foreground, the last run ends at width, which
 *  no chunk reports. */
template <class Units = FullRuns, RunBreaks Breaks = RunBreaks::Foreground, class T, class Visit>
__device__ __forceinline__ std::int64_t
ScanRow(const T * __restrict__ row, std::int64_t width, ForegroundTest<T> test, Visit && visit, bool & endsAtWidth)
{
  // Chunks in flight per iteration (loads first, then the ballots): about 16
  // bytes a lane, since a warp owns a whole row and waits on each load.
  constexpr int  Unroll = sizeof(T) >= 4 ? 4 : static_cast<int>(16 / sizeof(T));
  const unsigned lane = LaneId();
  unsigned       carry = 0;      // foreground bit of the pixel left of the chunk
  T              carriedPixel{}; // the pixel left of the chunk (RunBreaks::ValueChanges)
  std::int64_t   starts = 0;
  std::int64_t   ends = 0;
  for (std::int64_t base = 0; base < width; base += Unroll * WarpSize)
  {
    bool in[Unroll];
    T    pixel[Unroll];
#pragma unroll
    for (int k = 0; k < Unroll; ++k)
    {
      const std::int64_t x = base + k * WarpSize + lane;
      in[k] = x < width;
      pixel[k] = in[k] ? row[x] : T{};
    }
#pragma unroll
    for (int k = 0; k < Unroll; ++k)
    {
      RowChunk chunk;
      chunk.x = base + k * WarpSize + lane;
      chunk.foreground = in[k] && test(pixel[k]);
      const unsigned mask = __ballot_sync(FullWarp, chunk.foreground);
      Units::Split(mask, carry, chunk.starts, chunk.ends);
      if constexpr (Breaks == RunBreaks::ValueChanges)
      {
        // Foreground after foreground of another value: one run ends, the next starts.
        const unsigned changes = __ballot_sync(FullWarp, pixel[k] != PixelOfLaneBelow(pixel[k], carriedPixel));
        const unsigned cut = mask & ((mask << 1) | carry) & changes;
        chunk.starts |= cut;
        chunk.ends |= cut;
        carriedPixel =
          static_cast<T>(__shfl_sync(FullWarp, static_cast<std::conditional_t<(sizeof(T) < 4), int, T>>(pixel[k]), 31));
      }
      chunk.startsBefore = starts;
      chunk.endsBefore = ends;
      visit(chunk);
      starts += __popc(chunk.starts);
      ends += __popc(chunk.ends);
      carry = mask >> 31;
    }
  }
  endsAtWidth = carry != 0;
  return starts;
}

/** Blocks of BlockThreads the label image kernel (a ScanRow pass with a
 *  gather of run labels) asks to keep on a multiprocessor: at most 64
 *  registers a thread. Compiled freely it took 82 (25 % occupancy) and
 *  waited on its loads: 485 us at 8192^2, 295 us bounded (H100). The run
 *  detection kernels were 10 % slower bounded and are left free. */
constexpr int RowScanBlocksPerProcessor = 4;

/** The foreground pixels of one row in every 2^shift rows of the image,
 *  summed by the run count kernels into *total while they count the runs:
 *  the host reads it with the run count, in the same wait, and chooses
 *  kernels by the density (runs alone cannot tell d from 1 - d: a random
 *  image has about d (1 - d) runs a pixel). Rows are numbered from the
 *  image's first row; a slab's kernel starts at firstRow. total null: no
 *  sample. */
struct ForegroundSample
{
  unsigned long long * total = nullptr;
  std::int64_t         firstRow = 0;
  int                  shift = 6;

  /** One row in 64, or in more: at most about 512 rows, since the rows'
   *  atomics on one word queue. */
  static constexpr int
  ShiftFor(std::int64_t rows)
  {
    int shift = 6;
    while ((rows >> shift) > 512)
    {
      ++shift;
    }
    return shift;
  }

  /** Whether row r of the image is sampled: in block b of 2^shift rows,
   *  the row b mod 2^shift. The sampled rows thus move through the rows of
   *  a volume's slices (every 2^shift-th row would repeat the same few
   *  rows of each slice, its first row being the slice's border). Cheap:
   *  no division. */
  static constexpr bool
  Sampled(std::int64_t r, int shift)
  {
    const std::int64_t mask = (std::int64_t{ 1 } << shift) - 1;
    return (r & mask) == ((r >> shift) & mask);
  }

  /** The rows of an image of rows rows that are sampled. */
  static constexpr std::int64_t
  SampledRows(std::int64_t rows)
  {
    const int          shift = ShiftFor(rows);
    const std::int64_t blocks = rows >> shift;
    const std::int64_t mask = (std::int64_t{ 1 } << shift) - 1;
    return blocks + ((blocks & mask) < (rows & mask) ? 1 : 0);
  }

  /** Adds row r's foreground, lanePixels counted by each lane (whole warp). */
  __device__ __forceinline__ void
  Add(std::int64_t r, unsigned lanePixels) const
  {
    if (total != nullptr && Sampled(firstRow + r, shift))
    {
      const unsigned row = WarpSum32(lanePixels);
      if (LaneId() == 0)
      {
        atomicAdd(total, static_cast<unsigned long long>(row));
      }
    }
  }
};

/** Pass 1: counts[r] = number of runs (units) of row r (one warp per row). */
template <class T, class Index, class Units = FullRuns, RunBreaks Breaks = RunBreaks::Foreground>
__global__ void
__launch_bounds__(BlockThreads, RowScanBlocksPerProcessor) CountRunsKernel(const T * __restrict__ image,
                                                                           Geometry          geometry,
                                                                           ForegroundTest<T> test,
                                                                           Index * __restrict__ counts,
                                                                           ForegroundSample sample)
{
  AwaitPrecedingKernel();
  for (std::int64_t r = GlobalWarp(); r < geometry.rows; r += WarpCount())
  {
    bool               endsAtWidth = false;
    unsigned           foreground = 0; // this lane's foreground pixels of the row
    const std::int64_t n = ScanRow<Units, Breaks>(
      image + r * geometry.width,
      geometry.width,
      test,
      [&](const RowChunk & c) { foreground += c.foreground ? 1u : 0u; },
      endsAtWidth);
    if (LaneId() == 0)
    {
      counts[r] = static_cast<Index>(n);
    }
    sample.Add(r, foreground);
  }
}

/** Pass 2: compressed store of each row's runs (units) at its scanned
 *  offset, and the union-find initialisation parent[i] = i. */
template <class T, class Index, class Units = FullRuns, RunBreaks Breaks = RunBreaks::Foreground>
__global__ void
WriteRunsKernel(const T * __restrict__ image,
                Geometry          geometry,
                ForegroundTest<T> test,
                RunArrays<Index>  runs,
                Index * __restrict__ parent)
{
  AwaitPrecedingKernel();
  for (std::int64_t r = GlobalWarp(); r < geometry.rows; r += WarpCount())
  {
    const Index first = runs.rowOffsets[r];
    bool        endsAtWidth = false;
    auto        store = [&](const RowChunk & c) {
      const unsigned bit = 1u << LaneId();
      if (c.starts & bit)
      {
        const Index i = first + static_cast<Index>(c.startsBefore + __popc(c.starts & LanesBelow()));
        runs.x[i] = static_cast<std::int32_t>(c.x);
        runs.row[i] = static_cast<Index>(r);
        parent[i] = i;
      }
      if (c.ends & bit)
      {
        const Index i = first + static_cast<Index>(c.endsBefore + __popc(c.ends & LanesBelow()));
        runs.end[i] = static_cast<std::int32_t>(c.x);
      }
    };
    const std::int64_t n = ScanRow<Units, Breaks>(image + r * geometry.width, geometry.width, test, store, endsAtWidth);
    if (endsAtWidth && LaneId() == 0)
    {
      runs.end[first + static_cast<Index>(n - 1)] = static_cast<std::int32_t>(geometry.width);
    }
  }
}

/** Pixels a lane of the byte row scan (ScanByteRow) takes at once: one
 *  16-byte load. */
constexpr int LanePixels = 16;
/** A lane's foreground bits when all its pixels are foreground. */
constexpr unsigned FullLane = (1u << LanePixels) - 1u;

/** Whether the byte row scan can read frame's byte image: rows a whole
 *  number of lane loads, the image (and an output written alongside it in
 *  16-byte stores) 16-byte aligned. */
__host__ __device__ inline bool
FitsByteRowScan(const Geometry & g, const void * image, const void * output = nullptr)
{
  return g.width % LanePixels == 0 && reinterpret_cast<std::uintptr_t>(image) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(output) % 16 == 0;
}

/** A lane's 16 pixels of a stretch of 512 (ScanByteRow). Bit j of a mask
 *  is pixel x + j. */
struct LanePixelRun
{
  std::int64_t x;            ///< the lane's first pixel (>= width: none of its pixels are in the row)
  unsigned     foreground;   ///< foreground pixels
  unsigned     starts;       ///< pixels that start a run
  unsigned     ends;         ///< first background pixels after a run
  std::int64_t startsBefore; ///< run starts left of the lane's pixels in the row
  std::int64_t endsBefore;
};

/** The foreground bits of a lane's 16 byte pixels (bit j: pixel j), four
 *  pixels at a time: a byte-wise SIMD compare gives 0xff per matching byte,
 *  and a multiply gathers the four top bits (bit 7 of byte k lands at bit
 *  28 + k; the other partial products fall on distinct lower or higher
 *  bits, so nothing carries into them). */
__device__ __forceinline__ unsigned
LaneForeground(const uint4 & bytes, ForegroundTest<std::uint8_t> test)
{
  if (test.all)
  {
    return FullLane;
  }
  const unsigned value = 0x01010101u * test.value;
  const unsigned flip = test.equal ? 0u : FullWarp;
  const unsigned word[4] = { bytes.x, bytes.y, bytes.z, bytes.w };
  unsigned       bits = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k)
  {
    const unsigned matching = (__vcmpeq4(word[k], value) ^ flip) & 0x80808080u;
    bits |= ((matching * 0x00204081u) >> 28) << (4 * k);
  }
  return bits;
}

/** LaneForeground of the lane's 16 pixels from x of row; none past width.
 *  Streamed: the load marked evict-first (__ldcs), for rows that a
 *  union-find reads between its walks: read a few times in a short while
 *  and then not again, they leave the L2 before the parents that the walks
 *  come back to (RowPairLinks.cuh). */
template <bool Streamed = false>
__device__ __forceinline__ unsigned
LaneForegroundAt(const std::uint8_t * __restrict__ row,
                 std::int64_t                 x,
                 std::int64_t                 width,
                 ForegroundTest<std::uint8_t> test)
{
  if (x >= width)
  {
    return 0u;
  }
  const auto * bytes = reinterpret_cast<const uint4 *>(row + x);
  if constexpr (Streamed)
  {
    return LaneForeground(__ldcs(bytes), test);
  }
  else
  {
    return LaneForeground(*bytes, test);
  }
}

/** Bit j: whether the pixel left of the lane's pixel j is foreground: its
 *  own bits shifted, bit 0 from the lane below, or for lane 0 carry (the
 *  pixel left of the stretch). All 32 lanes must call it. */
__device__ __forceinline__ unsigned
LeftForeground(unsigned foreground, unsigned carry)
{
  const unsigned fromBelow = __shfl_up_sync(FullWarp, foreground >> (LanePixels - 1), 1);
  return (foreground << 1) | (LaneId() == 0 ? carry : fromBelow);
}

/** The foreground bit of the stretch's last pixel: the next stretch's
 *  carry. All 32 lanes must call it. */
__device__ __forceinline__ unsigned
StretchCarry(unsigned foreground)
{
  return __shfl_sync(FullWarp, foreground >> (LanePixels - 1), WarpSize - 1);
}

/** The inclusive warp scan of two counts packed in the halves of a word
 *  (at most 8 a lane each: the halves never carry into each other). Inside
 *  long runs and long gaps (all-foreground images, large blocks) whole
 *  stretches hold no start and no end: then no scan. All 32 lanes must
 *  call it. */
__device__ __forceinline__ unsigned
InclusivePairScan(unsigned counts)
{
  return __any_sync(FullWarp, counts != 0) ? WarpInclusiveSum(counts) : counts;
}

/** Pixels of a stretch of the byte row scan: a warp's 32 lanes of 16. */
constexpr std::int64_t StretchPixels = WarpSize * LanePixels;

/** Rows a warp of CountByteRunsKernel takes at once where a row is one
 *  stretch (BatchesByteRows): their loads leave together. With one row a
 *  warp, each warp had one 16-byte load a lane in flight before its block
 *  ended (H200, ncu, 512^3 all foreground and g = 1 d = 0.5: 53 us, 134 MB
 *  read at 53 % of the memory's peak; four rows: 41 us, 68 %). The runs'
 *  writing so batched was slower where runs are many (219 -> 281 us at
 *  g = 1 d = 0.5: 48 registers instead of 40) and not faster at one run a
 *  row (83 -> 80 us); loading a stretch ahead in wider rows did not help
 *  it either (benchmark/results/h200-batched-row-loads). */
constexpr int ShortRowsTogether = 4;

/** Whether CountByteRunsKernel takes ShortRowsTogether rows a warp (rows
 *  of one stretch), and so how many rows its launch gives a warp. */
__host__ __device__ constexpr bool
BatchesByteRows(std::int64_t width)
{
  return width <= StretchPixels;
}
__host__ __device__ constexpr int
ByteRowsPerWarp(std::int64_t width)
{
  return BatchesByteRows(width) ? ShortRowsTogether : 1;
}

/** ScanRow for a byte image (FitsByteRowScan) and maximal runs that end
 *  where the foreground does: each lane takes 16 pixels at a time with one
 *  16-byte load instead of one pixel per lane and load, finds its starts
 *  and ends from its own bits and the last bit of the lane below (a
 *  shuffle), and one warp scan of its counts (starts in the low half, ends
 *  in the high half) places them. visit(lane) once per stretch of 512
 *  pixels; all 32 lanes must call it. Returns the runs of the row. */
template <class Visit>
__device__ __forceinline__ std::int64_t
                           ScanByteRow(const std::uint8_t * __restrict__ row,
                                       std::int64_t                 width,
                                       ForegroundTest<std::uint8_t> test,
                                       Visit &&                     visit,
                                       bool &                       endsAtWidth)
{
  const int    lane = static_cast<int>(LaneId());
  unsigned     carry = 0; // foreground bit of the pixel left of the stretch
  std::int64_t starts = 0;
  std::int64_t ends = 0;
  for (std::int64_t stretch = 0; stretch < width; stretch += StretchPixels)
  {
    LanePixelRun l;
    l.x = stretch + static_cast<std::int64_t>(lane) * LanePixels;
    l.foreground = LaneForegroundAt(row, l.x, width, test);
    const unsigned previous = LeftForeground(l.foreground, carry);
    l.starts = l.foreground & ~previous;
    l.ends = ~l.foreground & previous & FullLane;
    const unsigned counts = static_cast<unsigned>(__popc(l.starts)) | (static_cast<unsigned>(__popc(l.ends)) << 16);
    const unsigned inclusive = InclusivePairScan(counts);
    const unsigned exclusive = inclusive - counts;
    l.startsBefore = starts + (exclusive & 0xffffu);
    l.endsBefore = ends + (exclusive >> 16);
    visit(l);
    const unsigned total = __shfl_sync(FullWarp, inclusive, WarpSize - 1);
    starts += total & 0xffffu;
    ends += total >> 16;
    carry = StretchCarry(l.foreground);
  }
  endsAtWidth = carry != 0;
  return starts;
}

/** A row's first foreground pixel and one past its last: for a row of one
 *  run, that run. CountByteRunsKernel keeps it for such rows, so that
 *  WriteByteRunsKernel writes them without reading them again. */
struct RowSpan
{
  std::int32_t x;
  std::int32_t end;
};

/** A lane's first foreground pixel when it has none: above every pixel,
 *  so that the warp's minimum passes over it. */
constexpr std::int32_t NoForegroundPixel = 0x7fffffff;

/** The first foreground pixel of a lane's 16 pixels from x, or
 *  NoForegroundPixel. */
__device__ __forceinline__ std::int32_t
                           FirstForegroundPixel(unsigned foreground, std::int64_t x)
{
  return foreground != 0 ? static_cast<std::int32_t>(x) + __ffs(static_cast<int>(foreground)) - 1 : NoForegroundPixel;
}

/** The last foreground pixel of a lane's 16 pixels from x, or -1. */
__device__ __forceinline__ std::int32_t
                           LastForegroundPixel(unsigned foreground, std::int64_t x)
{
  return foreground != 0 ? static_cast<std::int32_t>(x) + 31 - __clz(static_cast<int>(foreground)) : -1;
}

/** CountRunsKernel for maximal runs of a byte image (FitsByteRowScan):
 *  16 pixels a lane and load, as ScanByteRow, but a lane only counts its
 *  starts, summed over the warp once a row: the count needs no scan. H100,
 *  ncu, with LaneForeground: 8192^2 g = 16 d = 0.5 54 -> 29 us, 512^3 115 ->
 *  61 us. (Loading several stretches before testing them was no faster in
 *  planes.) Rows of one stretch (BatchesByteRows) come ShortRowsTogether a
 *  warp, all loaded before any is tested; the launch gives a warp
 *  ByteRowsPerWarp rows. */
template <class Index>
__global__ void
__launch_bounds__(BlockThreads) CountByteRunsKernel(const std::uint8_t * __restrict__ image,
                                                    Geometry                     geometry,
                                                    ForegroundTest<std::uint8_t> test,
                                                    Index * __restrict__ counts,
                                                    ForegroundSample sample,
                                                    RowSpan * __restrict__ spans)
{
  AwaitPrecedingKernel();
  const int          lane = static_cast<int>(LaneId());
  const std::int64_t width = geometry.width;
  const std::int64_t lanePixel = static_cast<std::int64_t>(lane) * LanePixels;
  // Row r's runs from each lane's starts, its sampled foreground and, for a
  // row of one run, where that run lies (spans may be null).
  const auto count = [&](std::int64_t r, unsigned starts, unsigned pixels, std::int32_t first, std::int32_t last) {
    starts = WarpSum32(starts);
    if (lane == 0)
    {
      counts[r] = static_cast<Index>(starts);
    }
    if (starts == 1 && spans != nullptr) // the same for the whole warp
    {
      first = WarpMin32(first);
      last = WarpMax32(last);
      if (lane == 0)
      {
        spans[r] = RowSpan{ first, last + 1 };
      }
    }
    sample.Add(r, pixels);
  };
  if (BatchesByteRows(width))
  {
    for (std::int64_t r = GlobalWarp() * ShortRowsTogether; r < geometry.rows; r += WarpCount() * ShortRowsTogether)
    {
      unsigned foreground[ShortRowsTogether];
#pragma unroll
      for (int k = 0; k < ShortRowsTogether; ++k)
      {
        foreground[k] = r + k < geometry.rows ? LaneForegroundAt(image + (r + k) * width, lanePixel, width, test) : 0u;
      }
#pragma unroll
      for (int k = 0; k < ShortRowsTogether; ++k)
      {
        if (r + k < geometry.rows) // the same for the whole warp
        {
          count(r + k,
                __popc(foreground[k] & ~LeftForeground(foreground[k], 0u)),
                __popc(foreground[k]),
                FirstForegroundPixel(foreground[k], lanePixel),
                LastForegroundPixel(foreground[k], lanePixel));
        }
      }
    }
    return;
  }
  for (std::int64_t r = GlobalWarp(); r < geometry.rows; r += WarpCount())
  {
    const std::uint8_t * row = image + r * width;
    unsigned             carry = 0; // foreground bit left of the stretch
    unsigned             starts = 0;
    unsigned             pixels = 0; // this lane's foreground pixels
    std::int32_t         first = NoForegroundPixel;
    std::int32_t         last = -1;
    for (std::int64_t x = lanePixel; x - lanePixel < width; x += StretchPixels)
    {
      const unsigned foreground = LaneForegroundAt(row, x, width, test);
      starts += __popc(foreground & ~LeftForeground(foreground, carry));
      pixels += __popc(foreground);
      carry = StretchCarry(foreground);
      first = first == NoForegroundPixel ? FirstForegroundPixel(foreground, x) : first;
      last = foreground != 0 ? LastForegroundPixel(foreground, x) : last;
    }
    count(r, starts, pixels, first, last);
  }
}

/** WriteRunsKernel for maximal runs of a byte image (FitsByteRowScan), by
 *  ScanByteRow. A lane finds up to 8 starts and ends among its 16 pixels;
 *  written straight to the run arrays, a store instruction of the warp
 *  would cover 32 scattered words (H100, 8192^2, d = 0.5: 532 us against
 *  the per-pixel kernel's 326). So each stretch's starts and ends are
 *  staged in shared memory in order and leave in whole-warp stores. Rows
 *  without runs are skipped, and with spans (CountByteRunsKernel's, or
 *  null) a row of one run is written from its span: the all-foreground
 *  images' rows, and a sparse mask's rows that cross no object or one,
 *  are not read again. Where endWords is not null (runs.endWords, writable
 *  here: RunArrays holds it read-only for the searches, with its
 *  endWordsPerRow), each lane also leaves
 *  the run end index's word of its 16 pixels (RunEndWord: its ends and the
 *  count before them are the scan's own), so that the searches for a
 *  neighbour row's runs take one load (RunNeighbours.cuh). parent: each
 *  run its own root, or null where the caller sets every parent itself
 *  (the runs joined through the strips, StripJoin.cuh). */
static_assert(LanePixels == RunEndWordPixels, "a lane of the byte row scan leaves one word of the run end index");

template <class Index>
__global__ void
__launch_bounds__(BlockThreads) WriteByteRunsKernel(const std::uint8_t * __restrict__ image,
                                                    Geometry                     geometry,
                                                    ForegroundTest<std::uint8_t> test,
                                                    RunArrays<Index>             runs,
                                                    Index * __restrict__ parent,
                                                    const RowSpan * __restrict__ spans,
                                                    std::uint32_t * __restrict__ endWords)
{
  AwaitPrecedingKernel();
  // At most one start and one end every two pixels of a stretch.
  constexpr int      MostPerStretch = static_cast<int>(StretchPixels / 2);
  __shared__ int     stagedStarts[WarpsPerBlock][MostPerStretch];
  __shared__ int     stagedEnds[WarpsPerBlock][MostPerStretch];
  int *              starts = stagedStarts[threadIdx.x / WarpSize];
  int *              ends = stagedEnds[threadIdx.x / WarpSize];
  const int          lane = static_cast<int>(LaneId());
  const std::int64_t wordsPerRow = runs.endWordsPerRow;
  const std::int64_t rowStride = WarpCount();
  for (std::int64_t base = GlobalWarp(); base < geometry.rows; base += rowStride * WarpSize)
  {
    // Lane k reads the offsets (and span) of the warp's k-th row from base,
    // so that the loads of its next 32 rows are in flight together: a warp
    // that read them row after row waited on them for each row, and a
    // volume's rows of one run or none (all-on 512^3: 262,144 rows) took
    // their kernel no faster than those latencies.
    const std::int64_t laneRow = base + lane * rowStride;
    const bool         laneHasRow = laneRow < geometry.rows;
    Index              laneFirst = 0;
    Index              laneRuns = 0;
    if (laneHasRow)
    {
      laneFirst = runs.rowOffsets[laneRow];
      laneRuns = runs.rowOffsets[laneRow + 1] - laneFirst;
    }
    // No run, or one whose span the count kept: the row is not read again.
    const bool fromSpan = laneHasRow && (laneRuns == 0 || (laneRuns == 1 && spans != nullptr));
    RowSpan    span{ 0, 0 };
    if (fromSpan && laneRuns == 1)
    {
      span = spans[laneRow];
      runs.x[laneFirst] = span.x;
      runs.end[laneFirst] = span.end;
      runs.row[laneFirst] = static_cast<Index>(laneRow);
      if (parent != nullptr)
      {
        parent[laneFirst] = laneFirst;
      }
    }
    if (endWords != nullptr)
    {
      for (unsigned rows = __ballot_sync(FullWarp, fromSpan); rows != 0; rows &= rows - 1)
      {
        const int          owner = __ffs(static_cast<int>(rows)) - 1;
        const std::int64_t r = base + owner * rowStride;
        const bool         one = __shfl_sync(FullWarp, laneRuns, owner) == 1;
        const std::int32_t end = __shfl_sync(FullWarp, span.end, owner);
        for (std::int64_t w = lane; w < wordsPerRow; w += WarpSize)
        {
          const std::int64_t x = w * RunEndWordPixels;
          endWords[r * wordsPerRow + w] =
            RunEndWord(one && end >= x && end < x + RunEndWordPixels ? 1u << (end - x) : 0u, one && end < x ? 1u : 0u);
        }
      }
    }
    for (unsigned rows = __ballot_sync(FullWarp, laneHasRow && !fromSpan); rows != 0; rows &= rows - 1)
    {
      const int          owner = __ffs(static_cast<int>(rows)) - 1;
      const std::int64_t r = base + owner * rowStride;
      const Index        first = __shfl_sync(FullWarp, laneFirst, owner);
      bool               endsAtWidth = false;
      const std::int64_t n = ScanByteRow(
        image + r * geometry.width,
        geometry.width,
        test,
        [&](const LanePixelRun & l) {
          // The stretch's first start and end, and its counts.
          const std::int64_t startsBase = __shfl_sync(FullWarp, l.startsBefore, 0);
          const std::int64_t endsBase = __shfl_sync(FullWarp, l.endsBefore, 0);
          const int          startCount =
            static_cast<int>(__shfl_sync(FullWarp, l.startsBefore + __popc(l.starts), WarpSize - 1) - startsBase);
          const int endCount =
            static_cast<int>(__shfl_sync(FullWarp, l.endsBefore + __popc(l.ends), WarpSize - 1) - endsBase);
          if (endWords != nullptr && l.x < geometry.width)
          {
            endWords[r * wordsPerRow + l.x / RunEndWordPixels] =
              RunEndWord(l.ends, static_cast<std::uint32_t>(l.endsBefore));
          }
          int k = static_cast<int>(l.startsBefore - startsBase);
          for (unsigned bits = l.starts; bits != 0; bits &= bits - 1)
          {
            starts[k++] = static_cast<int>(l.x) + __ffs(static_cast<int>(bits)) - 1;
          }
          k = static_cast<int>(l.endsBefore - endsBase);
          for (unsigned bits = l.ends; bits != 0; bits &= bits - 1)
          {
            ends[k++] = static_cast<int>(l.x) + __ffs(static_cast<int>(bits)) - 1;
          }
          __syncwarp();
          for (int i = lane; i < startCount; i += WarpSize)
          {
            const Index run = first + static_cast<Index>(startsBase + i);
            runs.x[run] = starts[i];
            runs.row[run] = static_cast<Index>(r);
            if (parent != nullptr)
            {
              parent[run] = run;
            }
          }
          for (int i = lane; i < endCount; i += WarpSize)
          {
            runs.end[first + static_cast<Index>(endsBase + i)] = ends[i];
          }
          __syncwarp(); // the next stretch stages over these
        },
        endsAtWidth);
      if (endsAtWidth && lane == 0)
      {
        runs.end[first + static_cast<Index>(n - 1)] = static_cast<std::int32_t>(geometry.width);
      }
    }
  }
}

/** Labels only, where a plane's rows are joined from their bits in blocks
 *  of rows in shared memory (ByteRowBlocksInShared.cuh): every run of a
 *  byte image (FitsByteRowScan) its own root in parent, a warp's row at a
 *  time, and the run end index that WriteByteRunsKernel leaves (endWords,
 *  wordsPerRow words a row), from which the blocks' warps find the runs
 *  before their part of a row; the runs' starts, ends and rows are not
 *  written. rowOffsets: the runs' row offsets. */
template <class Index>
__global__ void
__launch_bounds__(BlockThreads) WriteByteRunEndIndexKernel(const std::uint8_t * __restrict__ image,
                                                           Geometry                     geometry,
                                                           ForegroundTest<std::uint8_t> test,
                                                           const Index * __restrict__ rowOffsets,
                                                           Index * __restrict__ parent,
                                                           std::uint32_t * __restrict__ endWords,
                                                           std::int64_t wordsPerRow)
{
  AwaitPrecedingKernel();
  const auto lane = static_cast<Index>(LaneId());
  for (std::int64_t r = GlobalWarp(); r < geometry.rows; r += WarpCount())
  {
    const Index first = rowOffsets[r];
    const Index runsOfRow = rowOffsets[r + 1] - first;
    for (Index i = lane; i < runsOfRow; i += WarpSize)
    {
      parent[first + i] = first + i;
    }
    std::uint32_t * words = endWords + r * wordsPerRow;
    if (runsOfRow == 0) // the same for the whole warp: the row is not read
    {
      for (std::int64_t w = lane; w < wordsPerRow; w += WarpSize)
      {
        words[w] = 0;
      }
      continue;
    }
    bool endsAtWidth = false;
    ScanByteRow(
      image + r * geometry.width,
      geometry.width,
      test,
      [&](const LanePixelRun & l) {
        if (l.x < geometry.width)
        {
          words[l.x / RunEndWordPixels] = RunEndWord(l.ends, static_cast<std::uint32_t>(l.endsBefore));
        }
      },
      endsAtWidth);
  }
}

} // namespace cuda
} // namespace cca

#endif
