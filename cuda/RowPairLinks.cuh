// The union-find of LinkRunsKernel for byte masks (FitsByteRowScan), driven
// by the foreground bits of each pair of neighbour rows instead of the run
// arrays. A warp takes a row and one of its preceding neighbour rows 512
// pixels at a time, 16 a lane (as ScanByteRow): with R and U a lane's bits of
// the two rows, each pair of touching runs shows as exactly one event pixel p:
// - the runs share columns: p starts their overlap, (R & U) at p and not at
//   p - 1 (two runs of neighbour rows overlap in one interval);
// - full connectivity, corner only: one run ends at p - 1 and the other
//   starts at p (R at p - 1, not at p, U at p, not at p - 1, or the mirror);
//   such runs share no column, so no pair has two events.
// The runs at p and p - 1 follow from counting run starts (the row offsets,
// a warp scan of the lanes' counts, popcounts within the lane), so no run is
// read and no neighbour row searched: on the H100 the searches were about a
// third of LinkRunsKernel near the percolation threshold (8192^2, g = 1).
// It reads every pixel of both rows where the search reads a few runs, so
// the engine takes it only where it was faster (LabelStage::LinksByRowBits).
// Each pair is then joined as LinkRunsKernel joins it (Merge, the last
// meeting point as the next walk's start, the run pointed at it).
// The runs of a strip image (StripLabeling.cuh) are joined the same way with
// the events found on the strips' facing image rows (StripRows.cuh) and the
// runs counted on the strip rows: each facing pixel lies in a run of its
// strip row, so an event between facing runs names the two strip runs.
#ifndef cca_cuda_RowPairLinks_cuh
#define cca_cuda_RowPairLinks_cuh

#include "DeviceGeometry.cuh"
#include "QueuedMerges.cuh"
#include "RunDetection.cuh"
#include "RunNeighbours.cuh"
#include "StripRows.cuh"
#include "UnionFind.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** The joins of one lane: its events in pixel order, so the runs of its
 *  row come in increasing order and each is joined from the last meeting
 *  point of its previous joins. Union: PlainUnion on the global parents,
 *  MergeThrough<CoherentLoads> on a block's links in shared memory
 *  (ByteRowBlocksInShared.cuh), whose linked then starts at the block's
 *  first run. */
template <class Index, class Union = PlainUnion>
struct LaneJoins
{
  Index *        parent;
  std::uint8_t * linked;            ///< null: no link flags kept
  RootMet<Index> met{ Index{ 0 } }; ///< the joins of the run of the row being joined
  Index          partner = 0;       ///< the run last joined with it
  bool           open = false;

  __device__ __forceinline__ void
  Join(Index a, Index b)
  {
    if (!open || a != met.run)
    {
      Close();
      met = RootMet<Index>(a);
      open = true;
    }
    else if (b == partner)
    {
      // Joined already: strip runs touch at several events (StripRows.cuh).
      return;
    }
    partner = b;
    met.Join(Union{}, parent, b);
    if (linked != nullptr)
    {
      linked[a] = 1; // racing stores of the same value
      linked[b] = 1;
    }
  }

  /** Joins a with b from a itself, and points a at the root met: the
   *  queued events' joins (LinkRowPair), whose pairs of one run may go to
   *  several lanes. */
  __device__ __forceinline__ void
  JoinAlone(Index a, Index b)
  {
    RootMet<Index> alone(a);
    alone.Join(Union{}, parent, b);
    if (alone.Moved())
    {
      alone.PointRun(parent);
    }
    if (linked != nullptr)
    {
      linked[a] = 1; // racing stores of the same value
      linked[b] = 1;
    }
  }

  /** Points the run at the (then) root of its set: shallower trees for later walks. */
  __device__ __forceinline__ void
  Close()
  {
    if (open && met.Moved())
    {
      met.PointRun(parent);
    }
    open = false;
  }
};

