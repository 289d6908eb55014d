// Chooses the pixel type and dimension to read a file as, from its header.
#include "Analysis.h"

#include "itkImageFileReader.h"
#include "itkImageIOBase.h"
#include "itkImageIOFactory.h"
#include "itkImageRegionConstIterator.h"
#include "itkImageRegionIterator.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ccaapp
{
namespace
{

// The integer types the program reads as (each one a compiled instantiation of
// the filter): every integer file type is read into the narrowest of these
// that holds all its values, except 64-bit unsigned, read as int64.
enum class ReadType
{
  UInt8,
  Int16,
  UInt16,
  Int32,
  Int64,
  RealMask // float/double: the foreground rule is applied while reading
};

ReadType
ReadTypeFor(itk::IOComponentEnum component)
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
    case C::LONG:
    case C::ULONG:
    case C::LONGLONG:
    case C::ULONGLONG:
      return ReadType::Int64;
    case C::FLOAT:
    case C::DOUBLE:
    case C::LDOUBLE:
      return ReadType::RealMask;
    default:
      throw std::runtime_error("unsupported pixel component type");
  }
}

const char *
ReadTypeName(ReadType type)
{
  switch (type)
  {
    case ReadType::UInt8:
      return "uint8";
    case ReadType::Int16:
      return "int16";
    case ReadType::UInt16:
      return "uint16";
    case ReadType::Int32:
      return "int32";
    case ReadType::Int64:
      return "int64";
    case ReadType::RealMask:
      return "uint8 mask from real values";
  }
  return "?";
}

// Real-valued images: the foreground rule is evaluated on the doubles, and the
// filter runs on the resulting 0/1 mask.
template <unsigned int VDimension>
RunSummary
AnalyzeRealFile(const std::string & path, const AppOptions & options, const ProgressSink & progress)
{
  using RealImageType = itk::Image<double, VDimension>;
  using MaskImageType = itk::Image<std::uint8_t, VDimension>;
  const auto start = std::chrono::steady_clock::now();
  auto       reader = itk::ImageFileReader<RealImageType>::New();
  reader->SetFileName(path);
  reader->Update();
  const RealImageType * real = reader->GetOutput();

  auto mask = MaskImageType::New();
  mask->CopyInformation(real);
  mask->SetRegions(real->GetLargestPossibleRegion());
  mask->Allocate();
  const bool   equalRule = options.foregroundMode == ForegroundMode::EqualTo;
  const double value = !equalRule                ? static_cast<double>(options.backgroundValue)
                       : options.foregroundValue ? static_cast<double>(*options.foregroundValue)
                                                 : std::numeric_limits<double>::max();
  itk::ImageRegionConstIterator<RealImageType> in(real, real->GetLargestPossibleRegion());
  itk::ImageRegionIterator<MaskImageType>      out(mask, mask->GetLargestPossibleRegion());
  for (; !in.IsAtEnd(); ++in, ++out)
  {
    // NaN is never foreground: under the not-background rule NaN != value would make it so.
    const double pixel = in.Get();
    out.Set(!std::isnan(pixel) && (pixel == value) == equalRule ? 1 : 0);
  }
  const double readSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.Report(0.1);

  AppOptions maskOptions = options;
  maskOptions.foregroundMode = ForegroundMode::NotBackground;
  maskOptions.backgroundValue = 0;
  RunSummary summary = AnalyzeImage<std::uint8_t, VDimension>(mask, maskOptions, progress);
  summary.readSeconds = readSeconds;
  return summary;
}

template <unsigned int VDimension>
RunSummary
AnalyzeFileOfDimension(const std::string & path, ReadType type, const AppOptions & options, const ProgressSink & progress)
{
  switch (type)
  {
    case ReadType::UInt8:
      return AnalyzeFile<std::uint8_t, VDimension>(path, options, progress);
    case ReadType::Int16:
      return AnalyzeFile<std::int16_t, VDimension>(path, options, progress);
    case ReadType::UInt16:
      return AnalyzeFile<std::uint16_t, VDimension>(path, options, progress);
    case ReadType::Int32:
      return AnalyzeFile<std::int32_t, VDimension>(path, options, progress);
    case ReadType::Int64:
      return AnalyzeFile<std::int64_t, VDimension>(path, options, progress);
    case ReadType::RealMask:
      return AnalyzeRealFile<VDimension>(path, options, progress);
  }
  throw std::logic_error("unhandled read type");
}

} // namespace

RunSummary
AnalyzeAnyFile(const std::string & path, const AppOptions & options, const ProgressSink & progress)
{
  auto io = itk::ImageIOFactory::CreateImageIO(path.c_str(), itk::IOFileModeEnum::ReadMode);
  if (!io)
  {
    throw std::runtime_error("cannot read '" + path + "': no ITK ImageIO recognizes it (missing file or unknown format)");
  }
  io->SetFileName(path);
  io->ReadImageInformation();
  if (io->GetNumberOfComponents() != 1)
  {
    throw std::runtime_error("'" + path + "' has " + std::to_string(io->GetNumberOfComponents()) +
                             " components per pixel; a scalar image is needed");
  }

  unsigned int dimension = io->GetNumberOfDimensions();
  // Trailing sizes of 1 (a 2D slice stored as 3D, a 3D volume stored as 4D) do not count.
  while (dimension > 2 && io->GetDimensions(dimension - 1) == 1)
  {
    --dimension;
  }
  const ReadType type = ReadTypeFor(io->GetComponentType());

  RunSummary summary;
  if (dimension == 2 || dimension == 1)
  {
    summary = AnalyzeFileOfDimension<2>(path, type, options, progress);
  }
  else if (dimension == 3)
  {
    summary = AnalyzeFileOfDimension<3>(path, type, options, progress);
  }
  else
  {
    throw std::runtime_error("'" + path + "' is a " + std::to_string(dimension) + "D image; 2D and 3D are supported");
  }
  summary.pixelType = ReadTypeName(type);
  return summary;
}

} // namespace ccaapp
