// Probe (not part of the engine): how long does one streaming pass of a
// plane's union-find take when each block walks a band of whole rows, row
// after row, keeping in shared memory only the previous row's runs and the
// components they belong to?
//
// The pass is the first half of a design that would fold the full table
// into the labeling (docs/results.md: a label-first design cannot meet
// issue 13's 2D g = 1 targets). Per row, a block of 1024 threads: finds the
// row's runs from its bits (a scan of the words' start and end counts),
// links each run to the previous row's runs it touches (union-find over
// component ids in shared memory), flattens every run to its root, counts
// the components that ended with the previous row (their roots untouched),
// and renumbers the live roots densely so that ids are reused row after row.
// No features, no output but each band's component count (checked against
// a CPU union-find of the band alone). Usage:
//   band-streaming-probe [--size 8192] [--rows 16,32,64,128] [--reps 5]
#include "cca/RandomImages.h"

#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
constexpr int MaxWidth = 8192;
constexpr int MaxWords = MaxWidth / 32;
constexpr int MaxRuns = MaxWidth / 2;
constexpr int MaxIds = 2 * MaxRuns;
constexpr int IdsPerThread = MaxIds / Threads;

struct Shared
{
  std::uint16_t start[2][MaxRuns];
  std::uint16_t end[2][MaxRuns]; // inclusive
  std::uint16_t id[2][MaxRuns];
  std::uint32_t endMask[2][MaxWords];
  std::uint16_t endsBefore[2][MaxWords];
  std::uint32_t parent[MaxIds];
  std::uint16_t rank[MaxIds];
  std::uint8_t  touched[MaxIds];
};

__device__ __forceinline__ unsigned
Find(std::uint32_t * parent, unsigned x)
{
  while (true)
  {
    const unsigned p = parent[x];
    if (p == x)
    {
      return x;
    }
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
    {
      return;
    }
    if (a > b)
    {
      const unsigned t = a;
      a = b;
      b = t;
    }
    const unsigned old = atomicCAS(&parent[b], b, a);
    if (old == b)
    {
      return;
    }
  }
}

