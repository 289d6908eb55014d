// The dense table's components written whole by the feature votes. In
// component order (ComponentOrder.cuh) a component's runs are contiguous,
// and the votes take them 32 at a time, a chunk a warp. A component whose
// runs all lie in one chunk (at g = 1 nearly all of them: the one-run
// components and most small ones) is complete once that warp has folded
// its votes: the warp finishes its record (the intercepts from the pair
// counts) and stores it, with plain stores, into a contiguous stretch of
// the table. Only a component that crosses a chunk boundary (at most one a
// boundary) gets a seeded entry before the votes, their atomic merges, and
// its intercepts after them. Before, every entry was written before the
// votes (one-run components finished, the others seeded), the others
// merged atomically and finished in a pass over the whole table.
//
// With few components nearly every chunk holds one that crosses, and the
// passes over every boundary cost more than those over the components: the
// votes store whole components where components are at least 0.1 of the
// runs (PathChoices::VotesStoreWholeComponents). H200, full table, g = 1,
// summed, B N N B in one call: 8192^2 4-conn. 30.1 -> 32.0 Gpix/s, 8-conn.
// 34.4 -> 35.4, 512^3 6-conn. 27.2 -> 27.8 Gvox/s, 26-conn. unchanged
// (benchmark/results/h200-whole-components-in-chunks, call 3).
#ifndef cca_cuda_WholeComponents_cuh
#define cca_cuda_WholeComponents_cuh

#include "DependentLaunch.cuh"
#include "DeviceGeometry.cuh"
#include "NarrowFeatures.h"
#include "PlacedLargest.cuh"
#include "RunDetection.cuh"
#include "RunFeatures.h"

#include "cca/Types.h"

#include <cstdint>
#include <cstring>

