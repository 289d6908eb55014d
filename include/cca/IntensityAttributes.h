// The scalar intensity attributes of one object, its index-space and
// physical positions and its weighted principal moments, from the engine's
// ObjectIntensity: ITK 5.2.1's
// StatisticsLabelMapFilter formulas without ITK, for callers that do not
// build an itk::LabelMap (the Python package).
#ifndef cca_IntensityAttributes_h
#define cca_IntensityAttributes_h

#include "cca/ShapeAttributes.h"
#include "cca/SymmetricEigen.h"
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
 *  two entries). The weighted ones are 0 when the sum is almost 0 (ITK's
 *  rule). */
struct IntensityAttributes : IntensityMoments
{
  std::int64_t minimumIndex[3] = {}; ///< ITK index (the region index added)
  std::int64_t maximumIndex[3] = {};
  double       centerOfGravity[3] = {};          ///< physical point
  double       weightedPrincipalMoments[3] = {}; ///< ascending
  double       weightedPrincipalAxes[3][3] = {}; ///< row i: the axis of weightedPrincipalMoments[i]; a proper rotation
  double       weightedElongation = 0;           ///< sqrt(m[D-1] / m[D-2]); 0 when m[0] is almost 0
  double       weightedFlatness = 0;             ///< sqrt(m[1] / m[0]); 0 when m[0] is almost 0
};

namespace detail
{
/** itk::Math::NotAlmostEquals(x, 0.0): more than 0.1 epsilon from 0. */
inline bool
NotAlmostZero(double x)
{
  return std::abs(x) > 0.1 * DBL_EPSILON;
}

/** StatisticsLabelMapFilter's weighted principal moments and axes of `s`:
 *  the index-space weighted covariance C mapped as A C A^T (A = direction
 *  diag(spacing)) plus spacing^2 / 12 on the diagonal, as ITK adds it; its
 *  eigensystem (SymmetricEigen.h: ITK's order and signs), the last axis
 *  times the determinant; elongation and flatness from the moments. */
inline void
WeightedPrincipalMoments(const ObjectIntensity & s, const ImageGeometry & geometry, IntensityAttributes & a)
{
  static constexpr int slot[3][3] = { { 0, 3, 4 }, { 3, 1, 5 }, { 4, 5, 2 } };
  const int            d = geometry.dimension;
  double               toPhysical[3][3] = {}; // A, in the ITK adapter's order of operations
  for (int i = 0; i < d; ++i)
  {
    for (int j = 0; j < d; ++j)
    {
      toPhysical[i][j] = geometry.direction[i][j] * geometry.spacing[j];
    }
  }
  double physical[3][3] = {};
  for (int i = 0; i < d; ++i)
  {
    for (int j = 0; j < d; ++j)
    {
      double value = 0;
      for (int p = 0; p < d; ++p)
      {
        for (int q = 0; q < d; ++q)
        {
          value += toPhysical[i][p] * s.weightedCovariance[slot[p][q]] * toPhysical[j][q];
        }
      }
      physical[i][j] = value;
    }
  }
  for (int i = 0; i < d; ++i)
  {
    for (int j = i + 1; j < d; ++j)
    {
      physical[j][i] = physical[i][j];
    }
    physical[i][i] += geometry.spacing[i] * geometry.spacing[i] / 12.0;
  }
  PrincipalMomentsAndRotation(
    d, physical, "an object's weighted moments", a.weightedPrincipalMoments, a.weightedPrincipalAxes);
  const double * m = a.weightedPrincipalMoments;
  if (NotAlmostZero(m[0]))
  {
    a.weightedElongation = std::sqrt(m[d - 1] / m[d - 2]);
    a.weightedFlatness = std::sqrt(m[1] / m[0]);
  }
}
} // namespace detail

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
  if (detail::NotAlmostZero(s.sum))
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
    detail::WeightedPrincipalMoments(s, geometry, a);
  }
  return a;
}

} // namespace cca

#endif