/** Stretches of 512 pixels (a warp's 16 pixels a lane) in a row of width pixels. */
__host__ __device__ constexpr std::int64_t
         StretchesOfRow(std::int64_t width)
{
  return (width + StretchPixels - 1) / StretchPixels;
}

/** A lane's 16 pixels of a row and of its neighbour row (bit j: pixel x +
 *  j): the foreground whose touches are the events, with the bits of the
 *  pixels left of them, and the run starts of the rows whose runs are joined. */
struct RowPairLane
{
  unsigned row, above;         ///< foreground
  unsigned rowLeft, aboveLeft; ///< foreground of the pixel left
  unsigned rowStarts, aboveStarts;
};

/** The rows LinkRowPair joins: their runs, and where the events are found
 *  when not on the rows themselves. A mask's rows are read as bytes; a
 *  strip image's rows and the facing image rows as the bits the strip
 *  image's kernel wrote (StripRows::bits, stripBits), which the L2 holds
 *  where the bytes, read several times a row, would not. Reading bytes
 *  there too where a switch asked for them had cost the tubes' form of
 *  LinkByteRowsKernel 32 bytes of stack (120 against 88, 104 against 72
 *  queued; ptxas, 48 registers). */
struct RowPair
{
  const std::uint8_t *         row;
  const std::uint8_t *         above;
  ForegroundTest<std::uint8_t> test;
  FacingRows                   facing; ///< the strips' facing rows (FromFacingRows)
  /** The two rows' run end index (RunNeighbours.cuh: a word each 16
   *  pixels, the runs ending before them in its high half), or null. */
  const std::uint32_t * rowEnds = nullptr;
  const std::uint32_t * aboveEnds = nullptr;
  /** The image the facing rows lie in and its rows as bits
   *  (StripRows::bits), from which the facing rows are read. */
  const std::uint8_t *  facingImage = nullptr;
  const std::uint16_t * facingBits = nullptr;
  /** row's and above's foreground as bits (StripRows::stripBits: a word
   *  each 16 pixels, from the row's first), for a strip image's rows. */
  const std::uint16_t * rowBits = nullptr;
  const std::uint16_t * aboveBits = nullptr;

  /** The end index of image rows r and q (endWords: wordsPerRow words a
   *  row, or null: none). */
  __device__ __forceinline__ void
  SetEnds(const std::uint32_t * endWords, std::int64_t wordsPerRow, std::int64_t r, std::int64_t q)
  {
    if (endWords != nullptr)
    {
      rowEnds = endWords + r * wordsPerRow;
      aboveEnds = endWords + q * wordsPerRow;
    }
  }
};

/** The foreground bits of x's 16 pixels in any of the first Rows of a
 *  strip's facing rows (one side's, rows: FacingRows::row or above; null:
 *  none), a 2-byte load a row from the image's rows as bits (which the L2
 *  holds for a whole 512^3 mask). */
template <int Rows>
__device__ __forceinline__ unsigned
FacingLaneBits(const RowPair & pair, const std::uint8_t * const (&rows)[2], std::int64_t x, std::int64_t width)
{
  static_assert(Rows >= 1 && Rows <= 2, "a strip faces its neighbour with one or two rows");
  if (x >= width)
  {
    return 0u;
  }
  unsigned bits = 0;
#pragma unroll
  for (int k = 0; k < Rows; ++k)
  {
    bits |= rows[k] != nullptr ? pair.facingBits[(rows[k] - pair.facingImage + x) / LanePixels] : 0u;
  }
  return bits;
}

/** The foreground bits of x's 16 pixels of the pair's row: from bits (its
 *  rowBits or aboveBits) where RowsAsBits (a strip image's rows), else
 *  from the row's bytes (a mask's; Streamed: as LaneForegroundAt's). */
template <bool RowsAsBits, bool Streamed = false>
__device__ __forceinline__ unsigned
PairRowLaneBits(const RowPair &       pair,
                const std::uint8_t *  row,
                const std::uint16_t * bits,
                std::int64_t          x,
                std::int64_t          width)
{
  if constexpr (RowsAsBits)
  {
    return x < width ? bits[x / LanePixels] : 0u;
  }
  else
  {
    return LaneForegroundAt<Streamed>(row, x, width, pair.test);
  }
}

