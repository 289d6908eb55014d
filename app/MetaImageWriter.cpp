#include "MetaImageWriter.h"

#include "OutputFiles.h"
#include "ParallelDeflate.h"

#include <stdexcept>

namespace ccaapp
{
namespace
{

const char *
MetaElementType(PixelComponent component)
{
  switch (component)
  {
    case PixelComponent::Int8:
      return "MET_CHAR";
    case PixelComponent::UInt8:
      return "MET_UCHAR";
    case PixelComponent::Int16:
      return "MET_SHORT";
    case PixelComponent::UInt16:
      return "MET_USHORT";
    case PixelComponent::Int32:
      return "MET_INT";
    case PixelComponent::UInt32:
      return "MET_UINT";
    case PixelComponent::Int64:
      return "MET_LONG_LONG";
    case PixelComponent::UInt64:
      return "MET_ULONG_LONG";
    case PixelComponent::Float32:
      return "MET_FLOAT";
    case PixelComponent::Float64:
      return "MET_DOUBLE";
  }
  throw std::logic_error("MetaElementType: unknown component");
}

/** A MetaIO field name: one word without '='. */
bool
IsFieldName(const std::string & key)
{
  return !key.empty() && key.find_first_of(" \t\r\n=") == std::string::npos;
}

// The width of CompressedDataSize in a .mha header, whose value is known
// only once the data after it is written: spaces after the number, set in
// place (leading zeros would read as octal to a C reader parsing with base 0).
constexpr std::size_t SizeWidth = 20;

std::string
Padded(std::uint64_t value)
{
  std::string digits = std::to_string(value);
  return digits + std::string(SizeWidth - digits.size(), ' ');
}

/** The header up to ElementDataFile, which ends it; compressedSize: the
 *  value of CompressedDataSize (compressed data only). */
std::string
Header(const ImageGeometry & geometry,
       PixelComponent        component,
       bool                  compressed,
       const std::string &   compressedSize,
       const std::string &   dataFile)
{
  const unsigned int n = geometry.dimension;
  auto               list = [n](auto value) {
    std::string text;
    for (unsigned int i = 0; i < n; ++i)
    {
      text += (i > 0 ? " " : "") + value(i);
    }
    return text;
  };
  std::string header = "ObjectType = Image\n";
  header += "NDims = " + std::to_string(n) + "\n";
  header += "BinaryData = True\n";
  header += "BinaryDataByteOrderMSB = False\n";
  header += std::string("CompressedData = ") + (compressed ? "True" : "False") + "\n";
  if (compressed)
  {
    header += "CompressedDataSize = " + compressedSize + "\n";
  }
  // Each axis's direction in turn: column a of ITK's direction matrix.
  std::string matrix;
  for (unsigned int axis = 0; axis < n; ++axis)
  {
    for (unsigned int row = 0; row < n; ++row)
    {
      matrix += (matrix.empty() ? "" : " ") + ShortestText(geometry.direction[row][axis]);
    }
  }
  header += "TransformMatrix = " + matrix + "\n";
  header += "Offset = " + list([&](unsigned int i) { return ShortestText(geometry.origin[i]); }) + "\n";
  header += "CenterOfRotation = " + list([](unsigned int) { return std::string("0"); }) + "\n";
  header += "ElementSpacing = " + list([&](unsigned int i) { return ShortestText(geometry.spacing[i]); }) + "\n";
  header += "DimSize = " + list([&](unsigned int i) { return std::to_string(geometry.size[i]); }) + "\n";
  for (const auto & [key, value] : geometry.keyValues)
  {
    if (IsFieldName(key) && value.find_first_of("\r\n") == std::string::npos)
    {
      header += key + " = " + value + "\n";
    }
  }
  header += std::string("ElementType = ") + MetaElementType(component) + "\n";
  header += "ElementDataFile = " + dataFile + "\n";
  return header;
}

} // namespace

void
WriteMetaImage(const std::string &   path,
               const std::string &   dataPath,
               const std::string &   displayPath,
               const ImageGeometry & geometry,
               PixelComponent        component,
               const void *          pixels,
               int                   zlibLevel)
{
  const std::uint64_t bytes = PixelBytes(geometry, component);
  const bool          compressed = zlibLevel > 0;
  auto                writeData = [&](CheckedFile & file) {
    return WritePixelData(file, displayPath, DeflateStream::Zlib, zlibLevel, pixels, bytes);
  };
  CheckedFile header(path, displayPath);
  if (dataPath.empty())
  {
    const std::string text = Header(geometry, component, compressed, Padded(0), "LOCAL");
    header.Write(text);
    const std::uint64_t written = writeData(header);
    if (compressed)
    {
      const std::string size = Padded(written);
      header.WriteAt(text.find("CompressedDataSize = ") + 21, size.data(), size.size());
    }
  }
  else
  {
    CheckedFile         data(dataPath, displayPath);
    const std::uint64_t written = writeData(data);
    data.Finish();
    header.Write(Header(geometry, component, compressed, std::to_string(written), FileNameOf(dataPath)));
  }
  header.Finish();
}

} // namespace ccaapp
