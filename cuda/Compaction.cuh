// Compaction: dense component numbering, runs grouped by component, and the
// label image. Roots are the first runs of their components, so a root's rank
// among the roots in run order (RootRanks) numbers components in raster order
// of their first pixels, with no gaps: only valid components get table entries.
#ifndef cca_cuda_Compaction_cuh
#define cca_cuda_Compaction_cuh

#include "BitRanks.cuh"
#include "DeviceGeometry.cuh"
#include "LargestComponent.cuh"
#include "RunDetection.cuh"
#include "RunGroups.cuh"
#include "RunNeighbours.cuh"
#include "RunRecord.cuh"
#include "UnionFind.cuh"

#include "cca/Types.h"

#include <cstdint>
#include <cstring>

namespace cca
{
namespace cuda
{

/** The roots among the units as bits, 32 units a word (bit j of word w:
 *  unit 32 w + j is its own parent, flattened or not), and per word the
 *  roots of the words before it (an exclusive scan of the words' counts,
 *  BitsInWord): a root's rank among the roots is its bit's (RankOfBit),
 *  with no entry per unit. The numbering gathers a rank per unit from
 *  these (units / 4 bytes with 32-bit indices, which stay in the L2)
 *  where a scan of a flag per unit wrote and then gathered an entry per
 *  unit (an 8-byte round trip a unit through memory). */
template <class Index>
struct RootRanks
{
  const unsigned * bits;
  const Index *    before; ///< per word, the roots of the words before it

