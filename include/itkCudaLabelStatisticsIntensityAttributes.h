/*=========================================================================
 *
 *  Licensed under the Apache License, Version 2.0 (the "License");
 *  you may not use this file except in compliance with the License.
 *  You may obtain a copy of the License at
 *
 *         http://www.apache.org/licenses/LICENSE-2.0.txt
 *
 *  Unless required by applicable law or agreed to in writing, software
 *  distributed under the License is distributed on an "AS IS" BASIS,
 *  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 *  See the License for the specific language governing permissions and
 *  limitations under the License.
 *
 *=========================================================================*/
#ifndef itkCudaLabelStatisticsIntensityAttributes_h
#define itkCudaLabelStatisticsIntensityAttributes_h

#include "cca/IntensityAttributes.h"
#include "cca/Types.h"

#include "itkContinuousIndex.h"
#include "itkCudaLabelStatisticsProperRotation.h"
#include "itkMath.h"
#include "itkCudaLabelStatisticsSymmetricEigensystem.h"

#include <cmath>
#include <cstdint>

namespace itk
{

/** \class CudaLabelStatisticsIntensityAttributes
 * \brief Turns the engine's intensity group of one object (cca::ObjectIntensity,
 * formed from exact integer sums for integer feature images) and its sparse
 * histogram into the intensity attributes of a StatisticsLabelObject, with the
 * formulas of ITK 5.2.1's StatisticsLabelMapFilter.
 *
 * Mean, Variance (N - 1), StandardDeviation, Skewness and Kurtosis by
 * cca::ComputeIntensityMoments (cca/IntensityAttributes.h, shared with the
 * Python package); CenterOfGravity = the weighted centroid mapped to physical
 * space; the weighted second moments are the index-space weighted covariance
 * C mapped as A C A^T (A = Direction * diag(Spacing)), plus spacing^2 / 12 on
 * the diagonal as ITK adds it, then vnl's eigensystem, the last axis times
 * the determinant, WeightedElongation = sqrt(m[D-1] / m[D-2]) and
 * WeightedFlatness = sqrt(m[1] / m[0]) unless m[0] is almost 0; everything
 * weighted is 0 when the Sum is almost 0. ITK sums v p p^T over physical
 * points in double and subtracts the centre of gravity: its rounding, not
 * ours, limits the agreement (docs/architecture.md).
 *
 * \ingroup CudaLabelStatistics
 */
template <typename TLabelMap>
class CudaLabelStatisticsIntensityAttributes
{
public:
  static constexpr unsigned int Dimension = TLabelMap::ImageDimension;
  using LabelObjectType = typename TLabelMap::LabelObjectType;
  using RegionType = typename TLabelMap::RegionType;
  using IndexType = typename TLabelMap::IndexType;
  using MatrixType = typename LabelObjectType::MatrixType;
  using VectorType = typename LabelObjectType::VectorType;
  using PointType = typename LabelObjectType::PointType;
  using HistogramType = typename LabelObjectType::HistogramType;

  /** histogramBins 0: no Histogram attribute. */
  CudaLabelStatisticsIntensityAttributes(const TLabelMap *   map,
                                         const RegionType &  region,
                                         const cca::Result & result,
                                         unsigned int        histogramBins)
    : m_Map(map)
    , m_RegionIndex(region.GetIndex())
    , m_Result(result)
    , m_HistogramBins(histogramBins)
  {
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      for (unsigned int j = 0; j < Dimension; ++j)
      {
        m_IndexToPhysical[i][j] = map->GetDirection()[i][j] * map->GetSpacing()[j];
      }
    }
  }

  /** Object k of the result. */
  void
  Assign(std::int64_t k, LabelObjectType & object) const
  {
    const cca::ObjectIntensity & s = m_Result.intensity[static_cast<std::size_t>(k)];
    const cca::IntensityMoments  scalars =
      cca::ComputeIntensityMoments(s, m_Result.features[static_cast<std::size_t>(k)].pixelCount);

    IndexType minimumIndex = m_RegionIndex;
    IndexType maximumIndex = m_RegionIndex;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      minimumIndex[i] += s.minimumIndex[i];
      maximumIndex[i] += s.maximumIndex[i];
    }