/** The foreground bits left of the stretch the next call starts: the
 *  rows' and, with facing rows, theirs. */
struct RowPairCarries
{
  unsigned row = 0, above = 0, facingRow = 0, facingAbove = 0;
};

/** The lane's RowPairLane from x, and the carries moved to the next
 *  stretch. FromFacingRows: the events on the pair's facing rows, at most
 *  MostFacingRows a side. RowsAsBits: the rows are a strip image's, read
 *  as bits (PairRowLaneBits). StreamedRows: a mask's rows loaded
 *  evict-first (LaneForegroundAt). All 32 lanes must call it. */
template <bool FromFacingRows, int MostFacingRows, bool RowsAsBits, bool StreamedRows = false>
__device__ __forceinline__ RowPairLane
LoadRowPairLane(const RowPair & pair, std::int64_t x, std::int64_t width, RowPairCarries & carries)
{
  const unsigned row = PairRowLaneBits<RowsAsBits, StreamedRows>(pair, pair.row, pair.rowBits, x, width);
  const unsigned above = PairRowLaneBits<RowsAsBits, StreamedRows>(pair, pair.above, pair.aboveBits, x, width);
  const unsigned rowLeft = LeftForeground(row, carries.row);
  const unsigned aboveLeft = LeftForeground(above, carries.above);
  carries.row = StretchCarry(row);
  carries.above = StretchCarry(above);
  RowPairLane l;
  l.rowStarts = row & ~rowLeft;
  l.aboveStarts = above & ~aboveLeft;
  if constexpr (FromFacingRows)
  {
    l.row = FacingLaneBits<MostFacingRows>(pair, pair.facing.row, x, width);
    l.above = FacingLaneBits<MostFacingRows>(pair, pair.facing.above, x, width);
    l.rowLeft = LeftForeground(l.row, carries.facingRow);
    l.aboveLeft = LeftForeground(l.above, carries.facingAbove);
    carries.facingRow = StretchCarry(l.row);
    carries.facingAbove = StretchCarry(l.above);
  }
  else
  {
    l.row = row;
    l.above = above;
    l.rowLeft = rowLeft;
    l.aboveLeft = aboveLeft;
  }
  return l;
}

/** The starts of a lane's row and neighbour row packed in a word's halves. */
__device__ __forceinline__ unsigned
PackedStarts(const RowPairLane & l)
{
  return static_cast<unsigned>(__popc(l.rowStarts)) | (static_cast<unsigned>(__popc(l.aboveStarts)) << 16);
}

/** Position of the k-th (from 0) set bit of a lane's 16-bit mask, which
 *  has more than k. */
__device__ __forceinline__ int
NthSetBitOf16(unsigned mask, int k)
{
  int p = 0;
#pragma unroll
  for (int width = 8; width > 0; width /= 2)
  {
    const int low = __popc(mask & ((1u << width) - 1u));
    if (k >= low)
    {
      k -= low;
      mask >>= width;
      p += width;
    }
  }
  return p;
}

/** A lane's events in a stretch (bits: a pixel where a run of the row meets
 *  a run of the row above, or under full connectivity where one of them
 *  ends at the pixel before), each row's run starts in the lane and the
 *  index of each row's last run starting before the lane (plus one): what
 *  finds an event's two runs. */
template <class Index>
struct LaneEvents
{
  unsigned events;
  unsigned rowStarts;
  unsigned aboveStarts;
  Index    rowBase;
  Index    aboveBase;

  /** The two runs an event joins. */
  struct Runs
  {
    Index row;
    Index above;
  };

