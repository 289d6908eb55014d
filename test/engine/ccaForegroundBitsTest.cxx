// The foreground bits a host image crosses the bus as (src/ForegroundBits.h)
// against a pixel-by-pixel reference: every integer pixel type, both
// foreground rules and "all", dense and strided layouts (transposed,
// reversed, padded), the stream produced in random pieces as the staging
// threads produce it. A failure prints its seed.
#include "ForegroundBits.h"

#include "cca/Types.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace
{

template <typename TPixel>
std::string
Case(std::uint32_t seed)
{
  std::mt19937 rng(seed);
  auto         pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  const int    dimension = pick(2) == 0 ? 3 : 2;
  // Widths around multiples of 8 and of 64 (the vector path's group), and long rows.
  const int          shape = pick(4);
  const std::int64_t width = shape == 0   ? 1 + pick(20)
                             : shape == 1 ? 64 * (1 + pick(12)) + pick(3) - 1
                             : shape == 2 ? 8 * (1 + pick(40)) + pick(3) - 1
                                          : 1 + pick(1000);
  const std::int64_t height = 1 + pick(dimension == 2 ? 30 : 9);
  const std::int64_t depth = dimension == 3 ? 1 + pick(6) : 1;
  const std::int64_t pixels = width * height * depth;

  // Values from a few, so that both the foreground value and others are common.
  const TPixel        candidates[4] = { TPixel(0), TPixel(1), TPixel(7), static_cast<TPixel>(~TPixel(0)) };
  std::vector<TPixel> logical(static_cast<std::size_t>(pixels));
  for (TPixel & p : logical)
  {
    p = candidates[pick(4)];
  }
  // The layout: 0 dense (strides 0), 1 x and y swapped in memory, 2 x
  // reversed, 3 rows padded and z reversed.
  const int          layout = pick(4);
  const std::int64_t pad = layout == 3 ? 3 : 0;
  std::int64_t       stride[3] = { 1, width + pad, (width + pad) * height };
  if (layout == 1)
  {
    stride[0] = height;
    stride[1] = 1;
    stride[2] = width * height;
  }
  std::vector<TPixel> storage(static_cast<std::size_t>(std::abs(stride[2]) * depth + pad + 8), TPixel(7));
  std::int64_t        origin = 0;
  if (layout == 2)
  {
    origin = width - 1;
    stride[0] = -1;
  }
  if (layout == 3)
  {
    origin = stride[2] * (depth - 1);
    stride[2] = -stride[2];
  }
  for (std::int64_t z = 0; z < depth; ++z)
    for (std::int64_t y = 0; y < height; ++y)
      for (std::int64_t x = 0; x < width; ++x)
        storage[static_cast<std::size_t>(origin + x * stride[0] + y * stride[1] + z * stride[2])] =
          logical[static_cast<std::size_t>(x + width * (y + height * z))];

  cca::ImageView view;
  view.data = storage.data() + origin;
  view.pixelType = cca::PixelTypeOf<TPixel>();
  view.dimension = dimension;
  const std::int64_t size[3] = { width, height, depth };
  for (int i = 0; i < 3; ++i)
  {
    view.size[i] = size[i];
    view.stride[i] = layout == 0 ? 0 : stride[i];
  }
  cca::Options options;
  const int    rule = pick(3);
  options.foregroundRule =
    rule == 0 ? cca::ForegroundRule::NotEqualTo : (rule == 1 ? cca::ForegroundRule::EqualTo : cca::ForegroundRule::All);
  options.foregroundValue = static_cast<std::int64_t>(candidates[pick(4)]);
  const TPixel value = static_cast<TPixel>(options.foregroundValue);

  const std::int64_t         rowBytes = cca::ForegroundBitsRowBytes(width);
  std::vector<unsigned char> expected(static_cast<std::size_t>(rowBytes * height * depth), 0);
  for (std::int64_t i = 0; i < pixels; ++i)
  {
    const TPixel       p = logical[static_cast<std::size_t>(i)];
    const bool         foreground = rule == 2 || (rule == 1 ? p == value : p != value);
    const std::int64_t row = i / width;
    const std::int64_t x = i % width;
    if (foreground)
    {
      expected[static_cast<std::size_t>(row * rowBytes + x / 8)] |= static_cast<unsigned char>(1u << (x % 8));
    }
  }

  // Produced in random pieces, each into its own place of a poisoned buffer.
  const cca::BytesProducer   produce = cca::ForegroundBitsProducer(view, options);
  std::vector<unsigned char> got(expected.size() + 1, 0xA5);
  std::size_t                offset = 0;
  while (offset < expected.size())
  {
    const std::size_t count =
      std::min(expected.size() - offset, static_cast<std::size_t>(1 + pick(pick(4) ? 40 : 400)));
    produce(offset, count, got.data() + offset);
    offset += count;
  }
  if (got.back() != 0xA5)
  {
    return "wrote past the end";
  }
  for (std::size_t i = 0; i < expected.size(); ++i)
  {
    if (got[i] != expected[i])
    {
      return "byte " + std::to_string(i) + " of " + std::to_string(width) + "x" + std::to_string(height) + "x" +
             std::to_string(depth) + " layout " + std::to_string(layout) + " rule " + std::to_string(rule) + ": " +
             std::to_string(got[i]) + " instead of " + std::to_string(expected[i]);
    }
  }
  return "";
}

template <typename TPixel>
int
Suite(const char * name, int cases, std::uint32_t seed)
{
  int failed = 0;
  for (int k = 0; k < cases; ++k)
  {
    const std::uint32_t caseSeed = seed + static_cast<std::uint32_t>(k);
    const std::string   problem = Case<TPixel>(caseSeed);
    if (!problem.empty())
    {
      ++failed;
      std::cout << "FAIL " << name << " seed=" << caseSeed << ": " << problem << std::endl;
    }
  }
  std::cout << name << ": " << cases - failed << " passed, " << failed << " failed" << std::endl;
  return failed;
}

#if defined(__SSE2__)
/** Each byte packer alone on random bytes against the pixel-by-pixel rule. */
int
BytePackers(std::uint32_t seed)
{
  std::mt19937              rng(seed);
  std::vector<std::uint8_t> pixels(64 * 37);
  for (std::uint8_t & p : pixels)
  {
    p = static_cast<std::uint8_t>(rng() % 3 == 0 ? 0 : rng() % 4);
  }
  int failed = 0;
  using Packer = void (*)(const std::uint8_t *, std::int64_t, std::uint8_t, bool, unsigned char *);
  std::vector<std::pair<const char *, Packer>> packers{ { "sse2", &cca::detail::PackGroupsSse2 } };
#  if defined(__GNUC__) || defined(__clang__)
  if (__builtin_cpu_supports("avx2"))
  {
    packers.emplace_back("avx2", &cca::detail::PackGroupsAvx2);
  }
#  endif
  for (const auto & [name, pack] : packers)
  {
    for (const std::uint8_t value : { 0, 1, 3 })
    {
      for (const bool equal : { false, true })
      {
        std::vector<unsigned char> bits(pixels.size() / 8 + 1, 0xA5);
        pack(pixels.data(), static_cast<std::int64_t>(pixels.size() / 64), value, equal, bits.data());
        bool ok = bits.back() == 0xA5;
        for (std::size_t i = 0; ok && i < pixels.size(); ++i)
        {
          ok = ((bits[i / 8] >> (i % 8)) & 1u) == static_cast<unsigned>((pixels[i] == value) == equal);
        }
        if (!ok)
        {
          ++failed;
          std::cout << "FAIL byte packer " << name << " value " << int(value) << (equal ? " equal" : " not equal")
                    << " seed=" << seed << std::endl;
        }
      }
    }
  }
  std::cout << "byte packers: " << packers.size() << " checked, " << failed << " failed" << std::endl;
  return failed;
}
#endif

} // namespace

int
main()
{
  int failed = 0;
#if defined(__SSE2__)
  failed += BytePackers(99);
#endif
  failed += Suite<std::uint8_t>("uint8", 400, 1000);
  failed += Suite<std::int8_t>("int8", 200, 2000);
  failed += Suite<std::uint16_t>("uint16", 200, 3000);
  failed += Suite<std::int16_t>("int16", 200, 4000);
  failed += Suite<std::uint32_t>("uint32", 200, 5000);
  failed += Suite<std::int32_t>("int32", 200, 6000);
  failed += Suite<std::uint64_t>("uint64", 200, 7000);
  failed += Suite<std::int64_t>("int64", 200, 8000);
  return failed == 0 ? 0 : 1;
}
