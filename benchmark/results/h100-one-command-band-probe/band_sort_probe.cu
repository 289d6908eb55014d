// Probe (not part of the engine): what a band-local table would pay to group
// runs by component, against today's global sort and gathered reads.
// A (today): CUB's radix sort of (label, index) over all runs, then every
// run's 16-byte record read in component order and written there.
// B (bands): each block sorts a band of 8192 consecutive runs by label in
// shared memory, reads the band's records in that order and writes them;
// plus CUB's sort of the pieces (band, component) of components that span
// several bands (the largest left out), which a merge would take.
// i.i.d. pixels at density d, 8192^2, labels on the host by union-find.
#include <cub/cub.cuh>
#include <cstdio>
#include <cstdint>
#include <numeric>
#include <random>
#include <unordered_set>
#include <vector>
#include <algorithm>

#define CK(x)                                                          \
  do                                                                   \
  {                                                                    \
    cudaError_t e = (x);                                               \
    if (e != cudaSuccess)                                              \
    {                                                                  \
      std::printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); \
      std::exit(1);                                                    \
    }                                                                  \
  } while (0)

struct alignas(16) Rec
{
  int      x, length;
  unsigned row, pairs;
};

constexpr int BandThreads = 512, BandItems = 16, Band = BandThreads * BandItems;

__global__ void
Iota(int n, int * v)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = i;
}

__global__ void
GatherSorted(int n, const int * __restrict__ order, const Rec * __restrict__ rec, Rec * out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
  {
    Rec r = rec[order[i]];
    r.pairs += r.x;
    out[i] = r;
  }
}

template <int RadixBits>
__global__ void
__launch_bounds__(BandThreads)
  BandSort(int n, int keyBits, const int * __restrict__ label, const Rec * __restrict__ rec, Rec * out)
{
  using Sort = cub::BlockRadixSort<int, BandThreads, BandItems, int, RadixBits>;
  extern __shared__ __align__(16) unsigned char smem[];
  auto &                                        temp = *reinterpret_cast<typename Sort::TempStorage *>(smem);
  const int                                     base = blockIdx.x * Band;
  int                                           key[BandItems], idx[BandItems];
#pragma unroll
  for (int k = 0; k < BandItems; ++k)
  {
    const int j = threadIdx.x * BandItems + k; // blocked: runs in raster order
    idx[k] = j;
    key[k] = base + j < n ? label[base + j] : 0x7fffffff;
  }
  Sort(temp).SortBlockedToStriped(key, idx, 0, keyBits + 1);
#pragma unroll
  for (int k = 0; k < BandItems; ++k)
  {
    const int p = k * BandThreads + threadIdx.x;
    if (base + idx[k] < n && base + p < n)
    {
      Rec r = rec[base + idx[k]];
      r.pairs += r.x;
      out[base + p] = r;
    }
  }
}

struct Image
{
  std::vector<int> label;
  std::vector<Rec> rec;
  int              components;
  std::vector<int> pieces;
};

static Image
Make(double d, bool full, int seed)
{
  const int                   size = 8192;
  std::mt19937_64             random(seed);
  std::bernoulli_distribution pixel(d);
  std::vector<int>            x0, x1, y, rowStart(size + 1);
  std::vector<unsigned char>  row(size);
  for (int yy = 0; yy < size; ++yy)
  {
    rowStart[yy] = (int)x0.size();
    for (int x = 0; x < size; ++x)
      row[x] = pixel(random);
    for (int x = 0; x < size;)
    {
      if (!row[x])
      {
        ++x;
        continue;
      }
      int s = x;
      while (x < size && row[x])
        ++x;
      x0.push_back(s);
      x1.push_back(x - 1);
      y.push_back(yy);
    }
  }
  rowStart[size] = (int)x0.size();
  const int        n = (int)x0.size();
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int a) {
    while (parent[a] != a)
    {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    return a;
  };
  const int reach = full ? 1 : 0;
  for (int yy = 1; yy < size; ++yy)
    for (int i = rowStart[yy - 1], j = rowStart[yy]; i < rowStart[yy] && j < rowStart[yy + 1];)
    {
      if (x1[i] + reach >= x0[j] && x1[j] + reach >= x0[i])
      {
        int a = find(i), b = find(j);
        if (a < b)
          parent[b] = a;
        else if (b < a)
          parent[a] = b;
      }
      if (x1[i] < x1[j])
        ++i;
      else
        ++j;
    }
  Image im;
  im.label.resize(n);
  im.rec.resize(n);
  std::vector<int> number(n, -1), runsOf(n, 0);
  int              c = 0;
  for (int i = 0; i < n; ++i)
  {
    int r = find(i);
    if (r == i)
      number[i] = c++;
    im.label[i] = number[r];
    ++runsOf[number[r]];
    im.rec[i] = Rec{ x0[i], x1[i] - x0[i] + 1, (unsigned)y[i], 0u };
  }
  im.components = c;
  int              largest = (int)(std::max_element(runsOf.begin(), runsOf.begin() + c) - runsOf.begin());
  std::vector<int> firstBand(c, 1 << 30), lastBand(c, -1);
  for (int i = 0; i < n; ++i)
  {
    int b = i / Band, l = im.label[i];
    firstBand[l] = std::min(firstBand[l], b);
    lastBand[l] = std::max(lastBand[l], b);
  }
  for (int b0 = 0; b0 < n; b0 += Band)
  {
    std::unordered_set<int> seen;
    for (int i = b0; i < std::min(n, b0 + Band); ++i)
    {
      int l = im.label[i];
      if (l != largest && firstBand[l] != lastBand[l] && seen.insert(l).second)
        im.pieces.push_back(l);
    }
  }
  return im;
}

