// The connected-component analysis engine: labels the foreground of a 2D or
// 3D image and computes an exact integer feature table per component, on the
// GPU (CUDA) or the CPU. Both backends give identical results.
#ifndef cca_Engine_h
#define cca_Engine_h

#include "cca/Types.h"

#include <cstdint>
#include <memory>

namespace cca
{

class BackendImplementation;

/** Device memory that the engines of the process hold in their buffers
 *  (Engine::DeviceMemoryInUse): what runs need, not what CUDA's pools keep
 *  idle for the next run, nor the caller's own device images. */
struct DeviceMemoryUse
{
  std::int64_t heldBytes = 0; ///< held now, by every engine on every device
  std::int64_t peakBytes = 0; ///< the most held at once since the last ResetDeviceMemoryPeak
};

/** Holds backend state (CUDA stream, device and pinned buffers, CPU threads)
 *  so that repeated Run() calls reuse it. Not thread-safe: one engine per thread. */
class Engine
{
public:
  Engine();
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &
  operator=(const Engine &) = delete;

  /** Labels the image and computes the feature table. Throws cca::Error. */
  Result
  Run(const ImageView & image, const Options & options);

  /** The same, into a Result whose vectors keep their capacity: repeated runs
   *  then reuse host memory instead of touching fresh pages (the feature table
   *  of millions of components is gigabytes). */
  void
  Run(const ImageView & image, const Options & options, Result & result);

  /** True when this build has the CUDA backend and a CUDA device is usable. */
  static bool
  CudaAvailable();

  /** True when this build was compiled with the CUDA backend. */
  static bool
  CudaCompiledIn();

  /** Starts CUDA ahead of the first Run: the device's context and kernels,
   *  the process's memory pools, pinned staging buffers and copy threads,
   *  which a first Run would otherwise wait for (about 0.3 s). A program
   *  calls it on another thread while it reads its input. device -1: the
   *  current one. Safe from any thread; returns CudaAvailable() and does
   *  nothing more without a usable device. */
  static bool
  StartCuda(int device = -1);

  /** Gives back the device memory and pinned host memory that the process
   *  keeps for its next engines (a new engine otherwise takes the streams
   *  and buffers of one that went before it, and allocates nothing), and the
   *  idle blocks of the host image pool (HostImageMemory.h): for callers
   *  that need that memory elsewhere once done with the engine. */
  static void
  ReleaseCachedMemory();

  /** The device memory held now by the buffers of every engine of the
   *  process (device input, labels, tables, CUB's workspace: each buffer's
   *  capacity, which may exceed what the run asked for by a quarter), and
   *  its high-water mark. Engines keep their buffers between runs, so what
   *  one run of a new engine needs is peakBytes after it minus heldBytes
   *  before it, with ResetDeviceMemoryPeak called before it. Both are 0
   *  without the CUDA backend. Safe from any thread; a reset that races
   *  with a run on another thread may miss that run's growth. */
  static DeviceMemoryUse
  DeviceMemoryInUse();

  /** Starts a new high-water mark at the memory held now. */
  static void
  ResetDeviceMemoryPeak();

private:
  BackendImplementation &
  BackendFor(Backend resolved, int cudaDevice);

  std::unique_ptr<BackendImplementation> m_Cpu;
  std::unique_ptr<BackendImplementation> m_Cuda;
  int                                    m_CudaDevice = -1; ///< the device m_Cuda was made for (-1: current)
};

/** Throws cca::Error when the image or options are unusable (null data,
 *  sizes out of range, dimension not 2 or 3, sums that could overflow, device
 *  memory with the CPU backend, a device other than the image's). */
void
ValidateInput(const ImageView & image, const Options & options);

} // namespace cca

#endif