  /** The runs of the row and of the row above that the event at pixel p
   *  joins: in each row, the last run starting at or before p (in an
   *  earlier lane or stretch when no start of this lane is). Where a
   *  row's run ends first (at p - 1), that row's pixel p is background and
   *  starts nothing, so the same count finds the run holding p - 1: one
   *  expression for the three kinds of event (a branch each would run the
   *  lanes' walks one kind after the other). */
  __device__ __forceinline__ Runs
  RunsAt(int p) const
  {
    const unsigned upTo = (2u << p) - 1u; // bits up to and including p
    return Runs{ rowBase + static_cast<Index>(__popc(rowStarts & upTo)) - 1,
                 aboveBase + static_cast<Index>(__popc(aboveStarts & upTo)) - 1 };
  }

  /** The owner lane's events (every lane must call it). */
  __device__ __forceinline__ LaneEvents
  Of(int owner) const
  {
    return LaneEvents{ __shfl_sync(FullWarp, events, owner),
                       __shfl_sync(FullWarp, rowStarts, owner),
                       __shfl_sync(FullWarp, aboveStarts, owner),
                       __shfl_sync(FullWarp, rowBase, owner),
                       __shfl_sync(FullWarp, aboveBase, owner) };
  }
};

/** Joins the runs of pair.row (first run firstRun) with the touching runs
 *  of the neighbour row pair.above (first run firstAbove), both rows of
 *  width pixels: a mask's bytes, or with FromFacingRows a strip image's
 *  rows, read as bits (RowPair::rowBits), in the stretches of 512 pixels
 *  [firstStretch, endStretch); the runs before them are found from the rows' end index
 *  (pair.rowEnds) where given, else counted. MostFacingRows: as
 *  LoadRowPairLane's. QueuedEvents: a stretch's events are queued across
 *  the warp and joined a lane each (QueuedMerges.cuh's queue,
 *  Joins::JoinAlone), instead of each lane joining its own in turn.
 *  StreamedRows: as LoadRowPairLane's. All 32 lanes must call it. */
template <bool FromFacingRows,
          int  MostFacingRows,
          bool QueuedEvents = false,
          bool StreamedRows = false,
          class Index,
          class Joins>
