// CUDA's start-up (the device's context, the kernels, the process's memory
// pools and pinned staging buffers: about 0.3 s) on a thread of its own, so
// that it overlaps reading the input instead of delaying the analysis.
#ifndef CudaLabelStatisticsApp_CudaStartup_h
#define CudaLabelStatisticsApp_CudaStartup_h

#include <string>

namespace ccaapp
{

/** Starts cca::Engine::StartCuda(device) on a thread when the backend may be
 *  CUDA (auto or cuda; with cpu the CUDA runtime is never started). Without a
 *  usable device it ends at once; when no thread can start, the analysis
 *  starts CUDA itself. Call once. */
void
StartCudaInBackground(const std::string & backend, int device);

struct CudaStartupTimes
{
  bool   ran = false;       ///< a start-up thread ran
  double seconds = 0;       ///< what the start-up took on its thread
  double waitedSeconds = 0; ///< what the analysis waited for it (the part not overlapped)
};

/** Whether the start-up thread still runs (work done meanwhile on other
 *  threads costs the analysis nothing). */
bool
CudaStartupRunning();

/** Waits for the start-up thread (the analysis calls it before using the
 *  engine, which then finds CUDA started); later calls return the same times. */
CudaStartupTimes
FinishCudaStartup();

} // namespace ccaapp

#endif