  /** Roots before unit i. */
  __device__ __forceinline__ Index
  operator()(Index i) const
  {
    return RankOfBit(bits, before, i);
  }
};

/** Words of RootRanks::bits a warp of FlagRootsKernel takes at once, their
 *  parents' loads in flight together. */
constexpr int RootWordsPerWarp = 8;

/** Root bits w .. w + RootWordsPerWarp - 1 of count units, by one warp
 *  (whole-warp loads of the parents, in flight together, one ballot a
 *  word): lane k gets word w + k. Bit j of word w is set where unit
 *  32 w + j is its own parent. */
template <class Index>
__device__ __forceinline__ unsigned
RootWordsOfWarp(std::int64_t units, const Index * __restrict__ parent, std::int64_t w)
{
  const unsigned lane = LaneId();
  Index          p[RootWordsPerWarp];
#pragma unroll
  for (int k = 0; k < RootWordsPerWarp; ++k)
  {
    const std::int64_t i = (w + k) * 32 + lane;
    p[k] = i < units ? parent[i] : Index{ 0 };
  }
  unsigned mine = 0;
#pragma unroll
  for (int k = 0; k < RootWordsPerWarp; ++k)
  {
    const std::int64_t i = (w + k) * 32 + lane;
    const unsigned     word = __ballot_sync(FullWarp, i < units && p[k] == static_cast<Index>(i));
    mine = lane == static_cast<unsigned>(k) ? word : mine;
  }
  return mine;
}

/** RootRanks::bits of count units, RootWordsPerWarp words a warp at a
 *  time. */
template <class Index>
__global__ void
__launch_bounds__(BlockThreads)
  FlagRootsKernel(Index count, const Index * __restrict__ parent, unsigned * __restrict__ bits)
{
  AwaitPrecedingKernel();
  const std::int64_t units = static_cast<std::int64_t>(count);
  const std::int64_t words = (units + 31) / 32;
  const unsigned     lane = LaneId();
  for (std::int64_t w = GlobalWarp() * RootWordsPerWarp; w < words; w += WarpCount() * RootWordsPerWarp)
  {
    const unsigned mine = RootWordsOfWarp(units, parent, w);
    if (lane < static_cast<unsigned>(RootWordsPerWarp) && w + lane < words)
    {
      bits[w + lane] = mine;
    }
  }
}

/** Words of root bits up to which one block of RankRootsInOneBlockKernel
 *  flags the roots and scans the words' counts: 32,768 units (an
 *  all-foreground 8192^2 plane has 8,192 runs). There the GPU finishes
 *  FlagRootsKernel and CUB's scan (an initializing kernel and the scan)
 *  faster than the host launches them, and CUB asks the device for the
 *  scan kernel's occupancy between the two: the GPU waits on the host. */
constexpr std::int64_t OneBlockRootWords = 1024;
static_assert(OneBlockRootWords % BlockThreads == 0, "a block's threads take the words evenly");

/** RootRanks of count units, at most OneBlockRootWords words, by one block
 *  of BlockThreads in one launch: the bits as FlagRootsKernel writes them,
 *  kept in shared memory too, then the roots before each word by a block
 *  scan of their counts (warp shuffles, not CUB's BlockScan: the emulation
 *  tests compile the kernels as host code). */
template <class Index>
__global__ void
__launch_bounds__(BlockThreads) RankRootsInOneBlockKernel(Index count,
                                                          const Index * __restrict__ parent,
                                                          unsigned * __restrict__ bits,
                                                          Index * __restrict__ before)
{
  AwaitPrecedingKernel();
  constexpr int       WordsPerThread = static_cast<int>(OneBlockRootWords / BlockThreads);
  __shared__ unsigned rootWords[OneBlockRootWords];
  __shared__ Index    warpRoots[WarpsPerBlock];
  const std::int64_t  units = static_cast<std::int64_t>(count);
  const int           words = static_cast<int>((units + 31) / 32);
  const unsigned      lane = LaneId();
  const int           warp = static_cast<int>(threadIdx.x) / WarpSize;
  for (int w = warp * RootWordsPerWarp; w < words; w += WarpsPerBlock * RootWordsPerWarp)
  {
    const unsigned mine = RootWordsOfWarp(units, parent, w);
    if (lane < static_cast<unsigned>(RootWordsPerWarp) && w + static_cast<int>(lane) < words)
    {
      rootWords[w + lane] = mine;
    }
  }
  __syncthreads();
  // Thread t takes words t WordsPerThread .. (t + 1) WordsPerThread - 1.
  const int first = static_cast<int>(threadIdx.x) * WordsPerThread;
  Index     roots[WordsPerThread];
  Index     sum = 0;
#pragma unroll
  for (int k = 0; k < WordsPerThread; ++k)
  {
    roots[k] = first + k < words ? static_cast<Index>(__popc(rootWords[first + k])) : Index{ 0 };
    sum += roots[k];
  }
  const Index inclusive = WarpInclusiveSum(sum);
  if (lane == WarpSize - 1)
  {
    warpRoots[warp] = inclusive;
  }
  __syncthreads();
  Index running = inclusive - sum;
  for (int v = 0; v < warp; ++v)
  {
    running += warpRoots[v];
  }
#pragma unroll
  for (int k = 0; k < WordsPerThread; ++k)
  {
    if (first + k < words)
    {
      bits[first + k] = rootWords[first + k];
      before[first + k] = running;
    }
    running += roots[k];
  }
}

/** Runs a thread of NumberComponentsKernel numbers, climbing together
 *  (ClimbToRoots), when there are at least NumberingClimbingRuns: about
 *  as many threads as an H100 keeps resident (132 x 2048). Fewer runs take
 *  one a thread, for more threads. H100, labels only, summed over density,
 *  one binary, best of two rounds (benchmark/results/h100-numbering-climbs/):
 *  1 -> 8 climbs a thread at g = 1 2D 4-conn. 81.0 -> 83.1 Gpix/s, 8-conn.
 *  67.8 -> 69.3, 3D 6-conn. 54.7 -> 55.9 Gvox/s, at g = 4 in 2D 1.6-2.3 %
 *  faster; 4 climbs gave about four fifths of that. With 262,144 runs (an
 *  all-foreground 512^3) 8 climbs cost 2-5 us. */
constexpr int          NumberingClimbs = 8;
constexpr std::int64_t NumberingClimbingRuns = std::int64_t{ NumberingClimbs } << 18;

/** Blocks of NumberComponentsKernel an SM at least with 32-bit units: 48
 *  registers a thread, what the kernel took unbounded before it could count
 *  the largest component, which took it to 64 (then four blocks an SM
 *  instead of five; H200, 512^3 26-conn. g = 1 d = 0.4-0.9, 0.03-0.10 ms an
 *  image slower). 64-bit units would spill there: they stay unbounded. */
constexpr int NumberingBlocksPerSM = 5;

/** label[i] = the 0-based component number of run i (the rank of its root
 *  among roots, RootRanks), rootOf[c] = the root (first run) of component
 *  c (rootOf may be null); *componentCount receives the number of
 *  components. Each run climbs to its root: labels only leave the trees
 *  unflattened. A thread takes Climbs runs, blockDim.x apart (each of its
 *  loads and stores whole-warp), and climbs them together. On the H100 at
 *  8192^2, g = 1, d = 0.5, one climb a thread took 201 us where a flatten
 *  kernel and this one had taken 212 + 95; at 512^3, d = 0.5, 326 us
 *  against 297 + 208. CountLargest: the runs whose root is largest.counts's
 *  root (SampleLargestRootKernel) are marked in largest.bits, a word a
 *  warp's 32 runs, and counted with those of smaller roots (the components
 *  numbered before it), a global addition a block (LargestComponent.cuh). */
template <class Index, int Climbs, bool CountLargest = false>
__global__ void
__launch_bounds__(BlockThreads, sizeof(Index) == 4 ? NumberingBlocksPerSM : 0)
  NumberComponentsKernel(Index            count,
                         RootRanks<Index> rank,
                         const Index * __restrict__ parent,
                         Index * __restrict__ label,
                         Index * __restrict__ rootOf,
                         Index *         componentCount,
                         LargestCounting largest)
{
  AwaitPrecedingKernel();
  const Index chunk = static_cast<Index>(blockDim.x) * Climbs;
  const Index stride = static_cast<Index>(gridDim.x) * chunk;
  // Lane 0's counts of its warp's units of the largest component and of
  // those before it (a warp's share fits 32 bits below 2^57 units, the
  // grid's cap); a shared atomic addition a step instead took the kernel
  // from 187 to 241 us (8192^2 4-conn. g = 1 d = 0.7, two runs, H200, ncu).
  unsigned largestUnits = 0;
  unsigned unitsBefore = 0;
  // Whole warps take the loop's steps where the largest component's ballots need them.
  const Index lead = CountLargest ? static_cast<Index>(LaneId()) : Index{ 0 };
  for (Index first = static_cast<Index>(blockIdx.x) * chunk + threadIdx.x; first - lead < count; first += stride)
  {
    Index run[Climbs];
    Index root[Climbs];
    bool  inside[Climbs];
#pragma unroll
    for (int k = 0; k < Climbs; ++k)
    {
      run[k] = first + static_cast<Index>(k) * blockDim.x;
      inside[k] = run[k] < count;
      root[k] = inside[k] ? run[k] : Index{ 0 }; // 0: a root (links point to smaller runs), for the rank's load
    }
    ClimbToRoots<CachedLoads>(parent, root, inside);
    Index c[Climbs];
#pragma unroll
    for (int k = 0; k < Climbs; ++k)
    {
      c[k] = rank(root[k]);
    }
#pragma unroll
    for (int k = 0; k < Climbs; ++k)
    {
      const Index i = run[k];
      if constexpr (CountLargest)
      {
        // Whole warps: the ballots come before the step's own exit.
        const Index    largestRoot = static_cast<Index>(largest.counts->root);
        const unsigned in = __ballot_sync(FullWarp, inside[k] && root[k] == largestRoot);
        const unsigned before = __ballot_sync(FullWarp, inside[k] && root[k] < largestRoot);
        if (LaneId() == 0 && i < count)
        {
          largest.bits[i / 32] = in; // lane 0's run begins the warp's word
          largestUnits += static_cast<unsigned>(__popc(in));
          unitsBefore += static_cast<unsigned>(__popc(before));
        }
        if (inside[k] && i == largestRoot)
        {
          largest.counts->label = static_cast<unsigned long long>(c[k]);
        }
      }
      if (i >= count)
      {
        if constexpr (CountLargest)
        {
          continue; // the later steps' ballots
        }
        else
        {
          break;
        }
      }
      if (i == count - 1)
      {
        *componentCount = rank(i) + (root[k] == i ? 1 : 0); // the roots before the last unit, and itself
      }
      label[i] = c[k];
      if (root[k] == i && rootOf != nullptr)
      {
        rootOf[c[k]] = i;
      }
    }
  }
  if constexpr (CountLargest)
  {
    __shared__ unsigned long long blockCounts[2];
    if (threadIdx.x < 2)
    {
      blockCounts[threadIdx.x] = 0;
    }
    __syncthreads();
    if (LaneId() == 0)
    {
      atomicAdd(&blockCounts[0], static_cast<unsigned long long>(largestUnits));
      atomicAdd(&blockCounts[1], static_cast<unsigned long long>(unitsBefore));
    }
    __syncthreads();
    if (threadIdx.x == 0 && blockCounts[0] != 0)
    {
      atomicAdd(&largest.counts->units, blockCounts[0]);
    }
    if (threadIdx.x == 1 && blockCounts[1] != 0)
    {
      atomicAdd(&largest.counts->unitsBefore, blockCounts[1]);
    }
  }
}

/** Strategies whose units are pieces of runs (pixels, HA sub-runs): the
 *  component of each full run is that of the unit holding its first pixel
 *  (all units of a run are joined), so the run grouping and the label image
 *  below work on full runs whatever the labeling unit. */
template <class Index>
__global__ void
RunLabelsFromUnitsKernel(RunArrays<Index> runs,
                         RunArrays<Index> units,
                         const Index * __restrict__ unitLabel,
                         Index * __restrict__ runLabel)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index i = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; i < runs.count; i += stride)
  {
    const std::int32_t x = runs.x[i];
    ForEachRunInRange(
      units, static_cast<std::int64_t>(runs.row[i]), x, x + 1, [&](Index u) { runLabel[i] = unitLabel[u]; });
  }
}

