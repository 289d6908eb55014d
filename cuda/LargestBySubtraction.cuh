// The largest component's table entry as what the others leave of the
// whole foreground. Above the percolation threshold one component holds
// most of the runs, and the votes spent most of their time on it: each of
// its runs computed its features and searched its preceding rows for the
// perimeter's pixel pairs, and every warp folded a full record. Under full
// connectivity on a mask, every pair of neighbouring foreground pixels lies
// in one component, so every additive field of the table (pixels,
// coordinate sums and products, face and border pixels, the pair counts
// behind the intercepts) sums over the components to the same field of
// the whole foreground. So:
//   1. ForegroundTotalsKernel sums those fields over the foreground of the
//      byte mask, 16 pixels a lane, by popcounts: the pairs of each
//      direction class from the bits of the row and of its preceding rows;
//   2. the votes and the pairs' count leave the largest component's runs
//      out, but for its bounding box (FeatureUpdate.cuh, PrecedingPairs.cuh),
//      or, where the pairs' pass after the labels places those runs among
//      the grouped runs, altogether: that pass folds the box
//      (PlacedLargest.cuh);
//   3. once every other entry is final, SumOtherEntriesKernel adds them up
//      and LargestEntryKernel writes the largest component's fields as the
//      totals less that sum (ITK's intercepts are linear in the pixel and
//      pair counts: FinalizedIntercept, src/RunFeatures.h).
// Under face connectivity, diagonal neighbours may lie in two components,
// and their pairs count in neither entry: the pass that counts each run's
// pairs after the labels (CountPrecedingPairsKernel) then also counts those
// straddling pairs, each once (from the later run, or from the earlier one
// where the later is the largest component's, whose search it skips), and
// the largest component's pairs are the totals less them and the others'.
// The host sequence takes it where the largest component's runs are many
// and the other components few (PathChoices::SubtractsLargest gives
// the measurements): there each of its runs saves more than the totals
// cost. In planes that holds only since the pairs' pass also places its
// runs (PlacedLargest.cuh).
#ifndef cca_cuda_LargestBySubtraction_cuh
#define cca_cuda_LargestBySubtraction_cuh

#include "DependentLaunch.cuh"
#include "DeviceGeometry.cuh"
#include "FeatureUpdate.cuh"
#include "Frame.cuh"
#include "NarrowFeatures.h"
#include "PlacedLargest.cuh"
#include "PrecedingPairs.cuh"
#include "RunDetection.cuh"
#include "RunFeatures.h"

#include "cca/Types.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** The additive fields of a table entry summed over pixels (64-bit words,
 *  wrapping as the entries' own fields do): ComponentFeatures' layout, the
 *  six products xx, yy, zz, xy, xz, yz, and per direction class
 *  (InterceptSlot) raw pair counts (ForegroundTotalsKernel) or finished
 *  intercepts (SumOtherEntriesKernel). */
struct AdditiveFields
{
  unsigned long long pixels;
  unsigned long long sum[3];
  unsigned long long product[6];
  unsigned long long border;
  unsigned long long face[6];
  unsigned long long slot[NumberOfInterceptSlots];
};
constexpr int AdditiveWords = static_cast<int>(sizeof(AdditiveFields) / sizeof(unsigned long long));
static_assert(AdditiveWords == 24, "24 words");

/** Where each field's words start in AdditiveFields. */
enum AdditiveWord : int
{
  PixelsWord = offsetof(AdditiveFields, pixels) / sizeof(unsigned long long),
  SumWords = offsetof(AdditiveFields, sum) / sizeof(unsigned long long),
  ProductWords = offsetof(AdditiveFields, product) / sizeof(unsigned long long),
  BorderWord = offsetof(AdditiveFields, border) / sizeof(unsigned long long),
  FaceWords = offsetof(AdditiveFields, face) / sizeof(unsigned long long),
  SlotWords = offsetof(AdditiveFields, slot) / sizeof(unsigned long long)
};

