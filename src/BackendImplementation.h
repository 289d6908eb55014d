// Internal interface between cca::Engine and its backends.
#ifndef cca_BackendImplementation_h
#define cca_BackendImplementation_h

#include "cca/Types.h"

#include <cstdint>
#include <memory>

namespace cca
{

class BackendImplementation
{
public:
  virtual ~BackendImplementation() = default;
  /** Fills result (all but backendUsed and times.totalMs). Input is already validated. */
  virtual void
  Run(const ImageView & image, const Options & options, Result & result) = 0;

  /** True when Run reads MemorySpace::CudaDevice images in place, writes
   *  MemorySpace::CudaDevice label images and honours Options::useCallerStream.
   *  Engine::Run refuses device memory for a backend that does not, instead
   *  of letting it read a device pointer as host memory. */
  virtual bool
  SupportsDeviceMemory() const
  {
    return false;
  }
};

std::unique_ptr<BackendImplementation>
MakeCpuBackend();

/** Defined by the CUDA backend, or by a stub that throws Error::Kind::NoDevice
 *  when the build has no CUDA compiler. */
std::unique_ptr<BackendImplementation>
MakeCudaBackend(int device);
bool
CudaBackendCompiledIn();
bool
CudaDeviceUsable();
/** Engine::StartCuda and Engine::ReleaseCachedMemory (no-ops without CUDA). */
void
StartCudaDevice(int device);
void
ReleaseCudaCachedMemory();
/** Engine::DeviceMemoryInUse and ResetDeviceMemoryPeak (zeros without CUDA). */
std::int64_t
CudaDeviceBytesHeld();
std::int64_t
CudaDeviceBytesPeak();
void
ResetCudaDeviceBytesPeak();

} // namespace cca

#endif
