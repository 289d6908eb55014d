// The pixels of an ImageView as one dense x-fastest byte stream, produced in
// pieces: what the CUDA backend's upload stages through pinned buffers, and
// what the emulated device of the tests copies. No CUDA here.
#ifndef cca_DensePixels_h
#define cca_DensePixels_h

#include "cca/Types.h"

#include <cstddef>
#include <cstdint>
#include <functional>

namespace cca
{

/** Writes bytes [offset, offset + count) of a byte stream to destination;
 *  offsets and counts are whole pixels (slabs start at whole rows). */
using BytesProducer = std::function<void(std::size_t offset, std::size_t count, void * destination)>;

/** A producer that packs the pixels of image, in dense x-fastest order, from
 *  any strides; dense images are plain memory copies. */
BytesProducer
DensePixelProducer(const ImageView & image);

/** Pixels between neighbours along x, y and z. */
struct PixelStrides
{
  std::int64_t x;
  std::int64_t y;
  std::int64_t z;
};

/** The image's strides, or those of a dense x-fastest buffer when all of
 *  them are 0 (ImageView's way of saying dense). */
PixelStrides
StridesOf(const ImageView & image);

/** True when the image's strides describe a dense x-fastest buffer. */
bool
IsDense(const ImageView & image);

} // namespace cca

#endif
