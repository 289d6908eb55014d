// The per-pixel-type part of the program: read, filter, write.
// Included only by the generated AnalysisInstance_*.cpp files.
#ifndef CudaLabelStatisticsApp_Analysis_hxx
#define CudaLabelStatisticsApp_Analysis_hxx

#include "Analysis.h"
#include "CsvWriter.h"
#include "EarlyWriteback.h"
#include "CudaStartup.h"
#include "FeatureImage.h"
#include "ImageFileIO.h"
#include "PngFile.h"

#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsPhysicalSpace.h"

#include "cca/BackgroundWork.h"
#include "cca/HostImageMemory.h"

#include <chrono>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

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
    throw std::runtime_error(
      std::string(what) + " " + ToString(value) + " is outside the range of the image's pixel type (" +
      ToString(std::numeric_limits<TPixel>::min()) + " .. " + ToString(std::numeric_limits<TPixel>::max()) + ")");
  }
  return static_cast<TPixel>(value);
}

/** Why no pixel is foreground, with the values the image holds: a 0/255 mask
 *  under the equal rule with value 1 says so instead of reporting 0 silently. */
template <typename TPixel, unsigned int VDimension>
std::string
NoForegroundWarning(const itk::Image<TPixel, VDimension> * image, const AppOptions & options, TPixel value)
{
  const TPixel *    pixels = image->GetBufferPointer();
  const std::size_t count = image->GetLargestPossibleRegion().GetNumberOfPixels();
  TPixel            minimum = pixels[0];
  TPixel            maximum = pixels[0];
  for (std::size_t i = 1; i < count; ++i)
  {
    minimum = std::min(minimum, pixels[i]);
    maximum = std::max(maximum, pixels[i]);
  }
  const std::string range = "the image's values lie in " + ToString(minimum) + " .. " + ToString(maximum);
  if (options.foregroundMode == ForegroundMode::EqualTo)
  {
    return "no pixel is foreground: none equals the foreground value " + ToString(value) +
           (options.foregroundValue ? "" : " (the pixel type's largest value, the default of the equal rule)") + "; " +
           range;
  }
  return "no pixel is foreground: every pixel equals the background value " + ToString(value) + "; " + range;
}

/** --labelInput without --sortBySize keeps each value as its object's label,
 *  in uint32 labels whose 0 is the label image's background: an object's
 *  value outside 1 .. 2^32 - 1 has no label. Refused here in the program's
 *  terms (the filter would refuse it in its own) before the analysis. */
template <typename TPixel, unsigned int VDimension>
void
RequireLabelValuesFit(const itk::Image<TPixel, VDimension> & image, TPixel background)
{
  const TPixel *    pixels = image.GetBufferPointer();
  const std::size_t count = image.GetBufferedRegion().GetNumberOfPixels();
  const long double largest = static_cast<long double>(std::numeric_limits<std::uint32_t>::max());
  for (std::size_t i = 0; i < count; ++i)
  {
    const TPixel v = pixels[i];
    if (v != background && (static_cast<long double>(v) < 1 || static_cast<long double>(v) > largest))
    {
      throw std::runtime_error(
        "with --labelInput each value is its object's label, and labels are 1 .. 4294967295 (0 is the label "
        "image's background): the input's value " +
        ToString(v) + " is an object (--backgroundValue " + ToString(background) +
        "); use --sortBySize to number the objects 1..N" + (v == TPixel{} ? ", or --backgroundValue 0" : ""));
    }
  }
}

/** What of image's geometry the label image's format drops, for a warning
 *  ("" when nothing that is set): PNG and TIFF keep the x and y spacing
 *  only, legacy VTK the spacing and origin; the others keep it all. A label
 *  image without it does not overlay its input in a viewer. */