template <bool Full>
__global__ void
__launch_bounds__(Threads)
  BandKernel(const std::uint32_t * bits, int width, int height, int bandRows, unsigned * bandComponents)
{
  extern __shared__ __align__(16) unsigned char raw[];
  Shared &                                      s = *reinterpret_cast<Shared *>(raw);
  using Scan = cub::BlockScan<unsigned, Threads>;
  __shared__ typename Scan::TempStorage scanStorage;
  __shared__ unsigned                   newIds, closed, liveIds;

  const int tid = threadIdx.x;
  const int words = width / 32;
  const int y0 = blockIdx.x * bandRows;
  const int y1 = min(height, y0 + bandRows);
  if (tid == 0)
  {
    closed = 0;
    liveIds = 0;
  }
  int cur = 0;
  int previousRuns = 0;
  for (int y = y0; y < y1; ++y)
  {
    const int prev = cur ^ 1;
    // 1. The row's runs: starts and ends counted a word a thread, scanned.
    const std::uint32_t * row = bits + static_cast<std::size_t>(y) * words;
    std::uint32_t         starts = 0, ends = 0;
    if (tid < words)
    {
      const std::uint32_t w = row[tid];
      const std::uint32_t left = tid > 0 ? row[tid - 1] >> 31 : 0u;
      const std::uint32_t right = tid + 1 < words ? (row[tid + 1] & 1u) << 31 : 0u;
      starts = w & ~((w << 1) | left);
      ends = w & ~((w >> 1) | right);
    }
    const unsigned packed = (static_cast<unsigned>(__popc(starts)) << 16) | static_cast<unsigned>(__popc(ends));
    unsigned       before, total;
    Scan(scanStorage).ExclusiveSum(packed, before, total);
    if (tid < words)
    {
      unsigned k = before >> 16;
      for (std::uint32_t m = starts; m != 0; m &= m - 1)
      {
        s.start[cur][k++] = static_cast<std::uint16_t>(tid * 32 + __ffs(m) - 1);
      }
      k = before & 0xffffu;
      for (std::uint32_t m = ends; m != 0; m &= m - 1)
      {
        s.end[cur][k++] = static_cast<std::uint16_t>(tid * 32 + __ffs(m) - 1);
      }
      s.endMask[cur][tid] = ends;
      s.endsBefore[cur][tid] = static_cast<std::uint16_t>(before & 0xffffu);
    }
    const int runs = static_cast<int>(total >> 16);
    if (tid == 0)
    {
      newIds = 0;
    }
    __syncthreads();
    // 2. Each run joins the previous row's runs it touches.
    const unsigned live = liveIds;
    for (int r = tid; r < runs; r += Threads)
    {
      const int a = s.start[cur][r];
      const int b = s.end[cur][r];
      const int lo = Full ? max(a - 1, 0) : a;
      const int hi = Full ? min(b + 1, width - 1) : b;
      // The first previous run that ends at lo or later: the ends before lo.
      const int w = lo >> 5;
      int       j = s.endsBefore[prev][w] + __popc(s.endMask[prev][w] & ((1u << (lo & 31)) - 1u));
      int       id = -1;
      for (; j < previousRuns && s.start[prev][j] <= hi; ++j)
      {
        const unsigned other = s.id[prev][j];
        if (id < 0)
        {
          id = static_cast<int>(other);
        }
        else
        {
          Unite(s.parent, static_cast<unsigned>(id), other);
        }
      }
      if (id < 0)
      {
        id = static_cast<int>(live + atomicAdd(&newIds, 1u));
        s.parent[id] = static_cast<std::uint32_t>(id);
      }
      s.id[cur][r] = static_cast<std::uint16_t>(id);
    }
    __syncthreads();
    // 3. Every run to its root; the roots it reaches are touched.
    for (int r = tid; r < runs; r += Threads)
    {
      const unsigned root = Find(s.parent, s.id[cur][r]);
      s.id[cur][r] = static_cast<std::uint16_t>(root);
      s.touched[root] = 1;
    }
    __syncthreads();
    // 4. Previous roots that nothing touched ended with the previous row;
    //    the touched roots are renumbered 0 .. n-1 for the next row.
    const unsigned ids = live + newIds;
    unsigned       flags[IdsPerThread];
    unsigned       ended = 0;
#pragma unroll
    for (int k = 0; k < IdsPerThread; ++k)
    {
      const unsigned i = static_cast<unsigned>(tid * IdsPerThread + k);
      flags[k] = i < ids ? s.touched[i] : 0u;
      ended += (i < live && flags[k] == 0 && s.parent[i] == i) ? 1u : 0u;
    }
    unsigned ranks[IdsPerThread], alive;
    __syncthreads(); // scanStorage is reused
    Scan(scanStorage).ExclusiveSum(flags, ranks, alive);
#pragma unroll
    for (int k = 0; k < IdsPerThread; ++k)
    {
      const unsigned i = static_cast<unsigned>(tid * IdsPerThread + k);
      if (i < ids)
      {
        s.rank[i] = static_cast<std::uint16_t>(ranks[k]);
      }
    }
    ended = __reduce_add_sync(0xffffffffu, ended);
    if ((tid & 31) == 0 && ended != 0)
    {
      atomicAdd(&closed, ended);
    }
    __syncthreads();
    for (int r = tid; r < runs; r += Threads)
    {
      s.id[cur][r] = s.rank[s.id[cur][r]];
    }
    for (unsigned i = tid; i < ids; i += Threads)
    {
      s.touched[i] = 0;
      if (i < alive)
      {
        s.parent[i] = i;
      }
    }
    if (tid == 0)
    {
      liveIds = alive;
    }
    __syncthreads();
    previousRuns = runs;
    cur ^= 1;
  }
  if (tid == 0)
  {
    bandComponents[blockIdx.x] = closed + liveIds;
  }
}

