// Probe (not part of the engine): can a 2D feature table and the runs
// grouped by component be built tile by tile from the label image, in
// fewer passes than the engine's sort, pairs' pass and votes? Issue 13's
// g = 1 targets in planes are unmet (full table 51-56 Gpix/s against 70
// and 86) and docs/results.md found the bytes of today's passes over the
// runs alone above the targets' time. Here the label image (labels 1..C
// numbered in raster order of each component's first pixel, as the
// engine numbers them) is the input; its making is the labels-only
// path's, timed by cca_benchmark --outputs labels in the same call.
//
// Passes, each a kernel (or a CUB call) over the image or a small set:
//   1. tiles of 32 x 64 pixels: each block loads its tile with a one-pixel
//      halo into shared memory, folds every row piece of a component into
//      a shared-memory record (hash of labels to slots), the intercepts
//      from the neighbours in the tile; a component none of whose pixels
//      has a neighbour of its label outside the tile is complete: its
//      entry is stored whole (96 bytes, PlanarFeatures' layout) and its
//      run count plainly. The others' partial entries go to a list;
//   2. the run counts' exclusive sum: each component's first grouped run;
//   3. tiles again: a complete component's runs in raster order (a block
//      radix sort of (slot, run's place in the tile)) go straight to
//      their places; the others' runs to a list keyed (label, y, x);
//   4. the partial entries sorted by label, folded a warp at a time and
//      merged; the listed runs sorted by key and placed.
// Everything is checked against a CPU reference (flood fill numbering,
// entries and grouped runs). Build: nvcc -O3 -std=c++17 -arch=sm_90
// -I include tile-tables-probe.cu. Usage: probe [4|8] [reps] [densities...]
#include "cca/RandomImages.h"

#include <cub/cub.cuh>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                              \
  do                                                                                          \
  {                                                                                           \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess)                                                                    \
    {                                                                                         \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                           \
    }                                                                                         \
  } while (0)

// PlanarFeatures' layout (src/NarrowFeatures.h), intercepts final.
struct Entry
{
  std::uint32_t count;
  std::int32_t  bbMin[2];
  std::int32_t  bbMax[2];
  std::uint32_t border;
  std::int64_t  sum[2];
  std::uint64_t prod[3]; // xx, yy, xy
  std::uint32_t faces[4];
  std::uint32_t intercepts[3]; // x, y, xy classes
  std::uint32_t pad;
};
static_assert(sizeof(Entry) == 96, "PlanarFeatures' size");

struct Run
{
  std::int32_t x, y, z, length;
};

constexpr int TH = 32, TW = 64, Threads = 256, SegmentPixels = 8;
constexpr int Hash = 1024, MaxSlots = 512;
static_assert(TH * TW / SegmentPixels == Threads, "a thread a segment of 8 pixels");

enum Field
{
  Cnt,
  Sx,
  Sxx,
  Sy,
  Syy,
  Sxy,
  MinX,
  MaxX,
  MinY,
  MaxY,
  Ix,
  Iy,
  Ixy,
  Runs,
  Border,
  F0,
  F1,
  F2,
  F3,
  Cross,
  Fields
};

__device__ __forceinline__ unsigned
HashOf(int label)
{
  return (static_cast<unsigned>(label) * 2654435761u) >> (32 - 10);
}

__device__ __forceinline__ void
Insert(int * keys, int label)
{
  unsigned h = HashOf(label);
  while (true)
  {
    const int old = atomicCAS(&keys[h], 0, label);
    if (old == 0 || old == label)
      return;
    h = (h + 1) & (Hash - 1);
  }
}

__device__ __forceinline__ int
Lookup(const int * keys, const short * slotOf, int label)
{
  unsigned h = HashOf(label);
  while (keys[h] != label)
    h = (h + 1) & (Hash - 1);
  return slotOf[h];
}

// Gives every inserted label a slot; returns the slot count (all threads).
__device__ int
AllocateSlots(const int * keys, short * slotOf, int * slotLabel, unsigned (*f)[MaxSlots], int * count, bool fields)
{
  for (int h = threadIdx.x; h < Hash; h += Threads)
  {
    if (keys[h] != 0)
    {
      const int s = atomicAdd(count, 1);
      slotOf[h] = static_cast<short>(s < MaxSlots ? s : 32767); // past MaxSlots: counted, not folded
      if (s < MaxSlots)
      {
        slotLabel[s] = keys[h];
        if (fields)
        {
          for (int k = 0; k < Fields; ++k)
            f[k][s] = 0;
          f[MinX][s] = 0x7fffffff;
          f[MinY][s] = 0x7fffffff;
        }
      }
    }
  }
  __syncthreads();
  return *count;
}