__device__ __forceinline__ void
LinkRowPair(const RowPair & pair,
            std::int64_t    width,
            bool            full,
            Index           firstRun,
            Index           firstAbove,
            Joins &         joins,
            std::int64_t    firstStretch,
            std::int64_t    endStretch)
{
  // Only a strip image's rows face other rows, and those are read as bits.
  constexpr bool RowsAsBits = FromFacingRows;
  const int      lane = static_cast<int>(LaneId());
  RowPairCarries carries;
  Index          runsBefore = firstRun; // index of the row's first run of the stretch
  Index          aboveBefore = firstAbove;
  if (firstStretch > 0 && pair.rowEnds != nullptr)
  {
    // The runs that start before the first stretch: those that end before
    // it (the end index's word there) and the one its left pixel is in,
    // instead of reading and counting every stretch before it again
    // (H200, 8192^2 4-conn. g = 1 full table, the pass over all rows in
    // two parts: 490 -> 480 us at d = 0.5, 709 -> 699 at 0.7; the row
    // blocks in shared memory, whose warps split each row eight ways,
    // need it: benchmark/results/h200-plane-kernels calls 3-4).
    const std::int64_t last = firstStretch * StretchPixels - LanePixels;
    const std::int64_t word = firstStretch * (StretchPixels / RunEndWordPixels);
    carries.row = PairRowLaneBits<RowsAsBits>(pair, pair.row, pair.rowBits, last, width) >> (LanePixels - 1);
    carries.above = PairRowLaneBits<RowsAsBits>(pair, pair.above, pair.aboveBits, last, width) >> (LanePixels - 1);
    runsBefore += static_cast<Index>((pair.rowEnds[word] >> 16) + carries.row);
    aboveBefore += static_cast<Index>((pair.aboveEnds[word] >> 16) + carries.above);
  }
  else
  {
    // The stretches before are counted on the two rows alone.
    for (std::int64_t stretch = 0; stretch < firstStretch * StretchPixels; stretch += StretchPixels)
    {
      const RowPairLane l = LoadRowPairLane<false, MostFacingRows, RowsAsBits, StreamedRows>(
        pair, stretch + lane * LanePixels, width, carries);
      const unsigned total = WarpSum32(PackedStarts(l)); // at most 256 a half
      runsBefore += static_cast<Index>(total & 0xffffu);
      aboveBefore += static_cast<Index>(total >> 16);
    }
  }
  if constexpr (FromFacingRows)
  {
    if (firstStretch > 0)
    {
      // The facing rows' carries: their pixel left of the first stretch joined.
      const std::int64_t last = firstStretch * StretchPixels - LanePixels;
      carries.facingRow = FacingLaneBits<MostFacingRows>(pair, pair.facing.row, last, width) >> (LanePixels - 1);
      carries.facingAbove = FacingLaneBits<MostFacingRows>(pair, pair.facing.above, last, width) >> (LanePixels - 1);
    }
  }
  const std::int64_t end = endStretch * StretchPixels < width ? endStretch * StretchPixels : width;
  for (std::int64_t stretch = firstStretch * StretchPixels; stretch < end; stretch += StretchPixels)
  {
    const RowPairLane l = LoadRowPairLane<FromFacingRows, MostFacingRows, RowsAsBits, StreamedRows>(
      pair, stretch + lane * LanePixels, width, carries);
    const unsigned overlaps = l.row & l.above & ~(l.rowLeft & l.aboveLeft);
    // Full connectivity: the row's run ends at p - 1 and the one above
    // starts at p, or the mirror.
    const unsigned rowEndsFirst = full ? ~l.row & l.above & l.rowLeft & ~l.aboveLeft : 0u;
    const unsigned aboveEndsFirst = full ? l.row & ~l.above & l.aboveLeft & ~l.rowLeft : 0u;
    // The starts before the lane in the stretch.
    const unsigned          counts = PackedStarts(l);
    const unsigned          inclusive = InclusivePairScan(counts);
    const unsigned          exclusive = inclusive - counts;
    const LaneEvents<Index> mine{ overlaps | rowEndsFirst | aboveEndsFirst,
                                  l.rowStarts,
                                  l.aboveStarts,
                                  runsBefore + static_cast<Index>(exclusive & 0xffffu),
                                  aboveBefore + static_cast<Index>(exclusive >> 16) };
    if constexpr (QueuedEvents)
    {
      // The lanes' events in one queue: an entry is the owner lane's k-th
      // event, whose two runs follow from the owner's bits.
      ForEachQueuedEntry(__popc(mine.events), [&](int owner, int k, bool taken) {
        const LaneEvents<Index> theirs = mine.Of(owner);
        if (taken)
        {
          const auto runs = theirs.RunsAt(NthSetBitOf16(theirs.events, k));
          joins.JoinAlone(runs.row, runs.above);
        }
      });
    }
    else
    {
      for (unsigned pending = mine.events; pending != 0; pending &= pending - 1)
      {
        const auto runs = mine.RunsAt(__ffs(static_cast<int>(pending)) - 1);
        joins.Join(runs.row, runs.above);
      }
    }
    const unsigned total = __shfl_sync(FullWarp, inclusive, WarpSize - 1);
    runsBefore += static_cast<Index>(total & 0xffffu);
    aboveBefore += static_cast<Index>(total >> 16);
  }
  joins.Close();
}