namespace cca
{
namespace cuda
{

/** Records a warp stages at a time: 16 of 216 bytes a warp, 27 KiB a
 *  block of 8 warps; 16 of 160 bytes for NarrowFeatures, whose votes run
 *  4 warps a block (VoteBlockThreads): 10 KiB. Within the static shared
 *  memory of a block. */
constexpr int StagedRecords = 16;

/** The 64-bit words of a table entry (ComponentFeatures, NarrowFeatures,
 *  PlanarFeatures). */
template <class Table>
constexpr int RecordWords = static_cast<int>(sizeof(Table) / 8);
static_assert(sizeof(ComponentFeatures) % 8 == 0 && sizeof(NarrowFeatures) % 8 == 0 && sizeof(PlanarFeatures) % 8 == 0,
              "records are copied as 64-bit words");
static_assert(RecordWords<ComponentFeatures> <= WarpSize, "a warp stores a record in one store");

/** A cleared entry for the votes of a component whose first run (its root)
 *  lies in row (y, z): seeded with the minima that run determines, which
 *  no vote merges (AtomicMergeFeatures). */
template <class Table>
__device__ __forceinline__ void
SeedEntry(std::int32_t y, std::int32_t z, bool planar, Table & f)
{
  detail::ClearFeatures(f);
  if constexpr (detail::AxesOf<Table> == 3)
  {
    f.boundingBoxMin[2] = z;
    if (planar)
    {
      f.boundingBoxMin[1] = y;
      f.boundingBoxMax[2] = 0;
    }
  }
  else
  {
    f.boundingBoxMin[1] = y; // a planar entry: a 2D image's
  }
}

/** The component that crosses the boundary before chunk k (k >= 1, the
 *  visited runs 32 k - 1 and 32 k in component order) and crosses no
 *  earlier one, or false. Each crossing component is found at exactly one
 *  boundary. The votes visit every run of the order but skip's
 *  (PlacedLargest.cuh), the j-th at skip.Position(j), and their chunks
 *  are 32 visited runs. */
template <class Index>
__device__ __forceinline__ bool
FirstCrossing(const Index * __restrict__ sortedLabel, PlacedRange<Index> skip, std::int64_t k, Index & component)
{
  const auto         label = [&](std::int64_t j) { return sortedLabel[skip.Position(static_cast<Index>(j))]; };
  const std::int64_t p = k * WarpSize;
  component = label(p);
  // Runs of one component are contiguous: it crosses boundary k - 1 too
  // exactly when the last run before that boundary is its own.
  return label(p - 1) == component && (k == 1 || label(p - WarpSize - 1) != component);
}

/** Word w of record f, picked from its words in registers (a select a
 *  word, not an indexed copy in local memory). */
template <class Table>
__device__ __forceinline__ std::uint64_t
                           RecordWord(const Table & f, int w)
{
  std::uint64_t words[RecordWords<Table>];
  std::memcpy(words, &f, sizeof(f));
  std::uint64_t word = 0;
#pragma unroll
  for (int i = 0; i < RecordWords<Table>; ++i)
  {
    word = i == w ? words[i] : word;
  }
  return word;
}

/** For each chunk boundary k >= 1 of the count runs visited (one lane
 *  each, whole warps together) whose first crossing component is c:
 *  load(c) by the lane that found it, all lanes' loads in flight
 *  together, then visit(c, loaded) called by every lane of the warp for
 *  each such c in turn, with that lane's loaded value, so that the warp
 *  handles the entry together. With the load inside the warp's loop, each
 *  of up to 32 entries a warp waited for its own load (H200, ncu, g = 1
 *  d = 0.3, PrepareCrossingEntriesKernel: 8192^2 4-conn. 52 -> 33 us,
 *  8-conn. 68 -> 45, 512^3 6-conn. 104 -> 71;
 *  benchmark/results/h200-records-in-order call 3). */
template <class Index, class Load, class Visit>
__device__ __forceinline__ void
ForEachCrossingComponent(Index count,
                         const Index * __restrict__ sortedLabel,
                         PlacedRange<Index> skip,
                         Load &&            load,
                         Visit &&           visit)
{
  const std::int64_t chunks = (static_cast<std::int64_t>(count) + WarpSize - 1) / WarpSize;
  for (std::int64_t base = 1 + GlobalWarp() * WarpSize; base < chunks; base += WarpCount() * WarpSize)
  {
    const std::int64_t k = base + LaneId();
    Index              c = 0;
    const bool         crossing = k < chunks && FirstCrossing(sortedLabel, skip, k, c);
    const auto         loaded = crossing ? load(c) : decltype(load(c)){};
    for (unsigned pending = __ballot_sync(FullWarp, crossing); pending != 0; pending &= pending - 1)
    {
      const int source = __ffs(pending) - 1;
      visit(__shfl_sync(FullWarp, c, source), __shfl_sync(FullWarp, loaded, source));
    }
  }
}

/** Seeds the entries of the components that cross a chunk boundary (their
 *  root rootOf[c]); the votes store every other entry whole. A warp
 *  stores each seeded entry in one store of its 27 words (20 narrow, 12
 *  planar). skip: the runs the votes leave out (PlacedLargest.cuh), whose
 *  component's entry LargestEntryKernel writes. */
template <class Index, class Table>
__global__ void
PrepareCrossingEntriesKernel(RunArrays<Index> runs,
                             const Index * __restrict__ sortedLabel,
                             const Index * __restrict__ rootOf,
                             Geometry           geometry,
                             PlacedRange<Index> skip,
                             Table *            table)
{
  AwaitPrecedingKernel();
  const bool planar = geometry.depth == 1;
  const int  lane = static_cast<int>(LaneId());
  ForEachCrossingComponent(
    runs.count - skip.units,
    sortedLabel,
    skip,
    [&](Index c) { return static_cast<std::int64_t>(runs.row[rootOf[c]]); },
    [&](Index c, std::int64_t r) {
      Table seed;
      SeedEntry(
        static_cast<std::int32_t>(r % geometry.height), static_cast<std::int32_t>(r / geometry.height), planar, seed);
      if (lane < RecordWords<Table>)
      {
        reinterpret_cast<std::uint64_t *>(table + c)[lane] = RecordWord(seed, lane);
      }
    });
}

/** Turns the raw pair counts of the crossing components' entries into
 *  ITK's intercept counts once every vote is in: a thread a chunk
 *  boundary, each finishing its own entry, its loads in flight beside the
 *  other threads'. (A warp finishing its entries one after another, a
 *  slot a lane, waited for each entry's loads in turn: H200, ncu, g = 1
 *  d = 0.3, 8192^2 4-conn. 33 -> 26 us, 8-conn. 46 -> 39, 512^3 6-conn.
 *  69 -> 65.) */
template <class Index, class Table>
__global__ void
FinalizeCrossingEntriesKernel(Index count,
                              const Index * __restrict__ sortedLabel,
                              PlacedRange<Index> skip,
                              Table *            table)
{
  AwaitPrecedingKernel();
  const std::int64_t chunks = (static_cast<std::int64_t>(count - skip.units) + WarpSize - 1) / WarpSize;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = 1 + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < chunks; k += stride)
  {
    Index c = 0;
    if (!FirstCrossing(sortedLabel, skip, k, c))
    {
      continue;
    }
    detail::FinalizeIntercepts(table[c]);
  }
}

/** Where a warp's chunk of runs (in component order) stands: its complete
 *  components are the labels first .. last (consecutive: every label has
 *  runs, and they come in order), the chunk's first and last components
 *  unless they cross its boundaries. Where the votes skip the runs of a
 *  placed component (PlacedLargest.cuh), its label may lie between first
 *  and last with none of the chunk's runs: its entry then gets a stale
 *  record, which LargestEntryKernel overwrites whole. */
struct ChunkComponents
{
  std::int64_t first = 0;
  std::int64_t last = -1;