/** IotaKernel's work: each thread stores IotaVector<Index> values (16 bytes)
 *  at a time, IotaSteps times a block's width apart. One value a thread
 *  made a block per 256 values, and the launches of those blocks bound
 *  the kernel: on the H200 78 us for 16.8 M values (62,936 blocks, 0.5
 *  TB/s), the union-find's initialisation of labels only at g = 1. */
template <class Index>
struct alignas(16) IotaVector
{
  static constexpr int Values = 16 / static_cast<int>(sizeof(Index));
  Index                value[Values];
};
constexpr int IotaSteps = 4;

/** values[i] = i for i < count: the vectors from the first 16-byte boundary
 *  on, and the values before it and after the last whole vector by the
 *  first threads of block 0. */
template <class Index>
__global__ void
IotaKernel(Index count, Index * values)
{
  AwaitPrecedingKernel();
  using Vector = IotaVector<Index>;
  constexpr std::int64_t Width = Vector::Values;
  const std::int64_t     n = static_cast<std::int64_t>(count);
  const auto misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(values) % 16 / sizeof(Index));
  const std::int64_t head = misaligned == 0 ? 0 : (Width - misaligned < n ? Width - misaligned : n);
  const std::int64_t vectors = (n - head) / Width;
  const std::int64_t tail = head + vectors * Width;
  if (blockIdx.x == 0 && static_cast<std::int64_t>(threadIdx.x) < Width)
  {
    const std::int64_t i = threadIdx.x;
    if (i < head)
    {
      values[i] = static_cast<Index>(i);
    }
    if (tail + i < n)
    {
      values[tail + i] = static_cast<Index>(tail + i);
    }
  }
  // A block's share, and again a grid further on where BlocksFor's cap
  // left fewer blocks than shares.
  const std::int64_t share = static_cast<std::int64_t>(blockDim.x) * IotaSteps;
  for (std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * share; first < vectors;
       first += static_cast<std::int64_t>(gridDim.x) * share)
  {
    for (int s = 0; s < IotaSteps; ++s)
    {
      const std::int64_t v = first + static_cast<std::int64_t>(s) * blockDim.x + threadIdx.x;
      if (v < vectors)
      {
        const std::int64_t at = head + v * Width;
        Vector             out;
#pragma unroll
        for (int k = 0; k < Vector::Values; ++k)
        {
          out.value[k] = static_cast<Index>(at + k);
        }
        *reinterpret_cast<Vector *>(values + at) = out;
      }
    }
  }
}

