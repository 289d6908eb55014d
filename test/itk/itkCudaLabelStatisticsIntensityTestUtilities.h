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
// Helpers of the ITK intensity tests: feature and label images with a chosen
// geometry, and the comparison of StatisticsLabelObject intensity attributes
// against ITK 5.2.1's StatisticsLabelMapFilter, with tolerances that bound
// ITK's own rounding (it sums v, v^2, v^3, v^4 and v p p^T in double, pixel
// by pixel; ours come from exact integer sums or long double formulas).
#ifndef itkCudaLabelStatisticsIntensityTestUtilities_h
#define itkCudaLabelStatisticsIntensityTestUtilities_h

#include "itkCudaLabelStatisticsTestUtilities.h"

#include "itkImage.h"
#include "itkImageRegionIterator.h"
#include "itkImageRegionIteratorWithIndex.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace ccaitktest
{

/** An image of mask's size and geometry with random values in [low, high]. */
template <typename TImage>
typename TImage::Pointer
RandomValueImage(const ccatest::Mask & mask, const Geometry & geometry, double low, double high, std::uint32_t seed)
{
  using PixelType = typename TImage::PixelType;
  auto            image = MakeImage<TImage>(mask, geometry, PixelType{}, PixelType{});
  std::mt19937_64 rng(seed);
  for (itk::ImageRegionIterator<TImage> it(image, image->GetLargestPossibleRegion()); !it.IsAtEnd(); ++it)
  {
    if constexpr (std::is_integral<PixelType>::value)
    {
      std::uniform_int_distribution<long long> d(static_cast<long long>(low), static_cast<long long>(high));
      it.Set(static_cast<PixelType>(d(rng)));
    }
    else
    {
      std::uniform_real_distribution<double> d(low, high);
      it.Set(static_cast<PixelType>(d(rng)));
    }
  }
  return image;
}

/** A label image: blocks of g pixels per side, each a value of palette. */
template <typename TImage>
typename TImage::Pointer
BlockLabelImage(const ccatest::Mask &          mask,
                const Geometry &               geometry,
                const std::vector<long long> & palette,
                int                            g,
                std::uint32_t                  seed)
{
  using PixelType = typename TImage::PixelType;
  auto image = MakeImage<TImage>(mask, geometry, PixelType{}, PixelType{});
  for (itk::ImageRegionIteratorWithIndex<TImage> it(image, image->GetLargestPossibleRegion()); !it.IsAtEnd(); ++it)
  {
    std::uint64_t h = seed;
    for (unsigned int i = 0; i < TImage::ImageDimension; ++i)
    {
      h = h * 1000003u + static_cast<std::uint64_t>((it.GetIndex()[i] - geometry.index[i]) / g);
    }
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
    it.Set(static_cast<PixelType>(palette[h % palette.size()]));
  }
  return image;
}

/** Every intensity attribute of the label objects of ours against ITK's
 *  (same labels). Exact: Minimum, Maximum, their indices, Median and the
 *  Histogram (bins, bounds, frequencies). Within ITK's rounding: Sum, Mean,
 *  Variance, StandardDeviation, Skewness, Kurtosis (sums of |v|^k over N
 *  pixels lose up to N epsilon of their magnitude, and the central formulas
 *  cancel it against the mean's powers), CenterOfGravity and the weighted
 *  moments (ITK's v p p^T / sum - c c^T cancels like the shape moments);
 *  axes where their eigenvalue is separated, up to sign; elongation and
 *  flatness where the eigenvalues lie above that noise. */
template <typename TRefMap, typename TOurMap>
void
CompareIntensity(const TRefMap * ref,
                 const TOurMap * ours,
                 double          coordinateScale,
                 bool            compareHistogram,
                 Checker &       check,
                 Margins &       margins)
{
  constexpr unsigned int D = TRefMap::ImageDimension;
  const double           eps = std::numeric_limits<double>::epsilon();
  for (itk::SizeValueType i = 0; i < ref->GetNumberOfLabelObjects(); ++i)
  {
    const auto *      r = ref->GetNthLabelObject(i);
    const auto        label = r->GetLabel();
    const std::string p = "label " + std::to_string(static_cast<long long>(label)) + " ";
    if (!ours->HasLabel(static_cast<typename TOurMap::LabelType>(label)))
    {
      continue; // CompareLabelMaps reports it
    }
    const auto * o = ours->GetLabelObject(static_cast<typename TOurMap::LabelType>(label));
    const double n = static_cast<double>(r->Size());
    const double m = std::max(std::abs(r->GetMinimum()), std::abs(r->GetMaximum()));
    // Bounds of sum |v|^k, and ITK's accumulated relative error (N + 8) eps.
    const double u1 = n * m;
    const double u2 = u1 * m;
    const double u3 = u2 * m;
    const double u4 = u3 * m;
    const double grow = (n + 8) * eps;

    check.Equal(o->GetMinimum(), r->GetMinimum(), p + "Minimum");
    check.Equal(o->GetMaximum(), r->GetMaximum(), p + "Maximum");
    check.Equal(o->GetMinimumIndex(), r->GetMinimumIndex(), p + "MinimumIndex");
    check.Equal(o->GetMaximumIndex(), r->GetMaximumIndex(), p + "MaximumIndex");
    check.Equal(o->GetMedian(), r->GetMedian(), p + "Median");

    auto near = [&](double got, double expected, double tolerance, const std::string & what) {
      Track(margins.others, std::abs(got - expected), tolerance);
      check.Near(got, expected, tolerance, p + what);
    };
    near(o->GetSum(), r->GetSum(), grow * u1 + 1e-300, "Sum");
    near(o->GetMean(), r->GetMean(), grow * u1 / n + 1e-300, "Mean");
    const double variance = r->GetVariance();
    const double varianceError = n > 1 ? 4 * grow * (u2 + u1 * u1 / n) / (n - 1) : 0;
    near(o->GetVariance(), variance, varianceError + 1e-300, "Variance");
    if (variance > 4 * varianceError)
    {
      const double sigma = std::sqrt(variance);
      near(o->GetStandardDeviation(), r->GetStandardDeviation(), varianceError / sigma, "StandardDeviation");
      const double relative = varianceError / variance;
      const double skewError =
        8 * grow * (u3 + u2 * m + u1 * m * m) / n / (variance * sigma) + 2 * relative * std::abs(r->GetSkewness());
      near(o->GetSkewness(), r->GetSkewness(), skewError, "Skewness");
      const double kurtosisError = 16 * grow * (u4 + u3 * m + u2 * m * m + u1 * m * m * m) / n / (variance * variance) +
                                   3 * relative * std::abs(r->GetKurtosis() + 3);
      near(o->GetKurtosis(), r->GetKurtosis(), kurtosisError, "Kurtosis");
    }

    // Weighted moments: ITK divides sums of |v| |p|^2 by the signed sum.
    const double sum = std::abs(r->GetSum());
    if (sum > 1e3 * grow * u1)
    {
      const double leverage = u1 / sum;
      const double cogError = 8 * grow * leverage * coordinateScale;
      for (unsigned int d = 0; d < D; ++d)
      {
        near(o->GetCenterOfGravity()[d],
             r->GetCenterOfGravity()[d],
             cogError + 1e-12 * coordinateScale,
             "CenterOfGravity[" + std::to_string(d) + "]");
      }
      const double noise =
        16 * grow * leverage * coordinateScale * coordinateScale + 1e-12 * coordinateScale * coordinateScale;
      const auto & pmR = r->GetWeightedPrincipalMoments();
      const auto & pmO = o->GetWeightedPrincipalMoments();
      for (unsigned int d = 0; d < D; ++d)
      {
        Track(margins.moments, std::abs(pmO[d] - pmR[d]), noise);
        check.Near(pmO[d], pmR[d], noise, p + "WeightedPrincipalMoments[" + std::to_string(d) + "]");
      }
      for (unsigned int a = 0; a < D; ++a)
      {
        double gap = std::numeric_limits<double>::max();
        for (unsigned int b = 0; b < D; ++b)
        {
          if (b != a)
          {
            gap = std::min(gap, std::abs(pmR[a] - pmR[b]));
          }
        }
        if (!(gap > 1e3 * noise))
        {
          ++margins.axesSkipped;
          continue;
        }
        double dot = 0;
        for (unsigned int c = 0; c < D; ++c)
        {
          dot += o->GetWeightedPrincipalAxes()[a][c] * r->GetWeightedPrincipalAxes()[a][c];
        }
        const double sign = dot < 0 ? -1.0 : 1.0;
        const double tolerance = 4 * noise / gap + 1e-12;
        for (unsigned int c = 0; c < D; ++c)
        {
          const double got = sign * o->GetWeightedPrincipalAxes()[a][c];
          Track(margins.axes, std::abs(got - r->GetWeightedPrincipalAxes()[a][c]), tolerance);
          check.Near(got,
                     r->GetWeightedPrincipalAxes()[a][c],
                     tolerance,
                     p + "WeightedPrincipalAxes[" + std::to_string(a) + "][" + std::to_string(c) + "]");
        }
      }
      auto ratio = [&](double got, double expected, double numerator, double denominator, const char * name) {
        if (std::abs(denominator) > 1e3 * noise && std::abs(numerator) > 1e3 * noise)
        {
          const double tolerance =
            std::abs(expected) * (noise / std::abs(denominator) + noise / std::abs(numerator)) + 1e-12;
          Track(margins.ratios, std::abs(got - expected), tolerance);
          check.Near(got, expected, tolerance, p + name);
        }
        else
        {
          ++margins.ratiosSkipped;
        }
      };
      ratio(o->GetWeightedElongation(), r->GetWeightedElongation(), pmR[D - 1], pmR[D - 2], "WeightedElongation");
      ratio(o->GetWeightedFlatness(), r->GetWeightedFlatness(), pmR[1], pmR[0], "WeightedFlatness");
    }

    if (compareHistogram)
    {
      const auto * hr = r->GetHistogram();
      const auto * ho = o->GetHistogram();
      if (hr == nullptr || ho == nullptr)
      {
        check.Fail(p + "Histogram missing (ours " + std::to_string(ho != nullptr) + ", ITK's " +
                   std::to_string(hr != nullptr) + ")");
        continue;
      }
      check.Equal(ho->Size(), hr->Size(), p + "Histogram size");
      check.Equal(ho->GetTotalFrequency(), hr->GetTotalFrequency(), p + "Histogram total frequency");
      check.Equal(ho->GetClipBinsAtEnds(), hr->GetClipBinsAtEnds(), p + "Histogram ClipBinsAtEnds");
      if (ho->Size() == hr->Size())
      {
        for (itk::SizeValueType b = 0; b < hr->Size(); ++b)
        {
          if (ho->GetFrequency(b) != hr->GetFrequency(b) || ho->GetBinMin(0, b) != hr->GetBinMin(0, b) ||
              ho->GetBinMax(0, b) != hr->GetBinMax(0, b))
          {
            std::ostringstream s;
            s.precision(17);
            s << p << "Histogram bin " << b << ": got [" << ho->GetBinMin(0, b) << ", " << ho->GetBinMax(0, b) << ") x "
              << ho->GetFrequency(b) << ", expected [" << hr->GetBinMin(0, b) << ", " << hr->GetBinMax(0, b) << ") x "
              << hr->GetFrequency(b);
            check.Fail(s.str());
            break;
          }
        }
      }
    }
  }
}

} // namespace ccaitktest

#endif
