// Probe: the runs in component order by counting (a count a component,
// its exclusive sum, an atomic scatter, each component's runs sorted
// back into raster order) against CUB's radix sort of (label, index)
// pairs, on the labels of real random images (i.i.d. at density d,
// labelled here on the host, components numbered by first run).
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda/std/functional>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#define CK(x)                                                                       \
  do                                                                                \
  {                                                                                 \
    cudaError_t e = (x);                                                            \
    if (e != cudaSuccess)                                                           \
    {                                                                               \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

using U = std::uint32_t;

struct Labels
{
  std::vector<U> key;   // label of each sorted unit
  std::vector<U> value; // its run index
  U              components = 0;
  U              largestRuns = 0;
};

// Runs of an i.i.d. image, labelled on the host. neighbours: 4 or 8 in 2D
// (depth 1), 6 in 3D.
Labels
MakeLabels(int width, int height, int depth, double density, int neighbours, bool withoutLargest, unsigned seed)
{
  std::uint64_t s = 0x9E3779B97F4A7C15ull * (seed + 1);
  auto          next = [&s] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  const std::int64_t   rows = std::int64_t(height) * depth;
  std::vector<U>       rowOffset(rows + 1, 0);
  std::vector<int>     rx, re;
  std::vector<uint8_t> line(width);
  const std::uint64_t  threshold = static_cast<std::uint64_t>(density * 18446744073709551615.0);
  for (std::int64_t r = 0; r < rows; ++r)
  {
    for (int x = 0; x < width; ++x)
      line[x] = next() < threshold;
    rowOffset[r] = static_cast<U>(rx.size());
    for (int x = 0; x < width;)
    {
      if (!line[x])
      {
        ++x;
        continue;
      }
      int e = x;
      while (e < width && line[e])
        ++e;
      rx.push_back(x);
      re.push_back(e);
      x = e;
    }
  }
  rowOffset[rows] = static_cast<U>(rx.size());
  const U        n = static_cast<U>(rx.size());
  std::vector<U> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](U a) {
    while (parent[a] != a)
    {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    return a;
  };
  auto unite = [&](U a, U b) {
    a = find(a);
    b = find(b);
    if (a != b)
      parent[std::max(a, b)] = std::min(a, b);
  };
  const int slack = neighbours == 8 ? 1 : 0;
  auto      joinRows = [&](std::int64_t r, std::int64_t q) {
    U a = rowOffset[r], b = rowOffset[q];
    while (a < rowOffset[r + 1] && b < rowOffset[q + 1])
    {
      if (rx[a] < re[b] + slack && rx[b] < re[a] + slack)
        unite(a, b);
      if (re[a] < re[b])
        ++a;
      else
        ++b;
    }
  };
  for (std::int64_t r = 0; r < rows; ++r)
  {
    const std::int64_t y = r % height, z = r / height;
    if (y > 0)
      joinRows(r, r - 1);
    if (z > 0)
      joinRows(r, r - height);
  }
  std::vector<U> number(n, ~0u);
  std::vector<U> label(n);
  U              count = 0;
  for (U i = 0; i < n; ++i)
  {
    const U root = find(i);
    if (number[root] == ~0u)
      number[root] = count++;
    label[i] = number[root];
  }
  std::vector<U> size(count, 0);
  for (U i = 0; i < n; ++i)
    ++size[label[i]];
  const U largest = static_cast<U>(std::max_element(size.begin(), size.end()) - size.begin());
  Labels  l;
  l.components = count;
  l.largestRuns = size[largest];
  for (U i = 0; i < n; ++i)
  {
    if (withoutLargest && label[i] == largest)
      continue;
    l.key.push_back(label[i]);
    l.value.push_back(i);
  }
  return l;
}

__global__ void
CountKernel(U n, const U * __restrict__ key, U * count)
{
  for (U i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(count + key[i], 1u);
}

__global__ void
ScatterKernel(U n,
              const U * __restrict__ key,
              const U * __restrict__ value,
              const U * __restrict__ start,
              U * count,
              U * order,
              U * keysOut)
{
  for (U i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
  {
    const U k = key[i];
    const U p = start[k] + atomicSub(count + k, 1u) - 1u;
    order[p] = value[i];
    keysOut[p] = k;
  }
}

constexpr U SmallSegment = 16;

// A thread a component: its runs (at most SmallSegment) back in raster
// order; larger ones are left to the segmented sort.
__global__ void
SortSmallKernel(U components, const U * __restrict__ start, const U * __restrict__ order, U * out)
{
  for (U c = blockIdx.x * blockDim.x + threadIdx.x; c < components; c += gridDim.x * blockDim.x)
  {
    const U b = start[c], n = start[c + 1] - b;
    if (n > SmallSegment)
      continue;
    U v[SmallSegment];
#pragma unroll
    for (U k = 0; k < SmallSegment; ++k)
      v[k] = k < n ? order[b + k] : ~0u;
#pragma unroll
    for (U k = 1; k < SmallSegment; ++k)
    {
#pragma unroll
      for (U j = k; j > 0; --j)
      {
        const U lo = min(v[j - 1], v[j]), hi = max(v[j - 1], v[j]);
        v[j - 1] = lo;
        v[j] = hi;
      }
    }
#pragma unroll
    for (U k = 0; k < SmallSegment; ++k)
      if (k < n)
        out[b + k] = v[k];
  }
}

__global__ void
IotaKernel(U n, U * v)
{
  for (U i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v[i] = i;
}

struct BigEnd
{
  const U * start;
  __host__ __device__ U
  operator()(U c) const
  {
    const U b = start[c], e = start[c + 1];
    return e - b > SmallSegment ? e : b;
  }
};

struct Temp
{
  void * p = nullptr;
  size_t bytes = 0;
  void
  Reserve(size_t b)
  {
    if (b > bytes)
    {
      if (p)
        CK(cudaFree(p));
      CK(cudaMalloc(&p, b));
      bytes = b;
    }
  }
};

template <class F>
float
Time(F && f, int reps)
{
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  f();
  CK(cudaDeviceSynchronize());
  CK(cudaEventRecord(a));
  for (int r = 0; r < reps; ++r)
    f();
  CK(cudaEventRecord(b));
  CK(cudaEventSynchronize(b));
  float ms;
  CK(cudaEventElapsedTime(&ms, a, b));
  return ms * 1000 / reps;
}

int
main(int argc, char ** argv)
{
  struct Case
  {
    const char * name;
    int          w, h, d;
    double       density;
    int          neighbours;
    bool         withoutLargest;
  };
  const Case cases[] = {
    { "2d4 d0.3", 8192, 8192, 1, 0.3, 4, false }, { "2d4 d0.4", 8192, 8192, 1, 0.4, 4, false },
    { "2d4 d0.5", 8192, 8192, 1, 0.5, 4, false }, { "2d4 d0.6 others", 8192, 8192, 1, 0.6, 4, true },
    { "2d8 d0.3", 8192, 8192, 1, 0.3, 8, false }, { "2d8 d0.4 others", 8192, 8192, 1, 0.4, 8, true },
    { "3d6 d0.2", 512, 512, 512, 0.2, 6, false }, { "3d6 d0.3 others", 512, 512, 512, 0.3, 6, true },
  };
  const int reps = 20;
  for (const Case & c : cases)
  {
    const Labels l = MakeLabels(c.w, c.h, c.d, c.density, c.neighbours, c.withoutLargest, 7);
    const U      n = static_cast<U>(l.key.size());
    const U      comps = l.components;
    int          bits = 1;
    while ((1ull << bits) < comps)
      ++bits;
    U *key, *value, *keysOut, *valuesIn, *valuesOut, *count, *start, *scattered;
    CK(cudaMalloc(&key, n * 4ull));
    CK(cudaMalloc(&value, n * 4ull));
    CK(cudaMalloc(&keysOut, n * 4ull));
    CK(cudaMalloc(&valuesIn, n * 4ull));
    CK(cudaMalloc(&valuesOut, n * 4ull));
    CK(cudaMalloc(&scattered, n * 4ull));
    CK(cudaMalloc(&count, (comps + 1ull) * 4));
    CK(cudaMalloc(&start, (comps + 1ull) * 4));
    CK(cudaMemcpy(key, l.key.data(), n * 4ull, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(value, l.value.data(), n * 4ull, cudaMemcpyHostToDevice));
    Temp      t;
    const int grid = 132 * 16;
    // Expected: stable by key.
    std::vector<U> idx(n);
    std::iota(idx.begin(), idx.end(), 0u);
    std::stable_sort(idx.begin(), idx.end(), [&](U a, U b) { return l.key[a] < l.key[b]; });
    auto check = [&](const char * what, float us, const U * order, const U * keys) {
      std::vector<U> o(n), k(n);
      CK(cudaMemcpy(o.data(), order, n * 4ull, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(k.data(), keys, n * 4ull, cudaMemcpyDeviceToHost));
      bool ok = true;
      for (U i = 0; i < n && ok; ++i)
        ok = o[i] == l.value[idx[i]] && k[i] == l.key[idx[i]];
      std::printf("%-16s units %9u comps %9u (%2d bits, largest %9u runs)  %-34s %8.1f us  %s\n",
                  c.name,
                  n,
                  comps,
                  bits,
                  l.largestRuns,
                  what,
                  us,
                  ok ? "ok" : "WRONG");
    };
    for (int round = 0; round < 2; ++round)
    {
      // Radix sort, as the engine sorts now (iota only without the largest split).
      float us = Time(
        [&] {
          if (c.withoutLargest)
            CK(cudaMemcpyAsync(valuesIn, value, n * 4ull, cudaMemcpyDeviceToDevice));
          else
            IotaKernel<<<grid, 256>>>(n, valuesIn);
          size_t b = 0;
          CK(cub::DeviceRadixSort::SortPairs(nullptr, b, key, keysOut, valuesIn, valuesOut, int(n), 0, bits));
          t.Reserve(b);
          CK(cub::DeviceRadixSort::SortPairs(t.p, b, key, keysOut, valuesIn, valuesOut, int(n), 0, bits));
        },
        reps);
      check(c.withoutLargest ? "radix sort (values copied)" : "radix sort (+ iota)", us, valuesOut, keysOut);
      auto countAndScan = [&] {
        CK(cudaMemsetAsync(count, 0, (comps + 1ull) * 4));
        CountKernel<<<grid, 256>>>(n, key, count);
        size_t b = 0;
        CK(cub::DeviceScan::ExclusiveSum(nullptr, b, count, start, int(comps + 1)));
        t.Reserve(b);
        CK(cub::DeviceScan::ExclusiveSum(t.p, b, count, start, int(comps + 1)));
      };
      const float countUs = Time(countAndScan, reps);
      std::printf("  counts + scan %.1f us\n", countUs);
      const float scatterUs = Time(
        [&] {
          countAndScan();
          ScatterKernel<<<grid, 256>>>(n, key, value, start, count, scattered, keysOut);
        },
        reps);
      std::printf("  + scatter %.1f us\n", scatterUs);
      us = Time(
        [&] {
          countAndScan();
          ScatterKernel<<<grid, 256>>>(n, key, value, start, count, scattered, keysOut);
          size_t b = 0;
          CK(
            cub::DeviceSegmentedSort::SortKeys(nullptr, b, scattered, valuesOut, int(n), int(comps), start, start + 1));
          t.Reserve(b);
          CK(cub::DeviceSegmentedSort::SortKeys(t.p, b, scattered, valuesOut, int(n), int(comps), start, start + 1));
        },
        reps);
      check("counting + segmented sort", us, valuesOut, keysOut);
      us = Time(
        [&] {
          countAndScan();
          ScatterKernel<<<grid, 256>>>(n, key, value, start, count, scattered, keysOut);
          SortSmallKernel<<<grid, 256>>>(comps, start, scattered, valuesOut);
          auto   ends = thrust::make_transform_iterator(thrust::counting_iterator<U>(0), BigEnd{ start });
          size_t b = 0;
          CK(cub::DeviceSegmentedSort::SortKeys(nullptr, b, scattered, valuesOut, int(n), int(comps), start, ends));
          t.Reserve(b);
          CK(cub::DeviceSegmentedSort::SortKeys(t.p, b, scattered, valuesOut, int(n), int(comps), start, ends));
        },
        reps);
      check("counting + small by thread", us, valuesOut, keysOut);
    }
    CK(cudaFree(key));
    CK(cudaFree(value));
    CK(cudaFree(keysOut));
    CK(cudaFree(valuesIn));
    CK(cudaFree(valuesOut));
    CK(cudaFree(scattered));
    CK(cudaFree(count));
    CK(cudaFree(start));
    CK(cudaFree(t.p));
  }
  return 0;
}