/** Launches IotaKernel for values[0, count). */
template <class Index, class Device>
void
LaunchIota(Device & device, const char * what, Index count, Index * values)
{
  const std::int64_t perBlock = std::int64_t{ BlockThreads } * IotaSteps * IotaVector<Index>::Values;
  device.Launch(
    what, BlocksFor(static_cast<std::int64_t>(count), perBlock), BlockThreads, IotaKernel<Index>, count, values);
}

/** out[n] = in[from[n]] for n < count: the rows a selection keeps, in its order. */
template <class T, class Index>
__global__ void
GatherKernel(Index count, const Index * __restrict__ from, const T * __restrict__ in, T * __restrict__ out)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index n = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; n < count; n += stride)
  {
    out[n] = in[from[n]];
  }
}

/** From the runs stably sorted by component (sortedRun: run indices, or
 *  null where the runs are in that order already; sortedLabel: their
 *  components): the runs grouped (GroupRun). records: every run's
 *  RunRecord, read in one load where the runs lie all over memory, or
 *  null (the run arrays). */
template <class Index>
__global__ void
GatherRunsKernel(RunArrays<Index> runs,
                 const RunRecord * __restrict__ records,
                 Geometry geometry,
                 const Index * __restrict__ sortedRun,
                 const Index * __restrict__ sortedLabel,
                 RunGroups groups)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index k = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; k < runs.count; k += stride)
  {
    const Index i = sortedRun != nullptr ? sortedRun[k] : k;
    GroupRun(groups,
             k,
             runs.count,
             sortedLabel,
             records != nullptr ? RecordPlace(records[i], geometry) : UnitPlace(runs, geometry, i));
  }
}

