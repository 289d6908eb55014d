// The CUDA backend: the host sequence (HostSequence.cuh: upload, label the
// units, number the components, the feature table of the chosen compaction,
// the outputs, download) run by the stream device (StreamDevice.cuh) of one
// CUDA device, with buffers kept across calls. The strategies it runs are
// the rows of Strategies.cuh's table.
#include "BackendImplementation.h"
#include "CudaBackendTesting.h"
#include "CudaCheck.h"
#include "HostSequence.cuh"
#include "StreamDevice.cuh"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace cca
{
namespace cuda
{

namespace
{
std::atomic<bool>         forceWideRunIndex{ false };
std::atomic<std::int64_t> treeMergeSecondCopies{ 0 };

class CudaBackend final : public BackendImplementation
{
public:
  explicit CudaBackend(int device);
  ~CudaBackend() override;

  void
  Run(const ImageView & image, const Options & options, Result & result) override;

private:
  int                           m_Device = 0;
  std::unique_ptr<StreamDevice> m_StreamDevice; ///< made once the device is selected
  HostSequence<StreamDevice>    m_Sequence;
};

CudaBackend::CudaBackend(int device)
{
  int               count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0)
  {
    cudaGetLastError();
    throw Error(Error::Kind::NoDevice, std::string("the CUDA backend found no usable device (") +
                                         (status != cudaSuccess ? cudaGetErrorString(status) : "no device") + ")");
  }
  if (device < 0)
  {
    Check(cudaGetDevice(&m_Device), "querying the current CUDA device");
  }
  else if (device >= count)
  {
    throw Error(Error::Kind::NoDevice, "CUDA device " + std::to_string(device) + " does not exist (" +
                                         std::to_string(count) + " present)");
  }
  else
  {
    m_Device = device;
  }
  Check(cudaSetDevice(m_Device), "selecting the CUDA device");
  m_StreamDevice = std::make_unique<StreamDevice>();
}

CudaBackend::~CudaBackend()
{
  // Work still in flight would write into buffers freed below.
  cudaSetDevice(m_Device);
  if (m_StreamDevice)
  {
    cudaStreamSynchronize(m_StreamDevice->Stream());
  }
}

void
CudaBackend::Run(const ImageView & image, const Options & options, Result & result)
{
  Check(cudaSetDevice(m_Device), "selecting the CUDA device");
  m_Sequence.SetForceWideIndex(ForceWideRunIndex());
  const std::int64_t secondCopies = m_Sequence.TreeMergeSecondCopies();
  m_Sequence.Run(*m_StreamDevice, image, options, result);
  treeMergeSecondCopies += m_Sequence.TreeMergeSecondCopies() - secondCopies;
}

} // namespace

void
SetForceWideRunIndex(bool force)
{
  forceWideRunIndex = force;
}

bool
ForceWideRunIndex()
{
  return forceWideRunIndex;
}

std::int64_t
TreeMergeSecondCopies()
{
  return treeMergeSecondCopies;
}

} // namespace cuda

std::unique_ptr<BackendImplementation>
MakeCudaBackend(int device)
{
  return std::make_unique<cuda::CudaBackend>(device);
}

} // namespace cca