/** Bits of the pixels just left (bit 0) and right (bit 1) of a lane's 16
 *  pixels at x of row: from the neighbour lanes, or at the stretch's ends
 *  (stretch: its first pixel) from the row. All 32 lanes call it. */
__device__ __forceinline__ unsigned
LaneEdges(const std::uint8_t * __restrict__ row,
          unsigned                     bits,
          std::int64_t                 x,
          std::int64_t                 stretch,
          std::int64_t                 width,
          ForegroundTest<std::uint8_t> test)
{
  const unsigned lane = LaneId();
  unsigned       left = __shfl_sync(FullWarp, bits >> (LanePixels - 1), (lane + WarpSize - 1) % WarpSize);
  unsigned       right = __shfl_sync(FullWarp, bits & 1u, (lane + 1) % WarpSize);
  if (lane == 0)
  {
    left = stretch > 0 && test(row[stretch - 1]) ? 1u : 0u;
  }
  if (lane == WarpSize - 1)
  {
    right = x + LanePixels < width && test(row[x + LanePixels]) ? 1u : 0u;
  }
  return left | right << 1;
}

/** A lane's 16 pixels of a row (bit j: x + j) and the pixels just left
 *  (bit 0) and right (bit 1) of them; none where the row is outside the
 *  image. */
struct LaneRow
{
  unsigned bits = 0;
  unsigned edges = 0;
};

/** The lane's pixels at x of row (y, z), or none where (y, z) lies outside
 *  the image (the same for the whole warp). All 32 lanes call it. */
__device__ __forceinline__ LaneRow
LoadLaneRow(const std::uint8_t * __restrict__ image,
            const Geometry &             geometry,
            std::int64_t                 y,
            std::int64_t                 z,
            std::int64_t                 x,
            std::int64_t                 stretch,
            ForegroundTest<std::uint8_t> test)
{
  LaneRow lane;
  if (y < 0 || y >= geometry.height || z < 0)
  {
    return lane;
  }
  const std::uint8_t * row = image + (z * geometry.height + y) * geometry.width;
  lane.bits = LaneForegroundAt(row, x, geometry.width, test);
  lane.edges = LaneEdges(row, lane.bits, x, stretch, geometry.width, test);
  return lane;
}

/** A lane's counts over the rows of one task of ForegroundTotalsKernel (at
 *  most TotalsSegmentRows rows of its 16 pixels, so 32 bits hold them and
 *  their warp's sums), from which AddTaskWords makes the task's 64-bit
 *  fields: the loop over rows adds small numbers in 32 bits, and the
 *  coordinates' 64-bit products are formed once a task, not once a row.
 *  j: a pixel's place among the lane's 16; r: its row's place among the
 *  task's rows. */
struct LaneCounts
{
  unsigned pixels = 0;
  unsigned sumJ = 0;      ///< sum of j
  unsigned sumJJ = 0;     ///< sum of j^2
  unsigned sumR = 0;      ///< sum of r
  unsigned sumRR = 0;     ///< sum of r^2
  unsigned sumJR = 0;     ///< sum of j r
  unsigned first = 0;     ///< pixels at j = 0
  unsigned last = 0;      ///< pixels at j = 15
  unsigned yFaces = 0;    ///< pixels in rows y = 0 or y = height - 1
  unsigned yFaceEnds = 0; ///< of those, pixels on an x face
  unsigned top = 0;       ///< pixels in row y = 0
  unsigned bottom = 0;    ///< pixels in row y = height - 1
  unsigned pairs[NumberOfInterceptSlots] = {};
};

/** The pairs of the lane's pixels (bits) with those of a preceding row
 *  (other): those sharing a column into slot same, those one column
 *  apart into slot beside (the counts AddAdjacentPairs gives runs). */
