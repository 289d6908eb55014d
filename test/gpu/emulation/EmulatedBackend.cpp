// The CUDA backend's host sequence on the emulated device: the runs of
// EmulatedBackend.h, compiled once for every test that emulates them. The
// runs with 32-bit unit indices are compiled here, those with 64-bit ones
// in EmulatedBackendWide.cpp: each width instantiates every strategy, and
// the two files compile side by side (one file took 136 s under ASan).
#include "EmulatedBackend.h"

namespace emulation
{

void
Backend::Run(const cca::ImageView & image, const cca::Options & options, cca::Result & result)
{
  if (sequence.UsesWideIndex(image, options))
  {
    RunWideIndex(image, options, result);
  }
  else
  {
    sequence.RunWithIndex<std::uint32_t>(device, image, options, result);
  }
}

} // namespace emulation