/** The parts of a row (a warp each) in LinkByteRowsKernel's pass over all
 *  runs. The union-find's walks wait on the L2 (5-10 % of the DRAM's
 *  bandwidth near the percolation threshold): the more warps in flight,
 *  the less each waits for. A warp a row gave a plane of 8192-pixel rows
 *  about as many warps as the multiprocessors held, each walking 16
 *  stretches in turn. H200, labels only, g = 1, summed, with the launch
 *  bounds below, against a warp a row unbounded, two rounds in one call:
 *  8192^2 4-conn. 93.9-94.4 -> 110.4-111.7 Gpix/s, 8-conn. (strips)
 *  99.3-100.1 -> 108.9-109.5; 512^3 26-conn. (tubes) 102.0-102.4 ->
 *  107.2-107.3 Gvox/s, 6-conn. 67.2-67.4 -> 68.1. Three parts in planes
 *  (102.0 and 108.1) and four in volumes (107.5, 67.8) were not faster:
 *  each part counts the runs of the stretches before it
 *  (benchmark/results/h200-byte-row-link-warps). */
constexpr std::int64_t ByteRowLinkParts = 2;

/** Blocks of BlockThreads a multiprocessor keeps of LinkByteRowsKernel:
 *  8 in planes (32 registers a thread; unbounded 48, and 62 on strips),
 *  5 in volumes (48). With two parts a row, against a warp a row
 *  unbounded (same binary, one call): 8192^2 8-conn. +9 % with 8 blocks,
 *  -3 % to -1 % with 5, 6 or none; 4-conn. +18 % with 8, +10 % with 6, +1 %
 *  with none; 512^3 26-conn. +4 % with 5, +6 % with 6, -4 % with 8. Since
 *  the tubes read their rows as bits, 6 blocks (40 registers) gave each
 *  thread a 192-byte stack frame of spills, 295 KB of local memory a
 *  multiprocessor, which went through the L2 to DRAM: 0.84 GB written an
 *  image at 512^3 26-conn. g = 1 d = 0.5, where the parents take a few MB.
 *  H100, one call, 6 / 5 / 4 / 3 blocks (40 / 48 / 64 / 75 registers, 192
 *  / 160 / 96 / 64 bytes of stack), 512^3 26-conn. g = 1 summed: full
 *  table 58.10 / 59.42 / 58.82 / 56.13 Gvox/s, labels only 103.3 / 109.6
 *  / 107.8 / 98.1 (DRAM writes 1.67 / 0.76 / 0.09 / 0.01 GB for two runs
 *  of d = 0.5: fewer warps leave the walks' latency more exposed). The
 *  strips of a plane (8-conn. labels only; 104 bytes of stack) lost 5-6 %
 *  with 6, 5 or 4 blocks (benchmark/results/h100-byte-row-spills). */
constexpr int PlaneByteRowLinkBlocks = 8;
constexpr int VolumeByteRowLinkBlocks = 5;

/** Parts LinkByteRowsKernel cuts each row of a pass into, a warp each,
 *  each part counting the runs of the stretches before it: the levels of
 *  rows take few rows, so a warp per stretch of 512 pixels; the pass over
 *  all runs ByteRowLinkParts (at most a part a stretch); the levels of
 *  slices a warp per row. */
__host__ __device__ inline std::int64_t
         PassRowParts(const LinkPass & pass, const Geometry & g)
{
  const std::int64_t stretches = StretchesOfRow(g.width);
  if (pass.lines > 0)
  {
    return pass.rowsPerSlice > 0 ? stretches : 1;
  }
  return ByteRowLinkParts < stretches ? ByteRowLinkParts : stretches;
}

/** Warps of a LinkByteRowsKernel pass. */
__host__ __device__ inline std::int64_t
         PassWarps(const LinkPass & pass, const Geometry & g)
{
  return PassRowCount(pass, g) * PassRowParts(pass, g);
}

