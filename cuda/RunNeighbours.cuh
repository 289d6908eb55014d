// Finding the runs of a neighbour row that touch a run: the runs of a row are
// sorted by x and disjoint, so their ends increase, and the first candidate
// is the count of the row's runs that end at or before the range; the rest
// follow contiguously. Where the runs' writer left their end index (a word
// for each 16 pixels of a row: which of them end a run, and how many runs
// of the row end before them), that count is one load and a popcount;
// elsewhere a binary search of the row's run ends finds it, 7-8 dependent
// loads in a row of about 100 runs.
//
// The byte row scan writes the index beside the runs (WriteByteRunsKernel;
// 4 bytes for 16 pixels). H200, one binary, the index against the binary
// searches, full table, g = 1, summed, V A A V in one call
// (benchmark/results/h200-row-split call 3): 8192^2 4-conn. 31.35 / 31.25
// -> 32.61 / 32.42 Gpix/s, 8-conn. 35.4 -> 35.6-35.7, 512^3 6-conn. 27.6 /
// 27.7 -> 29.0 / 29.0 Gvox/s, 26-conn. 35.1 / 35.3 -> 37.5 / 37.5; g = 4
// within the spread, 26-conn. 88.0 / 88.7 -> 90.6 / 89.7. ncu at 512^3
// 6-conn. d = 0.3: the union-find 1,519 -> 1,395 us, the face pairs' pass
// 1,113 -> 900 us.
#ifndef cca_cuda_RunNeighbours_cuh
#define cca_cuda_RunNeighbours_cuh

#include "DeviceGeometry.cuh"

#include <cstdint>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** A neighbour row at offset (dy, dz). */
struct RowStep
{
  int dy;
  int dz;
};

/** Rows whose runs a run links to in union-find: only earlier rows, so each
 *  pair of neighbour rows is visited once. Face connectivity: rows sharing a
 *  face ((dy, dz) with one non-zero); Full: all 8 (y, z) neighbours. How
 *  many there are: */
__host__ __device__ constexpr int
PrecedingRowCount(bool full, bool volume)
{
  return volume ? (full ? 4 : 2) : 1;
}

/** Step s (below PrecedingRowCount) of those rows: the row before in the
 *  slice, the same row of the slice before, then (full) the rows either
 *  side of it. Computed, so that a kernel looping over the steps keeps no
 *  array of them in local memory. */
__device__ __forceinline__ RowStep
PrecedingRowStep(int s)
{
  return RowStep{ s == 1 ? 0 : (s == 3 ? 1 : -1), s == 0 ? 0 : -1 };
}

/** The steps of PrecedingRowStep as an array; returns their number. */
__device__ __forceinline__ int
PrecedingRows(bool full, bool volume, RowStep (&steps)[4])
{
  const int n = PrecedingRowCount(full, volume);
#pragma unroll
  for (int s = 0; s < 4; ++s)
  {
    if (s < n)
    {
      steps[s] = PrecedingRowStep(s);
    }
  }
  return n;
}

/** Rows later than a run's row among its 8 (y, z) neighbours: with their
 *  mirror images they cover every neighbour row once. Used for pair counts,
 *  which need all neighbour classes whatever the connectivity. The first,
 *  the next row of the slice, is a plane's only one. */
__device__ __forceinline__ void
FollowingRows(RowStep (&steps)[4])
{
  steps[0] = RowStep{ 1, 0 };
  steps[1] = RowStep{ -1, 1 };
  steps[2] = RowStep{ 0, 1 };
  steps[3] = RowStep{ 1, 1 };
}

/** Row index of the neighbour of row (y, z) at step, or -1 outside the
 *  image, computed in Coord: std::int32_t where the image's pixels fit it
 *  (SmallImage), whose arithmetic needs no carries or wide multiplies. */
template <class Coord>
__device__ __forceinline__ Coord
NeighbourRowOf(const Geometry & g, Coord y, Coord z, RowStep step)
{
  const Coord ny = y + step.dy;
  const Coord nz = z + step.dz;
  const auto  height = static_cast<Coord>(g.height);
  if (ny < 0 || ny >= height || nz < 0 || nz >= static_cast<Coord>(g.depth))
  {
    return -1;
  }
  return ny + nz * height;
}

/** NeighbourRowOf in 64 bits, for images of any size. */
__device__ __forceinline__ std::int64_t
                           NeighbourRow(const Geometry & g, std::int64_t y, std::int64_t z, RowStep step)
{
  return NeighbourRowOf<std::int64_t>(g, y, z, step);
}

/** Whether an image's pixels, and so its rows, pixel columns and run end
 *  index words, fit std::int32_t: its neighbour rows may then be found in
 *  32-bit arithmetic (NeighbourRowOf). */
inline bool
SmallImage(const Geometry & g)
{
  return g.width * g.rows < (std::int64_t{ 1 } << 31);
}

/** The type a kernel finds rows in: std::int32_t where Small (a
 *  SmallImage), else std::int64_t. */
template <bool Small>
using RowCoord = std::conditional_t<Small, std::int32_t, std::int64_t>;

/** A step of the binary search for the first run of [first, last) whose
 *  end is past lo (the lower bound of the runs that can reach lo). */
template <class Index>
__device__ __forceinline__ void
HalveRunSearch(const RunArrays<Index> & runs, std::int32_t lo, Index & first, Index & last)
{
  const Index middle = first + (last - first) / 2;
  if (runs.end[middle] > lo)
  {
    last = middle;
  }
  else
  {
    first = middle + 1;
  }
}

