// The per-pixel-type part of the program: read, filter, write.
// Included only by the generated AnalysisInstance_*.cpp files.
#ifndef CudaLabelStatisticsApp_Analysis_hxx
#define CudaLabelStatisticsApp_Analysis_hxx

#include "Analysis.h"
#include "CsvWriter.h"
#include "LabelImageWriter.h"

#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkImageFileReader.h"
#include "itkImageFileWriter.h"

#include <chrono>
#include <limits>
#include <stdexcept>

namespace ccaapp
{
namespace detail
{

inline double
SecondsSince(std::chrono::steady_clock::time_point start)
{
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/** The option's value as a TPixel; refused (not wrapped) when the pixel type cannot hold it. */
template <typename TPixel>
TPixel
CheckedPixelValue(WideInteger value, const char * what)
{
  if (value < static_cast<WideInteger>(std::numeric_limits<TPixel>::min()) ||
      value > static_cast<WideInteger>(std::numeric_limits<TPixel>::max()))
  {
    throw std::runtime_error(std::string(what) + " " + ToString(value) + " is outside the range of the image's pixel type (" +
                             ToString(std::numeric_limits<TPixel>::min()) + " .. " +
                             ToString(std::numeric_limits<TPixel>::max()) + ")");
  }
  return static_cast<TPixel>(value);
}

} // namespace detail

template <typename TPixel, unsigned int VDimension>
RunSummary
AnalyzeImage(itk::Image<TPixel, VDimension> * image, const AppOptions & options, const ProgressSink & progress)
{
  using ImageType = itk::Image<TPixel, VDimension>;
  using FilterType = itk::CudaLabelStatisticsImageFilter<ImageType>;
  using BackendEnum = typename FilterType::BackendEnum;
  using RuleEnum = typename FilterType::ForegroundRuleEnum;

  RunSummary summary;
  summary.dimension = static_cast<int>(VDimension);
  const auto size = image->GetLargestPossibleRegion().GetSize();
  for (unsigned int d = 0; d < VDimension; ++d)
  {
    summary.size[d] = static_cast<std::int64_t>(size[d]);
    summary.spacing[d] = image->GetSpacing()[d];
  }

  if (!options.saveInputPath.empty())
  {
    auto writer = itk::ImageFileWriter<ImageType>::New();
    writer->SetInput(image);
    writer->SetFileName(options.saveInputPath);
    writer->UseCompressionOn();
    writer->Update();
    summary.written.push_back(options.saveInputPath);
  }

  auto filter = FilterType::New();
  filter->SetInput(image);
  if (options.foregroundMode == ForegroundMode::EqualTo)
  {
    filter->SetForegroundRule(RuleEnum::EqualToForegroundValue);
    // Without a value the filter's default stays: the type's maximum, as ITK's.
    if (options.foregroundValue)
    {
      filter->SetInputForegroundValue(detail::CheckedPixelValue<TPixel>(*options.foregroundValue, "the foreground value"));
    }
  }
  else
  {
    filter->SetForegroundRule(RuleEnum::NotEqualToBackgroundValue);
    filter->SetInputBackgroundValue(detail::CheckedPixelValue<TPixel>(options.backgroundValue, "the background value"));
  }
  filter->SetFullyConnected(options.fullyConnected);
  filter->SetComputePerimeter(options.perimeter);
  filter->SetComputeFeretDiameter(options.feret);
  filter->SetComputeOrientedBoundingBox(options.orientedBoundingBox);
  filter->SetComputeLabelImage(!options.labelsPath.empty());
  filter->SetBackend(options.backend == "cuda"  ? BackendEnum::CUDA
                     : options.backend == "cpu" ? BackendEnum::CPU
                                                : BackendEnum::Auto);
  filter->SetCudaDevice(options.cudaDevice);
  ObserveProgress(*filter, progress, 0.1, 0.8);

  const auto filterStart = std::chrono::steady_clock::now();
  filter->Update();
  summary.filterSeconds = detail::SecondsSince(filterStart);

  summary.components = static_cast<std::int64_t>(filter->GetNumberOfObjects());
  summary.backendUsed = filter->GetBackendUsed() == BackendEnum::CUDA ? "cuda" : "cpu";
  summary.cudaAvailable = FilterType::IsCudaAvailable();
  summary.stageTimes = filter->GetStageTimes();

  const auto writeStart = std::chrono::steady_clock::now();
  if (!options.labelsPath.empty())
  {
    WriteLabelImage<VDimension>(filter->GetLabelImage(), options.labelsPath, filter->GetNumberOfObjects());
    summary.written.push_back(options.labelsPath);
  }
  progress.Report(0.9);
  if (!options.csvPath.empty())
  {
    CsvColumns columns;
    columns.perimeter = options.perimeter;
    columns.feret = options.feret;
    columns.orientedBoundingBox = options.orientedBoundingBox;
    WriteComponentCsv<VDimension>(*filter->GetOutput(), options.csvPath, columns);
    summary.written.push_back(options.csvPath);
  }
  summary.writeSeconds = detail::SecondsSince(writeStart);
  return summary;
}

template <typename TPixel, unsigned int VDimension>
RunSummary
AnalyzeFile(const std::string & path, const AppOptions & options, const ProgressSink & progress)
{
  using ImageType = itk::Image<TPixel, VDimension>;
  const auto readStart = std::chrono::steady_clock::now();
  auto       reader = itk::ImageFileReader<ImageType>::New();
  reader->SetFileName(path);
  reader->Update();
  typename ImageType::Pointer image = reader->GetOutput();
  image->DisconnectPipeline();
  const double readSeconds = detail::SecondsSince(readStart);
  progress.Report(0.1);

  RunSummary summary = AnalyzeImage<TPixel, VDimension>(image, options, progress);
  summary.readSeconds = readSeconds;
  return summary;
}

} // namespace ccaapp

#endif