/** One warp per part of a row of the pass (PassRowParts): joins the part's
 *  runs with the touching runs of every preceding neighbour row the pass
 *  selects (PassJoinsRow), as LinkRunsKernel with PlainUnion and whole
 *  runs of a mask; linked as there (null with labels only).
 *  FacingRowsPerSide > 0: image is a strip image over strips.image, whose
 *  runs touch where their facing rows do, at most this many a side (one
 *  for the strips of a plane, two for tubes: StripRows.cuh); 0: image is
 *  the mask. Volume: geometry (the strip image's, for strips) has several
 *  slices (the launch bound, the neighbour rows). endWords: the runs' end
 *  index (RunArrays::endWords, endWordsPerRow words a row), from which a
 *  part after a row's first finds the runs before it, or null: the part
 *  counts them. QueuedEvents: each stretch's events queued across the
 *  warp, a join a lane (LinkRowPair). A volume's byte rows are loaded
 *  evict-first (StreamedRows): the 0.5 GB of rows an image that a pass
 *  reads through the L2 had pushed out the parents between walks (H200,
 *  512^3 26-conn. g = 1 full table, the tubes, when they read bytes: the
 *  kernel's DRAM writes 1215 -> 993 MB at d = 0.2, its time -3 %, the set
 *  58.06 / 58.29 -> 59.07 / 58.92 Gvox/s; planes lost 0.5 % at 8-conn.,
 *  whether their strip rows were streamed or only the mask's:
 *  h200-streamed-row-loads). Strips and tubes read their rows as bits
 *  (RowPair). */
template <class Index, int FacingRowsPerSide, bool Volume, bool QueuedEvents>
__global__ void
__launch_bounds__(BlockThreads, Volume ? VolumeByteRowLinkBlocks : PlaneByteRowLinkBlocks)
  LinkByteRowsKernel(const std::uint8_t * __restrict__ image,
                     Geometry                     geometry,
                     ForegroundTest<std::uint8_t> test,
                     bool                         full,
                     const Index * __restrict__ rowOffsets,
                     Index *        parent,
                     std::uint8_t * linked,
                     LinkPass       pass,
                     StripRows      strips,
                     const std::uint32_t * __restrict__ endWords,
                     std::int64_t endWordsPerRow)
{
  AwaitPrecedingKernel();
  constexpr bool     FromFacingRows = FacingRowsPerSide > 0;
  const std::int64_t parts = PassRowParts(pass, geometry);
  const std::int64_t warps = PassWarps(pass, geometry);
  LaneJoins<Index>   joins{ parent, linked };
  for (std::int64_t w = GlobalWarp(); w < warps; w += WarpCount())
  {
    const std::int64_t r = PassRow(pass, geometry, w / parts);
    // Part k of parts of the row's stretches.
    const std::int64_t stretches = StretchesOfRow(geometry.width);
    const std::int64_t part = w % parts;
    const std::int64_t firstStretch = part * stretches / parts;
    const std::int64_t endStretch = (part + 1) * stretches / parts;
    const std::int64_t y = Volume ? r % geometry.height : r;
    const std::int64_t z = Volume ? r / geometry.height : 0;
    const int          n = PrecedingRowCount(full, Volume);
    for (int s = 0; s < n; ++s)
    {
      const RowStep      step = PrecedingRowStep(s);
      const std::int64_t q = NeighbourRow(geometry, y, z, step);
      if (q >= 0 && PassJoinsRow(pass, step, y))
      {
        RowPair pair{ image + r * geometry.width, image + q * geometry.width, test, FacingRows{} };
        pair.SetEnds(endWords, endWordsPerRow, r, q);
        if constexpr (FromFacingRows)
        {
          pair.facing = FacingRowsOf(strips, y, z, step);
          pair.facingImage = strips.image;
          pair.facingBits = strips.bits;
          // Never null; ptxas allocates this kernel's registers better
          // with the test (tubes: 88 / 72 bytes of stack, queued or not,
          // against 104 / 88 without).
          if (strips.stripBits != nullptr)
          {
            pair.rowBits = strips.stripBits + r * (geometry.width / LanePixels);
            pair.aboveBits = strips.stripBits + q * (geometry.width / LanePixels);
          }
        }
        LinkRowPair<FromFacingRows, FromFacingRows ? FacingRowsPerSide : 1, QueuedEvents, Volume>(
          pair, geometry.width, full, rowOffsets[r], rowOffsets[q], joins, firstStretch, endStretch);
      }
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
