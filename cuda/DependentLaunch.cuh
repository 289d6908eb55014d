// Programmatic dependent launch (compute capability 9.0 and later): the
// backend launches every kernel so that it may start while the kernel before
// it on the stream finishes (StreamDevice::Launch), and every kernel begins
// with AwaitPrecedingKernel. A kernel's start then no longer waits for the
// launch of its grid after the last block of the one before it has left: at
// 8192^2 and 512^3 the runs' 18-30 kernels left the GPU idle for 50-100 us
// an image between them (H200, stage times against the kernels' own).
#ifndef cca_cuda_DependentLaunch_cuh
#define cca_cuda_DependentLaunch_cuh

namespace cca
{
namespace cuda
{

/** The first statement of every kernel: waits until the kernel before it on
 *  the stream has completed and its memory writes are visible (a kernel
 *  launched the ordinary way, or on an older GPU, has waited already), then
 *  lets the next kernel's blocks be scheduled, once every block of this one
 *  has begun, into the slots this one's blocks leave. Nothing of this
 *  kernel reads or writes memory before the wait, so the overlap cannot
 *  change a result. Compiled for an older GPU it is empty, and
 *  StreamDevice then launches the ordinary way. */
__device__ __forceinline__ void
AwaitPrecedingKernel()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

} // namespace cuda
} // namespace cca

#endif