template <int Conn>
__global__ void
__launch_bounds__(Threads) TileTableKernel(const int * __restrict__ L,
                                           int            W,
                                           int            H,
                                           Entry *        table,
                                           unsigned *     runCount,
                                           std::uint8_t * crossing,
                                           Entry *        partials,
                                           unsigned *     partialKeys,
                                           unsigned *     partialCount,
                                           unsigned *     overflow)
{
  extern __shared__ unsigned dynamicShared[];
  unsigned(*f)[MaxSlots] = reinterpret_cast<unsigned(*)[MaxSlots]>(dynamicShared);
  int *            slotLabel = reinterpret_cast<int *>(dynamicShared + Fields * MaxSlots);
  __shared__ int   lab[TH + 2][TW + 2];
  __shared__ int   keys[Hash];
  __shared__ short slotOf[Hash];
  __shared__ int   slots;
  const int        X0 = blockIdx.x * TW, Y0 = blockIdx.y * TH;
  for (int i = threadIdx.x; i < (TH + 2) * (TW + 2); i += Threads)
  {
    const int r = i / (TW + 2), c = i % (TW + 2);
    const int gy = Y0 + r - 1, gx = X0 + c - 1;
    lab[r][c] = gx >= 0 && gx < W && gy >= 0 && gy < H ? L[static_cast<std::size_t>(gy) * W + gx] : 0;
  }
  for (int i = threadIdx.x; i < Hash; i += Threads)
    keys[i] = 0;
  if (threadIdx.x == 0)
    slots = 0;
  __syncthreads();
  const int cy = threadIdx.x / (TW / SegmentPixels) + 1;
  const int xs = (threadIdx.x % (TW / SegmentPixels)) * SegmentPixels;
  {
    int previous = 0;
    for (int k = 0; k < SegmentPixels; ++k)
    {
      const int l = lab[cy][xs + k + 1];
      if (l != 0 && l != previous)
        Insert(keys, l);
      previous = l;
    }
  }
  __syncthreads();
  const int n = AllocateSlots(keys, slotOf, slotLabel, f, &slots, true);
  if (n > MaxSlots && threadIdx.x == 0)
    atomicAdd(overflow, 1u);
  const int gy = Y0 + cy - 1;
  int       k = 0;
  while (k < SegmentPixels)
  {
    const int l = lab[cy][xs + k + 1];
    if (l == 0)
    {
      ++k;
      continue;
    }
    const int k0 = k;
    unsigned  ix = 0, iy = 0, ixy = 0, cross = 0;
    while (k < SegmentPixels && lab[cy][xs + k + 1] == l)
    {
      const int cx = xs + k + 1;
      ix += (lab[cy][cx - 1] != l) + (lab[cy][cx + 1] != l);
      iy += (lab[cy - 1][cx] != l) + (lab[cy + 1][cx] != l);
      ixy += (lab[cy - 1][cx - 1] != l) + (lab[cy - 1][cx + 1] != l) + (lab[cy + 1][cx - 1] != l) +
             (lab[cy + 1][cx + 1] != l);
      if (cx == 1 || cx == TW || cy == 1 || cy == TH)
      {
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
          {
            if ((dx == 0 && dy == 0) || (Conn == 4 && dx != 0 && dy != 0))
              continue;
            const int  ny = cy + dy, nx = cx + dx;
            const bool outside = ny == 0 || ny == TH + 1 || nx == 0 || nx == TW + 1;
            cross |= outside && lab[ny][nx] == l;
          }
      }
      ++k;
    }
    const int s = Lookup(keys, slotOf, l);
    if (s < MaxSlots)
    {
      const unsigned m = k - k0;
      const int      xa = xs + k0, xb = xs + k - 1; // in the tile
      const unsigned y = cy - 1;
      const unsigned sx = m * (xa + xb) / 2;
      const auto     s2 = [](int v) { return static_cast<unsigned>(v * (v + 1) * (2 * v + 1) / 6); };
      const unsigned sxx = s2(xb) - (xa > 0 ? s2(xa - 1) : 0);
      atomicAdd(&f[Cnt][s], m);
      atomicAdd(&f[Sx][s], sx);
      atomicAdd(&f[Sxx][s], sxx);
      atomicAdd(&f[Sy][s], m * y);
      atomicAdd(&f[Syy][s], m * y * y);
      atomicAdd(&f[Sxy][s], y * sx);
      atomicMin(&f[MinX][s], static_cast<unsigned>(xa));
      atomicMax(&f[MaxX][s], static_cast<unsigned>(xb));
      atomicMin(&f[MinY][s], y);
      atomicMax(&f[MaxY][s], y);
      atomicAdd(&f[Ix][s], ix);
      atomicAdd(&f[Iy][s], iy);
      atomicAdd(&f[Ixy][s], ixy);
      // A run starts where the pixel before is background.
      if (k0 > 0 || lab[cy][xs] == 0)
        atomicAdd(&f[Runs][s], 1u);
      const int      gxa = X0 + xa, gxb = X0 + xb;
      const bool     rowEdge = gy == 0 || gy == H - 1;
      const unsigned atX0 = gxa == 0, atXm = gxb == W - 1;
      if (rowEdge || atX0 || atXm)
      {
        atomicAdd(&f[Border][s], rowEdge ? m : atX0 + atXm);
        if (atX0)
          atomicAdd(&f[F0][s], 1u);
        if (atXm)
          atomicAdd(&f[F1][s], 1u);
        if (gy == 0)
          atomicAdd(&f[F2][s], m);
        if (gy == H - 1)
          atomicAdd(&f[F3][s], m);
      }
      if (cross)
        atomicOr(&f[Cross][s], 1u);
    }
  }
  __syncthreads();
  for (int s = threadIdx.x; s < min(n, MaxSlots); s += Threads)
  {
    const int          label = slotLabel[s];
    const std::int64_t m = f[Cnt][s], sx = f[Sx][s], sy = f[Sy][s];
    Entry              e;
    e.count = f[Cnt][s];
    e.bbMin[0] = X0 + static_cast<int>(f[MinX][s]);
    e.bbMin[1] = Y0 + static_cast<int>(f[MinY][s]);
    e.bbMax[0] = X0 + static_cast<int>(f[MaxX][s]);
    e.bbMax[1] = Y0 + static_cast<int>(f[MaxY][s]);
    e.border = f[Border][s];
    e.sum[0] = sx + m * X0;
    e.sum[1] = sy + m * Y0;
    e.prod[0] = f[Sxx][s] + 2 * static_cast<std::uint64_t>(X0) * sx + static_cast<std::uint64_t>(m) * X0 * X0;
    e.prod[1] = f[Syy][s] + 2 * static_cast<std::uint64_t>(Y0) * sy + static_cast<std::uint64_t>(m) * Y0 * Y0;
    e.prod[2] = f[Sxy][s] + static_cast<std::uint64_t>(X0) * sy + static_cast<std::uint64_t>(Y0) * sx +
                static_cast<std::uint64_t>(m) * X0 * Y0;
    e.faces[0] = f[F0][s];
    e.faces[1] = f[F1][s];
    e.faces[2] = f[F2][s];
    e.faces[3] = f[F3][s];
    e.intercepts[0] = f[Ix][s];
    e.intercepts[1] = f[Iy][s];
    e.intercepts[2] = f[Ixy][s];
    e.pad = 0;
    if (f[Cross][s] == 0)
    {
      table[label - 1] = e;
      runCount[label - 1] = f[Runs][s];
      crossing[label - 1] = 0;
    }
    else
    {
      const unsigned j = atomicAdd(partialCount, 1u);
      partials[j] = e;
      partialKeys[j] = static_cast<unsigned>(label - 1);
      atomicAdd(&runCount[label - 1], f[Runs][s]);
      crossing[label - 1] = 1;
    }
  }
}