/** Components of rows [y0, y1) of the image alone (CPU, union-find over runs). */
unsigned
BandComponentsOnCpu(const std::vector<std::uint8_t> & image, int width, int y0, int y1, bool full)
{
  struct Run
  {
    int a, b;
  };
  std::vector<std::vector<Run>> rows(static_cast<std::size_t>(y1 - y0));
  std::vector<int>              firstRun(static_cast<std::size_t>(y1 - y0) + 1, 0);
  int                           count = 0;
  for (int y = y0; y < y1; ++y)
  {
    const std::uint8_t * p = image.data() + static_cast<std::size_t>(y) * width;
    for (int x = 0; x < width;)
    {
      if (!p[x])
      {
        ++x;
        continue;
      }
      int e = x;
      while (e + 1 < width && p[e + 1])
      {
        ++e;
      }
      rows[y - y0].push_back({ x, e });
      x = e + 1;
    }
    firstRun[y - y0] = count;
    count += static_cast<int>(rows[y - y0].size());
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
    const auto & here = rows[y - y0];
    std::size_t  j = 0;
    for (std::size_t i = 0; i < here.size(); ++i)
    {
      const int lo = full ? here[i].a - 1 : here[i].a;
      const int hi = full ? here[i].b + 1 : here[i].b;
      while (j < above.size() && above[j].b < lo)
      {
        ++j;
      }
      for (std::size_t k = j; k < above.size() && above[k].a <= hi; ++k)
      {
        const int p = find(firstRun[y - y0] + static_cast<int>(i));
        const int q = find(firstRun[y - y0 - 1] + static_cast<int>(k));
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
    {
      ++p;
    }
    if (*p == ',')
    {
      ++p;
    }
  }
  return v;
}
} // namespace

int
main(int argc, char ** argv)
{
  int              size = 8192;
  int              reps = 5;
  std::vector<int> bandRows{ 16, 32, 64, 128 };
  for (int i = 1; i + 1 < argc; i += 2)
  {
    const std::string arg = argv[i];
    if (arg == "--size")
      size = std::atoi(argv[i + 1]);
    else if (arg == "--reps")
      reps = std::atoi(argv[i + 1]);
    else if (arg == "--rows")
      bandRows = ParseList(argv[i + 1]);
  }
  if (size > MaxWidth || size % 32 != 0)
  {
    std::fprintf(stderr, "the width must be a multiple of 32 up to %d\n", MaxWidth);
    return 2;
  }
  const int    words = size / 32;
  const size_t shared = sizeof(Shared);
  CHECK(cudaFuncSetAttribute(BandKernel<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  CHECK(cudaFuncSetAttribute(BandKernel<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s, %d SMs; band kernel: %d threads, %zu bytes of dynamic shared memory\n",
              prop.name,
              prop.multiProcessorCount,
              Threads,
              shared);
  std::uint32_t * dBits = nullptr;
  unsigned *      dCounts = nullptr;
  CHECK(cudaMalloc(&dBits, static_cast<size_t>(size) * words * 4));
  CHECK(cudaMalloc(&dCounts, static_cast<size_t>(size) * 4));
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  std::printf("connectivity,density,band_rows,bands,ms_median,components_in_bands,checked\n");
  std::vector<double> summed(bandRows.size() * 2, 0.0);
  for (int full = 0; full < 2; ++full)
  {
    for (int k = 0; k <= 10; ++k)
    {
      const double density = 0.1 * k;
      const auto   image = cca::RandomBlockImage(size, size, 1, density, 1, 1000u + static_cast<unsigned>(k));
      std::vector<std::uint32_t> bits(static_cast<size_t>(size) * words, 0u);
      for (size_t p = 0; p < image.size(); ++p)
      {
        if (image[p])
        {
          bits[p / 32] |= 1u << (p % 32);
        }
      }
      CHECK(cudaMemcpy(dBits, bits.data(), bits.size() * 4, cudaMemcpyHostToDevice));
      for (size_t b = 0; b < bandRows.size(); ++b)
      {
        const int rowsPerBand = bandRows[b];
        const int bands = (size + rowsPerBand - 1) / rowsPerBand;
        auto      launch = [&] {
          if (full)
            BandKernel<true><<<bands, Threads, shared>>>(dBits, size, size, rowsPerBand, dCounts);
          else
            BandKernel<false><<<bands, Threads, shared>>>(dBits, size, size, rowsPerBand, dCounts);
        };
        launch(); // warm-up
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        std::vector<float> ms;
        for (int r = 0; r < reps; ++r)
        {
          CHECK(cudaEventRecord(t0));
          launch();
          CHECK(cudaEventRecord(t1));
          CHECK(cudaEventSynchronize(t1));
          float m = 0;
          CHECK(cudaEventElapsedTime(&m, t0, t1));
          ms.push_back(m);
        }
        std::sort(ms.begin(), ms.end());
        std::vector<unsigned> counts(static_cast<size_t>(bands));
        CHECK(cudaMemcpy(counts.data(), dCounts, counts.size() * 4, cudaMemcpyDeviceToHost));
        // Every 8th band against the CPU (all would take minutes).
        int checked = 0;
        for (int band = 0; band < bands; band += 8)
        {
          const unsigned expected =
            BandComponentsOnCpu(image, size, band * rowsPerBand, std::min(size, (band + 1) * rowsPerBand), full != 0);
          if (expected != counts[static_cast<size_t>(band)])
          {
            std::printf("MISMATCH conn=%s d=%.1f rows=%d band=%d: gpu %u cpu %u\n",
                        full ? "full" : "face",
                        density,
                        rowsPerBand,
                        band,
                        counts[static_cast<size_t>(band)],
                        expected);
            return 1;
          }
          ++checked;
        }
        unsigned long long all = 0;
        for (unsigned c : counts)
          all += c;
        const double median = ms[ms.size() / 2];
        summed[static_cast<size_t>(full) * bandRows.size() + b] += median;
        std::printf(
          "%s,%.1f,%d,%d,%.4f,%llu,%d\n", full ? "full" : "face", density, rowsPerBand, bands, median, all, checked);
        std::fflush(stdout);
      }
    }
  }
  for (int full = 0; full < 2; ++full)
  {
    for (size_t b = 0; b < bandRows.size(); ++b)
    {
      const double ms = summed[static_cast<size_t>(full) * bandRows.size() + b];
      std::printf("# summed %s, %d rows a band: %.3f ms, %.1f Gpix/s\n",
                  full ? "full" : "face",
                  bandRows[b],
                  ms,
                  11.0 * size * static_cast<double>(size) / ms / 1e6);
    }
  }
  return 0;
}
