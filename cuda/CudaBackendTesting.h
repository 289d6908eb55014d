// Test hooks of the CUDA backend (used by test/gpu only).
#ifndef cca_cuda_CudaBackendTesting_h
#define cca_cuda_CudaBackendTesting_h

namespace cca
{
namespace cuda
{

/** When true, CUDA backends use 64-bit run indices even for small images, so
 *  that tests reach the path large images take. */
void
SetForceWideRunIndex(bool force);
bool
ForceWideRunIndex();

} // namespace cuda
} // namespace cca

#endif
