// Device-memory input with strides (a transposed or reversed CuPy array, a
// non-contiguous PyTorch view): packed into the dense x-fastest layout the
// kernels read, on the device, without a trip through the host.
#ifndef cca_cuda_StridedGather_cuh
#define cca_cuda_StridedGather_cuh

#include "DeviceGeometry.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** dense[i] = source[x * sx + y * sy + z * sz] for pixel i = x + width * (y +
 *  height * z); strides in pixels, any sign (source points at pixel (0, 0, 0)). */
template <class T>
__global__ void
GatherStridedKernel(const T * __restrict__ source,
                    std::int64_t width,
                    std::int64_t height,
                    std::int64_t pixels,
                    std::int64_t sx,
                    std::int64_t sy,
                    std::int64_t sz,
                    T * __restrict__ dense)
{
  AwaitPrecedingKernel();
  const std::int64_t step = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < pixels; i += step)
  {
    const std::int64_t x = i % width;
    const std::int64_t row = i / width;
    const std::int64_t y = row % height;
    const std::int64_t z = row / height;
    dense[i] = source[x * sx + y * sy + z * sz];
  }
}

} // namespace cuda
} // namespace cca

#endif
