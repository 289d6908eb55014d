// Chooses the pixel type and dimension to read a file as, from its header,
// after the file passed its structural check (ImageFileCheck) and before any
// pixel is read: the sizes ITK reports must be the checked ones, the outputs
// must be able to hold the image, and the memory it needs must be available.
#include "Analysis.h"
#include "FeatureImage.h"
#include "ImageFileCheck.h"
#include "ImageFileIO.h"
#include "MemoryBudget.h"
#include "PngFile.h"

#include "itkImageIOBase.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <sstream>
#include <sys/stat.h>
#include <limits>
#include <stdexcept>

namespace ccaapp
{
namespace
{

// The types the program reads as (each one a compiled instantiation of the
// filter): every integer file type is read as itself, but int8 as int16;
// real types are thresholded into a uint8 mask while reading.
enum class ReadType
{
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float,
  Double
};

struct ReadTypeInfo
{
  const char *   name;
  int            bytes;      ///< in memory, per pixel
  PixelComponent analysedAs; ///< what --saveInput writes
};

ReadTypeInfo
InfoOf(ReadType type)
{
  switch (type)
  {
    case ReadType::UInt8:
      return { "uint8", 1, PixelComponent::UInt8 };
    case ReadType::Int16:
      return { "int16", 2, PixelComponent::Int16 };
    case ReadType::UInt16:
      return { "uint16", 2, PixelComponent::UInt16 };
    case ReadType::Int32:
      return { "int32", 4, PixelComponent::Int32 };
    case ReadType::UInt32:
      return { "uint32", 4, PixelComponent::UInt32 };
    case ReadType::Int64:
      return { "int64", 8, PixelComponent::Int64 };
    case ReadType::UInt64:
      return { "uint64", 8, PixelComponent::UInt64 };
    case ReadType::Float:
      return { "uint8 mask from float32 values", 4, PixelComponent::UInt8 };
    case ReadType::Double:
      return { "uint8 mask from float64 values", 8, PixelComponent::UInt8 };
  }
  return { "?", 0, PixelComponent::UInt8 };
}

ReadType
ReadTypeFor(const std::string & path, itk::IOComponentEnum component)
{
  using C = itk::IOComponentEnum;
  switch (component)
  {
    case C::UCHAR:
      return ReadType::UInt8;
    case C::CHAR:
    case C::SHORT:
      return ReadType::Int16;
    case C::USHORT:
      return ReadType::UInt16;
    case C::INT:
      return ReadType::Int32;
    case C::UINT:
      return ReadType::UInt32;
    case C::LONG:
    case C::LONGLONG:
      return sizeof(long) == 8 || component == C::LONGLONG ? ReadType::Int64 : ReadType::Int32;
    case C::ULONG:
    case C::ULONGLONG:
      return sizeof(unsigned long) == 8 || component == C::ULONGLONG ? ReadType::UInt64 : ReadType::UInt32;
    case C::FLOAT:
      return ReadType::Float;
    case C::DOUBLE:
      return ReadType::Double;
    default:
      FailReading(path, "its pixel component type is not supported");
  }
}

/** Real-valued images: the foreground rule is evaluated on the reals (NaN is
 *  never foreground), and the filter runs on the resulting 0/1 mask. */
template <typename TReal, unsigned int VDimension>
RunSummary
AnalyzeRealFile(const std::string &  path,
                ImageFormat          format,
                const AppOptions &   options,
                OutputPlan &         plan,
                const ProgressSink & progress)
{
  using RealImageType = itk::Image<TReal, VDimension>;
  using MaskImageType = itk::Image<std::uint8_t, VDimension>;
  const auto                      start = std::chrono::steady_clock::now();
  typename RealImageType::Pointer real = ReadImageFile<RealImageType>(path, format);

  auto mask = MaskImageType::New();
  mask->CopyInformation(real);
  mask->SetRegions(real->GetLargestPossibleRegion());
  mask->Allocate();
  const bool        equalRule = options.foregroundMode == ForegroundMode::EqualTo;
  const double      value = !equalRule                ? static_cast<double>(options.backgroundValue)
                            : options.foregroundValue ? static_cast<double>(*options.foregroundValue)
                                                      : static_cast<double>(std::numeric_limits<TReal>::max());
  const TReal *     in = real->GetBufferPointer();
  std::uint8_t *    out = mask->GetBufferPointer();
  const std::size_t count = real->GetLargestPossibleRegion().GetNumberOfPixels();
  double            minimum = std::numeric_limits<double>::infinity();
  double            maximum = -minimum;
  std::size_t       nans = 0;
  for (std::size_t i = 0; i < count; ++i)
  {
    const double pixel = in[i];
    if (std::isnan(pixel))
    {
      // Never foreground: under the not-background rule NaN != value would make it so.
      out[i] = 0;
      ++nans;
      continue;
    }
    minimum = std::min(minimum, pixel);
    maximum = std::max(maximum, pixel);
    out[i] = (pixel == value) == equalRule ? 1 : 0;
  }
  real = nullptr; // the mask is all the analysis needs
  const double readSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.Report(0.1);

  AppOptions maskOptions = options;
  maskOptions.foregroundMode = ForegroundMode::NotBackground;
  maskOptions.backgroundValue = 0;
  RunSummary summary = AnalyzeImage<std::uint8_t, VDimension>(mask, maskOptions, plan, progress);
  summary.readSeconds = readSeconds;
  if (!summary.warnings.empty()) // no pixel of the mask is foreground
  {
    std::ostringstream text;
    text << "no pixel is foreground: "
         << (equalRule ? "none equals the foreground value " : "every pixel equals the background value ") << value
         << " or is NaN; ";
    if (nans < count)
      text << "the image's values lie in " << minimum << " .. " << maximum;
    text << (nans ? (nans < count ? ", " : "") + std::to_string(nans) + " pixel(s) are NaN" : "");
    summary.warnings = { text.str() };
  }
  return summary;
}

template <unsigned int VDimension>
RunSummary
AnalyzeFileOfDimension(const std::string &  path,
                       ImageFormat          format,
                       ReadType             type,
                       const AppOptions &   options,
                       OutputPlan &         plan,
                       const ProgressSink & progress)
{
  switch (type)
  {
    case ReadType::UInt8:
      return AnalyzeFile<std::uint8_t, VDimension>(path, format, options, plan, progress);
    case ReadType::Int16:
      return AnalyzeFile<std::int16_t, VDimension>(path, format, options, plan, progress);
    case ReadType::UInt16:
      return AnalyzeFile<std::uint16_t, VDimension>(path, format, options, plan, progress);
    case ReadType::Int32:
      return AnalyzeFile<std::int32_t, VDimension>(path, format, options, plan, progress);
    case ReadType::UInt32:
      return AnalyzeFile<std::uint32_t, VDimension>(path, format, options, plan, progress);
    case ReadType::Int64:
      return AnalyzeFile<std::int64_t, VDimension>(path, format, options, plan, progress);
    case ReadType::UInt64:
      return AnalyzeFile<std::uint64_t, VDimension>(path, format, options, plan, progress);
    case ReadType::Float:
      return AnalyzeRealFile<float, VDimension>(path, format, options, plan, progress);
    case ReadType::Double:
      return AnalyzeRealFile<double, VDimension>(path, format, options, plan, progress);
  }
  throw std::logic_error("unhandled read type");
}

[[noreturn]] void
FailComponents(const std::string & path, unsigned int components)
{
  FailReading(
    path, "it has " + std::to_string(components) + " components per pixel; a scalar (gray or label) image is needed");
}

} // namespace

ImageFormat
InputFormatOf(const std::string & path)
{
  // What the path is, before its name is read as a format: a missing file or a
  // folder is said so (and no ImageIO ever probes it).
  struct stat status;
  if (::stat(path.c_str(), &status) != 0)
  {
    FailReading(path, std::strerror(errno));
  }
  if (S_ISDIR(status.st_mode))
  {
    FailReading(path, "it is a directory, not an image file");
  }
  return ImageFormatOf(path, false);
}

ImageHeader
ReadImageHeader(const std::string & path, ImageFormat format)
{
  ImageHeader header;
  if (format == ImageFormat::Png)
  {
    // Every row decoded once without keeping it: a truncated or damaged file
    // is refused before the image is allocated from its header's size.
    CheckPngFile(path);
    const PngHeader png = ReadPngHeader(path);
    if (png.components != 1)
    {
      FailComponents(path, png.components);
    }
    header.size = { png.width, png.height };
    header.pixels = static_cast<std::uint64_t>(png.width) * png.height;
    header.component =
      png.component == PixelComponent::UInt16 ? itk::IOComponentEnum::USHORT : itk::IOComponentEnum::UCHAR;
    header.fileComponentBytes = ComponentBytes(png.component);
    header.files = { path };
    return header;
  }
  const ImageFileLayout layout = CheckImageFile(path, format);
  auto                  io = ImageIOFor(format);
  io->SetFileName(path);
  CallItk("read", path, path, [&io] { io->ReadImageInformation(); });
  if (io->GetNumberOfComponents() == 4 && format == ImageFormat::Tiff)
  {
    FailReading(path,
                "ITK reads it with 4 components per pixel (RGBA): a color image, or a gray TIFF stored in tiles, "
                "which ITK 5.2 reads as RGBA; save a gray image in strips (or as .nrrd, .nii.gz, .mha)");
  }
  if (io->GetNumberOfComponents() != 1)
  {
    FailComponents(path, io->GetNumberOfComponents());
  }
  // ITK must describe the image whose data was checked, nothing larger.
  std::uint64_t pixels = 1;
  for (unsigned int d = 0; d < io->GetNumberOfDimensions(); ++d)
  {
    if (__builtin_mul_overflow(pixels, static_cast<std::uint64_t>(io->GetDimensions(d)), &pixels))
    {
      pixels = 0;
      break;
    }
    header.size.push_back(io->GetDimensions(d));
  }
  if (pixels != layout.pixels)
  {
    FailReading(path,
                "ITK reads a size of " + std::to_string(pixels) + " pixels from the header, not the " +
                  std::to_string(layout.pixels) + " it describes");
  }
  // Trailing sizes of 1 beyond the third do not count (a volume stored as
  // 4D). A volume of one slice stays a volume: its z spacing, origin and
  // direction place it (Slicer's 2D images are such volumes), and ITK's
  // filters measure it in 3D.
  while (header.size.size() > 3 && header.size.back() == 1)
  {
    header.size.pop_back();
  }
  if (header.size.size() == 1)
  {
    header.size.push_back(1);
  }
  if (header.size.size() > 3)
  {
    FailReading(path, "it is a " + std::to_string(header.size.size()) + "D image; 2D and 3D are supported");
  }
  // ITK 5.2's TIFFImageIO reports 32-bit integer pixels but fills the image
  // as bytes (fixed in later ITK): such a file would be read wrongly, silently.
  using C = itk::IOComponentEnum;
  const C component = io->GetComponentType();
  if (format == ImageFormat::Tiff && component != C::UCHAR && component != C::CHAR && component != C::USHORT &&
      component != C::SHORT && component != C::FLOAT)
  {
    FailReading(path,
                "ITK 5.2 reads " + itk::ImageIOBase::GetComponentTypeAsString(component) +
                  " TIFF pixels wrongly; convert the image to .nrrd, .nii.gz or .mha");
  }
  header.pixels = pixels;
  header.component = component;
  header.fileComponentBytes = static_cast<int>(io->GetComponentSize());
  header.files = layout.files;
  return header;
}


RunSummary
AnalyzeAnyFile(const std::string & path, const AppOptions & options, OutputPlan & plan, const ProgressSink & progress)
{
  const auto         start = std::chrono::steady_clock::now();
  const ImageFormat  format = InputFormatOf(path);
  const ImageHeader  header = ReadImageHeader(path, format);
  const ReadType     type = ReadTypeFor(path, header.component);
  const ReadTypeInfo info = InfoOf(type);
  if (options.labelInput && (type == ReadType::Float || type == ReadType::Double))
  {
    FailReading(path,
                std::string("--labelInput needs an integer label image, and its pixels are ") +
                  (type == ReadType::Float ? "float32" : "float64"));
  }
  const auto dimension = static_cast<unsigned int>(header.size.size());
  CheckInputIsNoOutput(plan, path, header.files);
  CheckOutputsCanHold(options, plan, dimension, info.analysedAs);

  // The image as read, a buffer of the file's type when ITK converts it, and
  // what the analysis adds (the uint8 mask of a real image, the label image).
  std::uint64_t perPixel = static_cast<std::uint64_t>(info.bytes) + AnalysisBytesPerPixel(options);
  if (header.fileComponentBytes != info.bytes || type == ReadType::Float || type == ReadType::Double)
  {
    perPixel += static_cast<std::uint64_t>(header.fileComponentBytes);
  }
  if (!options.featureImage.empty())
  {
    // Its header now: a feature image of another size is refused before any pixel is read.
    const ImageHeader feature = ReadFeatureImageHeader(options.featureImage, header.size);
    CheckInputIsNoOutput(plan, options.featureImage, feature.files);
    perPixel += static_cast<std::uint64_t>(feature.fileComponentBytes);
  }
  std::string sizeText;
  for (const auto s : header.size)
  {
    sizeText += (sizeText.empty() ? "" : " x ") + std::to_string(s);
  }
  RequireMemory(SaturatingProduct(header.pixels, perPixel), "the " + sizeText + " image of '" + path + "'");

  // The structural check of the whole file counts as reading.
  const double checkSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RunSummary   summary = dimension == 3 ? AnalyzeFileOfDimension<3>(path, format, type, options, plan, progress)
                                        : AnalyzeFileOfDimension<2>(path, format, type, options, plan, progress);
  summary.readSeconds += checkSeconds;
  summary.pixelType = info.name;
  return summary;
}

} // namespace ccaapp