template <typename TPixel, unsigned int VDimension>
std::string
GeometryLostBy(ImageFormat format, const itk::Image<TPixel, VDimension> & image)
{
  const bool spacingAndOrigin = format == ImageFormat::Png || format == ImageFormat::Tiff;
  if (!spacingAndOrigin && format != ImageFormat::Vtk)
  {
    return "";
  }
  std::vector<std::string> lost;
  bool                     origin = false;
  for (unsigned int d = 0; d < VDimension; ++d)
  {
    origin = origin || image.GetOrigin()[d] != 0;
  }
  if (spacingAndOrigin && origin)
  {
    lost.push_back("origin");
  }
  if (spacingAndOrigin && VDimension == 3 && image.GetSpacing()[VDimension - 1] != 1)
  {
    lost.push_back("z spacing");
  }
  auto identity = image.GetDirection();
  identity.SetIdentity();
  if (image.GetDirection() != identity)
  {
    lost.push_back("direction");
  }
  std::string text;
  for (std::size_t i = 0; i < lost.size(); ++i)
  {
    text += (i == 0 ? "" : i + 1 == lost.size() ? " and " : ", ") + lost[i];
  }
  return text;
}

/** The feature image of --featureImage, refused (naming the file) unless it
 *  lies on the input's pixel grid: size, spacing, origin and direction. */
template <typename TPixel, unsigned int VDimension>
typename itk::ImageBase<VDimension>::Pointer
ReadFeatureImageOnGrid(const itk::Image<TPixel, VDimension> & image, const std::string & path)
{
  // The input's size as ReadImageHeader gives it (the image's dimension).
  const auto                       size = image.GetLargestPossibleRegion().GetSize();
  const std::vector<std::uint64_t> inputSize(size.begin(), size.end());
  auto                             feature = ReadFeatureImage<VDimension>(path, inputSize);
  // ITK's default tolerances (the filter's own check uses the same).
  const std::string offGrid = itk::CudaLabelStatisticsPhysicalSpaceDifference(
    image,
    *feature,
    itk::ImageToImageFilterCommon::GetGlobalDefaultCoordinateTolerance(),
    itk::ImageToImageFilterCommon::GetGlobalDefaultDirectionTolerance());
  if (!offGrid.empty())
  {
    FailReading(path, "the feature image lies on another pixel grid than the input: " + offGrid);
  }
  return feature;
}

/** --minimumSize .. --sortBySize; 0 leaves a bound at the filter's default (none). */
template <typename TFilter>
void
SetSelection(TFilter & filter, const AppOptions & options)
{
  filter.SetMinimumObjectSize(static_cast<itk::SizeValueType>(options.minimumSize));
  if (options.maximumSize > 0)
  {
    filter.SetMaximumObjectSize(static_cast<itk::SizeValueType>(options.maximumSize));
  }
  filter.SetMinimumPhysicalSize(options.minimumPhysicalSize);
  if (options.maximumPhysicalSize > 0)
  {
    filter.SetMaximumPhysicalSize(options.maximumPhysicalSize);
  }
  filter.SetNumberOfObjectsToKeep(static_cast<itk::SizeValueType>(options.keepLargest));
  filter.SetSortObjectsBySize(options.sortBySize);
}

} // namespace detail