// Partial entries in label order: each warp folds its lanes' runs of equal
// keys (down-shuffles, a segment's first lane ends with its sum); a
// component's first partial overall stores the entry, the first lane of
// any other stretch lists its sum for the atomic merges after.
__global__ void
FoldPartialsKernel(const unsigned * sortedKeys,
                   const unsigned * sortedIndex,
                   const Entry *    partials,
                   unsigned         count,
                   Entry *          table,
                   Entry *          carried,
                   unsigned *       carriedKeys,
                   unsigned *       carriedCount)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const int      lane = threadIdx.x & 31;
  const bool     valid = i < count;
  const unsigned key = valid ? sortedKeys[i] : 0xffffffffu;
  Entry          e{};
  e.bbMin[0] = e.bbMin[1] = 0x7fffffff;
  e.bbMax[0] = e.bbMax[1] = -1;
  if (valid)
    e = partials[sortedIndex[i]];
  for (int o = 1; o < 32; o *= 2)
  {
    const unsigned  otherKey = __shfl_down_sync(0xffffffffu, key, o);
    const bool      take = lane + o < 32 && otherKey == key;
    const unsigned  c = __shfl_down_sync(0xffffffffu, e.count, o);
    const int       minX = __shfl_down_sync(0xffffffffu, e.bbMin[0], o);
    const int       minY = __shfl_down_sync(0xffffffffu, e.bbMin[1], o);
    const int       maxX = __shfl_down_sync(0xffffffffu, e.bbMax[0], o);
    const int       maxY = __shfl_down_sync(0xffffffffu, e.bbMax[1], o);
    const unsigned  b = __shfl_down_sync(0xffffffffu, e.border, o);
    const long long s0 = __shfl_down_sync(0xffffffffu, static_cast<long long>(e.sum[0]), o);
    const long long s1 = __shfl_down_sync(0xffffffffu, static_cast<long long>(e.sum[1]), o);
    std::uint64_t   p[3];
    for (int q = 0; q < 3; ++q)
      p[q] = __shfl_down_sync(0xffffffffu, static_cast<unsigned long long>(e.prod[q]), o);
    unsigned fc[4], ic[3];
    for (int q = 0; q < 4; ++q)
      fc[q] = __shfl_down_sync(0xffffffffu, e.faces[q], o);
    for (int q = 0; q < 3; ++q)
      ic[q] = __shfl_down_sync(0xffffffffu, e.intercepts[q], o);
    if (take)
    {
      e.count += c;
      e.bbMin[0] = min(e.bbMin[0], minX);
      e.bbMin[1] = min(e.bbMin[1], minY);
      e.bbMax[0] = max(e.bbMax[0], maxX);
      e.bbMax[1] = max(e.bbMax[1], maxY);
      e.border += b;
      e.sum[0] += s0;
      e.sum[1] += s1;
      for (int q = 0; q < 3; ++q)
        e.prod[q] += p[q];
      for (int q = 0; q < 4; ++q)
        e.faces[q] += fc[q];
      for (int q = 0; q < 3; ++q)
        e.intercepts[q] += ic[q];
    }
  }
  const unsigned previousKey = __shfl_up_sync(0xffffffffu, key, 1);
  const bool     warpFirst = lane == 0 || previousKey != key;
  if (!valid || !warpFirst)
    return;
  const bool first = i == 0 || sortedKeys[i - 1] != key;
  if (first)
  {
    table[key] = e;
  }
  else
  {
    const unsigned j = atomicAdd(carriedCount, 1u);
    carried[j] = e;
    carriedKeys[j] = key;
  }
}

