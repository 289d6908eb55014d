#include "DensePixels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace cca
{

PixelStrides
StridesOf(const ImageView & image)
{
  if (image.stride[0] == 0 && image.stride[1] == 0 && image.stride[2] == 0)
  {
    return PixelStrides{ 1, image.size[0], image.size[0] * image.size[1] };
  }
  return PixelStrides{ image.stride[0], image.stride[1], image.stride[2] };
}

bool
IsDense(const ImageView & image)
{
  if (image.stride[0] == 0 && image.stride[1] == 0 && image.stride[2] == 0)
  {
    return true;
  }
  return image.stride[0] == 1 && (image.size[1] == 1 || image.stride[1] == image.size[0]) &&
         (image.size[2] == 1 || image.stride[2] == image.size[0] * image.size[1]);
}

namespace
{
template <class T>
void
GatherRow(const T * source, std::int64_t stride, std::int64_t count, T * destination)
{
  for (std::int64_t i = 0; i < count; ++i)
  {
    destination[i] = source[i * stride];
  }
}
} // namespace

BytesProducer
DensePixelProducer(const ImageView & image)
{
  const std::size_t pixelBytes = static_cast<std::size_t>(PixelTypeSize(image.pixelType));
  const auto *      base = static_cast<const unsigned char *>(image.data);
  if (IsDense(image))
  {
    return [base](std::size_t offset, std::size_t count, void * dst) { std::memcpy(dst, base + offset, count); };
  }
  const std::int64_t width = image.size[0];
  const std::int64_t height = image.size[1];
  const std::int64_t sx = image.stride[0];
  const std::int64_t sy = image.stride[1];
  const std::int64_t sz = image.size[2] > 1 ? image.stride[2] : 0;
  return [=](std::size_t offset, std::size_t count, void * dst) {
    // Offsets and counts are whole pixels: slabs are whole rows, split at multiples of 8 bytes.
    std::int64_t       pixel = static_cast<std::int64_t>(offset / pixelBytes);
    const std::int64_t last = pixel + static_cast<std::int64_t>(count / pixelBytes);
    auto *             out = static_cast<unsigned char *>(dst);
    while (pixel < last)
    {
      const std::int64_t    x = pixel % width;
      const std::int64_t    row = pixel / width;
      const std::int64_t    y = row % height;
      const std::int64_t    z = row / height;
      const std::int64_t    n = std::min(width - x, last - pixel);
      const unsigned char * source =
        base + static_cast<std::ptrdiff_t>((x * sx + y * sy + z * sz) * static_cast<std::int64_t>(pixelBytes));
      if (sx == 1)
      {
        std::memcpy(out, source, static_cast<std::size_t>(n) * pixelBytes);
      }
      else
      {
        switch (pixelBytes)
        {
          case 1:
            GatherRow(reinterpret_cast<const std::uint8_t *>(source), sx, n, reinterpret_cast<std::uint8_t *>(out));
            break;
          case 2:
            GatherRow(reinterpret_cast<const std::uint16_t *>(source), sx, n, reinterpret_cast<std::uint16_t *>(out));
            break;
          case 4:
            GatherRow(reinterpret_cast<const std::uint32_t *>(source), sx, n, reinterpret_cast<std::uint32_t *>(out));
            break;
          default:
            GatherRow(reinterpret_cast<const std::uint64_t *>(source), sx, n, reinterpret_cast<std::uint64_t *>(out));
            break;
        }
      }
      out += static_cast<std::size_t>(n) * pixelBytes;
      pixel += n;
    }
  };
}

} // namespace cca
