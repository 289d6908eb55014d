// The CPU backend's intensity group (IntensityOptions): every object's
// statistics of a feature image's values over its pixels, with a histogram
// and its median where asked, from the object's runs. The same records and
// formulas as the CUDA backend's (IntensityRecord.h, IntensityStatistics.h):
// exact integer sums give both the same results; double sums (real and
// 64-bit images) may differ in their last bits (cca::ObjectIntensity).
#ifndef cca_CpuIntensity_h
#define cca_CpuIntensity_h

#include "cca/Types.h"

#include <cstdint>
#include <vector>

namespace cca
{

/** Fills result's intensity group (and its histograms) for every object
 *  from grouped, the objects' runs one object after another, object o's at
 *  [offsets[o], offsets[o + 1]); options.intensity.featureImage is read on
 *  threads threads. */
void
IntensityStatisticsOnCpu(const Options &                   options,
                         const std::vector<cca::Run> &     grouped,
                         const std::vector<std::int64_t> & offsets,
                         int                               threads,
                         Result &                          result);

} // namespace cca

#endif
