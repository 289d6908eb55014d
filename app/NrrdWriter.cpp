#include "NrrdWriter.h"

#include "OutputFiles.h"
#include "ParallelDeflate.h"

#include <stdexcept>

namespace ccaapp
{
namespace
{

/** teem's canonical type names, which ITK's writer uses. */
const char *
NrrdTypeName(PixelComponent component)
{
  switch (component)
  {
    case PixelComponent::Int8:
      return "signed char";
    case PixelComponent::UInt8:
      return "unsigned char";
    case PixelComponent::Int16:
      return "short";
    case PixelComponent::UInt16:
      return "unsigned short";
    case PixelComponent::Int32:
      return "int";
    case PixelComponent::UInt32:
      return "unsigned int";
    case PixelComponent::Int64:
      return "long long int";
    case PixelComponent::UInt64:
      return "unsigned long long int";
    case PixelComponent::Float32:
      return "float";
    case PixelComponent::Float64:
      return "double";
  }
  throw std::logic_error("NrrdTypeName: unknown component");
}

/** "(x,y,z)" */
std::string
Vector(const double * values, unsigned int count)
{
  std::string text = "(";
  for (unsigned int i = 0; i < count; ++i)
  {
    text += (i > 0 ? "," : "") + ShortestText(values[i]);
  }
  return text + ")";
}

/** A key or value on one header line: NRRD escapes the backslash and the newline. */
std::string
Escaped(const std::string & text)
{
  std::string escaped;
  for (const char c : text)
  {
    escaped += c == '\\' ? "\\\\" : c == '\n' ? "\\n" : std::string(1, c);
  }
  return escaped;
}

std::string
Header(const ImageGeometry & geometry, PixelComponent component, int zlibLevel, const std::string & dataPath)
{
  const unsigned int n = geometry.dimension;
  std::string        header = "NRRD0004\n"
                              "# Complete NRRD file format specification at:\n"
                              "# http://teem.sourceforge.net/nrrd/format.html\n";
  header += std::string("type: ") + NrrdTypeName(component) + "\n";
  header += "dimension: " + std::to_string(n) + "\n";
  // ITK's 3D images are in LPS space; other dimensions have no named space.
  header += n == 3 ? "space: left-posterior-superior\n" : "space dimension: " + std::to_string(n) + "\n";
  std::string sizes, directions, kinds;
  for (unsigned int axis = 0; axis < n; ++axis)
  {
    double direction[3];
    for (unsigned int row = 0; row < n; ++row)
    {
      direction[row] = geometry.spacing[axis] * geometry.direction[row][axis];
    }
    sizes += " " + std::to_string(geometry.size[axis]);
    directions += " " + Vector(direction, n);
    kinds += " domain";
  }
  header += "sizes:" + sizes + "\n";
  header += "space directions:" + directions + "\n";
  header += "kinds:" + kinds + "\n";
  if (ComponentBytes(component) > 1)
  {
    header += "endian: little\n";
  }
  header += std::string("encoding: ") + (zlibLevel > 0 ? "gzip" : "raw") + "\n";
  header += "space origin: " + Vector(geometry.origin.data(), n) + "\n";
  for (const auto & [key, value] : geometry.keyValues)
  {
    header += Escaped(key) + ":=" + Escaped(value) + "\n";
  }
  // The data follows a blank line, or lies in the file the header names.
  header += dataPath.empty() ? "\n" : "data file: " + FileNameOf(dataPath) + "\n";
  return header;
}

} // namespace

void
WriteNrrd(const std::string &   path,
          const std::string &   dataPath,
          const std::string &   displayPath,
          const ImageGeometry & geometry,
          PixelComponent        component,
          const void *          pixels,
          int                   zlibLevel)
{
  const std::uint64_t bytes = PixelBytes(geometry, component);
  CheckedFile         header(path, displayPath);
  header.Write(Header(geometry, component, zlibLevel, dataPath));
  if (dataPath.empty())
  {
    WritePixelData(header, displayPath, DeflateStream::Gzip, zlibLevel, pixels, bytes);
  }
  else
  {
    CheckedFile data(dataPath, displayPath);
    WritePixelData(data, displayPath, DeflateStream::Gzip, zlibLevel, pixels, bytes);
    data.Finish();
  }
  header.Finish();
}

} // namespace ccaapp