__device__ __forceinline__ void
AddRowPairs(unsigned bits, const LaneRow & other, int same, int beside, LaneCounts & c)
{
  // Bit j of near: the other row's pixel x + j - 1 (bits 0 .. 17: x - 1 .. x + 16).
  const unsigned near = other.bits << 1 | (other.edges & 1u) | (other.edges >> 1) << (LanePixels + 1);
  c.pairs[same] += __popc(bits & other.bits);
  c.pairs[beside] += __popc(bits & near) + __popc(bits & (near >> 2));
}

/** Counts the lane's pixels (bits) of a row, r rows into the task; y: the
 *  row in the image, the same for the whole warp. */
__device__ __forceinline__ void
AddRowPixels(unsigned bits, unsigned r, std::int64_t y, bool xMin, bool xMax, std::int64_t height, LaneCounts & c)
{
  // Bit j of the lane stands for x + j: the sums of j and j^2 over the
  // set bits from the popcounts of the bits of j (j = sum 2^k j_k).
  constexpr unsigned Digit[4] = { 0xAAAAu, 0xCCCCu, 0xF0F0u, 0xFF00u };
  const unsigned     n = __popc(bits);
  unsigned           sumJ = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k)
  {
    const unsigned onesK = __popc(bits & Digit[k]);
    sumJ += onesK << k;
    c.sumJJ += onesK << (2 * k);
#pragma unroll
    for (int l = k + 1; l < 4; ++l)
    {
      c.sumJJ += __popc(bits & Digit[k] & Digit[l]) << (k + l + 1);
    }
  }
  c.pixels += n;
  c.sumJ += sumJ;
  c.sumR += n * r;
  c.sumRR += n * (r * r);
  c.sumJR += sumJ * r;
  c.first += bits & 1u;
  c.last += bits >> (LanePixels - 1);
  if (y == 0 || y == height - 1) // the warp's rows alike: two rows of the image
  {
    c.yFaces += n;
    c.yFaceEnds += (xMin ? bits & 1u : 0u) + (xMax ? bits >> (LanePixels - 1) : 0u);
    c.top += y == 0 ? n : 0u;
    c.bottom += y == height - 1 ? n : 0u;
  }
}

/** Adds to words (a warp's, in shared memory, lane 0) the fields of a
 *  task's foreground pixels from its lanes' counts: the task's stretch
 *  begins at x0 (a lane's pixels at x0 + 16 lane + j), its rows at y0 of
 *  slice z; xMin, xMax: whether the lane's first or last pixel is on an
 *  x face. All 32 lanes call it. */
