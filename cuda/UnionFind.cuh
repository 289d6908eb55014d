// Lock-free union-find over runs (Alg. 5 of Lemaitre, Hennequin and
// Lacassagne's GTC 2021 talk, after Komura 2015 and Playne 2018): a union
// makes the larger root point to the smaller with atomicMin and
// retries when another thread moved the root meanwhile. Every link points to
// a smaller index, so the root of each component is its smallest run index:
// its first run in raster order.
#ifndef cca_cuda_UnionFind_cuh
#define cca_cuda_UnionFind_cuh

#include "DeviceGeometry.cuh"
#include "PrecedingPairs.cuh"
#include "RunDetection.cuh"
#include "RunNeighbours.cuh"

#include <algorithm>
#include <cstdint>

namespace cca
{
namespace cuda
{

/** Reads parent links through the L2 (other blocks change them concurrently). */
template <class Index>
__device__ __forceinline__ Index
LoadParent(const Index * parent, Index i)
{
  return *const_cast<const volatile Index *>(parent + i);
}

/** How the walks read parent links. CoherentLoads: the latest value,
 *  through the L2 (or from shared memory, for links a block holds there:
 *  RowBlocksInShared.cuh). CachedLoads: through the multiprocessor's L1, which other
 *  multiprocessors' stores do not update; global memory only. A stale link
 *  is an older one: it points to a descendant of the current parent in the
 *  same set (links only ever move to ancestors, and sets only join), so a
 *  walk on stale links still ends at the root, or, in Merge, at a former
 *  root whose atomicMin returns the current parent. What it buys: the links
 *  near the root of a large component, which every walk reads, are served
 *  by each multiprocessor's L1 instead of one L2 slice. */
struct CoherentLoads
{
  template <class Index>
  __device__ __forceinline__ static Index
  Load(const Index * parent, Index i)
  {
    return LoadParent(parent, i);
  }
};
struct CachedLoads
{
  template <class Index>
  __device__ __forceinline__ static Index
  Load(const Index * parent, Index i)
  {
    return __ldca(parent + i);
  }
};

/** Path halving: points i at its grandparent and returns that grandparent.
 *  atomicMin keeps it safe next to concurrent unions: a link only ever
 *  moves to an ancestor, and a union that loses its link to this store has
 *  already been told the old parent and merges it itself (Alg. 5). */
template <class Loads = CoherentLoads, class Index>
__device__ __forceinline__ Index
Halve(Index * parent, Index i, Index p)
{
  const Index grandparent = Loads::Load(parent, p);
  if (grandparent < p)
  {
    atomicMin(parent + i, grandparent);
  }
  return grandparent;
}

template <class Loads = CoherentLoads, class Index>
__device__ __forceinline__ Index
FindRoot(Index * parent, Index i)
{
  for (Index p = Loads::Load(parent, i); p != i; p = Loads::Load(parent, i))
  {
    i = Halve<Loads>(parent, i, p);
  }
  return i;
}

/** The root of i's tree, reading links only (no halving): for walks
 *  after the last union, whose flattening writes the root itself. */
template <class Loads = CoherentLoads, class Index>
__device__ __forceinline__ Index
ClimbToRoot(const Index * parent, Index i)
{
  for (Index p = Loads::Load(parent, i); p != i; p = Loads::Load(parent, i))
  {
    i = p;
  }
  return i;
}

/** ClimbToRoot for Count nodes at once: node[k] becomes its root where
 *  active[k] (else it is left alone, unread). The climbs advance together,
 *  a level a step, so each step's loads are independent and in flight at
 *  the same time; one climb a thread waits a memory latency a level with
 *  nothing else to issue. */
template <class Loads = CoherentLoads, int Count, class Index>
__device__ __forceinline__ void
ClimbToRoots(const Index * parent, Index (&node)[Count], const bool (&active)[Count])
{
  Index p[Count];
#pragma unroll
  for (int k = 0; k < Count; ++k)
  {
    p[k] = active[k] ? Loads::Load(parent, node[k]) : node[k];
  }
  for (;;)
  {
    bool climbing = false;
#pragma unroll
    for (int k = 0; k < Count; ++k)
    {
      climbing |= p[k] != node[k];
    }
    if (!climbing)
    {
      return;
    }
#pragma unroll
    for (int k = 0; k < Count; ++k)
    {
      if (p[k] != node[k])
      {
        node[k] = p[k];
        p[k] = Loads::Load(parent, node[k]);
      }
    }
  }
}

/** Joins the sets of a and b (Alg. 5); returns the node where the two
 *  walks met, a root of the joined set at that moment. Halving: the walks
 *  point each node they pass at its grandparent (an atomic per step). */
template <class Loads = CoherentLoads, bool Halving = true, class Index>
__device__ __forceinline__ Index
Merge(Index * parent, Index a, Index b)
{
  // Walk towards the roots, stopping early when the walks meet.
  for (Index p = Loads::Load(parent, a); a != b && a != p; p = Loads::Load(parent, a))
  {
    a = Halving ? Halve<Loads>(parent, a, p) : p;
  }
  for (Index p = Loads::Load(parent, b); a != b && b != p; p = Loads::Load(parent, b))
  {
    b = Halving ? Halve<Loads>(parent, b, p) : p;
  }
  while (a != b)
  {
    if (b < a)
    {
      const Index t = a;
      a = b;
      b = t;
    }
    // Link the larger to the smaller. The old value tells whether b was
    // still a root; if not, its former parent must be joined with a too.
    const Index old = atomicMin(parent + b, a);
    b = old == b ? a : old;
  }
  return a;
}

/** The union of LinkRunsKernel: the lock-free Merge above, its walks
 *  through the L1 (CachedLoads). On the H100 (8192^2, g = 1, d = 0.6,
 *  labels only) the labeling took 1.40 instead of 2.03 ms with
 *  4-connectivity and 1.50 instead of 2.94 ms with 8-connectivity; the walks
 *  of a percolating component all end on the same few links near its root,
 *  which the L2 otherwise serves to every multiprocessor in turn. */
struct PlainUnion
{
  template <class Index>
  __device__ __forceinline__ Index
  operator()(Index * parent, Index a, Index b) const
  {
    return Merge<CachedLoads>(parent, a, b);
  }
};

/** Merge with the given loads and halving, as a union for RootMet (the
 *  links a block holds in shared memory: CoherentLoads). */
template <class Loads, bool Halving = true>
struct MergeThrough
{
  template <class Index>
  __device__ __forceinline__ Index
  operator()(Index * parent, Index a, Index b) const
  {
    return Merge<Loads, Halving>(parent, a, b);
  }
};

/** One run's (or block's) joins with its touching neighbours: each merge
 *  starts from the root the last one met, not from the run, so that the
 *  run's own walk is paid once, not once per touching run (26-connected
 *  volumes join each run with about six). Then PointRun points the run
 *  straight at that root, below any chain that formed meanwhile: shallower
 *  trees for later walks. Link: the index type of the links (global
 *  parents, or a block's links in shared memory). */
template <class Link>
struct RootMet
{
  Link run;
  Link root;

