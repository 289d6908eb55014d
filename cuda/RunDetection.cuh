// Run detection (FLSL segment detection, Lemaitre 2021 Alg. 1): one warp walks a
// row 32 pixels at a time; __ballot_sync gives the foreground mask of the
// chunk, a shift with the previous chunk's last bit gives the run starts and
// ends, and __popc of the lanes below turns them into compressed-store
// positions. Two passes: count runs per row, then (after a scan of the
// counts) write them densely in raster order. In a label image runs also
// break where the value changes (RunBreaks::ValueChanges): a lane compares
// its pixel with its left neighbour's, taken by a shuffle.
#ifndef cca_cuda_RunDetection_cuh
#define cca_cuda_RunDetection_cuh

#include "DeviceGeometry.cuh"
#include "ForegroundTest.h"

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

/** Pass 1: counts[r] = number of runs (units) of row r (one warp per row). */
template <class T, class Index, class Units = FullRuns, RunBreaks Breaks = RunBreaks::Foreground>
__global__ void
__launch_bounds__(BlockThreads, RowScanBlocksPerProcessor)
  CountRunsKernel(const T * __restrict__ image, Geometry geometry, ForegroundTest<T> test, Index * __restrict__ counts)
{
  for (std::int64_t r = GlobalWarp(); r < geometry.rows; r += WarpCount())
  {
    bool               endsAtWidth = false;
    const std::int64_t n = ScanRow<Units, Breaks>(
      image + r * geometry.width, geometry.width, test, [](const RowChunk &) {}, endsAtWidth);
    if (LaneId() == 0)
    {
      counts[r] = static_cast<Index>(n);
    }
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

} // namespace cuda
} // namespace cca

#endif