__device__ __forceinline__ void
AddTaskWords(const LaneCounts &         c,
             std::int64_t               x0,
             std::int64_t               y0,
             std::int64_t               z,
             bool                       xMin,
             bool                       xMax,
             const detail::ImageFaces & faces,
             unsigned long long *       words)
{
  // x = x0 + 16 lane + j: the lane's weights by lane and lane^2 summed
  // over the warp give every product with x (each sum below 2^32: at most
  // 32 lanes x 16 pixels x TotalsSegmentRows rows, times 31^2 for lane^2).
  const unsigned lane = LaneId();
  const auto     sum = [](unsigned v) { return static_cast<unsigned long long>(WarpSum32(v)); };
  const auto     n = sum(c.pixels);
  const auto     laneN = sum(lane * c.pixels);
  const auto     laneLaneN = sum(lane * lane * c.pixels);
  const auto     sumJ = sum(c.sumJ);
  const auto     laneJ = sum(lane * c.sumJ);
  const auto     sumJJ = sum(c.sumJJ);
  const auto     sumR = sum(c.sumR);
  const auto     laneR = sum(lane * c.sumR);
  const auto     sumRR = sum(c.sumRR);
  const auto     sumJR = sum(c.sumJR);
  const bool     zMin = faces.hasZAxis && z == 0;
  const bool     zMax = faces.hasZAxis && z == faces.depth - 1;
  // A pixel is on the border where it is on a y or z face, or else on an x face.
  const unsigned     xFacePixels = (xMin ? c.first : 0u) + (xMax ? c.last : 0u);
  const auto         border = sum(zMin || zMax ? c.pixels : c.yFaces + xFacePixels - c.yFaceEnds);
  const auto         xMinFace = sum(xMin ? c.first : 0u);
  const auto         xMaxFace = sum(xMax ? c.last : 0u);
  const auto         top = sum(c.top);
  const auto         bottom = sum(c.bottom);
  unsigned long long pairs[NumberOfInterceptSlots];
#pragma unroll
  for (int i = 0; i < NumberOfInterceptSlots; ++i)
  {
    pairs[i] = sum(c.pairs[i]);
  }
  if (lane != 0)
  {
    return;
  }
  const auto ux = static_cast<unsigned long long>(x0);
  const auto uy = static_cast<unsigned long long>(y0);
  const auto uz = static_cast<unsigned long long>(z);
  // Sums over the pixels (wrapping as the entries' fields do): with
  // x = ux + 16 lane + j and y = uy + r.
  const unsigned long long sumX = ux * n + 16 * laneN + sumJ;
  const unsigned long long sumY = uy * n + sumR;
  words[PixelsWord] += n;
  words[SumWords + 0] += sumX;
  words[SumWords + 1] += sumY;
  words[SumWords + 2] += uz * n;
  // The products xx, yy, zz, xy, xz, yz.
  words[ProductWords + 0] += ux * ux * n + 32 * ux * laneN + 256 * laneLaneN + 2 * ux * sumJ + 32 * laneJ + sumJJ;
  words[ProductWords + 1] += uy * uy * n + 2 * uy * sumR + sumRR;
  words[ProductWords + 2] += uz * uz * n;
  words[ProductWords + 3] += uy * sumX + ux * sumR + 16 * laneR + sumJR;
  words[ProductWords + 4] += uz * sumX;
  words[ProductWords + 5] += uz * sumY;
  words[BorderWord] += border;
  words[FaceWords + 0] += xMinFace;
  words[FaceWords + 1] += xMaxFace;
  words[FaceWords + 2] += top;
  words[FaceWords + 3] += bottom;
  words[FaceWords + 4] += zMin ? n : 0u;
  words[FaceWords + 5] += zMax ? n : 0u;
#pragma unroll
  for (int i = 0; i < NumberOfInterceptSlots; ++i)
  {
    words[SlotWords + i] += pairs[i];
  }
}

/** Rows of a slice a warp walks in order (ForegroundTotalsKernel). */
constexpr std::int64_t TotalsSegmentRows = 32;

/** Sums the additive fields over the foreground of a byte mask (rows of
 *  whole 16-byte loads, FitsByteRowScan) into totals (cleared before), the
 *  pair counts raw (per class, every pair of neighbouring foreground
 *  pixels once, from its later pixel in raster order). A warp takes a
 *  stretch of 512 pixels (a lane 16) down TotalsSegmentRows rows of a
 *  slice, keeping the bits of the row above and of the previous slice's
 *  rows above, beside and below: it reads two rows a row (one in planes),
 *  not five. Its lanes count in 32 bits (LaneCounts) and fold the task
 *  into the warp's words in shared memory: with the 24 words in each
 *  thread's registers through the loop the kernel took 100 registers and
 *  ran with a quarter of the warps a multiprocessor holds (H200, 512^3
 *  26-conn. d = 0.5: 226 us; now 146 us with 64 registers, 43 % of the
 *  warps, benchmark/results/h200-totals-beside call 1; 156 us with the
 *  77 the compiler takes unbounded). */
