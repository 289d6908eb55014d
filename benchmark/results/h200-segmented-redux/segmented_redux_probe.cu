// Probe: can a warp fold contiguous segments (lanes of equal key) with one
// redux.sync a 32-bit field, each segment's lanes passing their own
// membermask, instead of a shuffle tree over the segments? Checks the sums
// against a host fold and times both folds over the same segment layouts.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <random>
#include <cuda_runtime.h>

constexpr int      Fields = 20;
constexpr unsigned Full = 0xffffffffu;

__device__ __forceinline__ unsigned
LanesBelow()
{
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}
__device__ __forceinline__ unsigned
LanesAbove()
{
  unsigned m;
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(m));
  return m;
}

__global__ void
FoldByShuffles(const unsigned * key, const unsigned * value, unsigned * out, int n, int reps)
{
  const int      i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned k = key[i];
  unsigned       v[Fields];
  for (int f = 0; f < Fields; ++f)
    v[f] = value[(size_t)f * n + i];
  unsigned acc[Fields] = {};
  for (int r = 0; r < reps; ++r)
  {
    unsigned w[Fields];
    for (int f = 0; f < Fields; ++f)
      w[f] = v[f] + r;
    unsigned peers = __match_any_sync(Full, k);
    unsigned rank = __popc(peers & LanesBelow());
    peers &= LanesAbove();
    while (__any_sync(Full, peers != 0))
    {
      const int next = __ffs(peers);
      const int src = next == 0 ? (threadIdx.x & 31) : next - 1;
#pragma unroll
      for (int f = 0; f < Fields; ++f)
      {
        const unsigned o = __shfl_sync(Full, w[f], src);
        w[f] = next != 0 ? w[f] + o : w[f];
      }
      peers &= __ballot_sync(Full, (rank & 1) == 0);
      rank >>= 1;
    }
    for (int f = 0; f < Fields; ++f)
      acc[f] += w[f];
  }
  const unsigned peers = __match_any_sync(Full, k);
  if (__popc(peers & LanesBelow()) == 0)
    for (int f = 0; f < Fields; ++f)
      out[(size_t)f * n + i] = acc[f];
}

__global__ void
FoldByRedux(const unsigned * key, const unsigned * value, unsigned * out, int n, int reps)
{
  const int      i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned k = key[i];
  unsigned       v[Fields];
  for (int f = 0; f < Fields; ++f)
    v[f] = value[(size_t)f * n + i];
  unsigned acc[Fields] = {};
  for (int r = 0; r < reps; ++r)
  {
    const unsigned peers = __match_any_sync(Full, k);
#pragma unroll
    for (int f = 0; f < Fields; ++f)
      acc[f] += __reduce_add_sync(peers, v[f] + r);
  }
  const unsigned peers = __match_any_sync(Full, k);
  if (__popc(peers & LanesBelow()) == 0)
    for (int f = 0; f < Fields; ++f)
      out[(size_t)f * n + i] = acc[f];
}

int
main()
{
  const int             n = 1 << 24, reps = 8;
  std::vector<unsigned> key(n), value((size_t)Fields * n);
  unsigned *            dk, *dv, *da, *db;
  cudaMalloc(&dk, n * 4);
  cudaMalloc(&dv, (size_t)Fields * n * 4);
  cudaMalloc(&da, (size_t)Fields * n * 4);
  cudaMalloc(&db, (size_t)Fields * n * 4);
  std::mt19937 rng(2026);
  for (auto & x : value)
    x = rng();
  cudaMemcpy(dv, value.data(), value.size() * 4, cudaMemcpyHostToDevice);
  for (double mean : { 1.0, 2.0, 4.0, 8.0, 16.0, 64.0 })
  {
    std::geometric_distribution<int> len(1.0 / mean);
    unsigned                         k = 0;
    for (int i = 0; i < n;)
    {
      int l = 1 + len(rng);
      for (int j = 0; j < l && i < n; ++j)
        key[i++] = k;
      ++k;
    }
    cudaMemcpy(dk, key.data(), n * 4, cudaMemcpyHostToDevice);
    cudaMemset(da, 0, (size_t)Fields * n * 4);
    cudaMemset(db, 0, (size_t)Fields * n * 4);
    cudaEvent_t e0, e1, e2;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    cudaEventCreate(&e2);
    FoldByShuffles<<<n / 256, 256>>>(dk, dv, da, n, reps);
    FoldByRedux<<<n / 256, 256>>>(dk, dv, db, n, reps);
    float best[2] = { 1e9f, 1e9f };
    for (int t = 0; t < 5; ++t)
    {
      cudaEventRecord(e0);
      FoldByShuffles<<<n / 256, 256>>>(dk, dv, da, n, reps);
      cudaEventRecord(e1);
      FoldByRedux<<<n / 256, 256>>>(dk, dv, db, n, reps);
      cudaEventRecord(e2);
      cudaEventSynchronize(e2);
      float a, b;
      cudaEventElapsedTime(&a, e0, e1);
      cudaEventElapsedTime(&b, e1, e2);
      best[0] = std::min(best[0], a);
      best[1] = std::min(best[1], b);
    }
    std::vector<unsigned> ha((size_t)Fields * n), hb((size_t)Fields * n);
    cudaMemcpy(ha.data(), da, ha.size() * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(hb.data(), db, hb.size() * 4, cudaMemcpyDeviceToHost);
    // Host reference (the first 2^20 lanes): per warp, per segment leader, sum over reps.
    long long wrongA = 0, wrongB = 0;
    for (int w = 0; w < (1 << 20) / 32; ++w)
      for (int lane = 0; lane < 32; ++lane)
      {
        const int i = w * 32 + lane;
        if (lane > 0 && key[i - 1] == key[i])
          continue; // not a leader
        for (int f = 0; f < Fields; ++f)
        {
          unsigned s = 0;
          for (int r = 0; r < reps; ++r)
            for (int j = lane; j < 32 && key[w * 32 + j] == key[i]; ++j)
              s += value[(size_t)f * n + w * 32 + j] + r;
          wrongA += ha[(size_t)f * n + i] != s;
          wrongB += hb[(size_t)f * n + i] != s;
        }
      }
    printf(
      "mean segment %5.1f lanes: shuffle tree %.3f ms (%lld wrong), redux with segment masks %.3f ms (%lld wrong)\n",
      mean,
      best[0],
      wrongA,
      best[1],
      wrongB);
  }
  cudaError_t e = cudaGetLastError();
  printf("last error: %s\n", cudaGetErrorString(e));
  return 0;
}
