// Probe: CUB onesweep radix sort of (label, index) pairs as the component
// order sorts them: 64-bit against 32-bit offsets, and wider digits.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/dispatch/dispatch_radix_sort.cuh>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <random>
#include <algorithm>

#define CK(x)                                        \
  do                                                 \
  {                                                  \
    cudaError_t e = (x);                             \
    if (e != cudaSuccess)                            \
    {                                                \
      printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      std::exit(1);                                  \
    }                                                \
  } while (0)

template <int Bits, int Threads, int Items>
struct Hub
{
  struct Policy900 : cub::ChainedPolicy<900, Policy900, Policy900>
  {
    static constexpr bool ONESWEEP = true;
    static constexpr int  ONESWEEP_RADIX_BITS = Bits;
    using HistogramPolicy = cub::AgentRadixSortHistogramPolicy<128, 16, 1, std::uint32_t, Bits>;
    using ExclusiveSumPolicy = cub::AgentRadixSortExclusiveSumPolicy<256, Bits>;
    using OnesweepPolicy = cub::AgentRadixSortOnesweepPolicy<Threads,
                                                             Items,
                                                             std::uint32_t,
                                                             1,
                                                             cub::RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
                                                             cub::BLOCK_SCAN_RAKING_MEMOIZE,
                                                             cub::RADIX_SORT_STORE_DIRECT,
                                                             Bits>;
    using ScanPolicy = cub::AgentScanPolicy<512,
                                            23,
                                            std::uint32_t,
                                            cub::BLOCK_LOAD_WARP_TRANSPOSE,
                                            cub::LOAD_DEFAULT,
                                            cub::BLOCK_STORE_WARP_TRANSPOSE,
                                            cub::BLOCK_SCAN_RAKING_MEMOIZE>;
    using DownsweepPolicy = cub::AgentRadixSortDownsweepPolicy<512,
                                                               23,
                                                               std::uint32_t,
                                                               cub::BLOCK_LOAD_TRANSPOSE,
                                                               cub::LOAD_DEFAULT,
                                                               cub::RADIX_RANK_MATCH,
                                                               cub::BLOCK_SCAN_WARP_SCANS,
                                                               7>;
    using AltDownsweepPolicy = cub::AgentRadixSortDownsweepPolicy<256,
                                                                  47,
                                                                  std::uint32_t,
                                                                  cub::BLOCK_LOAD_TRANSPOSE,
                                                                  cub::LOAD_DEFAULT,
                                                                  cub::RADIX_RANK_MEMOIZE,
                                                                  cub::BLOCK_SCAN_WARP_SCANS,
                                                                  6>;
    using UpsweepPolicy = cub::AgentRadixSortUpsweepPolicy<256, 23, std::uint32_t, cub::LOAD_DEFAULT, 7>;
    using AltUpsweepPolicy = cub::AgentRadixSortUpsweepPolicy<256, 47, std::uint32_t, cub::LOAD_DEFAULT, 6>;
    using SingleTilePolicy = cub::AgentRadixSortDownsweepPolicy<256,
                                                                19,
                                                                std::uint32_t,
                                                                cub::BLOCK_LOAD_DIRECT,
                                                                cub::LOAD_LDG,
                                                                cub::RADIX_RANK_MEMOIZE,
                                                                cub::BLOCK_SCAN_WARP_SCANS,
                                                                6>;
    using SegmentedPolicy = cub::AgentRadixSortDownsweepPolicy<192,
                                                               39,
                                                               std::uint32_t,
                                                               cub::BLOCK_LOAD_TRANSPOSE,
                                                               cub::LOAD_DEFAULT,
                                                               cub::RADIX_RANK_MEMOIZE,
                                                               cub::BLOCK_SCAN_WARP_SCANS,
                                                               6>;
    using AltSegmentedPolicy = cub::AgentRadixSortDownsweepPolicy<384,
                                                                  11,
                                                                  std::uint32_t,
                                                                  cub::BLOCK_LOAD_TRANSPOSE,
                                                                  cub::LOAD_DEFAULT,
                                                                  cub::RADIX_RANK_MEMOIZE,
                                                                  cub::BLOCK_SCAN_WARP_SCANS,
                                                                  5>;
  };
  using MaxPolicy = Policy900;
};

__global__ void
Iota(std::uint32_t n, std::uint32_t * v)
{
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v[i] = i;
}

struct Buffers
{
  std::uint32_t *keys, *keysOut, *valsIn, *valsOut;
  void *         temp = nullptr;
  size_t         tempBytes = 0;
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
  return ms / reps;
}

void
Reserve(Buffers & B, size_t bytes)
{
  if (bytes > B.tempBytes)
  {
    if (B.temp)
      CK(cudaFree(B.temp));
    CK(cudaMalloc(&B.temp, bytes));
    B.tempBytes = bytes;
  }
}

