// A binary image's foreground as bits, one a pixel: what the CUDA backend
// uploads of a host image whose objects are foreground components, instead
// of its pixels (8 to 64 times fewer bytes over the bus; the device unpacks
// them, cuda/ForegroundBits.cuh). No CUDA here.
//
// Layout: row r (r = y + height * z) takes ForegroundBitsRowBytes(width)
// bytes from byte r * ForegroundBitsRowBytes(width); pixel x of the row is
// bit x % 8 (least significant first) of the row's byte x / 8; the bits past
// the width in a row's last byte are 0.
#ifndef cca_ForegroundBits_h
#define cca_ForegroundBits_h

#include "DensePixels.h"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{

/** Bytes of one row of width pixels. */
constexpr std::int64_t
ForegroundBitsRowBytes(std::int64_t width)
{
  return (width + 7) / 8;
}

/** Whether the CUDA backend uploads image as foreground bits under options:
 *  a host image whose objects are the foreground's components (the kernels
 *  then need nothing of a pixel but whether it is foreground). */
bool
TravelsAsForegroundBits(const ImageView & image, const Options & options);

/** A producer of the foreground bits of image (any strides, integer pixel
 *  types) under options' foreground rule, in the layout above: it writes
 *  bytes [offset, offset + count) of the bit stream, for any offset and
 *  count. */
BytesProducer
ForegroundBitsProducer(const ImageView & image, const Options & options);

namespace detail
{
#if defined(__SSE2__)
/** The byte-pixel packers ForegroundBitsProducer chooses between (x86; the
 *  tests check each): bits of groups * 64 pixels (pixel == value when equal,
 *  else pixel != value) into groups * 8 bytes. PackGroupsAvx2 needs a CPU
 *  with AVX2. */
void
PackGroupsSse2(const std::uint8_t * pixels, std::int64_t groups, std::uint8_t value, bool equal, unsigned char * out);
#  if defined(__GNUC__) || defined(__clang__)
__attribute__((target("avx2"))) void
PackGroupsAvx2(const std::uint8_t * pixels, std::int64_t groups, std::uint8_t value, bool equal, unsigned char * out);
#  endif
#endif
} // namespace detail

} // namespace cca

#endif