/** Pixels a word of the run end index covers. */
constexpr int RunEndWordPixels = 16;

/** Rows of at most this many pixels get a run end index: a word's count of
 *  the runs ending before its pixels (at most half the row's pixels) fits
 *  its 16 high bits. */
constexpr std::int64_t RunEndIndexMostWidth = 65536;

/** The run end index's word for the 16 pixels from x (x % 16 == 0) of a
 *  row: bit j where a run ends just before pixel x + j (its end, one past
 *  its last pixel, is x + j), and in the high half the count of the row's
 *  runs whose end is before x. */
__device__ __forceinline__ std::uint32_t
                           RunEndWord(unsigned endBits, std::uint32_t endsBefore)
{
  return (endBits & 0xffffu) | (endsBefore << 16);
}

/** The first run of row q (its runs [first, rowEnd)) whose end is past lo,
 *  from the run end index: first plus the runs that end at or before lo
 *  (those before lo's word, and its bits up to lo). */
template <class Index, class Row>
__device__ __forceinline__ Index
IndexedRunPast(const RunArrays<Index> & runs, Row q, std::int32_t lo, Index first, Index rowEnd)
{
  if (lo < 0)
  {
    return first;
  }
  const auto pixel = static_cast<std::uint32_t>(lo);
  const auto words = static_cast<Row>(runs.endWordsPerRow);
  const auto w = static_cast<Row>(pixel / RunEndWordPixels);
  if (w >= words)
  {
    return rowEnd;
  }
  const std::uint32_t word = runs.endWords[q * words + w];
  const unsigned      upToLo = (2u << (pixel % RunEndWordPixels)) - 1u;
  return first + static_cast<Index>((word >> 16) + static_cast<std::uint32_t>(__popc(word & upToLo)));
}

/** The first run of row q (its runs [first, rowEnd)) whose end is past
 *  lo: from the run end index where the runs have one, else by halving the
 *  row's runs. Row (deduced from q): std::int64_t, or std::int32_t for a
 *  SmallImage. */
template <class Index, class Row>
__device__ __forceinline__ Index
FirstRunPast(const RunArrays<Index> & runs, Row q, std::int32_t lo, Index first, Index rowEnd)
{
  if (runs.endWords != nullptr)
  {
    return IndexedRunPast(runs, q, lo, first, rowEnd);
  }
  Index last = rowEnd;
  while (first < last)
  {
    HalveRunSearch(runs, lo, first, last);
  }
  return first;
}

/** Calls visit(b) for the runs from first on, before rowEnd, that start
 *  before hi. */
template <class Index, class Visit>
__device__ __forceinline__ void
VisitRunsBefore(const RunArrays<Index> & runs, Index first, Index rowEnd, std::int32_t hi, Visit && visit)
{
  for (Index b = first; b < rowEnd && runs.x[b] < hi; ++b)
  {
    visit(b);
  }
}

/** Calls visit(b) for each run b of row q with end[b] > lo and x[b] < hi,
 *  i.e. each run that intersects the pixel range [lo, hi). */
template <class Index, class Visit, class Row>
__device__ __forceinline__ void
ForEachRunInRange(const RunArrays<Index> & runs, Row q, std::int32_t lo, std::int32_t hi, Visit && visit)
{
  const Index rowEnd = runs.rowOffsets[q + 1];
  VisitRunsBefore(runs, FirstRunPast(runs, q, lo, runs.rowOffsets[q], rowEnd), rowEnd, hi, visit);
}

/** ForEachRunInRange in the rows q[s] (q[s] < 0: none) at once: without a
 *  run end index the binary searches advance together, a step in every row
 *  at a time, so that their loads are in flight together; then visit(s, b)
 *  row by row, in the order of q (s is a constant in each unrolled visit:
 *  callers may index arrays of registers with it). */
template <int Rows, class Index, class Visit, class Row>
__device__ __forceinline__ void
ForEachRunInRanges(const RunArrays<Index> & runs,
                   const Row (&q)[Rows],
                   std::int32_t lo,
                   std::int32_t hi,
                   Visit &&     visit)
{
  Index first[Rows];
  Index last[Rows];
  Index rowEnd[Rows];
#pragma unroll
  for (int s = 0; s < Rows; ++s)
  {
    first[s] = q[s] >= 0 ? runs.rowOffsets[q[s]] : Index{ 0 };
    last[s] = q[s] >= 0 ? runs.rowOffsets[q[s] + 1] : Index{ 0 };
    rowEnd[s] = last[s];
  }
  if (runs.endWords != nullptr)
  {
    // Found: the searches below then have nothing left to halve. (The
    // searches as an else branch of their own made the pairs' pass of
    // 26-connected volumes 39 registers instead of 32, ptxas.)
#pragma unroll
    for (int s = 0; s < Rows; ++s)
    {
      first[s] = q[s] >= 0 ? IndexedRunPast(runs, q[s], lo, first[s], rowEnd[s]) : first[s];
      last[s] = first[s];
    }
  }
  for (;;)
  {
    bool searching = false;
#pragma unroll
    for (int s = 0; s < Rows; ++s)
    {
      if (first[s] < last[s])
      {
        searching = true;
        HalveRunSearch(runs, lo, first[s], last[s]);
      }
    }
    if (!searching)
    {
      break;
    }
  }
#pragma unroll
  for (int s = 0; s < Rows; ++s)
  {
    VisitRunsBefore(runs, first[s], rowEnd[s], hi, [&](Index b) { visit(s, b); });
  }
}

} // namespace cuda
} // namespace cca

#endif
