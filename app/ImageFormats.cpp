#include "ImageFormats.h"

#include <algorithm>
#include <cctype>

namespace ccaapp
{
namespace
{

std::string
Lower(std::string text)
{
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

bool
EndsWith(const std::string & text, const std::string & suffix)
{
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/** path without its extension (".nii.gz" counts as one). */
std::string
Stem(const std::string & path, const std::string & extension)
{
  return path.substr(0, path.size() - extension.size());
}

struct Extension
{
  const char * text;
  ImageFormat  format;
};

// Longest first: ".nii.gz" before ".gz"-less matches.
const Extension Extensions[] = { { ".nii.gz", ImageFormat::NiftiGz }, { ".png", ImageFormat::Png },
                                 { ".nrrd", ImageFormat::Nrrd },      { ".nhdr", ImageFormat::NrrdDetached },
                                 { ".nii", ImageFormat::Nifti },      { ".hdr", ImageFormat::NiftiPair },
                                 { ".mha", ImageFormat::MetaImage },  { ".mhd", ImageFormat::MetaImageDetached },
                                 { ".vtk", ImageFormat::Vtk },        { ".tiff", ImageFormat::Tiff },
                                 { ".tif", ImageFormat::Tiff } };

} // namespace

int
ComponentBytes(PixelComponent component)
{
  switch (component)
  {
    case PixelComponent::UInt8:
    case PixelComponent::Int8:
      return 1;
    case PixelComponent::UInt16:
    case PixelComponent::Int16:
      return 2;
    case PixelComponent::UInt32:
    case PixelComponent::Int32:
    case PixelComponent::Float32:
      return 4;
    case PixelComponent::UInt64:
    case PixelComponent::Int64:
    case PixelComponent::Float64:
      return 8;
  }
  return 0;
}

const char *
ComponentName(PixelComponent component)
{
  switch (component)
  {
    case PixelComponent::UInt8:
      return "uint8";
    case PixelComponent::Int8:
      return "int8";
    case PixelComponent::UInt16:
      return "uint16";
    case PixelComponent::Int16:
      return "int16";
    case PixelComponent::UInt32:
      return "uint32";
    case PixelComponent::Int32:
      return "int32";
    case PixelComponent::UInt64:
      return "uint64";
    case PixelComponent::Int64:
      return "int64";
    case PixelComponent::Float32:
      return "float32";
    case PixelComponent::Float64:
      return "float64";
  }
  return "?";
}

void
FailReading(const std::string & path, const std::string & reason)
{
  throw FileError("read", path, reason);
}

void
FailWriting(const std::string & path, const std::string & reason)
{
  throw FileError("write", path, reason);
}

std::string
SupportedImageExtensions()
{
  return ".png .nrrd .nhdr .nii .nii.gz .hdr .mha .mhd .vtk .tif .tiff";
}

ImageFormat
ImageFormatOf(const std::string & path, bool forWriting)
{
  const std::string lower = Lower(path);
  for (const auto & extension : Extensions)
  {
    if (EndsWith(lower, extension.text))
    {
      return extension.format;
    }
  }
  std::string reason;
  const auto  slash = path.find_last_of('/');
  const auto  dot = path.find_last_of('.');
  if (EndsWith(lower, ".jpg") || EndsWith(lower, ".jpeg"))
  {
    reason = "JPEG is lossy: it changes pixel values, so it cannot hold labels or masks; use one of " +
             SupportedImageExtensions();
  }
  else if (EndsWith(lower, ".bmp"))
  {
    reason =
      "BMP is not supported (ITK 5.2 writes 8-bit BMP only); use .png or .tif, or one of " + SupportedImageExtensions();
  }
  else if (EndsWith(lower, ".img") || EndsWith(lower, ".img.gz"))
  {
    reason = "give the .hdr file of an Analyze/NIfTI pair, not its .img data file";
  }
  else if (dot != std::string::npos && (slash == std::string::npos || dot > slash))
  {
    reason = "the format '" + path.substr(dot) + "' is not supported; supported: " + SupportedImageExtensions();
  }
  else
  {
    reason = "the file name has no extension; supported: " + SupportedImageExtensions();
  }
  if (forWriting)
  {
    FailWriting(path, reason);
  }
  FailReading(path, reason);
}

const char *
ImageFormatName(ImageFormat format)
{
  switch (format)
  {
    case ImageFormat::Png:
      return "PNG";
    case ImageFormat::Nrrd:
    case ImageFormat::NrrdDetached:
      return "NRRD";
    case ImageFormat::Nifti:
    case ImageFormat::NiftiGz:
    case ImageFormat::NiftiPair:
      return "NIfTI";
    case ImageFormat::MetaImage:
    case ImageFormat::MetaImageDetached:
      return "MetaImage";
    case ImageFormat::Vtk:
      return "VTK";
    case ImageFormat::Tiff:
      return "TIFF";
  }
  return "?";
}

Compression
CompressionOf(ImageFormat format, Compression asked)
{
  switch (format)
  {
    case ImageFormat::Nifti:
    case ImageFormat::NiftiPair:
    case ImageFormat::Vtk:
      return Compression::None;
    case ImageFormat::NiftiGz:
    case ImageFormat::MetaImage:
    case ImageFormat::MetaImageDetached:
    case ImageFormat::Png:
    case ImageFormat::Nrrd:
    case ImageFormat::NrrdDetached:
    case ImageFormat::Tiff:
      break;
  }
  return asked == Compression::Auto ? Compression::Fast : asked;
}

const char *
CompressionName(Compression compression)
{
  switch (compression)
  {
    case Compression::None:
      return "none";
    case Compression::Fast:
      return "fast";
    case Compression::Small:
      return "small";
    case Compression::Auto:
      break;
  }
  return "auto";
}

int
ZlibLevel(Compression compression)
{
  switch (compression)
  {
    case Compression::None:
      return 0;
    case Compression::Fast:
      return 1;
    case Compression::Small:
      return 6;
    case Compression::Auto:
      break;
  }
  throw std::logic_error("ZlibLevel: Auto is resolved by CompressionOf first");
}

std::vector<std::string>
FilesWrittenFor(const std::string & path, ImageFormat format, Compression compression)
{
  const bool compressed = compression != Compression::None;
  switch (format)
  {
    case ImageFormat::NrrdDetached:
      return { path, Stem(path, ".nhdr") + (compressed ? ".raw.gz" : ".raw") };
    case ImageFormat::MetaImageDetached:
      return { path, Stem(path, ".mhd") + (compressed ? ".zraw" : ".raw") };
    case ImageFormat::NiftiPair:
      return { path, Stem(path, ".hdr") + ".img" };
    default:
      return { path };
  }
}

void
CheckFormatCanHold(const std::string & path,
                   ImageFormat         format,
                   unsigned int        dimension,
                   PixelComponent      component,
                   const std::string & what)
{
  const std::string type = ComponentName(component);
  if (format == ImageFormat::Png)
  {
    if (dimension != 2)
    {
      FailWriting(path,
                  "PNG holds 2D images only, and " + what + " is " + std::to_string(dimension) +
                    "D; use .nrrd, .nii.gz, .mha or .tif");
    }
    if (component != PixelComponent::UInt8 && component != PixelComponent::UInt16)
    {
      FailWriting(path,
                  "PNG holds 8- and 16-bit unsigned pixels, and " + what + " is " + type +
                    "; use .nrrd, .nii.gz, .mha or .tif");
    }
  }
  if (format == ImageFormat::Tiff && (ComponentBytes(component) > 4 || component == PixelComponent::Float32))
  {
    FailWriting(path,
                "TIFF is written with integer pixels of up to 32 bits, and " + what + " is " + type +
                  "; use .nrrd, .nii.gz or .mha");
  }
}

} // namespace ccaapp