/** The label image's value for a run of component l: l + 1, or background
 *  for the runs of objects a selection removed (labeled removed). */
template <class LabelT, class Index>
__device__ __forceinline__ LabelT
ImageLabel(Index l, Index removed)
{
  return l == removed ? LabelT{ 0 } : static_cast<LabelT>(l) + 1;
}

/** The label image, one warp per row: the run detection pass again, where
 *  the starts up to a lane give the index of the run that covers it. Runs
 *  whose label is `removed` (objects the selection left out) are background. */
template <class T, class Index, class LabelT, RunBreaks Breaks = RunBreaks::Foreground>
__global__ void
__launch_bounds__(BlockThreads, RowScanBlocksPerProcessor) WriteLabelImageKernel(const T * __restrict__ image,
                                                                                 Geometry          geometry,
                                                                                 ForegroundTest<T> test,
                                                                                 const Index * __restrict__ rowOffsets,
                                                                                 const Index * __restrict__ label,
                                                                                 LabelT * __restrict__ labels,
                                                                                 Index removed = ~Index{ 0 })
{
  AwaitPrecedingKernel();
  for (std::int64_t r = GlobalWarp(); r < geometry.rows; r += WarpCount())
  {
    const Index        first = rowOffsets[r];
    LabelT *           out = labels + r * geometry.width;
    const std::int64_t width = geometry.width;
    bool               endsAtWidth = false;
    ScanRow<FullRuns, Breaks>(
      image + r * geometry.width,
      geometry.width,
      test,
      [&](const RowChunk & c) {
        if (c.x < width)
        {
          LabelT value = 0;
          if (c.foreground)
          {
            // Starts at or left of this lane, minus one: the covering run.
            const unsigned atOrBelow = c.starts & (LanesBelow() | (1u << LaneId()));
            const Index    i = first + static_cast<Index>(c.startsBefore + __popc(atOrBelow) - 1);
            value = ImageLabel<LabelT>(label[i], removed);
          }
          out[c.x] = value;
        }
      },
      endsAtWidth);
  }
}

