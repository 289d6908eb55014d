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

#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsLabelMapBuilder.h"
#include "itkCudaLabelStatisticsShapeAttributes.h"

#include "cca/Engine.h"

#include "itkMultiThreaderBase.h"
#include "itkNumericTraits.h"
#include "itkProgressReporter.h"

#include <chrono>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

namespace itk
{

namespace CudaLabelStatisticsDetail
{
/** The engine's name for an integer pixel type. */
template <typename TPixel>
constexpr cca::PixelType
EnginePixelType()
{
  constexpr bool isSigned = std::is_signed<TPixel>::value;
  switch (sizeof(TPixel))
  {
    case 1:
      return isSigned ? cca::PixelType::Int8 : cca::PixelType::UInt8;
    case 2:
      return isSigned ? cca::PixelType::Int16 : cca::PixelType::UInt16;
    case 4:
      return isSigned ? cca::PixelType::Int32 : cca::PixelType::UInt32;
    default:
      return isSigned ? cca::PixelType::Int64 : cca::PixelType::UInt64;
  }
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

/** Engine results kept between updates, for any filter of the process: the
 *  feature table and the runs of millions of components are gigabytes, and
 *  fresh pages cost more to touch than the copy into them; a reused result
 *  only grows. One result is kept idle (ReleaseCachedMemory frees it). */
class ResultCache
{
public:
  static std::unique_ptr<cca::Result>
  Take()
  {
    std::lock_guard<std::mutex> lock(Mutex());
    std::unique_ptr<cca::Result> result = std::move(Idle());
    return result ? std::move(result) : std::make_unique<cca::Result>();
  }

  static void
  Give(std::unique_ptr<cca::Result> result)
  {
    std::lock_guard<std::mutex> lock(Mutex());
    Idle() = std::move(result);
  }

  static void
  Clear()
  {
    std::unique_ptr<cca::Result> idle;
    {
      std::lock_guard<std::mutex> lock(Mutex());
      idle = std::move(Idle());
    }
  }

private:
  static std::mutex &
  Mutex()
  {
    static std::mutex mutex;
    return mutex;
  }
  static std::unique_ptr<cca::Result> &
  Idle()
  {
    static std::unique_ptr<cca::Result> idle;
    return idle;
  }
};

/** A result taken from the cache for one update and given back after it. */
class CachedResult
{
public:
  CachedResult()
    : m_Result(ResultCache::Take())
  {}
  ~CachedResult() { ResultCache::Give(std::move(m_Result)); }
  CachedResult(const CachedResult &) = delete;
  CachedResult &
  operator=(const CachedResult &) = delete;
  cca::Result &
  operator*()
  {
    return *m_Result;
  }

private:
  std::unique_ptr<cca::Result> m_Result;
};

/** ITK numbers objects 0, 1, 2, ... skipping the background value
 *  (BinaryImageToLabelMapFilter::CreateConsecutive); component k >= 1 gets: */
inline long double
ConsecutiveLabel(std::int64_t component, long double background)
{
  const auto value = static_cast<long double>(component - 1);
  return (background >= 0 && value >= background) ? value + 1 : value;
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
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::EnlargeOutputRequestedRegion(DataObject *)
{
  this->GetOutput()->SetRequestedRegionToLargestPossibleRegion();
}

template <typename TInputImage, typename TOutputImage>
void
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::GenerateData()
{
  try
  {
    this->AnalyseInput();
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
CudaLabelStatisticsImageFilter<TInputImage, TOutputImage>::AnalyseInput()
{
  const InputImageType * input = this->GetInput();
  OutputImageType *      output = this->GetOutput();
  LabelImageType *       labelImage = this->GetLabelImage();
  const RegionType       region = input->GetRequestedRegion();
  const RegionType       buffered = input->GetBufferedRegion();
  // Empty outputs first, so that a failure below never leaves the objects of a
  // previous update behind. (Not AllocateOutputs(): it would allocate the
  // label image even when it is not asked for.)
  output->SetBufferedRegion(output->GetRequestedRegion());
  output->Allocate();
  labelImage->Initialize();
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
      itkExceptionMacro(<< "the input region of size " << region.GetSize() << " has more pixels than 64 bits can count");
    }
  }
  if (!buffered.IsInside(region))
  {
    itkExceptionMacro(<< "the input buffer " << buffered << " does not hold the region " << region);
  }

  // The engine reads the region in place: strides of the input buffer.
  cca::ImageView view;
  view.pixelType = CudaLabelStatisticsDetail::EnginePixelType<InputImagePixelType>();
  view.dimension = ImageDimension;
  view.data = input->GetBufferPointer() + input->ComputeOffset(region.GetIndex());
  const auto & offsetTable = input->GetOffsetTable();
  for (unsigned int d = 0; d < 3; ++d)
  {
    view.size[d] = d < ImageDimension ? static_cast<std::int64_t>(region.GetSize(d)) : 1;
    view.stride[d] = d < ImageDimension ? static_cast<std::int64_t>(offsetTable[d]) : view.stride[d - 1] * view.size[d - 1];
  }

  cca::Options options;
  if (m_ForegroundRule == ForegroundRuleEnum::EqualToForegroundValue)
  {
    options.foregroundRule = cca::ForegroundRule::EqualTo;
    options.foregroundValue = static_cast<std::int64_t>(m_InputForegroundValue);
  }
  else
  {
    options.foregroundRule = cca::ForegroundRule::NotEqualTo;
    options.foregroundValue = static_cast<std::int64_t>(m_InputBackgroundValue);
  }
  options.connectivity = m_FullyConnected ? cca::Connectivity::Full : cca::Connectivity::Face;
  options.backend = m_Backend == BackendEnum::CUDA  ? cca::Backend::Cuda
                    : m_Backend == BackendEnum::CPU ? cca::Backend::Cpu
                                                    : cca::Backend::Auto;
  options.cudaDevice = m_CudaDevice;
  options.algorithm = CudaLabelStatisticsDetail::EngineAlgorithm(m_Algorithm);
  options.featureCompaction = CudaLabelStatisticsDetail::EngineFeatureCompaction(m_FeatureCompaction);
  options.numberOfThreads = static_cast<int>(this->GetMultiThreader()->GetMaximumNumberOfThreads());
  options.computeRuns = true;

  // With the usual unsigned 32/64-bit labels and background 0, the engine's
  // numbering is ITK's and it writes straight into the output buffer.
  const bool directLabels = std::is_unsigned<LabelType>::value && (sizeof(LabelType) == 4 || sizeof(LabelType) == 8) &&
                            m_OutputBackgroundValue == NumericTraits<LabelType>::ZeroValue();
  std::vector<std::uint64_t> engineLabels;
  if (m_ComputeLabelImage)
  {
    labelImage->SetBufferedRegion(labelImage->GetLargestPossibleRegion());
    if (labelImage->GetBufferedRegion() != region)
    {
      itkExceptionMacro(<< "the label image region " << labelImage->GetBufferedRegion()
                        << " differs from the input region " << region);
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
    labelImage->Initialize();
    if (error.GetKind() == cca::Error::Kind::NoDevice)
    {
      itkExceptionMacro(<< "Backend CUDA was requested but no CUDA device can be used: " << error.what());
    }
    itkExceptionMacro(<< "connected-component analysis failed: " << error.what());
  }
  for (const std::string & warning : result.warnings)
  {
    itkWarningMacro(<< warning);
  }
  m_BackendUsed = result.backendUsed == cca::Backend::Cuda ? BackendEnum::CUDA : BackendEnum::CPU;
  m_StageTimes = result.times;

  const std::int64_t components = result.componentCount;
  const long double  background = static_cast<long double>(m_OutputBackgroundValue);
  if (components > 0 &&
      CudaLabelStatisticsDetail::ConsecutiveLabel(components, background) >
        static_cast<long double>(NumericTraits<LabelType>::max()))
  {
    labelImage->Initialize();
    itkExceptionMacro(<< "Number of objects (" << components << ") greater than maximum of output pixel type ("
                      << static_cast<typename NumericTraits<LabelType>::PrintType>(NumericTraits<LabelType>::max())
                      << ").");
  }
  m_NumberOfObjects = static_cast<SizeValueType>(components);
  this->UpdateProgress(0.5f);

  // The label map: one object per component with its lines and attributes.
  const auto labelMapStart = std::chrono::steady_clock::now();
  output->SetBackgroundValue(m_OutputBackgroundValue);
  const CudaLabelStatisticsShapeAttributes<OutputImageType> attributes(
    output, region, m_ComputePerimeter, m_ComputeFeretDiameter, m_ComputeOrientedBoundingBox, m_ExactMoments);
  MultiThreaderBase * threader = this->GetMultiThreader();
  CudaLabelStatisticsLabelMapBuilder<OutputImageType>::Build(
    result,
    region.GetIndex(),
    attributes,
    [background](std::int64_t component) { return CudaLabelStatisticsDetail::ConsecutiveLabel(component, background); },
    threader,
    output);
  m_LabelMapMilliseconds =
    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - labelMapStart).count();
  this->UpdateProgress(0.95f);

  if (m_ComputeLabelImage && !directLabels)
  {
    LabelType * out = labelImage->GetBufferPointer();
    const auto  count = static_cast<SizeValueType>(engineLabels.size());
    threader->ParallelizeArray(
      0,
      count,
      [&](SizeValueType i) {
        const std::uint64_t component = engineLabels[i];
        out[i] = component == 0 ? m_OutputBackgroundValue
                                : static_cast<LabelType>(CudaLabelStatisticsDetail::ConsecutiveLabel(
                                    static_cast<std::int64_t>(component), background));
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
  os << indent << "NumberOfObjects: " << m_NumberOfObjects << std::endl;
}

} // end namespace itk

#endif
