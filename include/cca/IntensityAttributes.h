// The scalar intensity attributes of one object, and its index-space and
// physical positions, from the engine's ObjectIntensity: ITK 5.2.1's
// StatisticsLabelMapFilter formulas without ITK, for callers that do not
// build an itk::LabelMap (the Python package).
#ifndef cca_IntensityAttributes_h
#define cca_IntensityAttributes_h

#include "cca/ShapeAttributes.h"
#include "cca/Types.h"

#include <cfloat>
#include <cmath>
#include <cstdint>

namespace cca
{

/** The moments of the values, named as StatisticsLabelObject's attributes. */
struct IntensityMoments
{
  double mean = 0;
  double variance = 0; ///< sum (v - mean)^2 / (N - 1), 0 for one pixel
  double standardDeviation = 0;
  double skewness = 0; ///< 0 when the variance is 0 (ITK's guard)
  double kurtosis = 0; ///< excess kurtosis; 0 when the variance is 0
};

/** The moments of object `s` of `pixelCount` pixels. */
inline IntensityMoments
ComputeIntensityMoments(const ObjectIntensity & s, std::int64_t pixelCount)
{
  IntensityMoments m;
  const double     n = static_cast<double>(pixelCount);
  m.mean = s.sum / n;
  m.variance = n > 1 ? s.centralMoments[0] / (n - 1) : 0.0;
  m.standardDeviation = std::sqrt(m.variance);
  // itk::NumericTraits<double>::min() is DBL_MIN.
  if (std::abs(m.variance * m.standardDeviation) > DBL_MIN)
  {
    m.skewness = (s.centralMoments[1] / n) / (m.variance * m.standardDeviation);
  }
  if (std::abs(m.variance) > DBL_MIN)
  {
    m.kurtosis = (s.centralMoments[2] / n) / (m.variance * m.variance) - 3.0;
  }
  return m;
}

/** The moments and the positions; vectors in x, y, z order (2D: the first
 *  two entries). */
struct IntensityAttributes : IntensityMoments
{
  std::int64_t minimumIndex[3] = {}; ///< ITK index (the region index added)
  std::int64_t maximumIndex[3] = {};
  double       centerOfGravity[3] = {}; ///< physical point; 0 when the sum is almost 0 (ITK's rule)
};

/** Object `s` of `pixelCount` pixels in an image of `geometry`. */
inline IntensityAttributes
ComputeIntensityAttributes(const ObjectIntensity & s, std::int64_t pixelCount, const ImageGeometry & geometry)
{
  IntensityAttributes a;
  static_cast<IntensityMoments &>(a) = ComputeIntensityMoments(s, pixelCount);
  const int d = geometry.dimension;
  for (int i = 0; i < d; ++i)
  {
    a.minimumIndex[i] = geometry.regionIndex[i] + s.minimumIndex[i];
    a.maximumIndex[i] = geometry.regionIndex[i] + s.maximumIndex[i];
  }
  // itk::Math::NotAlmostEquals(sum, 0.0): more than 0.1 epsilon from 0.
  if (std::abs(s.sum) > 0.1 * DBL_EPSILON)
  {
    for (int i = 0; i < d; ++i)
    {
      double point = geometry.origin[i];
      for (int j = 0; j < d; ++j)
      {
        const double index = static_cast<double>(geometry.regionIndex[j]) + s.weightedCentroid[j];
        point += geometry.direction[i][j] * geometry.spacing[j] * index;
      }
      a.centerOfGravity[i] = point;
    }
  }
  return a;
}

} // namespace cca

#endif