/** Stores a warp's labels of one 512-pixel stretch of a row: each lane's
 *  16 labels (value; lanes past the row call it too, their values unused)
 *  go through shared memory (staged, StretchPixels labels a warp)
 *  and leave in whole-warp stores of 512 contiguous bytes: each lane
 *  storing its own 16 labels, a warp's store covered 32 half-written
 *  sectors (H100, g = 16 d = 0.5, before the rotation below: 8192^2 181 ->
 *  146 us, 512^3 340 -> 243). All 32 lanes must call it. */
template <class LabelT>
__device__ __forceinline__ void
StoreStretchLabels(uint4 * staged,
                   const LabelT (&value)[LanePixels],
                   LabelT *     out,
                   std::int64_t laneX,
                   std::int64_t width)
{
  constexpr int Chunk = 16 / sizeof(LabelT); // labels a 16-byte store holds
  constexpr int Pieces = LanePixels / Chunk; // 16-byte pieces a lane makes
  // Where piece p of lane l is staged: its lane's pieces rotated by
  // l * Pieces / 8, so that the 8 lanes of a 128-byte phase of the lanes'
  // stores hit 8 different 16-byte bank groups (without, 4 or 8 of them
  // shared one); the warp's reads of consecutive pieces stay conflict-free.
  // A/B on the H100 in one binary: 8192^2 144 -> 136 us (g = 16) and 168 ->
  // 158 (g = 1), but 512^3 241 -> 255 (g = 16), for reasons not found.
  const auto StagedPiece = [](int piece) {
    const int lane = piece / Pieces;
    return lane * Pieces + (piece % Pieces + lane * Pieces / 8) % Pieces;
  };
  if (laneX < width)
  {
#pragma unroll
    for (int p = 0; p < Pieces; ++p)
    {
      uint4 piece;
      std::memcpy(&piece, value + p * Chunk, sizeof piece);
      staged[StagedPiece(static_cast<int>(LaneId()) * Pieces + p)] = piece;
    }
  }
  __syncwarp();
  const std::int64_t stretch = laneX - static_cast<std::int64_t>(LaneId()) * LanePixels;
#pragma unroll
  for (int k = 0; k < Pieces; ++k)
  {
    // Piece k of the lane: the stretch's 16-byte pieces in order over the warp.
    const int          piece = k * WarpSize + static_cast<int>(LaneId());
    const std::int64_t x = stretch + piece * Chunk;
    if (x < width) // rows are whole lane loads: a piece is in or out
    {
      *reinterpret_cast<uint4 *>(out + x) = staged[StagedPiece(piece)];
    }
  }
  __syncwarp(); // read before the next stretch overwrites them
}

/** The labels of a lane's 16 pixels (ScanByteRow) from the runs of its row:
 *  labelOf(i) of run i for the runs it starts and for a run reaching in from
 *  the left (first: the row's first run); pixels outside mask get 0. */
template <class Index, class LabelT, class LabelOf>
__device__ __forceinline__ void
LaneRunLabels(const LanePixelRun & l, Index first, const LabelOf & labelOf, unsigned mask, LabelT (&value)[LanePixels])
{
  Index  next = first + static_cast<Index>(l.startsBefore); // the lane's first start
  LabelT current = (l.foreground & ~l.starts & 1u) != 0 ? labelOf(next - 1) : LabelT{ 0 };
#pragma unroll
  for (int j = 0; j < LanePixels; ++j)
  {
    if ((l.starts >> j) & 1u)
    {
      current = labelOf(next++);
    }
    value[j] = (mask >> j) & 1u ? current : LabelT{ 0 };
  }
}

/** Shared memory for StoreStretchLabels: a block's warps' stretches. */
template <class LabelT>
constexpr int StagedStretchPieces = WarpsPerBlock * static_cast<int>(StretchPixels * sizeof(LabelT) / 16);

/** A row's runs, at most one a lane, for FillRowFromRuns: a warp's share of
 *  a block's shared memory. */
template <class LabelT>
struct RowSpans
{
  std::int32_t x[WarpSize];
  std::int32_t end[WarpSize];
  LabelT       value[WarpSize];
};

/** The labels of a row of at most WarpSize runs (first .. first + count - 1)
 *  from the runs alone, without its pixels: lane k stages run k, then each
 *  lane makes 16-byte pieces of the row a warp's width apart, walking the
 *  staged runs forward, and the warp stores 512 contiguous bytes at a time.
 *  All 32 lanes must call it. */
