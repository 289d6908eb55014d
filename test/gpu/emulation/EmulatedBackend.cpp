// The CUDA backend's host sequence on the emulated device: the runs of
// EmulatedBackend.h, compiled once for every test that emulates them.
#include "EmulatedBackend.h"

namespace emulation
{

void
Backend::Run(const cca::ImageView & image, const cca::Options & options, cca::Result & result)
{
  sequence.Run(device, image, options, result);
}

void
Backend::RunUnregularizedDlp(const cca::ImageView & image, const cca::Options & options, cca::Result & result)
{
  using namespace cca::cudaemulated;
  using Unregularized =
    Strategy<PixelRuns, FeatureMerge::ConflictDetection, DistancelessLabelPropagationOf<DlpRegularization::Skipped>>;
  sequence.RunStrategy<unsigned long long, Unregularized>(device, image, options, result);
}

} // namespace emulation
