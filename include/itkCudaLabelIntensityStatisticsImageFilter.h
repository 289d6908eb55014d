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
#ifndef itkCudaLabelIntensityStatisticsImageFilter_h
#define itkCudaLabelIntensityStatisticsImageFilter_h

#include "itkCudaLabelStatisticsEnums.h"
#include "itkHistogram.h"
#include "itkImageToImageFilter.h"

#include "cca/Engine.h"
#include "cca/Types.h"

#include <memory>
#include <type_traits>
#include <vector>

namespace itk
{

/** \class CudaLabelIntensityStatisticsImageFilter
 * \brief LabelStatisticsImageFilter's questions, answered by the cca engine
 * (GPU or CPU): for every value of a label image, the count, minimum,
 * maximum, mean, sigma, variance, sum, bounding box, region, median and
 * histogram of an intensity image's pixels that carry it.
 *
 * A drop-in for ITK 5.2.1's LabelStatisticsImageFilter: the same inputs
 * (SetInput: the intensity image, any scalar type; SetLabelInput: an integer
 * label image), the same getters with the same defaults for an absent
 * label, the same histogram (SetHistogramParameters: bins over [lower,
 * upper], values outside left out) and its median rule (the centre of the
 * bin where the running count first exceeds count / 2). Every label value
 * is an object, the background included; label values may be sparse over
 * the whole 64-bit range, with up to 2^32 of them (no dense array over the
 * value range). GetValidLabelValues is sorted (ITK's order is a hash
 * map's). Sums of integer intensities are exact (the engine's integer
 * sums); the output is the input, as in ITK 4.
 *
 * It is the same result table as CudaLabelStatisticsImageFilter's with
 * Objects LabelValues, without the label map: no run-length lines leave
 * the engine, which suits images with millions of labels.
 *
 * \ingroup CudaLabelStatistics
 */
template <typename TInputImage, typename TLabelImage>
class ITK_TEMPLATE_EXPORT CudaLabelIntensityStatisticsImageFilter : public ImageToImageFilter<TInputImage, TInputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(CudaLabelIntensityStatisticsImageFilter);

  using Self = CudaLabelIntensityStatisticsImageFilter;
  using Superclass = ImageToImageFilter<TInputImage, TInputImage>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  itkNewMacro(Self);
  itkTypeMacro(CudaLabelIntensityStatisticsImageFilter, ImageToImageFilter);

  static constexpr unsigned int ImageDimension = TInputImage::ImageDimension;
  using InputImageType = TInputImage;
  using RegionType = typename TInputImage::RegionType;
  using SizeType = typename TInputImage::SizeType;
  using IndexType = typename TInputImage::IndexType;
  using PixelType = typename TInputImage::PixelType;
  using LabelImageType = TLabelImage;
  using LabelPixelType = typename TLabelImage::PixelType;
  using RealType = typename NumericTraits<PixelType>::RealType;
  using BoundingBoxType = std::vector<IndexValueType>;
  using HistogramType = itk::Statistics::Histogram<RealType>;
  using HistogramPointer = typename HistogramType::Pointer;
  using MapSizeType = SizeValueType;
  using ValidLabelValuesContainerType = std::vector<LabelPixelType>;
  using BackendEnum = CudaLabelStatisticsEnums::Backend;

  static_assert(ImageDimension == 2 || ImageDimension == 3, "2D and 3D images only");
  static_assert(TLabelImage::ImageDimension == ImageDimension, "the label image must have the input's dimension");
  static_assert(std::is_integral<LabelPixelType>::value && sizeof(LabelPixelType) <= 8,
                "the label image needs an integer pixel type of 8, 16, 32 or 64 bits");
  static_assert(std::is_arithmetic<PixelType>::value, "the intensity image needs a scalar pixel type");

  /** The label image (required). */
  void
  SetLabelInput(const TLabelImage * input);
  const TLabelImage *
  GetLabelInput() const;

  /** Histograms per label (off by default): SetHistogramParameters turns them on. */
  itkSetMacro(UseHistograms, bool);
  itkGetConstMacro(UseHistograms, bool);
  itkBooleanMacro(UseHistograms);
  void
  SetHistogramParameters(const int numBins, RealType lowerBound, RealType upperBound);

  /** Auto (default) takes CUDA when a device is present, else the CPU. */
  itkSetEnumMacro(Backend, BackendEnum);
  itkGetEnumMacro(Backend, BackendEnum);
  itkGetEnumMacro(BackendUsed, BackendEnum);
  itkSetMacro(CudaDevice, int);
  itkGetConstMacro(CudaDevice, int);

  /** Whether a CUDA device can be used in this process. */
  static bool
  IsCudaAvailable();

  /** Frees the memory the module's filters keep for later updates (the last
   *  result, the engines' device and pinned host memory), as
   *  CudaLabelStatisticsImageFilter::ReleaseCachedMemory does. */
  static void
  ReleaseCachedMemory();

  RealType
  GetMinimum(LabelPixelType label) const;
  RealType
  GetMaximum(LabelPixelType label) const;
  RealType
  GetMean(LabelPixelType label) const;
  RealType
  GetMedian(LabelPixelType label) const;
  RealType
  GetSigma(LabelPixelType label) const;
  RealType
  GetVariance(LabelPixelType label) const;
  BoundingBoxType
  GetBoundingBox(LabelPixelType label) const;
  RegionType
  GetRegion(LabelPixelType label) const;
  RealType
  GetSum(LabelPixelType label) const;
  MapSizeType
  GetCount(LabelPixelType label) const;
  HistogramPointer
  GetHistogram(LabelPixelType label) const;

  MapSizeType
  GetNumberOfObjects() const
  {
    return static_cast<MapSizeType>(m_Labels.size());
  }
  MapSizeType
  GetNumberOfLabels() const
  {
    return this->GetNumberOfObjects();
  }
  bool
  HasLabel(LabelPixelType label) const
  {
    return this->Find(label) >= 0;
  }
  const ValidLabelValuesContainerType &
  GetValidLabelValues() const
  {
    return m_Labels;
  }

protected:
  CudaLabelIntensityStatisticsImageFilter();
  ~CudaLabelIntensityStatisticsImageFilter() override = default;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

  /** The whole images are needed. */
  void
  GenerateInputRequestedRegion() override;

  void
  GenerateData() override;

private:
  /** The statistics of one label. */
  struct Statistics
  {
    MapSizeType      count;
    RealType         minimum;
    RealType         maximum;
    RealType         sum;
    RealType         mean;
    RealType         variance;
    RealType         sigma;
    RealType         median;
    BoundingBoxType  boundingBox;
    HistogramPointer histogram;
  };

  /** Position of label in m_Labels, or -1. */
  std::ptrdiff_t
  Find(LabelPixelType label) const;

  bool                          m_UseHistograms{ false };
  unsigned int                  m_NumberOfBins{ 256 };
  RealType                      m_LowerBound;
  RealType                      m_UpperBound;
  BackendEnum                   m_Backend{ BackendEnum::Auto };
  BackendEnum                   m_BackendUsed{ BackendEnum::Auto };
  int                           m_CudaDevice{ -1 };
  ValidLabelValuesContainerType m_Labels; ///< increasing
  std::vector<Statistics>       m_Statistics;
  std::unique_ptr<cca::Engine>  m_Engine;
};

} // end namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkCudaLabelIntensityStatisticsImageFilter.hxx"
#endif

#endif
