// Whether this build has the CUDA backend and whether a device can run it.
#include "BackendImplementation.h"
#include "DependentLaunch.cuh"

#include <cuda_runtime_api.h>

namespace cca
{

namespace
{
// Asking for a kernel's attributes fails when the build holds no code for
// the device (an architecture older than the build targets).
__global__ void
ProbeKernel()
{
  cuda::AwaitPrecedingKernel(); // never launched; every kernel begins so (scripts/check-kernel-awaits.py)
}

bool
ProbeDevice()
{
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
  {
    cudaGetLastError();
    return false;
  }
  cudaFuncAttributes attributes;
  if (cudaFuncGetAttributes(&attributes, ProbeKernel) != cudaSuccess)
  {
    cudaGetLastError();
    return false;
  }
  // Conflict detection needs __match_any_sync (Volta and later).
  int device = 0;
  int major = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess)
  {
    cudaGetLastError();
    return false;
  }
  return major >= 7;
}
} // namespace

bool
CudaBackendCompiledIn()
{
  return true;
}

bool
CudaDeviceUsable()
{
  try
  {
    // Devices do not come and go while a process runs; ask the driver once.
    static const bool usable = ProbeDevice();
    return usable;
  }
  catch (...)
  {
    return false;
  }
}

} // namespace cca
