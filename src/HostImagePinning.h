// How the host image pool (cca/HostImageMemory.h) page-locks its blocks:
// through CUDA by default (cudaHostRegister, when a device is usable), or
// through functions a test sets, so that the pool's pinning runs where no
// GPU is present.
#ifndef cca_HostImagePinning_h
#define cca_HostImagePinning_h

#include <cstddef>

namespace cca
{

struct HostImagePinning
{
  /** Locks [memory, memory + bytes); false when it could not. */
  bool (*pin)(void * memory, std::size_t bytes) = nullptr;
  /** Unlocks a range pin locked (never throws). */
  void (*unpin)(void * memory) = nullptr;
};

/** CUDA's, when the build has the backend and a device is usable; else none. */
HostImagePinning
CudaHostImagePinning();

/** While an engine runs, anywhere in the process, the pool locks no chunk:
 *  each lock holds CUDA's driver and the process's memory map for a few
 *  milliseconds, and an engine run makes hundreds of CUDA calls and page
 *  faults (an engine beside the locking of 18.8 GB took 0.8-1.7 s longer on
 *  the H100 machine). The pool locks its blocks between runs instead. */
class EngineRunInProgress
{
public:
  EngineRunInProgress();
  ~EngineRunInProgress();
  EngineRunInProgress(const EngineRunInProgress &) = delete;
  EngineRunInProgress &
  operator=(const EngineRunInProgress &) = delete;
};

/** Replaces the pool's pinning (tests). Pass {} to have no pinning; call
 *  while the pool holds no pinned block. Returns the previous one. */
HostImagePinning
SetHostImagePinning(HostImagePinning pinning);

} // namespace cca

#endif