    PointType  centerOfGravity;
    MatrixType principalAxes;
    VectorType principalMoments;
    centerOfGravity.Fill(0);
    principalAxes.Fill(0);
    principalMoments.Fill(0);
    double elongation = 0;
    double flatness = 0;
    if (Math::NotAlmostEquals(s.sum, 0.0))
    {
      ContinuousIndex<double, Dimension> centroid;
      for (unsigned int i = 0; i < Dimension; ++i)
      {
        centroid[i] = static_cast<double>(m_RegionIndex[i]) + s.weightedCentroid[i];
      }
      m_Map->TransformContinuousIndexToPhysicalPoint(centroid, centerOfGravity);

      MatrixType moments = this->PhysicalMoments(s);
      for (unsigned int i = 0; i < Dimension; ++i)
      {
        moments[i][i] += m_Map->GetSpacing()[i] * m_Map->GetSpacing()[i] / 12.0;
      }
      CudaLabelStatisticsDetail::SymmetricEigensystem(moments, principalMoments, principalAxes);
      CudaLabelStatisticsDetail::MakeProperRotation(principalAxes);
      if (Math::NotAlmostEquals(principalMoments[0], 0.0))
      {
        elongation = std::sqrt(principalMoments[Dimension - 1] / principalMoments[Dimension - 2]);
        flatness = std::sqrt(principalMoments[1] / principalMoments[0]);
      }
    }

    object.SetMinimum(s.minimum);
    object.SetMaximum(s.maximum);
    object.SetSum(s.sum);
    object.SetMean(scalars.mean);
    object.SetMedian(s.median);
    object.SetVariance(scalars.variance);
    object.SetStandardDeviation(scalars.standardDeviation);
    object.SetMinimumIndex(minimumIndex);
    object.SetMaximumIndex(maximumIndex);
    object.SetCenterOfGravity(centerOfGravity);
    object.SetWeightedPrincipalAxes(principalAxes);
    object.SetWeightedFlatness(flatness);
    object.SetWeightedPrincipalMoments(principalMoments);
    object.SetSkewness(scalars.skewness);
    object.SetKurtosis(scalars.kurtosis);
    object.SetWeightedElongation(elongation);
    if (m_HistogramBins > 0)
    {
      object.SetHistogram(this->Histogram(k));
    }
  }

private:
  /** A C A^T, C the index-space weighted covariance. */
  MatrixType
  PhysicalMoments(const cca::ObjectIntensity & s) const
  {
    static constexpr int slot[3][3] = { { 0, 3, 4 }, { 3, 1, 5 }, { 4, 5, 2 } };
    MatrixType           physical;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      for (unsigned int j = 0; j < Dimension; ++j)
      {
        double value = 0;
        for (unsigned int a = 0; a < Dimension; ++a)
        {
          for (unsigned int b = 0; b < Dimension; ++b)
          {
            value += m_IndexToPhysical[i][a] * s.weightedCovariance[slot[a][b]] * m_IndexToPhysical[j][b];
          }
        }
        physical[i][j] = value;
      }
    }
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      for (unsigned int j = i + 1; j < Dimension; ++j)
      {
        physical[j][i] = physical[i][j];
      }
    }
    return physical;
  }

  /** StatisticsLabelMapFilter's histogram: NumberOfBins bins over the bounds
   *  the engine used, ends not clipped, frequencies of the non-empty bins. */
  typename HistogramType::Pointer
  Histogram(std::int64_t k) const
  {
    auto histogram = HistogramType::New();
    histogram->SetMeasurementVectorSize(1);
    histogram->SetClipBinsAtEnds(false);
    typename HistogramType::SizeType              size(1);
    typename HistogramType::MeasurementVectorType lower(1);
    typename HistogramType::MeasurementVectorType upper(1);
    size.Fill(m_HistogramBins);
    lower.Fill(m_Result.histogramLower);
    upper.Fill(m_Result.histogramUpper);
    histogram->Initialize(size, lower, upper);
    for (std::int64_t e = m_Result.histogramOffsets[k]; e < m_Result.histogramOffsets[k + 1]; ++e)
    {
      histogram->SetFrequency(m_Result.histogramBins[e],
                              static_cast<typename HistogramType::AbsoluteFrequencyType>(m_Result.histogramCounts[e]));
    }
    return histogram;
  }

  const TLabelMap *   m_Map;
  IndexType           m_RegionIndex;
  const cca::Result & m_Result;
  unsigned int        m_HistogramBins;
  double              m_IndexToPhysical[Dimension][Dimension];
};

} // end namespace itk

#endif