template <typename TPixel, unsigned int VDimension>
RunSummary
AnalyzeImage(itk::Image<TPixel, VDimension> * image,
             const AppOptions &               options,
             OutputPlan &                     plan,
             const ProgressSink &             progress)
{
  using ImageType = itk::Image<TPixel, VDimension>;
  // uint32 labels: the engine writes them once, straight into the label image.
  using LabelMapType = AppLabelMap<VDimension>;
  using FilterType = itk::CudaLabelStatisticsImageFilter<ImageType, LabelMapType>;
  using BackendEnum = typename FilterType::BackendEnum;
  using RuleEnum = typename FilterType::ForegroundRuleEnum;

  RunSummary summary;
  summary.dimension = static_cast<int>(VDimension);
  const auto size = image->GetLargestPossibleRegion().GetSize();
  for (unsigned int d = 0; d < VDimension; ++d)
  {
    summary.size[d] = static_cast<std::int64_t>(size[d]);
  }

  auto filter = FilterType::New();
  filter->SetInput(image);
  TPixel ruleValue{};
  if (options.foregroundMode == ForegroundMode::EqualTo)
  {
    filter->SetForegroundRule(RuleEnum::EqualToForegroundValue);
    // Without a value the filter's default stays: the type's maximum, as ITK's.
    if (options.foregroundValue)
    {
      filter->SetInputForegroundValue(
        detail::CheckedPixelValue<TPixel>(*options.foregroundValue, "the foreground value"));
    }
    ruleValue = filter->GetInputForegroundValue();
  }
  else
  {
    filter->SetForegroundRule(RuleEnum::NotEqualToBackgroundValue);
    filter->SetInputBackgroundValue(detail::CheckedPixelValue<TPixel>(options.backgroundValue, "the background value"));
    ruleValue = filter->GetInputBackgroundValue();
  }
  if (options.labelInput)
  {
    if (!options.splitLabels && !options.sortBySize)
    {
      detail::RequireLabelValuesFit(*image, ruleValue);
    }
    using ObjectsEnum = typename FilterType::ObjectsEnum;
    filter->SetObjects(options.splitLabels ? ObjectsEnum::LabelValueComponents : ObjectsEnum::LabelValues);
  }
  typename itk::ImageBase<VDimension>::Pointer feature;
  if (!options.featureImage.empty())
  {
    feature = detail::ReadFeatureImageOnGrid(*image, options.featureImage);
    filter->SetFeatureImage(feature);
    // The Median comes from ITK's histogram; the histograms themselves are not written.
    filter->SetComputeHistogram(false);
  }
  detail::SetSelection(*filter, options);
  filter->SetFullyConnected(options.fullyConnected);
  filter->SetComputePerimeter(options.perimeter);
  filter->SetComputeFeretDiameter(options.feret);
  filter->SetComputeOrientedBoundingBox(options.orientedBoundingBox);
  filter->SetComputeLabelImage(!plan.labels.empty());
  filter->SetBackend(options.backend == "cuda"  ? BackendEnum::CUDA
                     : options.backend == "cpu" ? BackendEnum::CPU
                                                : BackendEnum::Auto);
  filter->SetCudaDevice(options.cudaDevice);
  ObserveProgress(*filter, progress, 0.1, 0.8);

  const auto saveInputStart = std::chrono::steady_clock::now();
  if (!plan.saveInput.empty())
  {
    WriteImageFile(image,
                   plan.saveInput,
                   options.saveInputPath,
                   plan.saveInputFormat,
                   ComponentOf<TPixel>(),
                   plan.saveInputCompression);
  }
  summary.saveInputSeconds = detail::SecondsSince(saveInputStart);

  // Every image of a run of the program is its first, its label image a
  // new block of the host image pool: while CUDA still starts, its pages
  // are mapped on several threads, so that the labels' copy does not wait
  // for the kernel to map them (HostImageMemory::Prepare). Only then: with
  // nothing to overlap (no device, CUDA ready) the mapping would be a cost.
  const auto labelMemoryStart = std::chrono::steady_clock::now();
  if (!plan.labels.empty() && CudaStartupRunning())
  {
    using LabelPixel = typename FilterType::LabelImageType::PixelType;
    cca::HostImageMemory::Prepare(static_cast<std::size_t>(image->GetLargestPossibleRegion().GetNumberOfPixels()) *
                                  sizeof(LabelPixel));
  }
  summary.labelMemorySeconds = detail::SecondsSince(labelMemoryStart);

  // CUDA started on its own thread while the input was read: the filter finds it ready.
  const CudaStartupTimes startup = FinishCudaStartup();
  summary.cudaStartupRan = startup.ran;
  summary.cudaStartupSeconds = startup.seconds;
  summary.cudaWaitSeconds = startup.waitedSeconds;

  const auto filterStart = std::chrono::steady_clock::now();
  filter->Update();
  summary.filterSeconds = detail::SecondsSince(filterStart);
  summary.labelMapSeconds = filter->GetLabelMapMilliseconds() / 1000.0;

  summary.components = static_cast<std::int64_t>(filter->GetNumberOfObjects());
  summary.backendUsed = filter->GetBackendUsed() == BackendEnum::CUDA ? "cuda" : "cpu";
  // Asked only under Auto: with --backend cpu the CUDA runtime is never started.
  summary.cudaAvailable = options.backend == "auto" && FilterType::IsCudaAvailable();
  summary.stageTimes = filter->GetStageTimes();
  // A selection that removes every object is no reason for the warning.
  if (filter->GetOriginalNumberOfObjects() == 0)
  {
    summary.warnings.push_back(detail::NoForegroundWarning(image, options, ruleValue));
  }

  // The CSV is written on a thread of its own while this one writes the
  // label image: they only read the filter's outputs, and the label image's
  // writer reads it without its pipeline (WriteImageFile).
  const auto writeCsv = [&]() {
    const auto csvStart = std::chrono::steady_clock::now();
    CsvColumns columns;
    columns.perimeter = options.perimeter;
    columns.feret = options.feret;
    columns.orientedBoundingBox = options.orientedBoundingBox;
    columns.intensity = feature.IsNotNull();
    if (options.labelInput)
    {
      columns.inputLabel = [&filter](std::uint32_t label) {
        return static_cast<WideInteger>(filter->GetInputLabelOfObject(label));
      };
    }
    WriteComponentCsv<VDimension>(*filter->GetOutput(), plan.csv, options.csvPath, columns);
    summary.csvSeconds = detail::SecondsSince(csvStart);
  };
  const auto outputsStart = std::chrono::steady_clock::now();
  // The disk writes each output while it is written (EarlyWriteback.h), so
  // that the commit's fsync waits for the last part only.
  EarlyWriteback      writeback(plan.transaction.TemporaryFiles());
  cca::BackgroundWork csvWritten(writeCsv);
  if (!plan.csv.empty() && !plan.labels.empty())
  {
    csvWritten.Start();
  }
  const auto labelsStart = std::chrono::steady_clock::now();
  if (!plan.labels.empty())
  {
    // uint32 labels, but 16 bits in PNG (its limit) and in TIFF when they fit:
    // ITK 5.2 reads 32-bit integer TIFF wrongly, 16-bit TIFF every reader takes.
    // The largest label, not the count, decides: label input keeps the
    // values, and a selection without --sortBySize keeps the gaps.
    PixelComponent           fileComponent = PixelComponent::UInt32;
    const unsigned long long largest = filter->GetLargestLabel();
    const bool               fitsSixteenBits = largest <= std::numeric_limits<std::uint16_t>::max();
    if (plan.labelsFormat == ImageFormat::Png)
    {
      if (!fitsSixteenBits)
      {
        FailWriting(options.labelsPath,
                    "PNG holds 16-bit labels, and the largest label is " + std::to_string(largest) +
                      "; use .nrrd, .nii.gz, .mha or .tif");
      }
      fileComponent = PixelComponent::UInt16;
    }
    if (plan.labelsFormat == ImageFormat::Tiff && fitsSixteenBits)
    {
      fileComponent = PixelComponent::UInt16;
    }
    const std::string lost = detail::GeometryLostBy(plan.labelsFormat, *image);
    if (!lost.empty())
    {
      summary.warnings.push_back("the label image '" + options.labelsPath + "' keeps no " + lost +
                                 " of the input (its format has none): it will not overlay the input; .nrrd, "
                                 ".nii.gz and .mha keep them");
    }
    WriteImageFile(filter->GetLabelImage(),
                   plan.labels,
                   options.labelsPath,
                   plan.labelsFormat,
                   fileComponent,
                   plan.labelsCompression);
  }
  summary.labelsSeconds = detail::SecondsSince(labelsStart);
  summary.labelsCompression = plan.labelsCompression;
  progress.Report(0.9);
  if (!plan.csv.empty())
  {
    csvWritten.Finish(); // its error, if any; a label image's error was thrown above (the destructor waited)
  }
  writeback.Stop();
  summary.outputsSeconds = detail::SecondsSince(outputsStart);
  summary.analysisObjects = { itk::LightObject::Pointer(image), itk::LightObject::Pointer(filter.GetPointer()) };
  return summary;
}

template <typename TPixel, unsigned int VDimension>
RunSummary
AnalyzeFile(const std::string &  path,
            ImageFormat          format,
            const AppOptions &   options,
            OutputPlan &         plan,
            const ProgressSink & progress)
{
  using ImageType = itk::Image<TPixel, VDimension>;
  const auto                        readStart = std::chrono::steady_clock::now();
  const typename ImageType::Pointer image = ReadImageOrPngFile<ImageType>(path, format);
  const double                      readSeconds = detail::SecondsSince(readStart);
  progress.Report(0.1);

  RunSummary summary = AnalyzeImage<TPixel, VDimension>(image, options, plan, progress);
  summary.readSeconds = readSeconds;
  return summary;
}

} // namespace ccaapp

#endif
