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
#ifndef itkCudaLabelIntensityStatisticsImageFilter_hxx
#define itkCudaLabelIntensityStatisticsImageFilter_hxx

#include "itkCudaLabelIntensityStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsEngineView.h"
#include "itkCudaLabelStatisticsResultCache.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace itk
{

template <typename TInputImage, typename TLabelImage>
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::CudaLabelIntensityStatisticsImageFilter()
  : m_LowerBound(static_cast<RealType>(NumericTraits<PixelType>::NonpositiveMin()))
  , m_UpperBound(static_cast<RealType>(NumericTraits<PixelType>::max()))
{
  this->AddRequiredInputName("LabelInput");
}

template <typename TInputImage, typename TLabelImage>
void
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::SetLabelInput(const TLabelImage * input)
{
  this->ProcessObject::SetInput("LabelInput", const_cast<TLabelImage *>(input));
}

template <typename TInputImage, typename TLabelImage>
const TLabelImage *
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetLabelInput() const
{
  return itkDynamicCastInDebugMode<const TLabelImage *>(this->ProcessObject::GetInput("LabelInput"));
}

template <typename TInputImage, typename TLabelImage>
void
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::SetHistogramParameters(const int numBins,
                                                                                          RealType  lowerBound,
                                                                                          RealType  upperBound)
{
  m_NumberOfBins = static_cast<unsigned int>(numBins);
  m_LowerBound = lowerBound;
  m_UpperBound = upperBound;
  m_UseHistograms = true;
  this->Modified();
}

template <typename TInputImage, typename TLabelImage>
void
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GenerateInputRequestedRegion()
{
  Superclass::GenerateInputRequestedRegion();
  if (auto * input = const_cast<TInputImage *>(this->GetInput()))
  {
    input->SetRequestedRegionToLargestPossibleRegion();
  }
  if (auto * labels = const_cast<TLabelImage *>(this->GetLabelInput()))
  {
    labels->SetRequestedRegionToLargestPossibleRegion();
  }
}

template <typename TInputImage, typename TLabelImage>
std::ptrdiff_t
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::Find(LabelPixelType label) const
{
  const auto it = std::lower_bound(m_Labels.begin(), m_Labels.end(), label);
  return it != m_Labels.end() && *it == label ? it - m_Labels.begin() : -1;
}

template <typename TInputImage, typename TLabelImage>
void
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GenerateData()
{
  using namespace CudaLabelStatisticsDetail;
  const TInputImage * input = this->GetInput();
  const TLabelImage * labels = this->GetLabelInput();
  m_Labels.clear();
  m_Statistics.clear();
  this->GraftOutput(const_cast<TInputImage *>(input)); // the output is the input
  const RegionType region = input->GetRequestedRegion();
  if (labels->GetLargestPossibleRegion() != input->GetLargestPossibleRegion() ||
      !labels->GetBufferedRegion().IsInside(region) || !input->GetBufferedRegion().IsInside(region))
  {
    itkExceptionMacro(<< "the label image's region " << labels->GetLargestPossibleRegion() << " (buffered "
                      << labels->GetBufferedRegion() << ") differs from the intensity image's "
                      << input->GetLargestPossibleRegion());
  }
  if (m_UseHistograms && m_NumberOfBins == 0)
  {
    itkExceptionMacro(<< "the histograms need at least one bin");
  }
  if (m_UseHistograms && !(m_LowerBound <= m_UpperBound))
  {
    itkExceptionMacro(<< "the histogram's lower bound " << m_LowerBound << " is above its upper bound "
                      << m_UpperBound);
  }

  cca::Options options;
  options.objects = cca::Objects::LabelValues;
  options.foregroundRule = cca::ForegroundRule::All;
  options.computeRuns = false;
  options.backend = m_Backend == BackendEnum::CUDA  ? cca::Backend::Cuda
                    : m_Backend == BackendEnum::CPU ? cca::Backend::Cpu
                                                    : cca::Backend::Auto;
  options.cudaDevice = m_CudaDevice;
  options.numberOfThreads = static_cast<int>(this->GetMultiThreader()->GetMaximumNumberOfThreads());
  options.intensity.featureImage = ViewOf(input, region);
  options.intensity.weightedMoments = false;
  cca::HistogramOptions & histogram = options.intensity.histogram;
  histogram.bins = m_UseHistograms ? m_NumberOfBins : 0;
  histogram.rangeOfFeatureImage = false;
  histogram.lower = static_cast<double>(m_LowerBound);
  histogram.upper = static_cast<double>(m_UpperBound);
  histogram.clipBinsAtEnds = true; // LabelStatisticsImageFilter's histograms keep the default
  histogram.median = false;        // its own rule, below
  histogram.keep = m_UseHistograms;

  this->UpdateProgress(0.05f);
  // A result reused from an earlier update of any of the module's filters:
  // its vectors are grown, not made and touched afresh (millions of labels).
  CachedResult  cachedResult;
  cca::Result & result = *cachedResult;
  try
  {
    if (!m_Engine)
    {
      m_Engine = std::make_unique<cca::Engine>();
    }
    m_Engine->Run(ViewOf(labels, region), options, result);
  }
  catch (const cca::Error & error)
  {
    if (error.GetKind() == cca::Error::Kind::NoDevice)
    {
      itkExceptionMacro(<< "Backend CUDA was requested but no CUDA device can be used: " << error.what());
    }
    itkExceptionMacro(<< "label statistics failed: " << error.what());
  }
  for (const std::string & warning : result.warnings)
  {
    itkWarningMacro(<< warning);
  }
  this->UpdateProgress(0.8f);
  m_BackendUsed = result.backendUsed == cca::Backend::Cuda ? BackendEnum::CUDA : BackendEnum::CPU;

  const std::size_t labelCount = static_cast<std::size_t>(result.componentCount);
  m_Labels.resize(labelCount);
  m_Statistics.resize(labelCount);
  const IndexType start = region.GetIndex();
  this->GetMultiThreader()->ParallelizeArray(
    0,
    static_cast<SizeValueType>(labelCount),
    [&](SizeValueType k) {
      const cca::ComponentFeatures & f = result.features[k];
      const cca::ObjectIntensity &   v = result.intensity[k];
      Statistics &                   s = m_Statistics[k];
      m_Labels[k] = static_cast<LabelPixelType>(result.labelValues[k]);
      s.count = static_cast<MapSizeType>(f.pixelCount);
      s.minimum = static_cast<RealType>(v.minimum);
      s.maximum = static_cast<RealType>(v.maximum);
      s.sum = static_cast<RealType>(v.sum);
      s.mean = s.sum / static_cast<RealType>(s.count);
      s.variance = s.count > 1 ? static_cast<RealType>(v.centralMoments[0] / (static_cast<double>(s.count) - 1.0)) : 0;
      s.sigma = s.variance >= 0 ? std::sqrt(s.variance) : 0;
      s.boundingBox.resize(2 * ImageDimension);
      for (unsigned int i = 0; i < ImageDimension; ++i)
      {
        s.boundingBox[2 * i] = start[i] + f.boundingBoxMin[i];
        s.boundingBox[2 * i + 1] = start[i] + f.boundingBoxMax[i];
      }
      s.median = 0;
      if (m_UseHistograms)
      {
        s.histogram = HistogramType::New();
        s.histogram->SetMeasurementVectorSize(1);
        typename HistogramType::SizeType              size(1);
        typename HistogramType::MeasurementVectorType lower(1);
        typename HistogramType::MeasurementVectorType upper(1);
        size[0] = m_NumberOfBins;
        lower[0] = m_LowerBound;
        upper[0] = m_UpperBound;
        s.histogram->Initialize(size, lower, upper);
        // The median: the first bin where the running count exceeds count / 2
        // (the last bin when the values outside the bounds leave it short).
        SizeValueType median = m_NumberOfBins - 1;
        std::int64_t  running = 0;
        bool          found = false;
        for (std::int64_t e = result.histogramOffsets[k]; e < result.histogramOffsets[k + 1]; ++e)
        {
          s.histogram->SetFrequency(
            result.histogramBins[e],
            static_cast<typename HistogramType::AbsoluteFrequencyType>(result.histogramCounts[e]));
          running += result.histogramCounts[e];
          if (!found && static_cast<MapSizeType>(running) > s.count / 2)
          {
            median = result.histogramBins[e];
            found = true;
          }
        }
        const RealType low = s.histogram->GetBinMin(0, median);
        const RealType high = s.histogram->GetBinMax(0, median);
        s.median = low + (high - low) / 2;
      }
    },
    nullptr);
  this->UpdateProgress(1.0f);
}

template <typename TInputImage, typename TLabelImage>
bool
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::IsCudaAvailable()
{
  return cca::Engine::CudaAvailable();
}

template <typename TInputImage, typename TLabelImage>
void
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::ReleaseCachedMemory()
{
  CudaLabelStatisticsDetail::ResultCache::Clear();
  cca::Engine::ReleaseCachedMemory();
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetMinimum(LabelPixelType label) const -> RealType
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 ? static_cast<RealType>(NumericTraits<PixelType>::max()) : m_Statistics[k].minimum;
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetMaximum(LabelPixelType label) const -> RealType
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 ? static_cast<RealType>(NumericTraits<PixelType>::NonpositiveMin()) : m_Statistics[k].maximum;
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetMean(LabelPixelType label) const -> RealType
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 ? RealType{} : m_Statistics[k].mean;
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetMedian(LabelPixelType label) const -> RealType
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 || !m_UseHistograms ? RealType{} : m_Statistics[k].median;
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetSigma(LabelPixelType label) const -> RealType
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 ? RealType{} : m_Statistics[k].sigma;
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetVariance(LabelPixelType label) const -> RealType
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 ? RealType{} : m_Statistics[k].variance;
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetBoundingBox(LabelPixelType label) const
  -> BoundingBoxType
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 ? BoundingBoxType{} : m_Statistics[k].boundingBox;
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetRegion(LabelPixelType label) const -> RegionType
{
  const std::ptrdiff_t k = this->Find(label);
  if (k < 0)
  {
    return RegionType{};
  }
  const BoundingBoxType & box = m_Statistics[k].boundingBox;
  IndexType               index;
  SizeType                size;
  for (unsigned int i = 0; i < ImageDimension; ++i)
  {
    index[i] = box[2 * i];
    size[i] = static_cast<SizeValueType>(box[2 * i + 1] - box[2 * i] + 1);
  }
  return RegionType(index, size);
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetSum(LabelPixelType label) const -> RealType
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 ? RealType{} : m_Statistics[k].sum;
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetCount(LabelPixelType label) const -> MapSizeType
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 ? 0 : m_Statistics[k].count;
}

template <typename TInputImage, typename TLabelImage>
auto
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::GetHistogram(LabelPixelType label) const
  -> HistogramPointer
{
  const std::ptrdiff_t k = this->Find(label);
  return k < 0 ? nullptr : m_Statistics[k].histogram;
}

template <typename TInputImage, typename TLabelImage>
void
CudaLabelIntensityStatisticsImageFilter<TInputImage, TLabelImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  os << indent << "Number of labels: " << m_Labels.size() << std::endl;
  os << indent << "Use Histograms: " << m_UseHistograms << std::endl;
  os << indent << "Number of bins: " << m_NumberOfBins << std::endl;
  os << indent << "Histogram Lower Bound: " << m_LowerBound << std::endl;
  os << indent << "Histogram Upper Bound: " << m_UpperBound << std::endl;
  os << indent << "Backend: " << m_Backend << std::endl;
  os << indent << "BackendUsed: " << m_BackendUsed << std::endl;
  os << indent << "CudaDevice: " << m_CudaDevice << std::endl;
}

} // end namespace itk

#endif