template <class OffsetT>
float
Default(Buffers & B, std::uint32_t n, int bits, int reps)
{
  auto run = [&] {
    Iota<<<1024, 256>>>(n, B.valsIn);
    size_t bytes = 0;
    CK(cub::DeviceRadixSort::SortPairs(
      nullptr, bytes, B.keys, B.keysOut, B.valsIn, B.valsOut, static_cast<OffsetT>(n), 0, bits));
    Reserve(B, bytes);
    CK(cub::DeviceRadixSort::SortPairs(
      B.temp, bytes, B.keys, B.keysOut, B.valsIn, B.valsOut, static_cast<OffsetT>(n), 0, bits));
  };
  return Time(run, reps);
}

template <int Bits, int Threads, int Items>
float
Custom(Buffers & B, std::uint32_t n, int bits, int reps, bool overwrite)
{
  using D = cub::DispatchRadixSort<cub::SortOrder::Ascending,
                                   std::uint32_t,
                                   std::uint32_t,
                                   std::uint32_t,
                                   cub::detail::identity_decomposer_t,
                                   Hub<Bits, Threads, Items>>;
  std::uint32_t * outV = nullptr;
  auto            run = [&] {
    Iota<<<1024, 256>>>(n, B.valsIn);
    cub::DoubleBuffer<std::uint32_t> k(B.keys, B.keysOut), v(B.valsIn, B.valsOut);
    size_t                           bytes = 0;
    CK(D::Dispatch(nullptr, bytes, k, v, n, 0, bits, overwrite, 0));
    Reserve(B, bytes);
    CK(D::Dispatch(B.temp, bytes, k, v, n, 0, bits, overwrite, 0));
    outV = v.Current();
  };
  return Time(run, reps);
}

int
main()
{
  const int reps = 20;
  struct Case
  {
    const char *  name;
    std::uint32_t n;
    std::uint32_t comps;
    int           spread;
  };
  // runs and components of the hard images: 8192^2 4-conn. d = 0.3 (about
  // 14 M runs, 8 M components), 512^3 6-conn. d = 0.3 (about 40 M runs)
  Case cases[] = { { "2d-like n=14M c=8M near", 14000000u, 8000000u, 3000 },
                   { "2d-like n=14M c=8M uniform", 14000000u, 8000000u, -1 },
                   { "3d-like n=40M c=9M near", 40000000u, 9000000u, 60000 },
                   { "n=20M c=3M near", 20000000u, 3000000u, 5000 },
                   { "2d-g4-like n=14M c=300k near", 14000000u, 300000u, 20000 },
                   { "3d-g4-like n=30M c=1M near", 30000000u, 1000000u, 100000 } };
  for (auto & c : cases)
  {
    std::vector<std::uint32_t> keys(c.n);
    std::mt19937               gen(1234);
    for (std::uint32_t i = 0; i < c.n; ++i)
    {
      if (c.spread < 0)
        keys[i] = gen() % c.comps;
      else
      {
        std::int64_t home = std::int64_t(i) * c.comps / c.n;
        std::int64_t back = (gen() % 3 == 0) ? std::int64_t(gen() % c.spread) * c.comps / c.n : 0;
        keys[i] = static_cast<std::uint32_t>(std::max<std::int64_t>(0, home - back));
      }
    }
    int bits = 1;
    while ((1u << bits) < c.comps)
      ++bits;
    Buffers B;
    CK(cudaMalloc(&B.keys, c.n * 4));
    CK(cudaMalloc(&B.keysOut, c.n * 4));
    CK(cudaMalloc(&B.valsIn, c.n * 4));
    CK(cudaMalloc(&B.valsOut, c.n * 4));
    CK(cudaMemcpy(B.keys, keys.data(), c.n * 4, cudaMemcpyHostToDevice));
    auto check = [&](const char * what, float ms) {
      std::vector<std::uint32_t> k(c.n), v(c.n);
      CK(cudaMemcpy(k.data(), B.keysOut, c.n * 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(v.data(), B.valsOut, c.n * 4, cudaMemcpyDeviceToHost));
      bool ok = true;
      for (std::uint32_t i = 0; i < c.n && ok; ++i)
      {
        ok = k[i] == keys[v[i]] && (i == 0 || k[i - 1] < k[i] || (k[i - 1] == k[i] && v[i - 1] < v[i]));
      }
      printf("%-28s bits %d  %-34s %8.1f us  %s\n", c.name, bits, what, ms * 1000, ok ? "ok" : "WRONG");
    };
    for (int round = 0; round < 2; ++round)
    {
      check("default, 64-bit offsets", Default<std::int64_t>(B, c.n, bits, reps));
      check("default, 32-bit offsets", Default<std::int32_t>(B, c.n, bits, reps));
      check("8 bits 384x23", Custom<8, 384, 23>(B, c.n, bits, reps, false));
      check("10 bits 128x23", Custom<10, 128, 23>(B, c.n, bits, reps, false));
      check("10 bits 256x16", Custom<10, 256, 16>(B, c.n, bits, reps, false));
      check("9 bits 384x16", Custom<9, 384, 16>(B, c.n, bits, reps, false));
    }
    CK(cudaFree(B.keys));
    CK(cudaFree(B.keysOut));
    CK(cudaFree(B.valsIn));
    CK(cudaFree(B.valsOut));
    CK(cudaFree(B.temp));
  }
}
