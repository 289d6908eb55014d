// Used in builds without a CUDA compiler: the CUDA backend reports itself absent.
#include "BackendImplementation.h"
#include "HostImagePinning.h"

namespace cca
{

bool
CudaBackendCompiledIn()
{
  return false;
}

bool
CudaDeviceUsable()
{
  return false;
}

void
StartCudaDevice(int)
{}

void
ReleaseCudaCachedMemory()
{}

HostImagePinning
CudaHostImagePinning()
{
  return {};
}

std::int64_t
CudaDeviceBytesHeld()
{
  return 0;
}

std::int64_t
CudaDeviceBytesPeak()
{
  return 0;
}

void
ResetCudaDeviceBytesPeak()
{}

std::unique_ptr<BackendImplementation>
MakeCudaBackend(int)
{
  throw Error(Error::Kind::NoDevice, "the CUDA backend was requested but this build has no CUDA support");
}

} // namespace cca