__global__ void
MergeCarriedKernel(const Entry * carried, const unsigned * carriedKeys, const unsigned * carriedCount, Entry * table)
{
  const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= *carriedCount)
    return;
  const Entry & c = carried[j];
  Entry &       e = table[carriedKeys[j]];
  atomicAdd(&e.count, c.count);
  atomicMin(&e.bbMin[0], c.bbMin[0]);
  atomicMin(&e.bbMin[1], c.bbMin[1]);
  atomicMax(&e.bbMax[0], c.bbMax[0]);
  atomicMax(&e.bbMax[1], c.bbMax[1]);
  atomicAdd(&e.border, c.border);
  for (int q = 0; q < 2; ++q)
    atomicAdd(reinterpret_cast<unsigned long long *>(&e.sum[q]), static_cast<unsigned long long>(c.sum[q]));
  for (int q = 0; q < 3; ++q)
    atomicAdd(reinterpret_cast<unsigned long long *>(&e.prod[q]), static_cast<unsigned long long>(c.prod[q]));
  for (int q = 0; q < 4; ++q)
    atomicAdd(&e.faces[q], c.faces[q]);
  for (int q = 0; q < 3; ++q)
    atomicAdd(&e.intercepts[q], c.intercepts[q]);
}

constexpr int ItemsPerThread = 4; // a segment of 8 pixels starts at most 4 runs
constexpr int SlotBits = 9, PlaceBits = 10;

// The runs of complete components to their grouped places; the others'
// runs listed with the key (label - 1) << 26 | y << 13 | x.
__global__ void
__launch_bounds__(Threads) TileRunsKernel(const int * __restrict__ L,
                                          int W,
                                          int H,
                                          const std::uint8_t * __restrict__ crossing,
                                          const unsigned * __restrict__ firstRun,
                                          Run *           grouped,
                                          std::uint64_t * listedKeys,
                                          unsigned *      listedLength,
                                          unsigned *      listedCount)
{
  using Sort = cub::BlockRadixSort<unsigned, Threads, ItemsPerThread, unsigned>;
  using Scan = cub::BlockScan<int, Threads>;
  __shared__ union
  {
    typename Sort::TempStorage sort;
    typename Scan::TempStorage scan;
  } temp;
  __shared__ int      lab[TH][TW + 2];
  __shared__ int      keys[Hash];
  __shared__ short    slotOf[Hash];
  __shared__ int      slotLabel[MaxSlots];
  __shared__ unsigned sortedKeys[Threads * ItemsPerThread];
  __shared__ short    head[MaxSlots];
  __shared__ int      slots;
  const int           X0 = blockIdx.x * TW, Y0 = blockIdx.y * TH;
  for (int i = threadIdx.x; i < TH * (TW + 2); i += Threads)
  {
    const int r = i / (TW + 2), c = i % (TW + 2);
    const int gy = Y0 + r, gx = X0 + c - 1;
    lab[r][c] = gx >= 0 && gx < W ? L[static_cast<std::size_t>(gy) * W + gx] : 0;
  }
  for (int i = threadIdx.x; i < Hash; i += Threads)
    keys[i] = 0;
  if (threadIdx.x == 0)
    slots = 0;
  __syncthreads();
  const int r = threadIdx.x / (TW / SegmentPixels);
  const int xs = (threadIdx.x % (TW / SegmentPixels)) * SegmentPixels;
  int       startX[ItemsPerThread], length[ItemsPerThread], label[ItemsPerThread];
  int       own = 0;
  for (int k = 0; k < SegmentPixels; ++k)
  {
    const int c = xs + k + 1;
    const int l = lab[r][c];
    if (l == 0 || lab[r][c - 1] != 0)
      continue;
    int e = c;
    while (e <= TW && lab[r][e] != 0)
      ++e;
    int len = e - c;
    if (crossing[l - 1])
    {
      if (e == TW + 1 && lab[r][TW + 1] != 0)
      {
        // The run goes on past the tile: read the row.
        int         gx = X0 + TW;
        const int * row = L + static_cast<std::size_t>(Y0 + r) * W;
        while (gx < W && row[gx] != 0)
          ++gx;
        len = gx - (X0 + c - 1);
      }
      const unsigned j = atomicAdd(listedCount, 1u);
      listedKeys[j] = (static_cast<std::uint64_t>(l - 1) << 26) | (static_cast<std::uint64_t>(Y0 + r) << 13) |
                      static_cast<std::uint64_t>(X0 + c - 1);
      listedLength[j] = static_cast<unsigned>(len);
    }
    else
    {
      startX[own] = c - 1;
      length[own] = len;
      label[own] = l;
      ++own;
      Insert(keys, l);
    }
  }
  int place = 0;
  Scan(temp.scan).ExclusiveSum(own, place);
  __syncthreads();
  const int n = AllocateSlots(keys, slotOf, slotLabel, nullptr, &slots, false);
  if (n > MaxSlots)
    return; // counted by the table's kernel (the same labels)
  unsigned sortKey[ItemsPerThread], value[ItemsPerThread];
  for (int q = 0; q < ItemsPerThread; ++q)
  {
    if (q < own)
    {
      const int s = Lookup(keys, slotOf, label[q]);
      sortKey[q] = (static_cast<unsigned>(s) << PlaceBits) | static_cast<unsigned>(place + q);
      value[q] =
        static_cast<unsigned>(startX[q]) | (static_cast<unsigned>(r) << 6) | (static_cast<unsigned>(length[q]) << 11);
    }
    else
    {
      sortKey[q] = 0xffffffffu;
      value[q] = 0;
    }
  }
  Sort(temp.sort).Sort(sortKey, value, 0, SlotBits + PlaceBits + 1);
  for (int q = 0; q < ItemsPerThread; ++q)
    sortedKeys[threadIdx.x * ItemsPerThread + q] = sortKey[q];
  __syncthreads();
  for (int q = 0; q < ItemsPerThread; ++q)
  {
    const int p = threadIdx.x * ItemsPerThread + q;
    if (sortKey[q] == 0xffffffffu)
      continue;
    const unsigned s = sortKey[q] >> PlaceBits;
    if (p == 0 || (sortedKeys[p - 1] >> PlaceBits) != s)
      head[s] = static_cast<short>(p);
  }
  __syncthreads();
  for (int q = 0; q < ItemsPerThread; ++q)
  {
    const int p = threadIdx.x * ItemsPerThread + q;
    if (sortKey[q] == 0xffffffffu)
      continue;
    const unsigned s = sortKey[q] >> PlaceBits;
    const int      l = slotLabel[s];
    const unsigned v = value[q];
    Run            run;
    run.x = X0 + static_cast<int>(v & 63);
    run.y = Y0 + static_cast<int>((v >> 6) & 31);
    run.z = 0;
    run.length = static_cast<int>(v >> 11);
    grouped[firstRun[l - 1] + (p - head[s])] = run;
  }
}

