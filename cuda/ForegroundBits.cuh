// The device side of a host image uploaded as foreground bits
// (src/ForegroundBits.h): the bits unpacked into the dense 0/1 byte image the
// kernels read, one slab of rows at a time as the slabs arrive.
#ifndef cca_cuda_ForegroundBits_cuh
#define cca_cuda_ForegroundBits_cuh

#include "DependentLaunch.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** dense[r * width + x] = bit x of row r of bits (rows of rowBytes bytes),
 *  0 or 1, for rows [firstRow, endRow). One thread per byte of bits. */
__global__ void
UnpackForegroundBitsKernel(const std::uint8_t * __restrict__ bits,
                           std::int64_t width,
                           std::int64_t rowBytes,
                           std::int64_t firstRow,
                           std::int64_t endRow,
                           std::uint8_t * __restrict__ dense)
{
  AwaitPrecedingKernel();
  const std::int64_t count = (endRow - firstRow) * rowBytes;
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += step)
  {
    const std::int64_t row = firstRow + i / rowBytes;
    const std::int64_t x = 8 * (i % rowBytes);
    const unsigned     byte = bits[row * rowBytes + x / 8];
    std::uint8_t *     out = dense + row * width + x;
    const std::int64_t n = width - x < 8 ? width - x : 8;
    for (std::int64_t k = 0; k < n; ++k)
    {
      out[k] = static_cast<std::uint8_t>((byte >> k) & 1u);
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
