#include "ForegroundBits.h"

#include "HostForegroundTest.h"
#include "PixelTypeDispatch.h"

#include <algorithm>

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

namespace cca
{

namespace
{

/** Bytes [firstByte, endByte) of the bits of one row whose pixel x is at
 *  row[x * sx]. */
template <typename TPixel>
void
PackRow(const TPixel *                     row,
        std::int64_t                       sx,
        std::int64_t                       width,
        std::int64_t                       firstByte,
        std::int64_t                       endByte,
        const HostForegroundTest<TPixel> & test,
        unsigned char *                    out)
{
  std::int64_t b = firstByte;
#if defined(__SSE2__)
  // Byte masks (the common case, which runs at memory speed this way): 16
  // pixels per compare, their bits gathered by movemask.
  if constexpr (sizeof(TPixel) == 1)
  {
    if (sx == 1 && !test.all)
    {
      const __m128i  value = _mm_set1_epi8(static_cast<char>(test.value));
      const unsigned flip = test.equal ? 0u : 0xFFFFu;
      for (; b + 2 <= endByte && 8 * (b + 2) <= width; b += 2)
      {
        const __m128i  pixels = _mm_loadu_si128(reinterpret_cast<const __m128i *>(row + 8 * b));
        const unsigned bits = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(pixels, value))) ^ flip;
        out[b - firstByte] = static_cast<unsigned char>(bits);
        out[b - firstByte + 1] = static_cast<unsigned char>(bits >> 8);
      }
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
  const bool         dense = image.stride[0] == 0 && image.stride[1] == 0 && image.stride[2] == 0;
  const std::int64_t sx = dense ? 1 : image.stride[0];
  const std::int64_t sy = dense ? width : image.stride[1];
  const std::int64_t sz = dense ? width * height : image.stride[2];
  const std::int64_t rowBytes = ForegroundBitsRowBytes(width);
  BytesProducer      producer;
  DispatchPixelType(image.pixelType, [&](auto zero) {
    using TPixel = decltype(zero);
    const auto *                     pixels = static_cast<const TPixel *>(image.data);
    const HostForegroundTest<TPixel> test = HostForegroundOf<TPixel>(options);
    producer = [=](std::size_t offset, std::size_t count, void * destination) {
      auto *             out = static_cast<unsigned char *>(destination);
      std::int64_t       byte = static_cast<std::int64_t>(offset);
      const std::int64_t last = byte + static_cast<std::int64_t>(count);
      while (byte < last)
      {
        const std::int64_t r = byte / rowBytes;
        const std::int64_t first = byte % rowBytes;
        const std::int64_t end = std::min(rowBytes, first + (last - byte));
        const TPixel *     row = pixels + (r % height) * sy + (r / height) * sz;
        PackRow(row, sx, width, first, end, test, out);
        out += end - first;
        byte += end - first;
      }
    };
  });
  return producer;
}

} // namespace cca