__global__ void
ListedHeadsKernel(const std::uint64_t * keys, unsigned count, unsigned * firstListed)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  const unsigned l = static_cast<unsigned>(keys[i] >> 26);
  if (i == 0 || static_cast<unsigned>(keys[i - 1] >> 26) != l)
    firstListed[l] = i;
}

__global__ void
PlaceListedKernel(const std::uint64_t * keys,
                  const unsigned *      lengths,
                  unsigned              count,
                  const unsigned *      firstListed,
                  const unsigned *      firstRun,
                  Run *                 grouped)
{
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count)
    return;
  const std::uint64_t key = keys[i];
  const unsigned      l = static_cast<unsigned>(key >> 26);
  Run                 run;
  run.x = static_cast<int>(key & 8191);
  run.y = static_cast<int>((key >> 13) & 8191);
  run.z = 0;
  run.length = static_cast<int>(lengths[i]);
  grouped[firstRun[l] + (i - firstListed[l])] = run;
}

// ---- CPU reference ----
static int
LabelRaster(const std::vector<std::uint8_t> & image, int W, int H, int conn, std::vector<int> & L)
{
  L.assign(image.size(), 0);
  std::vector<int> stack;
  int              next = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
    {
      const std::size_t p = static_cast<std::size_t>(y) * W + x;
      if (!image[p] || L[p])
        continue;
      ++next;
      L[p] = next;
      stack.push_back(static_cast<int>(p));
      while (!stack.empty())
      {
        const int q = stack.back();
        stack.pop_back();
        const int qy = q / W, qx = q % W;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx)
          {
            if ((dx == 0 && dy == 0) || (conn == 4 && dx != 0 && dy != 0))
              continue;
            const int ny = qy + dy, nx = qx + dx;
            if (ny < 0 || ny >= H || nx < 0 || nx >= W)
              continue;
            const std::size_t o = static_cast<std::size_t>(ny) * W + nx;
            if (image[o] && !L[o])
            {
              L[o] = next;
              stack.push_back(static_cast<int>(o));
            }
          }
      }
    }
  return next;
}

