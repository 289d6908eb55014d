// The emulated runs with 64-bit unit indices (EmulatedBackend.cpp says why
// they are a file of their own).
#include "EmulatedBackend.h"

namespace emulation
{

void
Backend::RunWideIndex(const cca::ImageView & image, const cca::Options & options, cca::Result & result)
{
  sequence.RunWithIndex<unsigned long long>(device, image, options, result);
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