static __global__ void
__launch_bounds__(BlockThreads, 4) ForegroundTotalsKernel(const std::uint8_t * __restrict__ image,
                                                          Geometry                     geometry,
                                                          detail::ImageFaces           faces,
                                                          ForegroundTest<std::uint8_t> test,
                                                          unsigned long long *         totals)
{
  AwaitPrecedingKernel();
  __shared__ unsigned long long warpWords[WarpsPerBlock][AdditiveWords];
  const unsigned                warp = threadIdx.x / WarpSize;
  for (int k = static_cast<int>(LaneId()); k < AdditiveWords; k += WarpSize)
  {
    warpWords[warp][k] = 0;
  }
  __syncwarp();
  const std::int64_t stretches = (geometry.width + StretchPixels - 1) / StretchPixels;
  const std::int64_t segments = (geometry.height + TotalsSegmentRows - 1) / TotalsSegmentRows;
  const std::int64_t tasks = geometry.depth * stretches * segments;
  for (std::int64_t task = GlobalWarp(); task < tasks; task += WarpCount())
  {
    const std::int64_t segment = task % segments;
    const std::int64_t z = task / segments / stretches;
    const std::int64_t stretch = task / segments % stretches * StretchPixels;
    const std::int64_t x = stretch + static_cast<std::int64_t>(LaneId()) * LanePixels;
    const bool         xMin = x == 0;
    const bool         xMax = x + LanePixels == geometry.width;
    const std::int64_t y0 = segment * TotalsSegmentRows;
    const std::int64_t y1 = y0 + TotalsSegmentRows < geometry.height ? y0 + TotalsSegmentRows : geometry.height;
    const std::int64_t zBefore = z - 1; // none in the first slice (and in planes)
    LaneCounts         c;
    LaneRow            above = LoadLaneRow(image, geometry, y0 - 1, z, x, stretch, test);
    LaneRow            sliceAbove = LoadLaneRow(image, geometry, y0 - 1, zBefore, x, stretch, test);
    LaneRow            slice = LoadLaneRow(image, geometry, y0, zBefore, x, stretch, test);
    for (std::int64_t y = y0; y < y1; ++y)
    {
      const LaneRow row = LoadLaneRow(image, geometry, y, z, x, stretch, test);
      const LaneRow sliceBelow = LoadLaneRow(image, geometry, y + 1, zBefore, x, stretch, test);
      // Pairs along x: each foreground pixel whose left neighbour is foreground.
      c.pairs[InterceptSlot(true, false, false)] += __popc(row.bits & (row.bits << 1 | (row.edges & 1u)));
      AddRowPairs(row.bits, above, InterceptSlot(false, true, false), InterceptSlot(true, true, false), c);
      AddRowPairs(row.bits, slice, InterceptSlot(false, false, true), InterceptSlot(true, false, true), c);
      AddRowPairs(row.bits, sliceAbove, InterceptSlot(false, true, true), InterceptSlot(true, true, true), c);
      AddRowPairs(row.bits, sliceBelow, InterceptSlot(false, true, true), InterceptSlot(true, true, true), c);
      AddRowPixels(row.bits, static_cast<unsigned>(y - y0), y, xMin, xMax, faces.height, c);
      above = row;
      sliceAbove = slice;
      slice = sliceBelow;
    }
    AddTaskWords(c, stretch, y0, z, xMin, xMax, faces, warpWords[warp]);
  }
  // The block's warps' words into totals, one atomic a word where not 0.
  __syncthreads();
  if (threadIdx.x < AdditiveWords)
  {
    unsigned long long word = 0;
    for (int w = 0; w < WarpsPerBlock; ++w)
    {
      word += warpWords[w][threadIdx.x];
    }
    if (word != 0)
    {
      atomicAdd(&totals[threadIdx.x], word);
    }
  }
}

/** An entry's additive fields as AdditiveFields words (a planar entry's
 *  products xx, yy, xy in their places among the six). */
template <class Table>
__device__ __forceinline__ void
AddEntryWords(const Table & f, unsigned long long (&words)[AdditiveWords])
{
  words[PixelsWord] += static_cast<unsigned long long>(f.pixelCount);
  for (int i = 0; i < detail::AxesOf<Table>; ++i)
  {
    words[SumWords + i] += static_cast<unsigned long long>(f.coordinateSum[i]);
  }
  for (int i = 0; i < detail::ProductsOf<Table>; ++i)
  {
    words[ProductWords + (detail::ProductsOf<Table> == 3 && i == 2 ? 3 : i)] += f.coordinateProductSum[i];
  }
  words[BorderWord] += static_cast<unsigned long long>(f.pixelsOnBorder);
  for (int i = 0; i < detail::FacesOf<Table>; ++i)
  {
    words[FaceWords + i] += static_cast<unsigned long long>(f.pixelsOnFace[i]);
  }
  for (int i = 0; i < detail::SlotsOf<Table>; ++i)
  {
    words[SlotWords + i] += static_cast<unsigned long long>(f.interceptCounts[i]);
  }
}