static void
ReferenceTable(const std::vector<int> & L, int W, int H, int C, std::vector<Entry> & table, std::vector<Run> & grouped)
{
  table.assign(C, Entry{});
  for (auto & e : table)
  {
    e.bbMin[0] = e.bbMin[1] = 0x7fffffff;
    e.bbMax[0] = e.bbMax[1] = -1;
  }
  const auto at = [&](int y, int x) {
    return y < 0 || y >= H || x < 0 || x >= W ? 0 : L[static_cast<std::size_t>(y) * W + x];
  };
  std::vector<unsigned> runs(C, 0);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
    {
      const int l = at(y, x);
      if (!l)
        continue;
      Entry & e = table[l - 1];
      e.count++;
      e.bbMin[0] = std::min(e.bbMin[0], x);
      e.bbMin[1] = std::min(e.bbMin[1], y);
      e.bbMax[0] = std::max(e.bbMax[0], x);
      e.bbMax[1] = std::max(e.bbMax[1], y);
      const bool onBorder = x == 0 || y == 0 || x == W - 1 || y == H - 1;
      e.border += onBorder;
      e.faces[0] += x == 0;
      e.faces[1] += x == W - 1;
      e.faces[2] += y == 0;
      e.faces[3] += y == H - 1;
      e.sum[0] += x;
      e.sum[1] += y;
      e.prod[0] += static_cast<std::uint64_t>(x) * x;
      e.prod[1] += static_cast<std::uint64_t>(y) * y;
      e.prod[2] += static_cast<std::uint64_t>(x) * y;
      e.intercepts[0] += (at(y, x - 1) != l) + (at(y, x + 1) != l);
      e.intercepts[1] += (at(y - 1, x) != l) + (at(y + 1, x) != l);
      e.intercepts[2] +=
        (at(y - 1, x - 1) != l) + (at(y - 1, x + 1) != l) + (at(y + 1, x - 1) != l) + (at(y + 1, x + 1) != l);
      if (at(y, x - 1) == 0)
        runs[l - 1]++;
    }
  std::vector<std::size_t> first(C + 1, 0);
  for (int c = 0; c < C; ++c)
    first[c + 1] = first[c] + runs[c];
  grouped.assign(first[C], Run{});
  std::vector<std::size_t> fill(first.begin(), first.end() - 1);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
    {
      const int l = at(y, x);
      if (!l || at(y, x - 1) != 0)
        continue;
      int e = x;
      while (e < W && at(y, e) != 0)
        ++e;
      grouped[fill[l - 1]++] = Run{ x, y, 0, e - x };
    }
}

static bool
SameEntry(const Entry & a, const Entry & b)
{
  return a.count == b.count && a.bbMin[0] == b.bbMin[0] && a.bbMin[1] == b.bbMin[1] && a.bbMax[0] == b.bbMax[0] &&
         a.bbMax[1] == b.bbMax[1] && a.border == b.border && a.sum[0] == b.sum[0] && a.sum[1] == b.sum[1] &&
         a.prod[0] == b.prod[0] && a.prod[1] == b.prod[1] && a.prod[2] == b.prod[2] &&
         std::memcmp(a.faces, b.faces, sizeof a.faces) == 0 &&
         std::memcmp(a.intercepts, b.intercepts, sizeof a.intercepts) == 0;
}

// A mismatching entry's fields, for the log.
static void
PrintEntry(const char * who, const Entry & e)
{
  std::printf("  %s: n %u bb %d %d %d %d sum %lld %lld prod %llu %llu %llu icpt %u %u %u border %u\n",
              who,
              e.count,
              e.bbMin[0],
              e.bbMin[1],
              e.bbMax[0],
              e.bbMax[1],
              (long long)e.sum[0],
              (long long)e.sum[1],
              (unsigned long long)e.prod[0],
              (unsigned long long)e.prod[1],
              (unsigned long long)e.prod[2],
              e.intercepts[0],
              e.intercepts[1],
              e.intercepts[2],
              e.border);
}

