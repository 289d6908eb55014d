#include "ForegroundBits.h"

#include "ForegroundTest.h"
#include "PixelTypeDispatch.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#  include <immintrin.h>
#endif

namespace cca
{

namespace detail
{

#if defined(__SSE2__)
/** The bits of groups * 64 byte pixels (pixel == value when equal, else
 *  pixel != value) into groups * 8 bytes: byte masks are the common input,
 *  and packing them has to keep up with the bus (about 50 GB/s on a PCIe 5
 *  host, from all staging threads); one compare gathers 16 pixels here, 32
 *  in PackGroupsAvx2. */
void
PackGroupsSse2(const std::uint8_t * pixels, std::int64_t groups, std::uint8_t value, bool equal, unsigned char * out)
{
  const __m128i       v = _mm_set1_epi8(static_cast<char>(value));
  const std::uint64_t flip = equal ? 0 : ~std::uint64_t{ 0 };
  for (std::int64_t g = 0; g < groups; ++g, pixels += 64, out += 8)
  {
    std::uint64_t bits = 0;
    for (int k = 0; k < 4; ++k)
    {
      const __m128i p = _mm_loadu_si128(reinterpret_cast<const __m128i *>(pixels + 16 * k));
      bits |= static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(p, v)))) << (16 * k);
    }
    bits ^= flip;
    std::memcpy(out, &bits, sizeof(bits)); // bit i of byte j is pixel 8 j + i: little-endian
  }
}

#  if defined(__GNUC__) || defined(__clang__)
__attribute__((target("avx2"))) void
PackGroupsAvx2(const std::uint8_t * pixels, std::int64_t groups, std::uint8_t value, bool equal, unsigned char * out)
{
  const __m256i       v = _mm256_set1_epi8(static_cast<char>(value));
  const std::uint64_t flip = equal ? 0 : ~std::uint64_t{ 0 };
  for (std::int64_t g = 0; g < groups; ++g, pixels += 64, out += 8)
  {
    const __m256i       low = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(pixels));
    const __m256i       high = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(pixels + 32));
    const std::uint64_t bits =
      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, v)))) |
       static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, v)))) << 32) ^
      flip;
    std::memcpy(out, &bits, sizeof(bits));
  }
}
#  endif
#endif

} // namespace detail

namespace
{

#if defined(__SSE2__)
using PackGroups = void (*)(const std::uint8_t *, std::int64_t, std::uint8_t, bool, unsigned char *);

/** The fastest packer this CPU runs, chosen once. */
PackGroups
BytePacker()
{
  static const PackGroups packer = [] {
#  if defined(__GNUC__) || defined(__clang__)
    if (__builtin_cpu_supports("avx2"))
    {
      return &detail::PackGroupsAvx2;
    }
#  endif
    return &detail::PackGroupsSse2;
  }();
  return packer;
}
#endif

/** Bytes [firstByte, endByte) of the bits of one row whose pixel x is at
 *  row[x * sx]. */
template <typename TPixel>
void
PackRow(const TPixel *                 row,
        std::int64_t                   sx,
        std::int64_t                   width,
        std::int64_t                   firstByte,
        std::int64_t                   endByte,
        const ForegroundTest<TPixel> & test,
        unsigned char *                out)
{
  std::int64_t b = firstByte;
#if defined(__SSE2__)
  if constexpr (sizeof(TPixel) == 1)
  {
    // Whole groups of 64 pixels inside the row, 8 bytes of bits each.
    const std::int64_t groups = std::min(endByte - b, width / 8 - b) / 8;
    if (sx == 1 && !test.all && groups > 0)
    {
      BytePacker()(reinterpret_cast<const std::uint8_t *>(row + 8 * b),
                   groups,
                   static_cast<std::uint8_t>(test.value),
                   test.equal,
                   out);
      b += 8 * groups;
    }
  }
#endif
  for (; b < endByte; ++b)
  {
    const std::int64_t x = 8 * b;
    const int          n = static_cast<int>(std::min<std::int64_t>(8, width - x));
    unsigned           bits = 0;
    for (int i = 0; i < n; ++i)
    {
      bits |= static_cast<unsigned>(test(row[(x + i) * sx])) << i;
    }
    out[b - firstByte] = static_cast<unsigned char>(bits);
  }
}

} // namespace

bool
TravelsAsForegroundBits(const ImageView & image, const Options & options)
{
  return image.memory == MemorySpace::Host && options.objects == Objects::ForegroundComponents;
}

BytesProducer
ForegroundBitsProducer(const ImageView & image, const Options & options)
{
  const std::int64_t width = image.size[0];
  const std::int64_t height = image.size[1];
  const PixelStrides stride = StridesOf(image);
  const std::int64_t rowBytes = ForegroundBitsRowBytes(width);
  BytesProducer      producer;
  DispatchPixelType(image.pixelType, [&](auto zero) {
    using TPixel = decltype(zero);
    const auto *                 pixels = static_cast<const TPixel *>(image.data);
    const ForegroundTest<TPixel> test = ForegroundOf<TPixel>(options);
    producer = [=](std::size_t offset, std::size_t count, void * destination) {
      auto *             out = static_cast<unsigned char *>(destination);
      std::int64_t       byte = static_cast<std::int64_t>(offset);
      const std::int64_t last = byte + static_cast<std::int64_t>(count);
      while (byte < last)
      {
        const std::int64_t r = byte / rowBytes;
        const std::int64_t first = byte % rowBytes;
        const std::int64_t end = std::min(rowBytes, first + (last - byte));
        const TPixel *     row = pixels + (r % height) * stride.y + (r / height) * stride.z;
        PackRow(row, stride.x, width, first, end, test, out);
        out += end - first;
        byte += end - first;
      }
    };
  });
  return producer;
}

} // namespace cca
