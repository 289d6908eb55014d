// Host-side cost of the table's download consumers, 16 threads each its own
// contiguous region, in pieces from a reused staging buffer: memcpy of wide
// entries (what main does) against widening narrow entries, plain or with
// non-temporal stores; into fresh memory and into memory written before.
#include "NarrowFeatures.h"
#include <immintrin.h>
#include <sys/mman.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>
using namespace cca;
constexpr size_t N = 8'600'000, T = 16;
static void
widenPlain(const unsigned char * in, ComponentFeatures * out, size_t k)
{
  for (size_t i = 0; i < k; ++i)
  {
    NarrowFeatures e;
    std::memcpy(&e, in + i * 160, 160);
    WidenFeatures(e, out[i]);
  }
}
static void
widenStream(const unsigned char * in, ComponentFeatures * out, size_t k)
{
  for (size_t i = 0; i < k; ++i)
  {
    NarrowFeatures e;
    std::memcpy(&e, in + i * 160, 160);
    ComponentFeatures f;
    WidenFeatures(e, f);
    long long w[27];
    std::memcpy(w, &f, 216);
    long long * o = reinterpret_cast<long long *>(out + i);
    for (int j = 0; j < 27; ++j)
      _mm_stream_si64(o + j, w[j]);
  }
  _mm_sfence();
}
static void
widenBlocked(const unsigned char * in, ComponentFeatures * out, size_t k)
{
  constexpr size_t  B = 256; // 54 KiB of wide entries, in L2
  ComponentFeatures local[B];
  for (size_t i = 0; i < k; i += B)
  {
    const size_t n = std::min(B, k - i);
    widenPlain(in + i * 160, local, n);
    std::memcpy(out + i, local, n * sizeof(ComponentFeatures));
  }
}
template <class F>
double
run(unsigned char * dst, size_t recIn, F consume)
{
  auto                     t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> th;
  for (size_t t = 0; t < T; ++t)
    th.emplace_back([&, t] {
      std::vector<unsigned char> staging(2 << 20, 7);
      size_t                     per = (N + T - 1) / T, b = t * per, e = std::min(N, b + per);
      size_t                     piece = (2 << 20) / recIn;
      for (size_t i = b; i < e; i += piece)
        consume(staging.data(), dst, i, std::min(piece, e - i));
    });
  for (auto & x : th)
    x.join();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
int
main()
{
  const size_t bytes = N * 216;
  for (int fresh = 1; fresh >= 0; --fresh)
  {
    void * keep = nullptr;
    for (int rep = 0; rep < 3; ++rep)
    {
      double ms[4];
      for (int m = 0; m < 4; ++m)
      {
        void * p =
          (fresh || !keep) ? mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : keep;
        madvise(p, bytes, MADV_HUGEPAGE);
        auto * dst = static_cast<unsigned char *>(p);
        if (m == 0)
          ms[m] = run(dst, 216, [](const unsigned char * s, unsigned char * d, size_t i, size_t k) {
            std::memcpy(d + i * 216, s, k * 216);
          });
        if (m == 1)
          ms[m] = run(dst, 160, [](const unsigned char * s, unsigned char * d, size_t i, size_t k) {
            widenPlain(s, reinterpret_cast<ComponentFeatures *>(d) + i, k);
          });
        if (m == 2)
          ms[m] = run(dst, 160, [](const unsigned char * s, unsigned char * d, size_t i, size_t k) {
            widenStream(s, reinterpret_cast<ComponentFeatures *>(d) + i, k);
          });
        if (m == 3)
          ms[m] = run(dst, 160, [](const unsigned char * s, unsigned char * d, size_t i, size_t k) {
            widenBlocked(s, reinterpret_cast<ComponentFeatures *>(d) + i, k);
          });
        if (fresh)
          munmap(p, bytes);
        else
          keep = p;
      }
      printf("%s rep %d: memcpy wide %.1f ms, widen plain %.1f ms, widen streaming %.1f ms, widen blocked + memcpy "
             "%.1f ms (%.2f GB each)\n",
             fresh ? "fresh" : "reused",
             rep,
             ms[0],
             ms[1],
             ms[2],
             ms[3],
             bytes / 1e9);
    }
  }
}