int
main(int argc, char ** argv)
{
  const int           conn = argc > 1 ? std::atoi(argv[1]) : 4;
  const int           reps = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<double> densities;
  for (int a = 3; a < argc; ++a)
    densities.push_back(std::atof(argv[a]));
  if (densities.empty())
    for (int k = 0; k <= 10; ++k)
      densities.push_back(0.1 * k);
  const int         W = 8192, H = 8192, g = 1;
  const std::size_t pixels = static_cast<std::size_t>(W) * H;
  int *             dL;
  Entry *           dTable, *dPartials, *dCarried;
  unsigned *        dRunCount, *dFirstRun, *dPartialKeys, *dPartialKeysSorted, *dPartialIndex, *dPartialIndexSorted;
  unsigned *        dCounters, *dCarriedKeys, *dListedLength, *dListedLengthSorted, *dFirstListed;
  std::uint8_t *    dCrossing;
  std::uint64_t *   dListedKeys, *dListedKeysSorted;
  Run *             dGrouped;
  const std::size_t maxComponents = pixels / 2 + 1, maxPartials = 12u << 20, maxRuns = pixels / 2 + 1;
  CHECK(cudaMalloc(&dL, pixels * 4));
  CHECK(cudaMalloc(&dTable, maxComponents * sizeof(Entry)));
  CHECK(cudaMalloc(&dPartials, maxPartials * sizeof(Entry)));
  CHECK(cudaMalloc(&dCarried, maxPartials / 16 * sizeof(Entry)));
  CHECK(cudaMalloc(&dCarriedKeys, maxPartials / 16 * 4));
  CHECK(cudaMalloc(&dRunCount, maxComponents * 4));
  CHECK(cudaMalloc(&dFirstRun, maxComponents * 4));
  CHECK(cudaMalloc(&dFirstListed, maxComponents * 4));
  CHECK(cudaMalloc(&dCrossing, maxComponents));
  CHECK(cudaMalloc(&dPartialKeys, maxPartials * 4));
  CHECK(cudaMalloc(&dPartialKeysSorted, maxPartials * 4));
  CHECK(cudaMalloc(&dPartialIndex, maxPartials * 4));
  CHECK(cudaMalloc(&dPartialIndexSorted, maxPartials * 4));
  CHECK(cudaMalloc(&dListedKeys, maxRuns * 8));
  CHECK(cudaMalloc(&dListedKeysSorted, maxRuns * 8));
  CHECK(cudaMalloc(&dListedLength, maxRuns * 4));
  CHECK(cudaMalloc(&dListedLengthSorted, maxRuns * 4));
  CHECK(cudaMalloc(&dGrouped, maxRuns * sizeof(Run)));
  CHECK(cudaMalloc(&dCounters, 16));
  std::vector<unsigned> iota(maxPartials);
  for (std::size_t i = 0; i < iota.size(); ++i)
    iota[i] = static_cast<unsigned>(i);
  CHECK(cudaMemcpy(dPartialIndex, iota.data(), maxPartials * 4, cudaMemcpyHostToDevice));
  std::size_t tempBytes = 0, t = 0;
  cub::DeviceRadixSort::SortPairs(
    nullptr, t, dPartialKeys, dPartialKeysSorted, dPartialIndex, dPartialIndexSorted, static_cast<int>(maxPartials));
  tempBytes = std::max(tempBytes, t);
  cub::DeviceRadixSort::SortPairs(
    nullptr, t, dListedKeys, dListedKeysSorted, dListedLength, dListedLengthSorted, static_cast<int>(maxRuns));
  tempBytes = std::max(tempBytes, t);
  cub::DeviceScan::ExclusiveSum(nullptr, t, dRunCount, dFirstRun, static_cast<int>(maxComponents));
  tempBytes = std::max(tempBytes, t);
  void * dTemp;
  CHECK(cudaMalloc(&dTemp, tempBytes));
  const std::size_t dynamicBytes = (Fields * MaxSlots + MaxSlots) * 4;
  auto              tableKernel = conn == 8 ? TileTableKernel<8> : TileTableKernel<4>;
  CHECK(cudaFuncSetAttribute(tableKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamicBytes)));
  cudaEvent_t ev[8];
  for (auto & e : ev)
    CHECK(cudaEventCreate(&e));
  std::printf("conn %d, %dx%d g=%d, tiles %dx%d; ms: tiles(table) scan tiles(runs) partials listed total\n",
              conn,
              W,
              H,
              g,
              TH,
              TW);
  double summedMs = 0, summedPixels = 0;
  bool   allOk = true;
  for (std::size_t di = 0; di < densities.size(); ++di)
  {
    const double              d = densities[di];
    const int                 k = static_cast<int>(d * 10 + 0.5);
    std::vector<std::uint8_t> image(pixels);
    cca::FillRandomBlockImage<std::uint8_t>(W, H, 1, d, g, static_cast<std::uint32_t>(1000 * g + k), image.data());
    std::vector<int>   L;
    const int          C = LabelRaster(image, W, H, conn, L);
    std::vector<Entry> refTable;
    std::vector<Run>   refRuns;
    ReferenceTable(L, W, H, C, refTable, refRuns);
    CHECK(cudaMemcpy(dL, L.data(), pixels * 4, cudaMemcpyHostToDevice));
    std::vector<double> total, stage[5];
    unsigned            counts[4] = { 0, 0, 0, 0 };
    for (int rep = 0; rep <= reps; ++rep)
    {
      CHECK(cudaMemset(dTable, 0xee, static_cast<std::size_t>(C) * sizeof(Entry)));
      CHECK(cudaMemset(dGrouped, 0xee, refRuns.size() * sizeof(Run)));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaEventRecord(ev[0]));
      CHECK(cudaMemsetAsync(dCounters, 0, 16));
      CHECK(cudaMemsetAsync(dRunCount, 0, static_cast<std::size_t>(C) * 4));
      const dim3 tiles(W / TW, H / TH);
      tableKernel<<<tiles, Threads, dynamicBytes>>>(
        dL, W, H, dTable, dRunCount, dCrossing, dPartials, dPartialKeys, dCounters, dCounters + 3);
      CHECK(cudaEventRecord(ev[1]));
      std::size_t tb = tempBytes;
      if (C > 0)
        cub::DeviceScan::ExclusiveSum(dTemp, tb, dRunCount, dFirstRun, C);
      CHECK(cudaEventRecord(ev[2]));
      TileRunsKernel<<<tiles, Threads>>>(
        dL, W, H, dCrossing, dFirstRun, dGrouped, dListedKeys, dListedLength, dCounters + 1);
      CHECK(cudaEventRecord(ev[3]));
      CHECK(cudaMemcpy(counts, dCounters, 16, cudaMemcpyDeviceToHost));
      const unsigned partialCount = counts[0], listedCount = counts[1];
      if (partialCount > maxPartials || partialCount / 16 + 64 > maxPartials / 16)
      {
        std::fprintf(stderr, "too many partials: %u\n", partialCount);
        return 3;
      }
      int bits = 1;
      while ((1ull << bits) < static_cast<unsigned long long>(C))
        ++bits;
      if (partialCount > 0)
      {
        tb = tempBytes;
        cub::DeviceRadixSort::SortPairs(dTemp,
                                        tb,
                                        dPartialKeys,
                                        dPartialKeysSorted,
                                        dPartialIndex,
                                        dPartialIndexSorted,
                                        static_cast<int>(partialCount),
                                        0,
                                        bits);
        FoldPartialsKernel<<<(partialCount + 255) / 256, 256>>>(dPartialKeysSorted,
                                                                dPartialIndexSorted,
                                                                dPartials,
                                                                partialCount,
                                                                dTable,
                                                                dCarried,
                                                                dCarriedKeys,
                                                                dCounters + 2);
        MergeCarriedKernel<<<(partialCount / 32 + 256) / 256, 256>>>(dCarried, dCarriedKeys, dCounters + 2, dTable);
      }
      CHECK(cudaEventRecord(ev[4]));
      if (listedCount > 0)
      {
        tb = tempBytes;
        cub::DeviceRadixSort::SortPairs(dTemp,
                                        tb,
                                        dListedKeys,
                                        dListedKeysSorted,
                                        dListedLength,
                                        dListedLengthSorted,
                                        static_cast<int>(listedCount),
                                        0,
                                        26 + bits);
        ListedHeadsKernel<<<(listedCount + 255) / 256, 256>>>(dListedKeysSorted, listedCount, dFirstListed);
        PlaceListedKernel<<<(listedCount + 255) / 256, 256>>>(
          dListedKeysSorted, dListedLengthSorted, listedCount, dFirstListed, dFirstRun, dGrouped);
      }
      CHECK(cudaEventRecord(ev[5]));
      CHECK(cudaEventSynchronize(ev[5]));
      CHECK(cudaGetLastError());
      if (rep == 0)
        continue; // warm-up
      float ms[5];
      for (int s = 0; s < 5; ++s)
        CHECK(cudaEventElapsedTime(&ms[s], ev[s], ev[s + 1]));
      float all;
      CHECK(cudaEventElapsedTime(&all, ev[0], ev[5]));
      total.push_back(all);
      for (int s = 0; s < 5; ++s)
        stage[s].push_back(ms[s]);
    }
    CHECK(cudaMemcpy(counts, dCounters, 16, cudaMemcpyDeviceToHost));
    std::vector<Entry> table(C);
    std::vector<Run>   runs(refRuns.size());
    CHECK(cudaMemcpy(table.data(), dTable, static_cast<std::size_t>(C) * sizeof(Entry), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(runs.data(), dGrouped, runs.size() * sizeof(Run), cudaMemcpyDeviceToHost));
    std::size_t badEntries = 0, badRuns = 0, firstBad = 0;
    for (int c = 0; c < C; ++c)
      if (!SameEntry(table[c], refTable[c]) && badEntries++ == 0)
        firstBad = c;
    for (std::size_t i = 0; i < runs.size(); ++i)
      badRuns += std::memcmp(&runs[i], &refRuns[i], sizeof(Run)) != 0;
    const bool ok = badEntries == 0 && badRuns == 0 && counts[3] == 0;
    allOk = allOk && ok;
    std::vector<double> sorted = total;
    std::sort(sorted.begin(), sorted.end());
    const double m = sorted[sorted.size() / 2];
    summedMs += m;
    summedPixels += static_cast<double>(pixels);
    std::printf(
      "d=%.1f components %d runs %zu partials %u listed runs %u | ", d, C, refRuns.size(), counts[0], counts[1]);
    for (int s = 0; s < 5; ++s)
    {
      std::vector<double> v = stage[s];
      std::sort(v.begin(), v.end());
      std::printf("%.3f ", v[v.size() / 2]);
    }
    std::printf("| %.3f ms, %s (bad entries %zu, first %zu; bad runs %zu; overflowing tiles %u)\n",
                m,
                ok ? "matches the CPU reference" : "MISMATCH",
                badEntries,
                firstBad,
                badRuns,
                counts[3]);
    if (badEntries)
    {
      PrintEntry("gpu", table[firstBad]);
      PrintEntry("cpu", refTable[firstBad]);
    }
    std::fflush(stdout);
  }
  std::printf("summed: %.3f ms over %zu images, %.1f Gpix/s (table + grouped runs from the label image); %s\n",
              summedMs,
              densities.size(),
              summedPixels / summedMs / 1e6,
              allOk ? "all match" : "SOME MISMATCH");
  return allOk ? 0 : 1;
}