/** Sums the additive fields of every finished entry but largest's into
 *  others (cleared before). */
template <class Index, class Table>
__global__ void
__launch_bounds__(BlockThreads)
  SumOtherEntriesKernel(Index entries, Index largest, const Table * __restrict__ table, unsigned long long * others)
{
  AwaitPrecedingKernel();
  unsigned long long words[AdditiveWords] = {};
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       c < static_cast<std::int64_t>(entries);
       c += stride)
  {
    if (c != static_cast<std::int64_t>(largest))
    {
      AddEntryWords(table[c], words);
    }
  }
  AddBlockWords(words, others);
}

/** Writes the additive fields of entry largest (its bounding box is the
 *  votes', or where the pairs' pass placed its runs the box that pass
 *  folded: box, else null): the foreground's totals less the other
 *  entries' sums, the pair counts less the pairs between components
 *  (straddling, by StraddlingClasses class: none under full connectivity)
 *  turned into ITK's intercepts as FinalizeIntercepts turns an entry's.
 *  With box the whole entry is written: no vote reached it, and votes
 *  that store whole components may have left a stale record there
 *  (WholeComponents.cuh). One thread. */
template <class Index, class Table>
__global__ void
LargestEntryKernel(Index largest,
                   const unsigned long long * __restrict__ totals,
                   const unsigned long long * __restrict__ others,
                   const unsigned long long * __restrict__ straddling,
                   const unsigned long long * __restrict__ box,
                   Table * table)
{
  AwaitPrecedingKernel();
  if (blockIdx.x != 0 || threadIdx.x != 0)
  {
    return;
  }
  using Count = std::remove_reference_t<decltype(table[0].pixelCount)>;
  using Sum = std::remove_reference_t<decltype(table[0].coordinateSum[0])>;
  using Face = std::remove_reference_t<decltype(table[0].pixelsOnFace[0])>;
  using Border = std::remove_reference_t<decltype(table[0].pixelsOnBorder)>;
  using Slot = std::remove_reference_t<decltype(table[0].interceptCounts[0])>;
  const auto less = [&](int word) { return totals[word] - others[word]; };
  Table      f;
  if (box != nullptr)
  {
    // Every run of the component was placed, its root among them: the box
    // holds the minima a seeded entry would.
    detail::ClearFeatures(f);
    MergePlacedBox(box, f);
  }
  else
  {
    f = table[largest];
  }
  f.pixelCount = static_cast<Count>(less(PixelsWord));
  for (int i = 0; i < detail::AxesOf<Table>; ++i)
  {
    f.coordinateSum[i] = static_cast<Sum>(less(SumWords + i));
  }
  for (int i = 0; i < detail::ProductsOf<Table>; ++i)
  {
    f.coordinateProductSum[i] = less(ProductWords + (detail::ProductsOf<Table> == 3 && i == 2 ? 3 : i));
  }
  f.pixelsOnBorder = static_cast<Border>(less(BorderWord));
  for (int i = 0; i < detail::FacesOf<Table>; ++i)
  {
    f.pixelsOnFace[i] = static_cast<Face>(less(FaceWords + i));
  }
  unsigned long long pairs[NumberOfInterceptSlots];
  for (int i = 0; i < NumberOfInterceptSlots; ++i)
  {
    pairs[i] = totals[SlotWords + i];
  }
  for (int c = 0; c < StraddlingClasses; ++c)
  {
    pairs[StraddlingSlot(c)] -= straddling[c];
  }
  const auto pixels = static_cast<std::int64_t>(totals[PixelsWord]);
  for (int i = 0; i < detail::SlotsOf<Table>; ++i)
  {
    const auto intercepts =
      static_cast<unsigned long long>(detail::FinalizedIntercept(i, pixels, static_cast<std::int64_t>(pairs[i])));
    f.interceptCounts[i] = static_cast<Slot>(intercepts - others[SlotWords + i]);
  }
  table[largest] = f;
}

