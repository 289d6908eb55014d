// Shared device-side vocabulary: the image geometry, the run table in device
// memory, warp lane masks and launch-size helpers. Every kernel of the CUDA
// backend works on these, and begins with AwaitPrecedingKernel.
#ifndef cca_cuda_DeviceGeometry_cuh
#define cca_cuda_DeviceGeometry_cuh

#include "DependentLaunch.cuh"

#include <cstdint>
#include <limits>

namespace cca
{
namespace cuda
{

constexpr unsigned FullWarp = 0xffffffffu;
constexpr int      WarpSize = 32;
constexpr int      BlockThreads = 256;
constexpr int      WarpsPerBlock = BlockThreads / WarpSize;

/** Image extent. A row is one (y, z) line of width pixels; row r = y + z * height. */
struct Geometry
{
  std::int64_t width;
  std::int64_t height;
  std::int64_t depth;
  std::int64_t rows; ///< height * depth
};

/** The runs of the image in raster order (row by row, x increasing), as
 *  structure of arrays. Index is the run index type: 32-bit while the run
 *  count cannot reach 2^31, else 64-bit. */
template <class Index>
struct RunArrays
{
  std::int32_t * x;          ///< first pixel of the run
  std::int32_t * end;        ///< one past the last pixel
  Index *        row;        ///< row of the run
  const Index *  rowOffsets; ///< rows + 1 entries: runs of row r are [rowOffsets[r], rowOffsets[r + 1])
  Index          count;
  /** The runs' end index (RunNeighbours.cuh, RunEndWord), endWordsPerRow
   *  words a row, where their writer left one; else null, and the searches
   *  for a neighbour row's runs halve the row's runs. */
  const std::uint32_t * endWords = nullptr;
  std::int64_t          endWordsPerRow = 0;
};

__device__ __forceinline__ unsigned
LaneId()
{
  return threadIdx.x & (WarpSize - 1);
}

/** Lanes below this one. */
__device__ __forceinline__ unsigned
LanesBelow()
{
  return (1u << LaneId()) - 1u;
}

/** Lanes above this one (two shifts: a shift by 32 is undefined). */
__device__ __forceinline__ unsigned
LanesAbove()
{
  return (FullWarp << LaneId()) << 1;
}

/** Sum over the warp of a 32-bit value (all 32 lanes; each gets the sum):
 *  one instruction on sm_80 and later, a shuffle tree before. */
__device__ __forceinline__ unsigned
WarpSum32(unsigned v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_add_sync(FullWarp, v);
#else
  for (int offset = WarpSize / 2; offset > 0; offset /= 2)
  {
    v += __shfl_xor_sync(FullWarp, v, offset);
  }
  return v;
#endif
}

/** Inclusive sum over the warp: this lane's value plus those of the lanes
 *  below it (all 32 lanes call it; the top lane gets the warp's total).
 *  Shuffles, not CUB's WarpScan: the emulation tests compile the kernels
 *  as host code, with shuffles of their own (CudaEmulation.h). */
template <class T>
__device__ __forceinline__ T
WarpInclusiveSum(T value)
{
  const unsigned lane = LaneId();
#pragma unroll
  for (int offset = 1; offset < WarpSize; offset *= 2)
  {
    const T below = __shfl_up_sync(FullWarp, value, static_cast<unsigned>(offset));
    value += lane >= static_cast<unsigned>(offset) ? below : T{ 0 };
  }
  return value;
}

/** Sum over the warp of a 64-bit value (two's complement wraps like the
 *  atomics do): three 32-bit reductions, the low parts split so they cannot carry out. */
__device__ __forceinline__ std::uint64_t
                           WarpSum64(std::uint64_t v)
{
  const unsigned low = WarpSum32(static_cast<unsigned>(v & 0xffffu));
  const unsigned middle = WarpSum32(static_cast<unsigned>((v >> 16) & 0xffffu));
  const unsigned high = WarpSum32(static_cast<unsigned>(v >> 32));
  return std::uint64_t{ low } + (std::uint64_t{ middle } << 16) + (std::uint64_t{ high } << 32);
}

/** Adds each thread's words (N of them) over the block and then into
 *  total, one atomic a word a block where its sum is not 0: where every
 *  thread of a grid adds into the same few words, their atomics would
 *  queue on those addresses. All threads of the block call it. */
template <int N>
__device__ __forceinline__ void
AddBlockWords(unsigned long long (&words)[N], unsigned long long * total)
{
  static_assert(N <= 32, "a warp's lanes add the block's words");
  __shared__ unsigned long long block[N];
  if (threadIdx.x < N)
  {
    block[threadIdx.x] = 0;
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < N; ++k)
  {
    words[k] = WarpSum64(words[k]);
  }
  if (LaneId() == 0)
  {
#pragma unroll
    for (int k = 0; k < N; ++k)
    {
      atomicAdd(&block[k], words[k]);
    }
  }
  __syncthreads();
  if (threadIdx.x < N && block[threadIdx.x] != 0)
  {
    atomicAdd(&total[threadIdx.x], block[threadIdx.x]);
  }
}

/** Minimum and maximum over the warp of a 32-bit value (all 32 lanes;
 *  each gets the result). */
__device__ __forceinline__ std::int32_t
                           WarpMin32(std::int32_t v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_min_sync(FullWarp, v);
#else
  for (int offset = WarpSize / 2; offset > 0; offset /= 2)
  {
    v = min(v, __shfl_xor_sync(FullWarp, v, offset));
  }
  return v;
#endif
}

__device__ __forceinline__ std::int32_t
                           WarpMax32(std::int32_t v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(FullWarp, v);
#else
  for (int offset = WarpSize / 2; offset > 0; offset /= 2)
  {
    v = max(v, __shfl_xor_sync(FullWarp, v, offset));
  }
  return v;
#endif
}

/** Global warp index and warp count of a grid-stride loop over whole warps. */
__device__ __forceinline__ std::int64_t
                           GlobalWarp()
{
  return (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / WarpSize;
}
__device__ __forceinline__ std::int64_t
                           WarpCount()
{
  return static_cast<std::int64_t>(gridDim.x) * blockDim.x / WarpSize;
}

/** A label no component has (labels are below the unit count, which an
 *  Index holds): "none" where a kernel takes a component's label. */
template <class Index>
constexpr Index NoLabel = std::numeric_limits<Index>::max();

/** Blocks for a grid-stride loop over items (capped: the loops cover the rest). */
inline unsigned
BlocksFor(std::int64_t items, std::int64_t itemsPerBlock)
{
  const std::int64_t     blocks = (items + itemsPerBlock - 1) / itemsPerBlock;
  constexpr std::int64_t maxBlocks = std::int64_t{ 1 } << 22;
  return static_cast<unsigned>(blocks < 1 ? 1 : (blocks > maxBlocks ? maxBlocks : blocks));
}

} // namespace cuda
} // namespace cca

#endif