template <class Index, class LabelT, class LabelOf>
__device__ __forceinline__ void
FillRowFromRuns(RowSpans<LabelT> & spans,
                const std::int32_t * __restrict__ runX,
                const std::int32_t * __restrict__ runEnd,
                Index           first,
                int             count,
                const LabelOf & labelOf,
                LabelT *        out,
                std::int64_t    width)
{
  const int lane = static_cast<int>(LaneId());
  if (lane < count)
  {
    spans.x[lane] = runX[first + lane];
    spans.end[lane] = runEnd[first + lane];
    spans.value[lane] = labelOf(first + static_cast<Index>(lane));
  }
  __syncwarp();
  constexpr int Chunk = 16 / sizeof(LabelT); // labels a 16-byte store holds
  int           k = 0;                       // the first run that ends past the lane's pixel
  for (std::int64_t x = static_cast<std::int64_t>(lane) * Chunk; x < width; x += WarpSize * Chunk)
  {
    LabelT     value[Chunk];
    const auto walk = [&] {
#pragma unroll
      for (int c = 0; c < Chunk; ++c)
      {
        while (k < count && spans.end[k] <= x + c)
        {
          ++k;
        }
        value[c] = k < count && spans.x[k] <= x + c ? spans.value[k] : LabelT{ 0 };
      }
    };
    if constexpr (Chunk > 2)
    {
      // Most pieces lie inside one run or between two: one value for the
      // whole piece instead of a walk of the runs a pixel (H100, 8192^2 all
      // foreground, full table, m n n m: 0.230 -> 0.224 ms face, 0.226 ->
      // 0.219 full; 512^3 even; benchmark/results/h100-one-command-band-probe
      // call 4). Pieces of two 64-bit labels keep the walk: this
      // inside-or-between test took that variant from 62 to 80 registers.
      while (k < count && spans.end[k] <= x)
      {
        ++k;
      }
      const bool inside = k < count && spans.x[k] <= x && x + Chunk <= spans.end[k];
      const bool between = k == count || x + Chunk <= spans.x[k];
      if (inside || between)
      {
        const LabelT same = inside ? spans.value[k] : LabelT{ 0 };
#pragma unroll
        for (int c = 0; c < Chunk; ++c)
        {
          value[c] = same;
        }
      }
      else
      {
        walk();
      }
    }
    else
    {
      walk();
    }
    uint4 piece;
    std::memcpy(&piece, value, sizeof piece);
    *reinterpret_cast<uint4 *>(out + x) = piece; // rows are whole 16-byte pieces (FitsByteRowScan)
  }
  __syncwarp(); // read before the next row overwrites them
}

/** The most runs a row of width pixels may have to be made from its runs
 *  (WriteByteLabelImageKernel): at most WarpSize (one a lane), at least
 *  PixelsPerRunFilledFromRuns pixels a run. A row's runs are a load further
 *  from its labels than its pixels are; where runs are long the pixels'
 *  third read is what the runs save. On the H200 (full table, same call):
 *  rows of 8192 pixels and at most 32 runs gained (all foreground
 *  +8-12 %); 512-pixel rows of at most 32 runs gained at one run a row
 *  (512^3 all foreground 278-290 -> 295-301 Gvox/s), held at g = 16 (about
 *  8 runs a row) and lost 2 % at g = 4 (about 20 pixels a run). At 64
 *  pixels a run (8 runs in 512-pixel rows) g = 4 held
 *  (benchmark/results/h200-host-waits). */
constexpr int PixelsPerRunFilledFromRuns = 64;

__host__ __device__ constexpr int
MostRunsFilledFromRuns(std::int64_t width)
{
  return width >= std::int64_t{ WarpSize } * PixelsPerRunFilledFromRuns
           ? WarpSize
           : static_cast<int>(width / PixelsPerRunFilledFromRuns);
}

/** Whether WriteByteLabelImageKernel makes rows of few runs from their runs
 *  (FromRuns): rows that may hold a run so made (MostRunsFilledFromRuns),
 *  whose units kept the starts and ends of the full runs (units that are
 *  pieces of runs do not). */
