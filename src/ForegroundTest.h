// The foreground rule of cca::Options for pixels of one type: what the CPU
// backend's run detection, the CUDA kernels and the upload of foreground
// bits (ForegroundBits.h) all test, so that they agree by construction.
#ifndef cca_ForegroundTest_h
#define cca_ForegroundTest_h

#include "HostDevice.h"

#include "cca/Types.h"

namespace cca
{

/** foreground = (pixel == value) when equal, (pixel != value) otherwise;
 *  every pixel when all. */
template <typename TPixel>
struct ForegroundTest
{
  TPixel value;
  bool   equal;
  bool   all;

  CCA_HOST_DEVICE bool
  operator()(TPixel p) const
  {
    return all || (p == value) == equal;
  }
};

/** The foreground rule of options for pixels of type TPixel (the value
 *  converted to the pixel type). */
template <typename TPixel>
ForegroundTest<TPixel>
ForegroundOf(const Options & options)
{
  return ForegroundTest<TPixel>{ static_cast<TPixel>(options.foregroundValue),
                                 options.foregroundRule == ForegroundRule::EqualTo,
                                 options.foregroundRule == ForegroundRule::All };
}

} // namespace cca

#endif