  __device__ __forceinline__ explicit RootMet(Link r)
    : run(r)
    , root(r)
  {}

  /** Joins the run's set with b's (join: PlainUnion, MergeThrough, ...). */
  template <class Union, class Links>
  __device__ __forceinline__ void
  Join(Union join, Links * links, Link b)
  {
    const Link met = join(links, root, b);
    root = met < root ? met : root;
  }

  /** Whether a merge met a root other than the run: a neighbour with a
   *  smaller index, which all the passes' neighbours have, always does. */
  __device__ __forceinline__ bool
  Moved() const
  {
    return root != run;
  }

  /** Points the run at the root its merges met (atomicMin: another
   *  thread's halving may have pointed it higher already). */
  template <class Links>
  __device__ __forceinline__ void
  PointRun(Links * links) const
  {
    atomicMin(links + run, root);
  }
};

/** Which touching runs LinkRunsKernel joins: all of them (a binary image),
 *  or those of one value (the components of each value of a label image). */
struct AnyTouchingRuns
{
  template <class Index>
  __device__ __forceinline__ bool
  operator()(Index, Index) const
  {
    return true;
  }
};
struct SameValueRuns
{
  const std::uint64_t * key; ///< per run, its value's key
  template <class Index>
  __device__ __forceinline__ bool
  operator()(Index a, Index b) const
  {
    return key[a] == key[b];
  }
};

/** Which preceding neighbour rows a pass of LinkRunsKernel joins a run
 *  with: all, the previous row of its slice, or the rows of the previous slice. */
enum class LinkedRows
{
  All,
  SameSlice,
  PreviousSlice
};

/** One pass of LinkRunsKernel: which runs it takes and which preceding rows
 *  it joins them with. lines == 0: every run, except that with blockRows > 0
 *  the runs of rows y that are multiples of blockRows are not joined with
 *  row y - 1. lines > 0: only the runs of the lines (rows, or slices when
 *  rowsPerSlice == 0) of a level (LevelLine: the multiples of spacing that
 *  are not multiples of fanIn * spacing), rowsPerSlice of them in every
 *  slice for rows, lines in all for slices. */
struct LinkPass
{
  LinkedRows   rows = LinkedRows::All;
  std::int64_t blockRows = 0;
  std::int64_t lines = 0;
  std::int64_t spacing = 0;
  std::int64_t fanIn = 2;
  std::int64_t rowsPerSlice = 0;
};

/** Whether a pass joins the runs of row y with the neighbour row at step
 *  (Coord: std::int32_t for a SmallImage, whose row blocks fit it too). */
template <class Coord>
__device__ __forceinline__ bool
PassJoinsRow(const LinkPass & pass, RowStep step, Coord y)
{
  const bool previousSlice = step.dz != 0;
  return !((pass.rows == LinkedRows::SameSlice && previousSlice) ||
           (pass.rows == LinkedRows::PreviousSlice && !previousSlice) ||
           (pass.lines == 0 && pass.blockRows > 0 && !previousSlice && y % static_cast<Coord>(pass.blockRows) == 0));
}

/** Whether a pass of LinkRunsCountingPairsKernel stores run (y, z)'s
 *  pixel pairs with the previous row of its slice (PrecedingPairs.cuh):
 *  the pass that joins that row, or the pass over all runs where the row
 *  lies outside the image (counts of 0). Each run's counts are then
 *  stored exactly once. */
template <class Coord>
__device__ __forceinline__ bool
PassStoresRowPairs(const LinkPass & pass, Coord y)
{
  return PassJoinsRow(pass, RowStep{ -1, 0 }, y) || (pass.lines == 0 && y == 0);
}

/** The same for the rows of the previous slice (volumes). */
template <class Coord>
__device__ __forceinline__ bool
PassStoresSlicePairs(const LinkPass & pass, Coord y, Coord z)
{
  return PassJoinsRow(pass, RowStep{ 0, -1 }, y) || (pass.lines == 0 && z == 0);
}

/** The coordinate (row of a slice, or slice) of a level's m-th line: the
 *  m-th multiple c * spacing, c >= 1, with c not a multiple of fanIn (fanIn
 *  2: the odd multiples). */
__host__ __device__ inline std::int64_t
         LevelLine(const LinkPass & pass, std::int64_t m)
{
  return pass.spacing * (m + m / (pass.fanIn - 1) + 1);
}

/** Rows a pass takes (LinkPass: all rows, the rows of a level, or every
 *  row of the slices of a level). */
__host__ __device__ inline std::int64_t
         PassRowCount(const LinkPass & pass, const Geometry & g)
{
  if (pass.lines == 0)
  {
    return g.rows;
  }
  return pass.rowsPerSlice > 0 ? pass.lines : pass.lines * g.height;
}

/** The image row of the pass's k-th row (the rows of a slice level in
 *  order: line k / height, row k % height of its slice). */
__device__ __forceinline__ std::int64_t
                           PassRow(const LinkPass & pass, const Geometry & g, std::int64_t k)
{
  if (pass.lines == 0)
  {
    return k;
  }
  if (pass.rowsPerSlice > 0)
  {
    return (k / pass.rowsPerSlice) * g.height + LevelLine(pass, k % pass.rowsPerSlice);
  }
  return LevelLine(pass, k / g.height) * g.height + k % g.height;
}

/** Lines of a level below extent (LevelLine): the multiples of spacing
 *  below extent that are not multiples of fanIn * spacing. */
inline std::int64_t
LevelLinesBelow(std::int64_t extent, std::int64_t spacing, std::int64_t fanIn)
{
  const std::int64_t multiples = (extent - 1) / spacing;
  return multiples - multiples / fanIn;
}

/** The passes that join every pair of touching runs once, each pass short
 *  of long chains: one pass over all runs within blocks of blockRows rows
 *  of a slice (blockRows 0: all rows of a slice), then the block borders
 *  level by level (the borders at multiples of blockRows that are not
 *  multiples of fanIn blockRows, then of fanIn blockRows, ...: each level
 *  joins groups of fanIn labeled blocks, so the trees deepen by at most
 *  fanIn - 1 roots, not one a row), then the slices the same way (slice 1,
 *  2, ... up to fanIn - 1 with the slice before, then the multiples of
 *  fanIn, ...). One pass over all rows at once built chains of roots along
 *  y and z that every later walk climbed: near the percolation threshold
 *  10-50 ms at 512^3, 3-9 ms with fanIn 2. Calls pass(p) in order. */
template <class F>
void
ForEachLinkPass(const Geometry & g, std::int64_t blockRows, std::int64_t fanIn, F && pass)
{
  LinkPass within;
  within.rows = g.depth > 1 ? LinkedRows::SameSlice : LinkedRows::All;
  within.blockRows = blockRows;
  pass(within);
  for (std::int64_t spacing = blockRows; spacing > 0 && spacing < g.height; spacing *= fanIn)
  {
    LinkPass level;
    level.rows = within.rows;
    level.spacing = spacing;
    level.fanIn = fanIn;
    level.rowsPerSlice = LevelLinesBelow(g.height, spacing, fanIn);
    level.lines = level.rowsPerSlice * g.depth;
    pass(level);
  }
  for (std::int64_t spacing = 1; spacing < g.depth; spacing *= fanIn)
  {
    LinkPass level;
    level.rows = LinkedRows::PreviousSlice;
    level.spacing = spacing;
    level.fanIn = fanIn;
    level.lines = LevelLinesBelow(g.depth, spacing, fanIn);
    pass(level);
  }
}

/** Blocks for a LinkRunsKernel pass over an image of runs runs: a
 *  multiple of pass.lines (each line gets as many blocks as its share of the
 *  runs needs on average; a grid-stride loop covers a line with more). The
 *  pass over all runs takes one run a thread, so that the blocks on the
 *  device hold one band of rows, in raster order: a grid of 4 waves of
 *  resident blocks, each thread many runs a stride apart, made the
 *  labeling 18 % slower (H200, labels only, 512^3 6-conn. g = 1, summed;
 *  benchmark/results/h200-labels-g1/ call 7). */
inline unsigned
LinkPassBlocks(const LinkPass & pass, const Geometry & g, std::int64_t runs, int threads)
{
  if (pass.lines == 0)
  {
    return BlocksFor(runs, threads);
  }
  const std::int64_t linesOfImage = pass.rowsPerSlice > 0 ? g.rows : g.depth;
  const std::int64_t perLine = runs / std::max<std::int64_t>(1, linesOfImage) + 1;
  const std::int64_t most = std::max<std::int64_t>(1, (std::int64_t{ 1 } << 22) / pass.lines);
  const std::int64_t chunks = std::min<std::int64_t>((perLine + threads - 1) / threads, most);
  return static_cast<unsigned>(pass.lines * chunks);
}

/** Whether the runs of a pass search their touching runs in all the rows
 *  it joins at once (LinkRunsKernel's SearchRowsTogether): in volumes
 *  under full connectivity, the passes between slices join three rows. In
 *  planes and 6-connected volumes a pass joins one row, where searching
 *  row by row was faster (searching the rows of every pass together cost
 *  2D 8-conn. 5 %). H100, 26-connected volumes, summed, A/B in one call
 *  (benchmark/results/h100-numbering-climbs/rows-together/): labels only
 *  g = 4 99.8 -> 107.8 Gvox/s, g = 16 176.0 -> 181.3; the full table g = 1
 *  14.7 -> 16.1, g = 4 62.0 -> 64.9. */
inline bool
SearchesRowsTogether(bool full, const Geometry & g, const LinkPass & pass)
{
  return full && g.depth > 1 && pass.rows != LinkedRows::SameSlice;
}

/** The runs a block of a LinkRunsKernel pass takes (LinkPassBlocks): its
 *  threads' first runs from first on, each then stride further, before end
 *  (the runs of its line, or all runs). */
template <class Index>
struct PassRuns
{
  Index first;
  Index end;
  Index stride;
};

template <class Index>
__device__ __forceinline__ PassRuns<Index>
PassRunsOfBlock(const RunArrays<Index> & runs, const Geometry & geometry, const LinkPass & pass)
{
  // The runs of this block's line, or all of them.
  Index        begin = 0;
  Index        end = runs.count;
  std::int64_t chunk = blockIdx.x;
  std::int64_t chunks = gridDim.x;
  if (pass.lines > 0)
  {
    // Consecutive blocks take chunk k of consecutive lines, so the blocks
    // resident together join the same band of every line. A slice level's
    // lines taken one after another (a line's chunks consecutive) cost
    // 512^3 6-conn. g = 1 8 % with the full table and 15 % labels only
    // (H200, benchmark/results/h200-union-find-rows call 5).
    const std::int64_t line = blockIdx.x % pass.lines;
    chunk = blockIdx.x / pass.lines;
    chunks = gridDim.x / pass.lines;
    // The line's one row, or the rows of its slice.
    const std::int64_t firstRow = PassRow(pass, geometry, pass.rowsPerSlice > 0 ? line : line * geometry.height);
    const std::int64_t endRow = firstRow + (pass.rowsPerSlice > 0 ? 1 : geometry.height);
    begin = runs.rowOffsets[firstRow];
    end = runs.rowOffsets[endRow];
  }
  return PassRuns<Index>{ begin + static_cast<Index>(chunk) * blockDim.x,
                          end,
                          static_cast<Index>(chunks) * blockDim.x };
}

/** One thread per run of the pass (after AwaitPrecedingKernel, in the
 *  kernels below): merges it with every touching run of the
 *  preceding neighbour rows the pass selects. Face: ranges must share a
 *  pixel column; Full: ranges may also touch diagonally (range extended by
 *  one pixel each side). Runs that touch any other run get linked[i] = 1
 *  (linked must start all zero; null when no feature votes read it, as with
 *  labels only): the others are components of one run,
 *  which need no shared votes.
 *  Strategies: Union joins two sets (PlainUnion, or the on-the-fly feature
 *  merge); when units are pieces of runs (pixels, HA sub-runs), a unit that
 *  starts where the previous unit of its row ends is joined with it too
 *  (in the pass over all runs). SearchRowsTogether: the searches for the
 *  first touching run of all the rows the pass joins advance together
 *  (ForEachRunInRanges), for the passes that join the three rows of the
 *  previous slice under full connectivity (SearchesRowsTogether).
 *  CountsPairs (full connectivity on a mask's whole runs): each run's
 *  pixel pairs with the runs it visits are stored in pairs
 *  (PrecedingPairs.cuh) by the pass that joins those rows. Small
 *  (SmallImage): the run's row and its neighbour rows in 32-bit
 *  arithmetic, as CountPrecedingPairsKernel finds them. */
template <class Index, class Union, UnitSpan Span, class Joins, bool SearchRowsTogether, bool CountsPairs, bool Small>
__device__ __forceinline__ void
LinkRuns(const RunArrays<Index> & runs,
         const Geometry &         geometry,
         bool                     full,
         Index *                  parent,
         std::uint8_t *           linked,
         Union                    join,
         Joins                    joins,
         const LinkPass &         pass,
         const PrecedingPairs &   pairs)
{
  auto markLinked = [linked](Index i) {
    if (linked != nullptr)
    {
      linked[i] = 1;
    }
  };
  const PassRuns<Index> block = PassRunsOfBlock(runs, geometry, pass);
  using Coord = RowCoord<Small>;
  for (Index a = block.first + threadIdx.x; a < block.end; a += block.stride)
  {
    const auto         r = static_cast<Coord>(runs.row[a]);
    const auto         height = static_cast<Coord>(geometry.height);
    const Coord        y = r % height;
    const Coord        z = r / height;
    const std::int32_t ax = runs.x[a];
    const std::int32_t aEnd = runs.end[a];
    const std::int32_t lo = ax - (full ? 1 : 0);
    const std::int32_t hi = aEnd + (full ? 1 : 0);
    const int          n = PrecedingRowCount(full, geometry.depth > 1);
    RootMet<Index>     met(a);
    if constexpr (Span == UnitSpan::RunPieces)
    {
      if (pass.lines == 0 && a > runs.rowOffsets[r] && runs.end[a - 1] == ax)
      {
        met.Join(join, parent, a - 1);
        markLinked(a - 1);
      }
    }
    PairTally  tally;
    const auto visit = [&](RowStep step, Index b) {
      if constexpr (CountsPairs)
      {
        tally.Add(ax, aEnd, runs.x[b], runs.end[b], step);
      }
      if (joins(a, b))
      {
        met.Join(join, parent, b);
        markLinked(b); // racing stores of the same value
      }
    };
    if constexpr (SearchRowsTogether)
    {
      Coord q[4];
#pragma unroll
      for (int s = 0; s < 4; ++s)
      {
        const RowStep step = PrecedingRowStep(s);
        q[s] = s < n && PassJoinsRow(pass, step, y) ? NeighbourRowOf(geometry, y, z, step) : Coord{ -1 };
      }
      ForEachRunInRanges(runs, q, lo, hi, [&](int s, Index b) { visit(PrecedingRowStep(s), b); });
    }
    else
    {
      const auto searchRow = [&](int s) {
        const RowStep step = PrecedingRowStep(s);
        const Coord   q = NeighbourRowOf(geometry, y, z, step);
        if (q >= 0 && PassJoinsRow(pass, step, y))
        {
          ForEachRunInRange(runs, q, lo, hi, [&](Index b) { visit(step, b); });
        }
      };
      // Where the pass counts pairs, a volume's steps are unrolled, so that
      // each is a constant where PairTally::Add tallies them: over a
      // runtime count the pass took 8.5 % more instructions (H100, ncu,
      // 512^3 26-conn. g = 4 d = 0.5: 2,000 -> 2,439 us), and the set's
      // full table went 84.3 -> 91.2 Gvox/s unrolled
      // (benchmark/results/h100-volume-unrolled-steps call 2). A plane's
      // one row apart: unrolled with the volumes' steps it lost 7 %
      // (8192^2 8-conn. all on; h100-strip-rows-as-bits calls 6-8).
      // Without pairs there is no tally: the plain loop.
      if constexpr (CountsPairs)
      {
        if (geometry.depth > 1)
        {
#pragma unroll
          for (int s = 0; s < 4; ++s)
          {
            if (s < n)
            {
              searchRow(s);
            }
          }
        }
        else
        {
          searchRow(0);
        }
      }
      else
      {
        for (int s = 0; s < n; ++s)
        {
          searchRow(s);
        }
      }
    }
    if constexpr (CountsPairs)
    {
      if (PassStoresRowPairs(pass, y))
      {
        // The run's place read again (its lines are in the L1): kept live
        // through the search, it spilled (ptxas, 32 registers).
        StoreRowPairs(pairs,
                      static_cast<std::int64_t>(a),
                      runs.x[a],
                      runs.end[a],
                      static_cast<std::int64_t>(runs.row[a]),
                      tally.PackedRow());
      }
      if (geometry.depth > 1 && PassStoresSlicePairs(pass, y, z))
      {
        // The pass over all runs stores the first slice's (none).
        pairs.slice[a] = pass.rows == LinkedRows::PreviousSlice ? tally.PackedSlice() : 0;
      }
    }
    if (met.Moved())
    {
      markLinked(a);
      met.PointRun(parent);
    }
  }
}

/** LinkRuns, one thread per run of the pass, without the pairs. */
template <class Index,
          class Union = PlainUnion,
          UnitSpan Span = UnitSpan::WholeRuns,
          class Joins = AnyTouchingRuns,
          bool SearchRowsTogether = false,
          bool Small = false>
__global__ void
LinkRunsKernel(RunArrays<Index> runs,
               Geometry         geometry,
               bool             full,
               Index *          parent,
               std::uint8_t *   linked,
               Union            join = Union{},
               Joins            joins = Joins{},
               LinkPass         pass = LinkPass{})
{
  AwaitPrecedingKernel();
  LinkRuns<Index, Union, Span, Joins, SearchRowsTogether, false, Small>(
    runs, geometry, full, parent, linked, join, joins, pass, PrecedingPairs{});
}

/** LinkRunsKernel for a mask's whole runs under full connectivity, which
 *  also stores each run's pixel pairs with the runs it visits in pairs
 *  (PrecedingPairs.cuh), by the pass that joins those rows. Held to 8
 *  blocks a multiprocessor (32 registers a thread): unbounded, its tally
 *  took 42 and left a quarter fewer warps resident (H200, 8192^2 g = 4,
 *  benchmark/results/h200-pairs-in-union-find/ call 4), and the union-find waits
 *  on its loads and atomics, so warps count more than registers
 *  (call 5: the full table at g = 4 lost 1 % unbounded, gained 5 % bounded). */
template <class Index, bool SearchRowsTogether, bool Small = false>
__global__ void
__launch_bounds__(BlockThreads, 8) LinkRunsCountingPairsKernel(RunArrays<Index> runs,
                                                               Geometry         geometry,
                                                               Index *          parent,
                                                               std::uint8_t *   linked,
                                                               LinkPass         pass,
                                                               PrecedingPairs   pairs)
{
  AwaitPrecedingKernel();
  LinkRuns<Index, PlainUnion, UnitSpan::WholeRuns, AnyTouchingRuns, SearchRowsTogether, true, Small>(
    runs, geometry, true, parent, linked, PlainUnion{}, AnyTouchingRuns{}, pass, pairs);
}

/** After all unions: every run points straight at its root. Halving by
 *  other threads (atomicMin) never raises a link above the root written here.
 *  No root changes any more, so the walks read through the L1 (CachedLoads). */
template <class Index>
__global__ void
FlattenKernel(Index count, Index * parent)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride)
  {
    parent[i] = FindRoot<CachedLoads>(parent, i);
  }
}

} // namespace cuda
} // namespace cca

#endif