template <class Index>
bool
FillsRowsFromRuns(const Geometry & geometry, const RunArrays<Index> & runs)
{
  return runs.x != nullptr && MostRunsFilledFromRuns(geometry.width) > 0;
}

/** Blocks of BlockThreads that WriteByteLabelImageKernel asks to keep on a
 *  multiprocessor (0: no bound). With the runs' path and 32-bit indices, 8
 *  (32 registers a thread, without spills): compiled freely, the two paths
 *  together took 48 registers where either alone takes at most 32. Held to
 *  32 the kernel keeps the occupancy of the kernel without the path; in
 *  summed time neither was measured faster (H200, 8192^2 g = 16 within 1 %
 *  of the kernel without the path both ways; under ncu at d = 0.5 114 us
 *  bounded, 109-113 free, 106-109 without the path). */
template <class Index, bool FromRuns>
constexpr int ByteLabelImageBlocks = FromRuns && sizeof(Index) == 4 ? 8 : 0;

/** WriteLabelImageKernel for maximal runs of a byte image, when
 *  FitsByteRowScan (image and label image). With FromRuns
 *  (FillsRowsFromRuns), a row of few long runs (MostRunsFilledFromRuns: an
 *  organ's or a body's mask, a full image) is made from its runs alone
 *  (FillRowFromRuns), without reading its pixels again (H200, 8192^2 all
 *  foreground, full table, same call: 257.2-266.1 -> 283.6-289.7 Gpix/s).
 *  Other rows by ScanByteRow: each lane reads a label per run it starts
 *  (and one for a run reaching in from the left) and makes the labels of
 *  its 16 pixels, stored a stretch at a time (StoreStretchLabels). Without
 *  FromRuns (runX and runEnd then unused) it is the kernel as it was
 *  before the runs' path, 32 registers a thread: one kernel with both
 *  paths, taking the pixels' in 512-pixel rows, cost 512^3 all foreground
 *  about 5 % (H200, same call). */
template <class Index, class LabelT, bool FromRuns>
__global__ void
__launch_bounds__(BlockThreads, ByteLabelImageBlocks<Index, FromRuns>)
  WriteByteLabelImageKernel(const std::uint8_t * __restrict__ image,
                            Geometry                     geometry,
                            ForegroundTest<std::uint8_t> test,
                            const Index * __restrict__ rowOffsets,
                            const Index * __restrict__ label,
                            LabelT * __restrict__ labels,
                            Index removed,
                            const std::int32_t * __restrict__ runX,
                            const std::int32_t * __restrict__ runEnd)
{
  AwaitPrecedingKernel();
  __shared__ uint4 stagedStore[StagedStretchPieces<LabelT>];
  const unsigned   warp = threadIdx.x / WarpSize;
  uint4 * const    staged = stagedStore + warp * (StagedStretchPieces<LabelT> / WarpsPerBlock);
  const auto       labelOf = [&](Index i) { return ImageLabel<LabelT>(label[i], removed); };
  for (std::int64_t r = GlobalWarp(); r < geometry.rows; r += WarpCount())
  {
    const Index first = rowOffsets[r];
    LabelT *    out = labels + r * geometry.width;
    if constexpr (FromRuns)
    {
      __shared__ RowSpans<LabelT> spans[WarpsPerBlock];
      const Index                 count = rowOffsets[r + 1] - first;
      if (count <= static_cast<Index>(MostRunsFilledFromRuns(geometry.width)))
      {
        FillRowFromRuns(spans[warp], runX, runEnd, first, static_cast<int>(count), labelOf, out, geometry.width);
        continue;
      }
    }
    bool endsAtWidth = false;
    ScanByteRow(
      image + r * geometry.width,
      geometry.width,
      test,
      [&](const LanePixelRun & l) {
        LabelT value[LanePixels];
        if (l.x < geometry.width)
        {
          LaneRunLabels(l, first, labelOf, l.foreground, value);
        }
        StoreStretchLabels(staged, value, out, l.x, geometry.width);
      },
      endsAtWidth);
  }
}

} // namespace cuda
} // namespace cca

#endif
