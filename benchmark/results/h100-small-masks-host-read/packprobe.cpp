// Host probe: the foreground-bit packing of a 512x512x400 byte mask (105 MB) and a plain read of it, on T threads
// (regions), best of 7.
#include "ForegroundBits.h"
#include "cca/Types.h"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <thread>
#include <vector>
namespace cca
{
const char *
PixelTypeName(PixelType)
{
  return "x";
}
int
PixelTypeSize(PixelType)
{
  return 1;
}
} // namespace cca
int
main()
{
  const std::int64_t        W = 512, H = 512, D = 400;
  std::vector<std::uint8_t> mask(W * H * D);
  std::mt19937              rng(1);
  for (auto & m : mask)
    m = (rng() % 5) == 0;
  cca::ImageView view;
  view.data = mask.data();
  view.pixelType = cca::PixelType::UInt8;
  view.dimension = 3;
  view.size[0] = W;
  view.size[1] = H;
  view.size[2] = D;
  cca::Options               options;
  auto                       produce = cca::ForegroundBitsProducer(view, options);
  const std::size_t          bytes = cca::ForegroundBitsRowBytes(W) * H * D;
  std::vector<unsigned char> out(bytes);
  auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  for (int T : { 1, 2, 4, 8, 12, 16 })
  {
    double                          bestPack = 1e9, bestRead = 1e9;
    std::vector<unsigned long long> sums(T);
    for (int rep = 0; rep < 7; ++rep)
    {
      auto t0 = std::chrono::steady_clock::now();
      {
        std::vector<std::thread> th;
        for (int t = 0; t < T; ++t)
          th.emplace_back([&, t] {
            const std::size_t b = bytes * t / T / 8 * 8, e = t + 1 == T ? bytes : bytes * (t + 1) / T / 8 * 8;
            produce(b, e - b, out.data() + b);
          });
        for (auto & x : th)
          x.join();
      }
      auto t1 = std::chrono::steady_clock::now();
      {
        std::vector<std::thread> th;
        for (int t = 0; t < T; ++t)
          th.emplace_back([&, t] {
            const std::size_t  n = mask.size() / 8, b = n * t / T, e = n * (t + 1) / T;
            unsigned long long s = 0;
            const auto *       p = reinterpret_cast<const std::uint64_t *>(mask.data());
            for (std::size_t i = b; i < e; ++i)
              s += p[i];
            sums[t] = s;
          });
        for (auto & x : th)
          x.join();
      }
      auto t2 = std::chrono::steady_clock::now();
      bestPack = std::min(bestPack, ms(t0, t1));
      bestRead = std::min(bestRead, ms(t1, t2));
    }
    std::printf("threads %2d: pack %.2f ms (%.1f GB/s of mask), read %.2f ms (%.1f GB/s) [thread start included]\n",
                T,
                bestPack,
                mask.size() / bestPack / 1e6,
                bestRead,
                mask.size() / bestRead / 1e6);
  }
}
