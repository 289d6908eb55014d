// Probe (not part of the engine), second step of band-streaming-probe.cu:
// the same streaming union-find, a block a tile of TileWidth columns and a
// band of rows, plus what a fused table pass would do on top of it: each
// run's features (pixel count, box, coordinate sums and products, the pairs
// with the previous row's runs) added into its component's record in
// shared memory, records merged when their components join, and each
// component's record stored to global memory (96 bytes, the planar entry's
// size) once the component ends, or at the band's end if it is still
// open. Not done: the numbering, the label image, the grouped runs, the
// merge of the pieces of components that cross a band or tile border.
// Checked: every tile's record count against a CPU union-find of the tile
// alone (every 8th tile), and the records' pixel sum against the image's
// foreground. Usage: band-features-probe [--reps 5] [--rows 16,32,64]
#include "cca/RandomImages.h"

#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#define CHECK(call)                                                                              \
  do                                                                                             \
  {                                                                                              \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess)                                                                       \
    {                                                                                            \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

namespace
{
constexpr int Threads = 1024;
constexpr int Size = 8192;

struct Record
{
  unsigned long long sumX, sumY, sumXX, sumXY, sumYY;
  unsigned           count, runs, rowPairs, diagonalPairs;
  unsigned           minX, maxX, minY, maxY;
};

struct Entry // the planar entry's 96 bytes
{
  unsigned long long words[12];
};

template <int TileWidth, bool Features, int Slots>
struct Shared
{
  static constexpr int MaxRuns = TileWidth / 2;
  static constexpr int MaxIds = TileWidth;
  std::uint16_t        start[2][MaxRuns];
  std::uint16_t        end[2][MaxRuns];
  std::uint16_t        id[2][MaxRuns];
  std::uint32_t        endMask[2][TileWidth / 32];
  std::uint16_t        endsBefore[2][TileWidth / 32];
  std::uint32_t        parent[MaxIds];
  std::uint16_t        rank[MaxIds];
  std::uint8_t         touched[MaxIds];
  std::uint16_t        slotOf[Features ? 2 : 1][Features ? MaxIds : 1];
  std::uint16_t        freeSlots[Features ? Slots : 1];
  Record               record[Features ? Slots + 1 : 1]; // the last: where an id without a slot writes
};

__device__ __forceinline__ unsigned
Find(std::uint32_t * parent, unsigned x)
{
  while (true)
  {
    const unsigned p = parent[x];
    if (p == x)
      return x;
    const unsigned g = parent[p];
    parent[x] = g;
    x = g;
  }
}

__device__ __forceinline__ void
Unite(std::uint32_t * parent, unsigned a, unsigned b)
{
  while (true)
  {
    a = Find(parent, a);
    b = Find(parent, b);
    if (a == b)
      return;
    if (a > b)
    {
      const unsigned t = a;
      a = b;
      b = t;
    }
    if (atomicCAS(&parent[b], b, a) == b)
      return;
  }
}

__device__ __forceinline__ unsigned
Overlap(int a0, int a1, int b0, int b1)
{
  const int lo = max(a0, b0);
  const int hi = min(a1, b1);
  return hi >= lo ? static_cast<unsigned>(hi - lo + 1) : 0u;
}

__device__ __forceinline__ void
MergeInto(Record & to, const Record & from)
{
  atomicAdd(&to.sumX, from.sumX);
  atomicAdd(&to.sumY, from.sumY);
  atomicAdd(&to.sumXX, from.sumXX);
  atomicAdd(&to.sumXY, from.sumXY);
  atomicAdd(&to.sumYY, from.sumYY);
  atomicAdd(&to.count, from.count);
  atomicAdd(&to.runs, from.runs);
  atomicAdd(&to.rowPairs, from.rowPairs);
  atomicAdd(&to.diagonalPairs, from.diagonalPairs);
  atomicMin(&to.minX, from.minX);
  atomicMax(&to.maxX, from.maxX);
  atomicMin(&to.minY, from.minY);
  atomicMax(&to.maxY, from.maxY);
}

__device__ __forceinline__ void
Store(Entry * out, const Record & r)
{
  // A planar entry's fields, in its order; what a finished entry holds.
  ulonglong2 * o = reinterpret_cast<ulonglong2 *>(out);
  o[0] = make_ulonglong2(r.count | (static_cast<unsigned long long>(r.minX) << 32),
                         r.minY | (static_cast<unsigned long long>(r.maxX) << 32));
  o[1] = make_ulonglong2(r.maxY | (static_cast<unsigned long long>(r.runs) << 32), r.sumX);
  o[2] = make_ulonglong2(r.sumY, r.sumXX);
  o[3] = make_ulonglong2(r.sumYY, r.sumXY);
  o[4] = make_ulonglong2(0, 0);
  o[5] = make_ulonglong2(r.count - r.runs, r.rowPairs | (static_cast<unsigned long long>(r.diagonalPairs) << 32));
}

template <bool Full, bool Features, int TileWidth, int Slots>
__global__ void
__launch_bounds__(Threads) TileKernel(const std::uint32_t * bits,
                                      int                   bandRows,
                                      unsigned *            tileRecords,
                                      Entry *               entries,
                                      unsigned long long *  entryCount,
                                      unsigned long long *  pixelSum,
                                      unsigned *            overflow)
{
  using S = Shared<TileWidth, Features, Slots>;
  constexpr int Words = TileWidth / 32;
  constexpr int IdsPerThread = S::MaxIds / Threads;
  static_assert(S::MaxIds % Threads == 0, "ids a thread");
  extern __shared__ __align__(16) unsigned char raw[];
  S &                                           s = *reinterpret_cast<S *>(raw);
  using Scan = cub::BlockScan<unsigned, Threads>;
  __shared__ typename Scan::TempStorage scanStorage;
  __shared__ unsigned                   newIds, liveIds, records, freeTop;
  __shared__ unsigned long long         storeBase, pixels;

  const int tid = threadIdx.x;
  const int rowWords = Size / 32;
  const int tileX = blockIdx.y * TileWidth;
  const int y0 = blockIdx.x * bandRows;
  const int y1 = min(Size, y0 + bandRows);
  if (tid == 0)
  {
    liveIds = 0;
    records = 0;
    freeTop = Slots;
    pixels = 0;
  }
  if constexpr (Features)
  {
    for (int i = tid; i < Slots; i += Threads)
      s.freeSlots[i] = static_cast<std::uint16_t>(i);
  }
  int      cur = 0;
  int      previousRuns = 0;
  unsigned myPixels = 0;
  for (int y = y0; y <= y1; ++y) // y1: the flush of the components still open
  {
    const int  prev = cur ^ 1;
    const bool flushOnly = y == y1;
    int        runs = 0;
    if (!flushOnly)
    {
      const std::uint32_t * row = bits + static_cast<std::size_t>(y) * rowWords + tileX / 32;
      std::uint32_t         starts = 0, ends = 0;
      if (tid < Words)
      {
        const std::uint32_t w = row[tid];
        const std::uint32_t left = tid > 0 ? row[tid - 1] >> 31 : 0u;
        const std::uint32_t right = tid + 1 < Words ? (row[tid + 1] & 1u) << 31 : 0u;
        starts = w & ~((w << 1) | left);
        ends = w & ~((w >> 1) | right);
      }
      const unsigned packed = (static_cast<unsigned>(__popc(starts)) << 16) | static_cast<unsigned>(__popc(ends));
      unsigned       before, total;
      __syncthreads(); // scanStorage
      Scan(scanStorage).ExclusiveSum(packed, before, total);
      if (tid < Words)
      {
        unsigned k = before >> 16;
        for (std::uint32_t m = starts; m != 0; m &= m - 1)
          s.start[cur][k++] = static_cast<std::uint16_t>(tid * 32 + __ffs(m) - 1);
        k = before & 0xffffu;
        for (std::uint32_t m = ends; m != 0; m &= m - 1)
          s.end[cur][k++] = static_cast<std::uint16_t>(tid * 32 + __ffs(m) - 1);
        s.endMask[cur][tid] = ends;
        s.endsBefore[cur][tid] = static_cast<std::uint16_t>(before & 0xffffu);
      }
      runs = static_cast<int>(total >> 16);
    }
    if (tid == 0)
      newIds = 0;
    __syncthreads();
    const unsigned live = liveIds;
    // Links to the previous row; a new component takes a record slot.
    unsigned pairs[2] = { 0, 0 }; // row pairs | diagonal pairs << 16, a run at tid and tid + Threads
    for (int r = tid, n = 0; r < runs; r += Threads, ++n)
    {
      const int a = s.start[cur][r];
      const int b = s.end[cur][r];
      const int lo = Full ? max(a - 1, 0) : a;
      const int hi = Full ? min(b + 1, TileWidth - 1) : b;
      const int w = lo >> 5;
      int       j = s.endsBefore[prev][w] + __popc(s.endMask[prev][w] & ((1u << (lo & 31)) - 1u));
      int       id = -1;
      unsigned  rowPairs = 0, diagonalPairs = 0;
      for (; j < previousRuns && s.start[prev][j] <= hi; ++j)
      {
        const unsigned other = s.id[prev][j];
        if constexpr (Features)
        {
          const int pa = s.start[prev][j], pb = s.end[prev][j];
          rowPairs += Overlap(a, b, pa, pb);
          diagonalPairs += Overlap(a + 1, b + 1, pa, pb) + Overlap(a - 1, b - 1, pa, pb);
        }
        if (id < 0)
          id = static_cast<int>(other);
        else
          Unite(s.parent, static_cast<unsigned>(id), other);
      }
      if (id < 0)
      {
        id = static_cast<int>(live + atomicAdd(&newIds, 1u));
        s.parent[id] = static_cast<std::uint32_t>(id);
        if constexpr (Features)
        {
          const unsigned top = atomicSub(&freeTop, 1u);
          unsigned       slot = Slots;
          if (top == 0 || top > Slots)
          {
            atomicAdd(overflow, 1u);
            atomicAdd(&freeTop, 1u);
          }
          else
          {
            slot = s.freeSlots[top - 1];
          }
          s.slotOf[cur & 1][id] = static_cast<std::uint16_t>(slot);
          {
            Record & rec = s.record[slot];
            rec.sumX = rec.sumY = rec.sumXX = rec.sumXY = rec.sumYY = 0;
            rec.count = rec.runs = rec.rowPairs = rec.diagonalPairs = 0;
            rec.minX = rec.minY = 0xffffffffu;
            rec.maxX = rec.maxY = 0;
          }
        }
      }
      s.id[cur][r] = static_cast<std::uint16_t>(id);
      if (n < 2)
        pairs[n] = rowPairs | (diagonalPairs << 16);
    }
    __syncthreads();
    // Roots; each run's features into its root's record; the records of
    // the roots that joined another root merged into it.
    for (int r = tid, n = 0; r < runs; r += Threads, ++n)
    {
      const unsigned root = Find(s.parent, s.id[cur][r]);
      s.id[cur][r] = static_cast<std::uint16_t>(root);
      s.touched[root] = 1;
      if constexpr (Features)
      {
        const unsigned long long x = static_cast<unsigned long long>(tileX + s.start[cur][r]);
        const unsigned long long len = static_cast<unsigned long long>(s.end[cur][r] - s.start[cur][r] + 1);
        const unsigned long long yy = static_cast<unsigned long long>(y);
        const unsigned long long sx = len * x + len * (len - 1) / 2;
        const unsigned long long sxx = len * x * x + x * len * (len - 1) + (len - 1) * len * (2 * len - 1) / 6;
        Record &                 rec = s.record[s.slotOf[cur & 1][root]];
        atomicAdd(&rec.sumX, sx);
        atomicAdd(&rec.sumY, len * yy);
        atomicAdd(&rec.sumXX, sxx);
        atomicAdd(&rec.sumXY, sx * yy);
        atomicAdd(&rec.sumYY, len * yy * yy);
        atomicAdd(&rec.count, static_cast<unsigned>(len));
        atomicAdd(&rec.runs, 1u);
        const unsigned p = n < 2 ? pairs[n] : 0u;
        atomicAdd(&rec.rowPairs, p & 0xffffu);
        atomicAdd(&rec.diagonalPairs, p >> 16);
        atomicMin(&rec.minX, static_cast<unsigned>(x));
        atomicMax(&rec.maxX, static_cast<unsigned>(x + len - 1));
        atomicMin(&rec.minY, static_cast<unsigned>(y));
        atomicMax(&rec.maxY, static_cast<unsigned>(y));
        myPixels += static_cast<unsigned>(len);
      }
    }
    if constexpr (Features)
    {
      for (unsigned i = tid; i < live; i += Threads)
      {
        if (s.parent[i] != i)
        {
          const unsigned root = Find(s.parent, i);
          MergeInto(s.record[s.slotOf[cur & 1][root]], s.record[s.slotOf[cur & 1][i]]);
        }
      }
    }
    __syncthreads();
    // Ended roots stored; live roots renumbered 0 .. n-1.
    const unsigned ids = live + newIds;
    unsigned       flags[IdsPerThread];
#pragma unroll
    for (int k = 0; k < IdsPerThread; ++k)
    {
      const unsigned i = static_cast<unsigned>(tid * IdsPerThread + k);
      const bool     t = i < ids && s.touched[i];
      const bool     e = i < live && !t && s.parent[i] == i;
      flags[k] = (t ? 1u : 0u) | (e ? 1u << 16 : 0u); // at the band's end every live root ends
    }
    unsigned ranks[IdsPerThread], totals;
    __syncthreads();
    Scan(scanStorage).ExclusiveSum(flags, ranks, totals);
    const unsigned alive = totals & 0xffffu;
    const unsigned endedCount = totals >> 16;
    if constexpr (Features)
    {
      if (tid == 0 && endedCount > 0)
        storeBase = atomicAdd(entryCount, static_cast<unsigned long long>(endedCount));
      __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < IdsPerThread; ++k)
    {
      const unsigned i = static_cast<unsigned>(tid * IdsPerThread + k);
      if (i < ids)
        s.rank[i] = static_cast<std::uint16_t>(ranks[k] & 0xffffu);
      if constexpr (Features)
      {
        if (flags[k] >> 16)
        {
          const unsigned slot = s.slotOf[cur & 1][i];
          Store(entries + storeBase + (ranks[k] >> 16), s.record[slot]);
          if (slot < Slots)
            s.freeSlots[atomicAdd(&freeTop, 1u)] = static_cast<std::uint16_t>(slot);
        }
      }
    }
    if constexpr (Features)
    {
      // The slots of the roots that joined another are free too.
      for (unsigned i = tid; i < live; i += Threads)
      {
        if (s.parent[i] != i && s.slotOf[cur & 1][i] < Slots)
          s.freeSlots[atomicAdd(&freeTop, 1u)] = s.slotOf[cur & 1][i];
      }
    }
    if (tid == 0)
      records += endedCount;
    __syncthreads();
    for (int r = tid; r < runs; r += Threads)
      s.id[cur][r] = s.rank[s.id[cur][r]];
    for (unsigned i = tid; i < ids; i += Threads)
    {
      if constexpr (Features)
      {
        if (s.touched[i])
          s.slotOf[prev & 1][s.rank[i]] = s.slotOf[cur & 1][i]; // the next row's generation
      }
    }
    __syncthreads();
    for (unsigned i = tid; i < ids; i += Threads)
    {
      s.touched[i] = 0;
      if (i < alive)
        s.parent[i] = i;
    }
    if (tid == 0)
      liveIds = alive;
    __syncthreads();
    previousRuns = runs;
    cur ^= 1;
  }
  if constexpr (Features)
  {
    myPixels = __reduce_add_sync(0xffffffffu, myPixels);
    if ((tid & 31) == 0)
      atomicAdd(&pixels, static_cast<unsigned long long>(myPixels));
    __syncthreads();
    if (tid == 0)
      atomicAdd(pixelSum, pixels);
  }
  if (tid == 0)
    tileRecords[blockIdx.y * gridDim.x + blockIdx.x] = records;
}

unsigned
TileComponentsOnCpu(const std::vector<std::uint8_t> & image, int x0, int x1, int y0, int y1, bool full)
{
  struct Run
  {
    int a, b, index;
  };
  std::vector<std::vector<Run>> rows(static_cast<std::size_t>(y1 - y0));
  int                           count = 0;
  for (int y = y0; y < y1; ++y)
  {
    const std::uint8_t * p = image.data() + static_cast<std::size_t>(y) * Size;
    for (int x = x0; x < x1;)
    {
      if (!p[x])
      {
        ++x;
        continue;
      }
      int e = x;
      while (e + 1 < x1 && p[e + 1])
        ++e;
      rows[y - y0].push_back({ x, e, count++ });
      x = e + 1;
    }
  }
  std::vector<int> parent(static_cast<std::size_t>(count));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int x) {
    while (parent[x] != x)
    {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  unsigned components = static_cast<unsigned>(count);
  for (int y = y0 + 1; y < y1; ++y)
  {
    const auto & above = rows[y - y0 - 1];
    std::size_t  j = 0;
    for (const Run & h : rows[y - y0])
    {
      const int lo = full ? h.a - 1 : h.a;
      const int hi = full ? h.b + 1 : h.b;
      while (j < above.size() && above[j].b < lo)
        ++j;
      for (std::size_t m = j; m < above.size() && above[m].a <= hi; ++m)
      {
        const Run & a = above[m];
        const int   p = find(h.index), q = find(a.index);
        if (p != q)
        {
          parent[std::max(p, q)] = std::min(p, q);
          --components;
        }
      }
    }
  }
  return components;
}

std::vector<int>
ParseList(const char * text)
{
  std::vector<int> v;
  for (const char * p = text; *p;)
  {
    v.push_back(std::atoi(p));
    while (*p && *p != ',')
      ++p;
    if (*p == ',')
      ++p;
  }
  return v;
}

template <bool Full, bool Features, int TileWidth, int Slots>
void
RunVariant(const char *                      name,
           int                               k,
           const std::vector<std::uint8_t> & image,
           unsigned long long                foreground,
           const std::uint32_t *             dBits,
           int                               rowsPerBand,
           int                               reps,
           Entry *                           dEntries,
           unsigned long long *              dScalars,
           unsigned *                        dCounts,
           double &                          summed)
{
  using S = Shared<TileWidth, Features, Slots>;
  auto kernel = TileKernel<Full, Features, TileWidth, Slots>;
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(sizeof(S))));
  const dim3  grid((Size + rowsPerBand - 1) / rowsPerBand, Size / TileWidth);
  unsigned *  dOverflow = dCounts + grid.x * grid.y;
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  std::vector<float> ms;
  for (int r = -1; r < reps; ++r)
  {
    CHECK(cudaMemset(dScalars, 0, 16));
    CHECK(cudaMemset(dOverflow, 0, 4));
    CHECK(cudaEventRecord(t0));
    kernel<<<grid, Threads, sizeof(S)>>>(dBits, rowsPerBand, dCounts, dEntries, dScalars, dScalars + 1, dOverflow);
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaGetLastError());
    float m = 0;
    CHECK(cudaEventElapsedTime(&m, t0, t1));
    if (r >= 0)
      ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  const unsigned        tiles = grid.x * grid.y;
  std::vector<unsigned> counts(tiles + 1);
  CHECK(cudaMemcpy(counts.data(), dCounts, counts.size() * 4, cudaMemcpyDeviceToHost));
  unsigned long long scalars[2];
  CHECK(cudaMemcpy(scalars, dScalars, 16, cudaMemcpyDeviceToHost));
  unsigned long long all = 0;
  for (unsigned t = 0; t < tiles; ++t)
    all += counts[t];
  bool ok = counts[tiles] == 0;
  if (Features)
    ok = ok && scalars[0] == all && scalars[1] == foreground;
  for (unsigned t = 0; ok && t < tiles; t += 8)
  {
    const int      bx = static_cast<int>(t % grid.x), by = static_cast<int>(t / grid.x);
    const unsigned expected = TileComponentsOnCpu(
      image, by * TileWidth, (by + 1) * TileWidth, bx * rowsPerBand, std::min(Size, (bx + 1) * rowsPerBand), Full);
    ok = expected == counts[t];
  }
  summed += ms[ms.size() / 2];
  std::printf("%s,%s,%.1f,%d,%d,%.4f,%llu,%s\n",
              name,
              Full ? "full" : "face",
              0.1 * k,
              TileWidth,
              rowsPerBand,
              ms[ms.size() / 2],
              all,
              ok ? "ok" : "MISMATCH");
  if (!ok)
    std::printf("MISMATCH detail: overflow %u records %llu stored %llu pixels %llu foreground %llu\n",
                counts[tiles],
                all,
                scalars[0],
                scalars[1],
                foreground);
  std::fflush(stdout);
}
} // namespace