template <class F>
static float
Time(F && f)
{
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int r = 0; r < 6; ++r)
  {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r)
      t.push_back(ms * 1000);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int
main(int argc, char ** argv)
{
  const bool full = argc > 1 && argv[1][0] == '8';
  const int  last = argc > 2 ? std::atoi(argv[2]) : 9;
  for (int k = 1; k <= last; ++k)
  {
    const double d = 0.1 * k;
    Image        im = Make(d, full, 1000 + k);
    const int    n = (int)im.label.size(), P = (int)im.pieces.size();
    int          keyBits = 1;
    while ((1ll << keyBits) < im.components)
      ++keyBits;
    int *dLabel, *dKeys, *dIota, *dOrder, *dPieces, *dPieceKeys, *dPieceIota, *dPieceOrder;
    Rec *dRec, *dOut, *dOut2;
    CK(cudaMalloc(&dLabel, n * 4));
    CK(cudaMalloc(&dKeys, n * 4));
    CK(cudaMalloc(&dIota, n * 4));
    CK(cudaMalloc(&dOrder, n * 4));
    CK(cudaMalloc(&dRec, n * 16ll));
    CK(cudaMalloc(&dOut, n * 16ll));
    CK(cudaMalloc(&dOut2, n * 16ll));
    CK(cudaMalloc(&dPieces, (P + 1) * 4));
    CK(cudaMalloc(&dPieceKeys, (P + 1) * 4));
    CK(cudaMalloc(&dPieceIota, (P + 1) * 4));
    CK(cudaMalloc(&dPieceOrder, (P + 1) * 4));
    CK(cudaMemcpy(dLabel, im.label.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dRec, im.rec.data(), n * 16ll, cudaMemcpyHostToDevice));
    if (P)
      CK(cudaMemcpy(dPieces, im.pieces.data(), P * 4, cudaMemcpyHostToDevice));
    size_t tempBytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, tempBytes, dLabel, dKeys, dIota, dOrder, n, 0, keyBits);
    void * temp;
    CK(cudaMalloc(&temp, tempBytes + (1 << 20)));
    const float sortUs = Time([&] {
      Iota<<<(n + 255) / 256, 256>>>(n, dIota);
      size_t t = tempBytes;
      cub::DeviceRadixSort::SortPairs(temp, t, dLabel, dKeys, dIota, dOrder, n, 0, keyBits);
    });
    const float gatherUs = Time([&] { GatherSorted<<<(n + 255) / 256, 256>>>(n, dOrder, dRec, dOut); });
    const int   blocks = (n + Band - 1) / Band;
    using Sort6 = cub::BlockRadixSort<int, BandThreads, BandItems, int, 6>;
    using Sort4 = cub::BlockRadixSort<int, BandThreads, BandItems, int, 4>;
    const int smem6 = sizeof(typename Sort6::TempStorage), smem4 = sizeof(typename Sort4::TempStorage);
    CK(cudaFuncSetAttribute(BandSort<6>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem6));
    CK(cudaFuncSetAttribute(BandSort<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem4));
    const float band6Us = Time([&] { BandSort<6><<<blocks, BandThreads, smem6>>>(n, keyBits, dLabel, dRec, dOut2); });
    const float band4Us = Time([&] { BandSort<4><<<blocks, BandThreads, smem4>>>(n, keyBits, dLabel, dRec, dOut2); });
    CK(cudaGetLastError());
    float pieceUs = 0;
    if (P)
    {
      int pBits = keyBits;
      pieceUs = Time([&] {
        Iota<<<(P + 255) / 256, 256>>>(P, dPieceIota);
        size_t t = tempBytes;
        cub::DeviceRadixSort::SortPairs(temp, t, dPieces, dPieceKeys, dPieceIota, dPieceOrder, P, 0, pBits);
      });
    }
    // Check: within each band, the output is the band's records in (label, raster) order.
    std::vector<Rec> out(n);
    CK(cudaMemcpy(out.data(), dOut2, n * 16ll, cudaMemcpyDeviceToHost));
    long bad = 0;
    for (int b0 = 0; b0 < n; b0 += Band)
    {
      std::vector<int> ix(std::min(n, b0 + Band) - b0);
      std::iota(ix.begin(), ix.end(), b0);
      std::stable_sort(ix.begin(), ix.end(), [&](int a, int b) { return im.label[a] < im.label[b]; });
      for (size_t q = 0; q < ix.size(); ++q)
      {
        const Rec & r = im.rec[ix[q]];
        const Rec & o = out[b0 + q];
        bad += o.x != r.x || o.row != r.row || o.pairs != (unsigned)r.x;
      }
    }
    std::printf("%d-conn d=%.1f runs %d comps %d pieces %d (%.3f a run) | A: sort %.0f + gather %.0f = %.0f us | B: "
                "band sort r6 %.0f r4 %.0f + pieces sort %.0f = %.0f us | smem %d/%d | mismatches %ld\n",
                full ? 8 : 4,
                d,
                n,
                im.components,
                P,
                double(P) / n,
                sortUs,
                gatherUs,
                sortUs + gatherUs,
                band6Us,
                band4Us,
                pieceUs,
                std::min(band6Us, band4Us) + pieceUs,
                smem6,
                smem4,
                bad);
    std::fflush(stdout);
    cudaFree(dLabel);
    cudaFree(dKeys);
    cudaFree(dIota);
    cudaFree(dOrder);
    cudaFree(dRec);
    cudaFree(dOut);
    cudaFree(dOut2);
    cudaFree(dPieces);
    cudaFree(dPieceKeys);
    cudaFree(dPieceIota);
    cudaFree(dPieceOrder);
    cudaFree(temp);
  }
}
