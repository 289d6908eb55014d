// Turns CUDA runtime status codes into cca::Error, so that every failure of
// the CUDA backend reaches the caller as one exception type with a clear
// message (and Kind::OutOfMemory where a fall-back to the CPU makes sense).
#ifndef cca_cuda_CudaCheck_h
#define cca_cuda_CudaCheck_h

#include "cca/Types.h"

#include <cuda_runtime_api.h>

#include <string>

namespace cca
{
namespace cuda
{

[[noreturn]] inline void
ThrowCudaError(cudaError_t status, const char * what)
{
  const std::string message = std::string("CUDA backend: ") + what + " failed: " + cudaGetErrorString(status) + " (" +
                              cudaGetErrorName(status) + ")";
  if (status == cudaErrorMemoryAllocation)
  {
    // Allocation failures leave no sticky error; clear it so the device stays usable.
    cudaGetLastError();
    throw Error(Error::Kind::OutOfMemory, message);
  }
  throw Error(Error::Kind::Cuda, message);
}

inline void
Check(cudaError_t status, const char * what)
{
  if (status != cudaSuccess)
  {
    ThrowCudaError(status, what);
  }
}

/** Call after every kernel launch: reports bad launch configurations at once. */
inline void
CheckLaunch(const char * kernel)
{
  Check(cudaGetLastError(), kernel);
}

} // namespace cuda
} // namespace cca

#endif
