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
#ifndef itkCudaLabelStatisticsImageFilter_hxx
#define itkCudaLabelStatisticsImageFilter_hxx

#include "itkCudaLabelStatisticsEngineView.h"
#include "itkCudaLabelStatisticsHostImageContainer.h"
#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsIntensityAttributes.h"
#include "itkCudaLabelStatisticsLabelMapBuilder.h"
#include "itkCudaLabelStatisticsPhysicalSpace.h"
#include "itkCudaLabelStatisticsResultCache.h"
#include "itkCudaLabelStatisticsShapeAttributes.h"

#include "cca/BackgroundWork.h"
#include "cca/Engine.h"

#include "itkImage.h"
#include "itkMultiThreaderBase.h"
#include "itkNumericTraits.h"
#include "itkProgressReporter.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace itk
{

namespace CudaLabelStatisticsDetail
{
/** Label objects that carry intensity attributes (StatisticsLabelObject). */
template <typename T, typename = void>
struct HasIntensityAttributes : std::false_type
{};
template <typename T>
struct HasIntensityAttributes<T, std::void_t<decltype(std::declval<T &>().SetMedian(0.0))>> : std::true_type
{};

/** Stands in for CudaLabelStatisticsIntensityAttributes where the label
 *  objects have no intensity attributes (a feature image is refused there). */
struct NoIntensityAttributes
{
  template <typename... T>
  explicit NoIntensityAttributes(T &&...)
  {}
  template <typename TObject>
  void
  Assign(std::int64_t, TObject &) const
  {}
};

/** The fewest pixels whose physical size n * pixelSize (as ITK's PhysicalSize
 *  computes it) is at least size. */
inline std::int64_t
PixelsAtLeast(double size, double pixelSize)
{
  if (!(size > 0))
  {
    return 0;
  }
  const double estimate = std::ceil(size / pixelSize);
  if (!(estimate < 9.0e18))
  {
    return std::numeric_limits<std::int64_t>::max();
  }
  auto n = static_cast<std::int64_t>(estimate);
  while (n > 0 && static_cast<double>(n - 1) * pixelSize >= size)
  {
    --n;
  }
  while (static_cast<double>(n) * pixelSize < size)
  {
    ++n;
  }
  return n;
}

/** The most pixels whose physical size is at most size. */
inline std::int64_t
PixelsAtMost(double size, double pixelSize)
{
  const double estimate = std::floor(size / pixelSize);
  if (!(estimate < 9.0e18))
  {
    return std::numeric_limits<std::int64_t>::max();
  }
  auto n = static_cast<std::int64_t>(std::max(estimate, 0.0));
  while (static_cast<double>(n) * pixelSize > size && n > 0)
  {
    --n;
  }
  while (static_cast<double>(n + 1) * pixelSize <= size)
  {
    ++n;
  }
  return n;
}

/** The enum mirrors cca::Algorithm value for value (itkCudaLabelStatisticsEnums.h). */
inline cca::Algorithm
EngineAlgorithm(CudaLabelStatisticsEnums::Algorithm algorithm)
{
  return static_cast<cca::Algorithm>(algorithm);
}

inline cca::FeatureCompaction
EngineFeatureCompaction(CudaLabelStatisticsEnums::FeatureCompaction compaction)
{
  using C = CudaLabelStatisticsEnums::FeatureCompaction;
  switch (compaction)
  {
    case C::TreeMerge:
      return cca::FeatureCompaction::TreeMerge;
    case C::None:
      return cca::FeatureCompaction::None;
    case C::Scan:
      break;
  }
  return cca::FeatureCompaction::Scan;
}

/** ITK numbers objects 0, 1, 2, ... skipping the background value
 *  (BinaryImageToLabelMapFilter::CreateConsecutive); component k >= 1 gets
 *  this, in the arithmetic of T, where skips says the background value is
 *  not negative: */
template <typename T>
inline T
ConsecutiveLabel(std::int64_t component, bool skips, T background)
{
  const auto value = static_cast<T>(component - 1);
  return (skips && value >= background) ? value + 1 : value;
}
} // namespace CudaLabelStatisticsDetail

template <typename TInputImage, typename TOutputImage>
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::CudaLabelStatisticsImageFilter()
  : m_InputForegroundValue(NumericTraits<InputImagePixelType>::max())
  , m_InputBackgroundValue(NumericTraits<InputImagePixelType>::ZeroValue())
  , m_OutputBackgroundValue(NumericTraits<OutputImagePixelType>::NonpositiveMin())
{
  this->SetNumberOfRequiredOutputs(2);
  this->SetNthOutput(1, this->MakeOutput(1));
  this->AddOptionalInputName("FeatureImage");
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::SetFeatureImage(const FeatureImageType * image)
{
  this->ProcessObject::SetInput("FeatureImage", const_cast<FeatureImageType *>(image));
}

template <typename TInputImage, typename TOutputImage>
auto
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::GetFeatureImage() const -> const FeatureImageType *
{
  return itkDynamicCastInDebugMode<const FeatureImageType *>(this->ProcessObject::GetInput("FeatureImage"));
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::SetNumberOfBins(unsigned int bins)
{
  if (!m_NumberOfBinsSet || m_NumberOfBins != bins)
  {
    m_NumberOfBins = bins;
    m_NumberOfBinsSet = true;
    this->Modified();
  }
}

template <typename TInputImage, typename TOutputImage>
unsigned int
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::GetNumberOfBins() const
{
  if (m_NumberOfBinsSet)
  {
    return m_NumberOfBins;
  }
  cca::PixelType type = cca::PixelType::Float64;
  if (const FeatureImageType * feature = this->GetFeatureImage())
  {
    CudaLabelStatisticsDetail::WithScalarImage<ImageDimension>(feature, [&](const auto * typed) {
      using PixelType = typename std::remove_pointer_t<decltype(typed)>::PixelType;
      type = CudaLabelStatisticsDetail::EnginePixelType<PixelType>();
    });
  }
  return cca::StatisticsLabelMapHistogram(type).bins;
}

template <typename TInputImage, typename TOutputImage>
auto
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::GetInputLabelOfObject(LabelType label) const
  -> InputImagePixelType
{
  const auto it = std::lower_bound(m_ObjectLabels.begin(), m_ObjectLabels.end(), label);
  if (it == m_ObjectLabels.end() || *it != label)
  {
    itkExceptionMacro(<< "no object is labeled " << static_cast<typename NumericTraits<LabelType>::PrintType>(label)
                      << " in the label modes' output of the last Update()");
  }
  return m_InputLabels[static_cast<std::size_t>(it - m_ObjectLabels.begin())];
}

template <typename TInputImage, typename TOutputImage>
DataObject::Pointer
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::MakeOutput(DataObjectPointerArraySizeType idx)
{
  if (idx == 1)
  {
    return LabelImageType::New().GetPointer();
  }
  return Superclass::MakeOutput(idx);
}

template <typename TInputImage, typename TOutputImage>
auto
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::GetLabelImage() -> LabelImageType *
{
  return itkDynamicCastInDebugMode<LabelImageType *>(this->ProcessObject::GetOutput(1));
}

template <typename TInputImage, typename TOutputImage>
bool
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::IsCudaAvailable()
{
  return cca::Engine::CudaAvailable();
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::ReleaseCachedMemory()
{
  CudaLabelStatisticsDetail::ResultCache::Clear();
  cca::Engine::ReleaseCachedMemory();
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::GenerateInputRequestedRegion()
{
  Superclass::GenerateInputRequestedRegion();
  auto * input = const_cast<InputImageType *>(this->GetInput());
  if (input)
  {
    input->SetRequestedRegionToLargestPossibleRegion();
  }
  auto * feature = const_cast<FeatureImageType *>(this->GetFeatureImage());
  if (feature)
  {
    feature->SetRequestedRegionToLargestPossibleRegion();
  }
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::EnlargeOutputRequestedRegion(DataObject * output)
{
  // A consumer of output 1 asks for the label image through the pipeline:
  // the next GenerateData computes it whatever ComputeLabelImage says (else
  // the consumer would read a buffer never allocated). Without a buffer the
  // output's requested region lies outside its buffered one, so the pipeline
  // runs this filter again for it.
  if (output != nullptr && output == this->GetLabelImage())
  {
    m_LabelImageRequested = true;
  }
  this->GetOutput()->SetRequestedRegionToLargestPossibleRegion();
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  // A request of output 1 lasts one update (EnlargeOutputRequestedRegion).
  const bool labelImageRequested = m_LabelImageRequested;
  m_LabelImageRequested = false;
  try
  {
    this->AnalyseInput(m_ComputeLabelImage || labelImageRequested);
  }
  catch (const std::bad_alloc &)
  {
    // Leave no half-built output behind, as for every other failure.
    this->GetOutput()->ClearLabels();
    this->GetLabelImage()->Initialize();
    itkExceptionMacro(<< "not enough memory for the connected-component analysis of a region of size "
                      << this->GetInput()->GetRequestedRegion().GetSize());
  }
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::AnalyseInput(bool computeLabelImage)
{
  using namespace CudaLabelStatisticsDetail;
  const InputImageType *   input = this->GetInput();
  const FeatureImageType * feature = this->GetFeatureImage();
  OutputImageType *        output = this->GetOutput();
  LabelImageType *         labelImage = this->GetLabelImage();
  const RegionType         region = input->GetRequestedRegion();
  const RegionType         buffered = input->GetBufferedRegion();
  // Empty outputs first, so that a failure below never leaves the objects of a
  // previous update behind. (Not AllocateOutputs(): it would allocate the
  // label image even when it is not asked for.)
  output->SetBufferedRegion(output->GetRequestedRegion());
  output->Allocate();
  labelImage->Initialize();
  m_ObjectLabels.clear();
  m_InputLabels.clear();
  // The pixel count is checked before anything is sized from it: ITK's
  // GetNumberOfPixels() wraps silently (a 2^32 x 2^32 region counts 0 pixels).
  SizeValueType pixels = 1;
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    if (region.GetSize(d) == 0)
    {
      itkExceptionMacro(<< "the input region is empty: " << region);
    }
  }
  for (unsigned int d = 0; d < ImageDimension; ++d)
  {
    if (__builtin_mul_overflow(pixels, region.GetSize(d), &pixels))
    {
      itkExceptionMacro(<< "the input region of size " << region.GetSize()
                        << " has more pixels than 64 bits can count");
    }
  }
  if (!buffered.IsInside(region))
  {
    itkExceptionMacro(<< "the input buffer " << buffered << " does not hold the region " << region);
  }
  const bool labelModes = m_Objects != ObjectsEnum::ForegroundComponents;

  // The engine reads the region in place: strides of the input buffer.
  const cca::ImageView view = ViewOf(input, region);

  cca::Options options;
  if (labelModes || m_ForegroundRule == ForegroundRuleEnum::NotEqualToBackgroundValue)
  {
    options.foregroundRule = cca::ForegroundRule::NotEqualTo;
    options.foregroundValue = static_cast<std::int64_t>(m_InputBackgroundValue);
  }
  else
  {
    options.foregroundRule = cca::ForegroundRule::EqualTo;
    options.foregroundValue = static_cast<std::int64_t>(m_InputForegroundValue);
  }
  options.objects = static_cast<cca::Objects>(m_Objects);
  options.connectivity = m_FullyConnected ? cca::Connectivity::Full : cca::Connectivity::Face;
  options.backend = m_Backend == BackendEnum::CUDA  ? cca::Backend::Cuda
                    : m_Backend == BackendEnum::CPU ? cca::Backend::Cpu
                                                    : cca::Backend::Auto;
  options.cudaDevice = m_CudaDevice;
  options.algorithm = EngineAlgorithm(m_Algorithm);
  options.featureCompaction = EngineFeatureCompaction(m_FeatureCompaction);
  options.numberOfThreads = static_cast<int>(this->GetMultiThreader()->GetMaximumNumberOfThreads());
  options.computeRuns = true;

  // The selection: physical sizes become pixel counts as PhysicalSize = N * pixel size.
  double pixelSize = 1;
  for (unsigned int i = 0; i < ImageDimension; ++i)
  {
    pixelSize *= input->GetSpacing()[i];
  }
  options.selection.minimumPixels =
    std::max(static_cast<std::int64_t>(m_MinimumObjectSize), PixelsAtLeast(m_MinimumPhysicalSize, pixelSize));
  options.selection.maximumPixels =
    std::min(m_MaximumObjectSize >= static_cast<SizeValueType>(std::numeric_limits<std::int64_t>::max())
               ? std::numeric_limits<std::int64_t>::max()
               : static_cast<std::int64_t>(m_MaximumObjectSize),
             PixelsAtMost(m_MaximumPhysicalSize, pixelSize));
  options.selection.keepLargest = static_cast<std::int64_t>(m_NumberOfObjectsToKeep);
  options.selection.orderBySize = m_SortObjectsBySize;
  if (options.selection.maximumPixels < options.selection.minimumPixels)
  {
    itkExceptionMacro(<< "the size limits remove every object: at least " << options.selection.minimumPixels
                      << " and at most " << options.selection.maximumPixels << " pixels");
  }

  // The feature image: same region, read as its own pixel type.
  unsigned int histogramBins = 0;
  if (feature != nullptr)
  {
    if (!HasIntensityAttributes<LabelObjectType>::value)
    {
      itkExceptionMacro(<< "a feature image was given but the output's label objects ("
                        << LabelObjectType::New()->GetNameOfClass() << ") have no intensity attributes");
    }
    if (m_NumberOfBinsSet && m_NumberOfBins == 0)
    {
      itkExceptionMacro(<< "NumberOfBins is 0: the histogram and the median need at least one bin");
    }
    if (feature->GetLargestPossibleRegion() != input->GetLargestPossibleRegion())
    {
      itkExceptionMacro(<< "the feature image's region " << feature->GetLargestPossibleRegion()
                        << " differs from the input's " << input->GetLargestPossibleRegion());
    }
    if (!feature->GetBufferedRegion().IsInside(region))
    {
      itkExceptionMacro(<< "the feature image's buffer " << feature->GetBufferedRegion() << " does not hold the region "
                        << region);
    }
    // Within the filter's tolerances, as ITK checks any filter's inputs.
    const std::string offGrid = CudaLabelStatisticsPhysicalSpaceDifference(
      *input, *feature, this->GetCoordinateTolerance(), this->GetDirectionTolerance());
    if (!offGrid.empty())
    {
      itkExceptionMacro(<< "the feature image lies on another pixel grid than the input: " << offGrid);
    }
    const bool scalar = WithScalarImage<ImageDimension>(
      feature, [&](const auto * typed) { options.intensity.featureImage = ViewOf(typed, region); });
    if (!scalar)
    {
      itkExceptionMacro(<< "the feature image (" << feature->GetNameOfClass()
                        << ") is not an itk::Image of a scalar integer or real pixel type");
    }
    cca::HistogramOptions & histogram = options.intensity.histogram;
    histogram = cca::StatisticsLabelMapHistogram(options.intensity.featureImage.pixelType,
                                                 m_NumberOfBinsSet ? m_NumberOfBins : 0);
    histogram.keep = m_ComputeHistogram;
    histogram.median = m_ComputeMedian;
    if (!m_ComputeHistogram && !m_ComputeMedian)
    {
      histogram.bins = 0;
    }
    histogramBins = m_ComputeHistogram ? histogram.bins : 0;
  }

  // Labels 1, 2, ... with background 0 from the engine, in the output type:
  // then it writes straight into the output buffer.
  const bool consecutive = (m_Objects != ObjectsEnum::LabelValues || m_SortObjectsBySize) &&
                           (m_SortObjectsBySize || !options.selection.Active());
  const bool directLabels = consecutive && std::is_unsigned<LabelType>::value &&
                            (sizeof(LabelType) == 4 || sizeof(LabelType) == 8) &&
                            m_OutputBackgroundValue == NumericTraits<LabelType>::ZeroValue();
  std::vector<std::uint64_t> engineLabels;
  if (computeLabelImage)
  {
    labelImage->SetBufferedRegion(labelImage->GetLargestPossibleRegion());
    if (labelImage->GetBufferedRegion() != region)
    {
      itkExceptionMacro(<< "the label image region " << labelImage->GetBufferedRegion()
                        << " differs from the input region " << region);
    }
    if (directLabels && options.backend != cca::Backend::Cpu && cca::Engine::CudaAvailable())
    {
      // The GPU writes these labels: a large buffer then comes from the host
      // image pool, where the next label image of about this size finds its
      // pages made already and, from its third use, takes the labels by DMA
      // (CudaLabelStatisticsHostImageContainer).
      using PixelContainer = typename LabelImageType::PixelContainer;
      labelImage->SetPixelContainer(
        CudaLabelStatisticsHostImageContainer<typename PixelContainer::ElementIdentifier, LabelType>::New());
    }
    labelImage->Allocate();
    if (directLabels)
    {
      options.labelImageType = sizeof(LabelType) == 4 ? cca::LabelImageType::UInt32 : cca::LabelImageType::UInt64;
      options.labelImage = labelImage->GetBufferPointer();
    }
    else
    {
      engineLabels.resize(pixels);
      options.labelImageType = cca::LabelImageType::UInt64;
      options.labelImage = engineLabels.data();
    }
  }
  this->UpdateProgress(0.05f);

  CudaLabelStatisticsDetail::CachedResult cachedResult;
  cca::Result &                           result = *cachedResult;
  std::unique_ptr<LabelType[]>            labels;
  MultiThreaderBase * const               threader = this->GetMultiThreader();
  // The objects of the result: their labels and the LabelMap. Their errors
  // are thrown; the caller empties the label image then.
  const auto buildObjects = [&]() {
    // The label of each object, in memory not zeroed first: at ten million
    // objects zeroing and numbering on one thread took some 100 ms of Update.
    const std::int64_t components = result.componentCount;
    const auto         labelCount = static_cast<std::size_t>(components);
    const long double  background = static_cast<long double>(m_OutputBackgroundValue);
    labels.reset(new LabelType[labelCount]);
    if (m_Objects == ObjectsEnum::LabelValues && !m_SortObjectsBySize)
    {
      for (std::int64_t k = 0; k < components; ++k)
      {
        // The value as the input type, then as a label: it must be one.
        const auto        value = static_cast<InputImagePixelType>(result.labelValues[k]);
        const long double asNumber = static_cast<long double>(value);
        if (asNumber < static_cast<long double>(NumericTraits<LabelType>::NonpositiveMin()) ||
            asNumber > static_cast<long double>(NumericTraits<LabelType>::max()) ||
            static_cast<LabelType>(value) == m_OutputBackgroundValue)
        {
          itkExceptionMacro(<< "the input label "
                            << static_cast<typename NumericTraits<InputImagePixelType>::PrintType>(value)
                            << " cannot be a label of the output (its type's range, or the OutputBackgroundValue "
                            << static_cast<typename NumericTraits<OutputImagePixelType>::PrintType>(
                                 m_OutputBackgroundValue)
                            << ")");
        }
        labels[k] = static_cast<LabelType>(value);
      }
    }
    else
    {
      const bool         kept = options.selection.Active() && !m_SortObjectsBySize;
      const std::int64_t largest = components == 0 ? 0 : (kept ? result.sourceNumbers.back() : components);
      // ITK's rule (BinaryImageToLabelMapFilter): the number of objects may
      // not exceed the type's maximum, even where a skipped negative
      // background would leave room for one more label.
      const auto typeMaximum = static_cast<long double>(NumericTraits<LabelType>::max());
      if (components > 0 && (static_cast<long double>(largest) > typeMaximum ||
                             ConsecutiveLabel(largest, background >= 0, background) > typeMaximum))
      {
        itkExceptionMacro(<< "Number of objects (" << largest << ") greater than maximum of output pixel type ("
                          << static_cast<typename NumericTraits<LabelType>::PrintType>(NumericTraits<LabelType>::max())
                          << ").");
      }
      // In integers where the labels are (a long double an object cost 7-9
      // ns), on the threader's work units.
      using Arithmetic =
        std::conditional_t<std::is_integral_v<LabelType>,
                           std::conditional_t<std::is_signed_v<LabelType>, std::int64_t, std::uint64_t>,
                           long double>;
      const bool             skips = background >= 0;
      const Arithmetic       skipped = static_cast<Arithmetic>(m_OutputBackgroundValue);
      constexpr std::int64_t block = std::int64_t{ 1 } << 16;
      threader->ParallelizeArray(
        0,
        static_cast<SizeValueType>((components + block - 1) / block),
        [&](SizeValueType b) {
          const std::int64_t end = std::min(components, static_cast<std::int64_t>(b + 1) * block);
          for (std::int64_t k = static_cast<std::int64_t>(b) * block; k < end; ++k)
          {
            labels[k] =
              static_cast<LabelType>(ConsecutiveLabel(kept ? result.sourceNumbers[k] : k + 1, skips, skipped));
          }
        },
        nullptr);
    }
    if (labelModes)
    {
      std::vector<std::size_t> byLabel(labelCount);
      std::iota(byLabel.begin(), byLabel.end(), std::size_t{ 0 });
      std::sort(byLabel.begin(), byLabel.end(), [&](std::size_t a, std::size_t b) { return labels[a] < labels[b]; });
      m_ObjectLabels.resize(labelCount);
      m_InputLabels.resize(labelCount);
      for (std::size_t i = 0; i < byLabel.size(); ++i)
      {
        m_ObjectLabels[i] = labels[byLabel[i]];
        m_InputLabels[i] = static_cast<InputImagePixelType>(result.labelValues[byLabel[i]]);
      }
    }
    m_NumberOfObjects = static_cast<SizeValueType>(components);
    m_OriginalNumberOfObjects = static_cast<SizeValueType>(result.objectsFound);
    // Every path above numbers the objects in increasing order of labels.
    m_LargestLabel = components > 0 ? labels[labelCount - 1] : m_OutputBackgroundValue;

    // The label map: one object per component with its lines and attributes.
    const auto labelMapStart = std::chrono::steady_clock::now();
    output->SetBackgroundValue(m_OutputBackgroundValue);
    const CudaLabelStatisticsShapeAttributes<OutputImageType> attributes(
      output, region, m_ComputePerimeter, m_ComputeFeretDiameter, m_ComputeOrientedBoundingBox, m_ExactMoments);
    using IntensityAttributesType = std::conditional_t<HasIntensityAttributes<LabelObjectType>::value,
                                                       CudaLabelStatisticsIntensityAttributes<OutputImageType>,
                                                       NoIntensityAttributes>;
    std::unique_ptr<IntensityAttributesType> intensity;
    if (feature != nullptr)
    {
      intensity = std::make_unique<IntensityAttributesType>(output, region, result, histogramBins);
    }
    const auto labelOf = [&labels](std::int64_t object) { return labels[static_cast<std::size_t>(object - 1)]; };
    if (intensity)
    {
      CudaLabelStatisticsLabelMapBuilder<OutputImageType>::Build(
        result,
        region.GetIndex(),
        attributes,
        labelOf,
        threader,
        output,
        [&intensity](SizeValueType k, LabelObjectType & object) {
          intensity->Assign(static_cast<std::int64_t>(k), object);
        });
    }
    else
    {
      CudaLabelStatisticsLabelMapBuilder<OutputImageType>::Build(
        result, region.GetIndex(), attributes, labelOf, threader, output);
    }
    m_LabelMapMilliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - labelMapStart).count();
  };
  // With a label image, the LabelMap is built while the engine copies it
  // to the host (Options::objectsReady): the copy of a large label image
  // into a page-locked block is the GPU's DMA, and the host's threads are
  // free for the objects meanwhile. Otherwise it is built after Run.
  cca::BackgroundWork objectsBuilt(buildObjects);
  if (computeLabelImage)
  {
    objectsBuilt.StartWhenObjectsReady(options);
  }
  try
  {
    if (!m_Engine)
    {
      m_Engine = std::make_unique<cca::Engine>();
    }
    m_Engine->Run(view, options, result);
  }
  catch (const cca::Error & error)
  {
    objectsBuilt.Abandon(); // it reads the result; its own error is superseded
    labelImage->Initialize();
    if (error.GetKind() == cca::Error::Kind::NoDevice)
    {
      itkExceptionMacro(<< "Backend CUDA was requested but no CUDA device can be used: " << error.what());
    }
    itkExceptionMacro(<< "connected-component analysis failed: " << error.what());
  }
  this->UpdateProgress(0.5f);
  try
  {
    objectsBuilt.Finish();
  }
  catch (...)
  {
    labelImage->Initialize();
    throw;
  }
  for (const std::string & warning : result.warnings)
  {
    itkWarningMacro(<< warning);
  }
  m_BackendUsed = result.backendUsed == cca::Backend::Cuda ? BackendEnum::CUDA : BackendEnum::CPU;
  m_StageTimes = result.times;
  this->UpdateProgress(0.95f);

  if (computeLabelImage && !directLabels)
  {
    LabelType * out = labelImage->GetBufferPointer();
    const auto  count = static_cast<SizeValueType>(engineLabels.size());
    threader->ParallelizeArray(
      0,
      count,
      [&](SizeValueType i) {
        const std::uint64_t object = engineLabels[i];
        out[i] = object == 0 ? m_OutputBackgroundValue : labels[object - 1];
      },
      nullptr);
  }
  this->UpdateProgress(1.0f);
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::PrintSelf(std::ostream & os, Indent indent) const
{
  Superclass::PrintSelf(os, indent);
  using InputPrint = typename NumericTraits<InputImagePixelType>::PrintType;
  using OutputPrint = typename NumericTraits<OutputImagePixelType>::PrintType;
  os << indent << "InputForegroundValue: " << static_cast<InputPrint>(m_InputForegroundValue) << std::endl;
  os << indent << "InputBackgroundValue: " << static_cast<InputPrint>(m_InputBackgroundValue) << std::endl;
  os << indent << "ForegroundRule: " << m_ForegroundRule << std::endl;
  os << indent << "OutputBackgroundValue: " << static_cast<OutputPrint>(m_OutputBackgroundValue) << std::endl;
  os << indent << "FullyConnected: " << m_FullyConnected << std::endl;
  os << indent << "ComputePerimeter: " << m_ComputePerimeter << std::endl;
  os << indent << "ComputeFeretDiameter: " << m_ComputeFeretDiameter << std::endl;
  os << indent << "ComputeOrientedBoundingBox: " << m_ComputeOrientedBoundingBox << std::endl;
  os << indent << "ComputeLabelImage: " << m_ComputeLabelImage << std::endl;
  os << indent << "ExactMoments: " << m_ExactMoments << std::endl;
  os << indent << "Backend: " << m_Backend << std::endl;
  os << indent << "BackendUsed: " << m_BackendUsed << std::endl;
  os << indent << "Algorithm: " << m_Algorithm << std::endl;
  os << indent << "FeatureCompaction: " << m_FeatureCompaction << std::endl;
  os << indent << "CudaDevice: " << m_CudaDevice << std::endl;
  os << indent << "Objects: " << m_Objects << std::endl;
  os << indent << "ComputeHistogram: " << m_ComputeHistogram << std::endl;
  os << indent << "ComputeMedian: " << m_ComputeMedian << std::endl;
  os << indent << "NumberOfBins: " << (m_NumberOfBinsSet ? std::to_string(m_NumberOfBins) : "(default)") << std::endl;
  os << indent << "MinimumObjectSize: " << m_MinimumObjectSize << std::endl;
  os << indent << "MaximumObjectSize: " << m_MaximumObjectSize << std::endl;
  os << indent << "MinimumPhysicalSize: " << m_MinimumPhysicalSize << std::endl;
  os << indent << "MaximumPhysicalSize: " << m_MaximumPhysicalSize << std::endl;
  os << indent << "NumberOfObjectsToKeep: " << m_NumberOfObjectsToKeep << std::endl;
  os << indent << "SortObjectsBySize: " << m_SortObjectsBySize << std::endl;
  os << indent << "NumberOfObjects: " << m_NumberOfObjects << std::endl;
  os << indent << "OriginalNumberOfObjects: " << m_OriginalNumberOfObjects << std::endl;
  os << indent << "LargestLabel: " << static_cast<typename NumericTraits<LabelType>::PrintType>(m_LargestLabel)
     << std::endl;
}

} // end namespace itk

#endif
