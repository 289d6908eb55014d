// The foreground rule of cca::Options for host pixels of one type: what the
// CPU backend's run detection and the CUDA backend's upload of foreground
// bits (ForegroundBits.h) both test, so that they agree by construction.
#ifndef cca_HostForegroundTest_h
#define cca_HostForegroundTest_h

#include "cca/Types.h"

namespace cca
{

/** foreground = (pixel == value) when equal, (pixel != value) otherwise;
 *  every pixel when all. */
template <typename TPixel>
struct HostForegroundTest
{
  TPixel value;
  bool   equal;
  bool   all;

  bool
  operator()(TPixel p) const
  {
    return all || (p == value) == equal;
  }
};

/** The foreground rule of options for pixels of type TPixel (the value
 *  converted to the pixel type, as the device kernels convert it). */
template <typename TPixel>
HostForegroundTest<TPixel>
HostForegroundOf(const Options & options)
{
  return HostForegroundTest<TPixel>{ static_cast<TPixel>(options.foregroundValue),
                                     options.foregroundRule == ForegroundRule::EqualTo,
                                     options.foregroundRule == ForegroundRule::All };
}

} // namespace cca

#endif