/** The host's side: the totals queued once the image is on the device,
 *  the largest entry written once every other one is final. */
template <class Index>
struct SubtractedLargest
{
  /** Words: the totals and the others' sums (AdditiveWords each), the
   *  pairs between components (StraddlingClasses), the bounding box of
   *  placed runs (PlacedLargest.cuh). */
  static constexpr int Words = 2 * AdditiveWords + StraddlingClasses + PlacedBoxCopies * PlacedBoxWords;

  Index                label = NoLabel<Index>;
  unsigned long long * words = nullptr; ///< Words of them
  /** Where the pairs' pass places its runs (PlacedLargest.cuh), their
   *  places in the component order, which the votes leave out; else none. */
  PlacedRange<Index> placed;

  bool
  Active() const
  {
    return label != NoLabel<Index>;
  }

  /** Where the pairs between components are counted (face connectivity). */
  unsigned long long *
  Straddling() const
  {
    return words == nullptr ? nullptr : words + 2 * AdditiveWords;
  }

  /** Where the pairs' pass folds the placed runs' bounding box, or null. */
  unsigned long long *
  Box() const
  {
    return placed.units > 0 ? words + 2 * AdditiveWords + StraddlingClasses : nullptr;
  }
};

/** Clears the words of s: before the kernels that add into them, which
 *  may run on other streams (HostSequence's side work). */
template <class Index, class Device>
void
ClearSubtractedWords(Device & device, const SubtractedLargest<Index> & s)
{
  device.Fill(s.words, 0, SubtractedLargest<Index>::Words * sizeof(unsigned long long), "the foreground's totals");
}

/** Queues the foreground's totals of the byte mask image (FitsByteRowScan)
 *  into the words of s (ClearSubtractedWords). */
template <class Index, class Device>
void
QueueForegroundTotals(Device & device, const Frame & frame, const void * image, const SubtractedLargest<Index> & s)
{
  const Geometry &   g = frame.geometry;
  const std::int64_t warps = g.depth * ((g.width + StretchPixels - 1) / StretchPixels) *
                             ((g.height + TotalsSegmentRows - 1) / TotalsSegmentRows);
  // A warp a task, up to 2048 blocks (few block sums to add).
  const auto blocks = static_cast<unsigned>(std::min<std::int64_t>((warps + WarpsPerBlock - 1) / WarpsPerBlock, 2048));
  device.Launch("foreground totals kernel",
                blocks,
                BlockThreads,
                ForegroundTotalsKernel,
                static_cast<const std::uint8_t *>(image),
                frame.geometry,
                frame.faces,
                ForegroundOf<std::uint8_t>(frame.options),
                s.words);
}

/** Writes entry s.label of table (entries of them, every other one final). */
template <class Index, class Table, class Device>
void
FinishSubtractedLargest(Device & device, Index entries, const SubtractedLargest<Index> & s, Table * table)
{
  device.Launch("other entries' sum kernel",
                BlocksFor(static_cast<std::int64_t>(entries), BlockThreads),
                BlockThreads,
                SumOtherEntriesKernel<Index, Table>,
                entries,
                s.label,
                table,
                s.words + AdditiveWords);
  device.Launch("largest entry kernel",
                1,
                WarpSize,
                LargestEntryKernel<Index, Table>,
                s.label,
                s.words,
                s.words + AdditiveWords,
                s.Straddling(),
                s.Box(),
                table);
}

} // namespace cuda
} // namespace cca

#endif
