// VTK legacy STRUCTURED_POINTS with SCALARS, read line by line as ITK 5.2's
// VTKImageIO reads it (lower-cased, empty lines skipped, keywords found as
// substrings), with the limits its sscanf calls need (words under 256 characters).
#include "ImageFileCheckDetail.h"

#include <map>

namespace ccaapp
{
namespace filecheck
{
namespace
{

std::uint64_t
VtkTypeBytes(const std::string & type)
{
  static const std::map<std::string, std::uint64_t> bytes = {
    { "unsigned_char", 1 }, { "char", 1 },          { "unsigned_short", 2 },
    { "short", 2 },         { "unsigned_int", 4 },  { "int", 4 },
    { "unsigned_long", 8 }, { "long", 8 },          { "unsigned_long_long", 8 },
    { "long_long", 8 },     { "vtktypeuint64", 8 }, { "vtktypeint64", 8 },
    { "float", 4 },         { "double", 8 }
  };
  const auto found = bytes.find(type);
  return found == bytes.end() ? 0 : found->second;
}

/** ITK's GetNextLine: the next non-empty line, lower-cased; at most 5 empty lines in a row. */
class LineReader
{
public:
  explicit LineReader(const BinaryFile & file)
    : m_File(file)
  {}

  std::string
  Next()
  {
    for (int empty = 0; empty <= 5; ++empty)
    {
      const std::string chunk = m_File.ReadUpTo(m_Offset, 4096);
      const auto        newline = chunk.find('\n');
      if (newline == std::string::npos)
      {
        m_File.Fail(chunk.size() == 4096 ? "a VTK header line is longer than 4096 characters"
                                         : "the VTK header ends early (truncated)");
      }
      m_Offset += newline + 1;
      std::string line = Lower(chunk.substr(0, newline));
      for (const auto & word : Words(line))
      {
        if (word.size() >= 256)
        {
          m_File.Fail("a VTK header word is longer than ITK reads (255 characters)");
        }
      }
      if (!line.empty())
      {
        return line;
      }
    }
    m_File.Fail("the VTK header has more than 5 empty lines in a row");
  }
  std::uint64_t
  Offset() const
  {
    return m_Offset;
  }
  void
  Rewind(std::uint64_t offset)
  {
    m_Offset = offset;
  }

private:
  const BinaryFile & m_File;
  std::uint64_t      m_Offset = 0;
};

bool
Contains(const std::string & line, const char * word)
{
  return line.find(word) != std::string::npos;
}

} // namespace

ImageFileLayout
CheckVtk(const std::string & path)
{
  const BinaryFile file(path);
  LineReader       lines(file);
  if (lines.Next().compare(0, 22, "# vtk datafile version") != 0)
  {
    file.Fail("not a VTK legacy file (no '# vtk DataFile Version' line)");
  }
  lines.Next(); // the title
  const std::string kind = lines.Next();
  const bool        ascii = Contains(kind, "ascii");
  if (!ascii && !Contains(kind, "binary"))
  {
    file.Fail("the VTK file is neither ASCII nor BINARY");
  }
  if (!Contains(lines.Next(), "structured_points"))
  {
    file.Fail("the VTK dataset is not STRUCTURED_POINTS");
  }
  const std::string dimensionsLine = lines.Next();
  if (!Contains(dimensionsLine, "dimensions"))
  {
    file.Fail("the VTK file has no 'DIMENSIONS x y z' line after STRUCTURED_POINTS");
  }
  ImageFileLayout layout;
  layout.format = ImageFormat::Vtk;
  layout.size =
    ParseSizes(file, dimensionsLine.substr(dimensionsLine.find("dimensions") + 10), 3, INT32_MAX, "VTK DIMENSIONS");
  layout.pixels = PixelCount(file, layout.size);

  std::uint64_t elementBytes = 0;
  std::uint64_t components = 1;
  while (elementBytes == 0)
  {
    const std::string line = lines.Next();
    const auto        words = Words(line);
    if (Contains(line, "spacing") || Contains(line, "aspect_ratio") || Contains(line, "origin"))
    {
      if (words.size() != 4)
      {
        file.Fail("the VTK line '" + line.substr(0, 80) + "' does not hold 3 numbers");
      }
      continue;
    }
    if (Contains(line, "vector") || Contains(line, "color_scalars") || Contains(line, "tensors"))
    {
      file.Fail("VTK " + words[0] + " data is not supported (a scalar image is needed)");
    }
    if (Contains(line, "scalars"))
    {
      if (words.size() < 3 || words.size() > 4)
      {
        file.Fail("the VTK line '" + line.substr(0, 80) + "' is not 'SCALARS name type [components]'");
      }
      elementBytes = VtkTypeBytes(words[2]);
      if (elementBytes == 0)
      {
        file.Fail("the VTK scalar type '" + words[2] + "' is not supported");
      }
      if (words.size() == 4 && !ParseUnsigned(words[3], 1, 4, components))
      {
        file.Fail("the VTK component count '" + words[3] + "' is not in 1 .. 4");
      }
      // An optional LOOKUP_TABLE line; otherwise the data starts here.
      const std::uint64_t before = lines.Offset();
      if (!Contains(lines.Next(), "lookup_table"))
      {
        lines.Rewind(before);
      }
      continue;
    }
    if (words.size() == 2 && (words[0] == "point_data" || words[0] == "cell_data"))
    {
      std::uint64_t count = 0;
      if (words[0] == "cell_data" || !ParseUnsigned(words[1], 1, UINT64_MAX, count) || count != layout.pixels)
      {
        file.Fail("the VTK line '" + line.substr(0, 80) + "' does not match the dimensions");
      }
      continue;
    }
    file.Fail("unexpected VTK header line '" + line.substr(0, 80) + "'");
  }
  const std::uint64_t elements = Multiply(file, layout.pixels, components, "the element count");
  layout.files.push_back(path);
  if (ascii)
  {
    RequireTextNumbers(file, lines.Offset(), elements, "numbers");
  }
  else
  {
    RequireBytes(file, lines.Offset(), Multiply(file, elements, elementBytes, "the data size"), "pixel data");
  }
  return layout;
}

} // namespace filecheck
} // namespace ccaapp
