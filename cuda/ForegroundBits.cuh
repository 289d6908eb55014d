// The device side of a host image uploaded as foreground bits
// (src/ForegroundBits.h): the bits unpacked into the dense 0/1 byte image the
// kernels read, one slab of rows at a time as the slabs arrive.
#ifndef cca_cuda_ForegroundBits_cuh
#define cca_cuda_ForegroundBits_cuh

#include "DependentLaunch.cuh"
#include "StreamedUpload.h"

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

/** Threads of a block of UnpackStreamedHalfWordsKernel, the 16-byte words
 *  of bits each of them loads at once, and the blocks (each takes every
 *  StreamedUnpackBlocks-th piece): a piece crosses the bus as one block
 *  loads it, 16 KiB a round, and four blocks a copy thread of a 16-core
 *  host keep the pieces that are ready in flight together. */
constexpr int StreamedUnpackThreads = 256;
constexpr int StreamedUnpackLoads = 4;
constexpr int StreamedUnpackBlocks = 64;

/** *flag, read from host memory with acquire semantics at system scope:
 *  the loads after it see what the host wrote before it raised the flag. */
__device__ __forceinline__ unsigned
LoadAcquireFromHost(const unsigned * flag)
{
#if defined(__CUDA_ARCH__)
  unsigned value;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(value) : "l"(flag) : "memory");
  return value;
#else
  return __atomic_load_n(flag, __ATOMIC_ACQUIRE);
#endif
}

/** UnpackForegroundHalfWordsKernel's work on an upload the copy threads
 *  are still producing in page-locked host memory (StreamedUpload.h): the
 *  bits of all rows are one stream of 16-bit words (UnpacksByHalfWords),
 *  word k holding pixels 16 k .. 16 k + 15 of dense. Block b takes pieces
 *  b, b + gridDim.x, ..., in about the order the copy threads produce
 *  them; one thread of the block waits for the piece's flag, then the
 *  block loads the piece from host memory (16-byte loads, all of a
 *  thread's in flight at once, uncached: fetched again from the host,
 *  never taken from a line read before) into shared memory and unpacks it
 *  from there, a half-word a thread and one 16-byte store each. */
static __global__ void
__launch_bounds__(StreamedUnpackThreads)
  UnpackStreamedHalfWordsKernel(StreamedUpload source, uint4 * __restrict__ dense)
{
  AwaitPrecedingKernel();
  constexpr int          roundWords = StreamedUnpackThreads * StreamedUnpackLoads;
  constexpr std::int64_t roundBytes = 16 * roundWords;
  __shared__ uint4       staged[roundWords];
  auto *                 stagedHalfWords = reinterpret_cast<std::uint16_t *>(staged);
  for (std::int64_t k = blockIdx.x; k < source.pieces; k += gridDim.x)
  {
    if (threadIdx.x == 0)
    {
      while (LoadAcquireFromHost(source.ready + k) == 0)
      {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
        __nanosleep(1000); // a poll is a read across the bus: few of them
#endif
      }
    }
    __syncthreads();
    const std::int64_t begin = k * source.pieceBytes;
    const std::int64_t end = begin + source.pieceBytes < source.size ? begin + source.pieceBytes : source.size;
    for (std::int64_t at = begin; at < end; at += roundBytes)
    {
      const std::int64_t roundEnd = at + roundBytes < end ? at + roundBytes : end;
      uint4              words[StreamedUnpackLoads];
      for (int i = 0; i < StreamedUnpackLoads; ++i)
      {
        const std::int64_t byte = at + 16 * (i * StreamedUnpackThreads + static_cast<int>(threadIdx.x));
        if (byte + 16 <= roundEnd)
        {
          words[i] = __ldcv(reinterpret_cast<const uint4 *>(source.bytes + byte));
        }
      }
      for (int i = 0; i < StreamedUnpackLoads; ++i)
      {
        const int          w = i * StreamedUnpackThreads + static_cast<int>(threadIdx.x);
        const std::int64_t byte = at + 16 * w;
        if (byte + 16 <= roundEnd)
        {
          staged[w] = words[i];
        }
        else if (byte < roundEnd) // the upload's last word, cut short: whole half-words
        {
          for (std::int64_t h = 0; byte + 2 * h < roundEnd; ++h)
          {
            stagedHalfWords[8 * w + h] = __ldcv(reinterpret_cast<const std::uint16_t *>(source.bytes + byte) + h);
          }
        }
      }
      __syncthreads();
      const int halfWords = static_cast<int>((roundEnd - at) / 2);
      for (int h = static_cast<int>(threadIdx.x); h < halfWords; h += StreamedUnpackThreads)
      {
        const unsigned bits = stagedHalfWords[h];
        dense[at / 2 + h] = make_uint4(
          NibbleAsBytes(bits), NibbleAsBytes(bits >> 4), NibbleAsBytes(bits >> 8), NibbleAsBytes(bits >> 12));
      }
      __syncthreads(); // staged is the next round's
    }
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