  /** Called by every lane: key, the lane's label (any for lanes past the
   *  runs), before / after: whether the runs just before and after the
   *  lane's in component order share it, lastLane: the chunk's last lane
   *  with a run. */
  template <class Index>
  __device__ __forceinline__ static ChunkComponents
  Of(Index key, bool before, bool after, int lastLane)
  {
    ChunkComponents c;
    c.first = static_cast<std::int64_t>(__shfl_sync(FullWarp, key, 0)) + (__shfl_sync(FullWarp, before ? 1 : 0, 0));
    c.last = static_cast<std::int64_t>(__shfl_sync(FullWarp, key, lastLane)) -
             (__shfl_sync(FullWarp, after ? 1 : 0, lastLane));
    return c;
  }

  __device__ __forceinline__ bool
  Complete(std::int64_t key) const
  {
    return key >= first && key <= last;
  }
};

/** Stores the chunk's complete components' finished records into table,
 *  labels c.first .. c.last: each component's leader lane (holds, its
 *  folded record f) puts it in the warp's staging area, and the warp
 *  stores the stretch in whole 64-bit words, StagedRecords at a time
 *  (leaders storing their own records would touch a sector a lane with
 *  each store instruction).
 *  Called by every lane of the warp. */
template <class Table>
__device__ __forceinline__ void
StoreCompleteComponents(const ChunkComponents & c,
                        bool                    holds,
                        std::int64_t            key,
                        const Table &           f,
                        std::uint64_t *         staging,
                        Table *                 table)
{
  constexpr int      Words = RecordWords<Table>;
  const std::int64_t n = c.last - c.first + 1;
  for (std::int64_t r = 0; r < n; r += StagedRecords)
  {
    const std::int64_t j = key - c.first - r;
    if (holds && j >= 0 && j < StagedRecords)
    {
      std::memcpy(staging + j * Words, &f, sizeof(f));
    }
    __syncwarp();
    const int    words = static_cast<int>(n - r < StagedRecords ? n - r : StagedRecords) * Words;
    auto * const out = reinterpret_cast<std::uint64_t *>(table + c.first + r);
    for (int w = static_cast<int>(LaneId()); w < words; w += WarpSize)
    {
      out[w] = staging[w];
    }
    __syncwarp();
  }
}

} // namespace cuda
} // namespace cca

#endif
