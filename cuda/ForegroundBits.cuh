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

/** Rows whose bits UnpackForegroundHalfWordsKernel takes: a width that is
 *  a multiple of 16, so that the bits of all rows are one stream of 16-bit
 *  words, word k holding pixels 16 k .. 16 k + 15 of the dense image. */
constexpr bool
UnpacksByHalfWords(std::int64_t width)
{
  return width % 16 == 0;
}

/** The four low bits of nibble as four bytes, 0 or 1, bit k in byte k
 *  (least significant first, as the bits are packed). */
__device__ __forceinline__ unsigned
NibbleAsBytes(unsigned nibble)
{
  unsigned x = nibble & 0xFu;
  x = (x | (x << 14)) & 0x00030003u; // bits 0, 1 stay; 2, 3 go to 16, 17
  x = (x | (x << 7)) & 0x01010101u;  // and each of a pair to its own byte
  return x;
}

/** dense[16 k .. 16 k + 15] = the bits of words[k], 0 or 1 each, for k in
 *  [firstWord, endWord): a thread a word, one 16-byte store each, so that a
 *  warp's loads and stores are whole contiguous lines. For widths that are
 *  a multiple of 16 (UnpacksByHalfWords). UnpackForegroundBitsKernel, which
 *  stores a thread's 8 pixels one byte at a time and divides 64-bit
 *  indices, wrote the 105 MB of a CT-like mask in 91-95 us (1.2 TB/s,
 *  H200); this kernel in 35 us. */
static __global__ void
UnpackForegroundHalfWordsKernel(const std::uint16_t * __restrict__ words,
                                std::int64_t firstWord,
                                std::int64_t endWord,
                                uint4 * __restrict__ dense)
{
  AwaitPrecedingKernel();
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = firstWord + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < endWord;
       k += step)
  {
    const unsigned bits = words[k];
    dense[k] =
      make_uint4(NibbleAsBytes(bits), NibbleAsBytes(bits >> 4), NibbleAsBytes(bits >> 8), NibbleAsBytes(bits >> 12));
  }
}

/** dense[r * width + x] = bit x of row r of bits (rows of rowBytes bytes),
 *  0 or 1, for rows [firstRow, endRow), of any width. One thread per byte
 *  of bits. */
static __global__ void
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