int
main(int argc, char ** argv)
{
  int              reps = 5;
  std::vector<int> bandRows{ 16, 32, 64 };
  for (int i = 1; i + 1 < argc; i += 2)
  {
    const std::string arg = argv[i];
    if (arg == "--reps")
      reps = std::atoi(argv[i + 1]);
    else if (arg == "--rows")
      bandRows = ParseList(argv[i + 1]);
  }
  const int            words = Size / 32;
  std::uint32_t *      dBits = nullptr;
  Entry *              dEntries = nullptr;
  unsigned long long * dScalars = nullptr;
  unsigned *           dCounts = nullptr;
  CHECK(cudaMalloc(&dBits, static_cast<size_t>(Size) * words * 4));
  CHECK(cudaMalloc(&dEntries, static_cast<size_t>(Size) * Size / 4 * sizeof(Entry)));
  CHECK(cudaMalloc(&dScalars, 16));
  CHECK(cudaMalloc(&dCounts, static_cast<size_t>(Size) * 64 * 4 + 4));
  std::printf("variant,connectivity,density,tile_width,band_rows,ms_median,records,check\n");
  const int           variants = 4;
  std::vector<double> summed(bandRows.size() * variants * 2, 0.0);
  for (int full = 0; full < 2; ++full)
  {
    for (int k = 0; k <= 10; ++k)
    {
      const auto image = cca::RandomBlockImage(Size, Size, 1, 0.1 * k, 1, 1000u + static_cast<unsigned>(k));
      std::vector<std::uint32_t> bits(static_cast<size_t>(Size) * words, 0u);
      unsigned long long         foreground = 0;
      for (size_t p = 0; p < image.size(); ++p)
      {
        if (image[p])
        {
          bits[p / 32] |= 1u << (p % 32);
          ++foreground;
        }
      }
      CHECK(cudaMemcpy(dBits, bits.data(), bits.size() * 4, cudaMemcpyHostToDevice));
      for (size_t b = 0; b < bandRows.size(); ++b)
      {
        double *  sum = &summed[(static_cast<size_t>(full) * bandRows.size() + b) * variants];
        const int rows = bandRows[b];
        if (full)
        {
          RunVariant<true, false, 8192, 1>(
            "labels", k, image, foreground, dBits, rows, reps, dEntries, dScalars, dCounts, sum[0]);
          RunVariant<true, false, 4096, 1>(
            "labels", k, image, foreground, dBits, rows, reps, dEntries, dScalars, dCounts, sum[1]);
          RunVariant<true, true, 4096, 2048>(
            "features", k, image, foreground, dBits, rows, reps, dEntries, dScalars, dCounts, sum[2]);
          RunVariant<true, true, 2048, 1024>(
            "features", k, image, foreground, dBits, rows, reps, dEntries, dScalars, dCounts, sum[3]);
        }
        else
        {
          RunVariant<false, false, 8192, 1>(
            "labels", k, image, foreground, dBits, rows, reps, dEntries, dScalars, dCounts, sum[0]);
          RunVariant<false, false, 4096, 1>(
            "labels", k, image, foreground, dBits, rows, reps, dEntries, dScalars, dCounts, sum[1]);
          RunVariant<false, true, 4096, 2048>(
            "features", k, image, foreground, dBits, rows, reps, dEntries, dScalars, dCounts, sum[2]);
          RunVariant<false, true, 2048, 1024>(
            "features", k, image, foreground, dBits, rows, reps, dEntries, dScalars, dCounts, sum[3]);
        }
      }
    }
  }
  const char * names[variants] = { "labels 8192", "labels 4096", "features 4096", "features 2048" };
  for (int full = 0; full < 2; ++full)
    for (size_t b = 0; b < bandRows.size(); ++b)
      for (int v = 0; v < variants; ++v)
      {
        const double ms = summed[(static_cast<size_t>(full) * bandRows.size() + b) * variants + v];
        std::printf("# summed %s, %s wide tiles, %d rows: %.3f ms, %.1f Gpix/s\n",
                    full ? "full" : "face",
                    names[v],
                    bandRows[b],
                    ms,
                    11.0 * Size * static_cast<double>(Size) / ms / 1e6);
      }
  return 0;
}
