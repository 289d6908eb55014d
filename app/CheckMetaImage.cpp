// MetaImage (.mha with the data after the header, .mhd with a data file): the
// "Key = Value" header up to ElementDataFile, kept within the limits of MetaIO's
// fixed buffers (short lines, NDims before the arrays that depend on it).
#include "ImageFileCheckDetail.h"

#include <algorithm>
#include <map>
#include <set>

namespace ccaapp
{
namespace filecheck
{
namespace
{

std::uint64_t
MetaElementBytes(const std::string & type)
{
  static const std::map<std::string, std::uint64_t> bytes = {
    { "MET_CHAR", 1 },      { "MET_UCHAR", 1 },      { "MET_SHORT", 2 }, { "MET_USHORT", 2 },
    { "MET_INT", 4 },       { "MET_UINT", 4 },       { "MET_LONG", 4 },  { "MET_ULONG", 4 },
    { "MET_LONG_LONG", 8 }, { "MET_ULONG_LONG", 8 }, { "MET_FLOAT", 4 }, { "MET_DOUBLE", 8 }
  };
  const auto found = bytes.find(type);
  return found == bytes.end() ? 0 : found->second;
}

bool
MetaBool(const BinaryFile & file, const std::string & key, const std::string & value)
{
  const std::string lower = Lower(value);
  if (lower == "true" || lower == "1")
    return true;
  if (lower == "false" || lower == "0")
    return false;
  file.Fail("the MetaImage field " + key + " is '" + value + "', not True or False");
}

} // namespace

ImageFileLayout
CheckMetaImage(const std::string & path, ImageFormat format)
{
  const BinaryFile  file(path);
  const std::size_t maximumHeader = 1 << 16;
  const std::string text = file.ReadUpTo(0, maximumHeader);

  // Fields whose length is NDims (MetaIO sizes them from NDims read before).
  const std::set<std::string>        perDimension = { "DimSize",     "ElementSpacing", "ElementSize",      "Offset",
                                                      "Position",    "Origin",         "CenterOfRotation", "TransformMatrix",
                                                      "Orientation", "Rotation",       "ElementOrigin",    "SequenceID" };
  std::map<std::string, std::string> fields;
  std::size_t                        begin = 0;
  std::size_t                        dataStart = 0;
  bool                               sawDataFile = false;
  while (!sawDataFile)
  {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos)
    {
      // The last line may lack its newline; a header that long is refused.
      if (text.size() == maximumHeader || begin >= text.size())
      {
        file.Fail(text.size() == maximumHeader ? "the MetaImage header is longer than 64 KiB"
                                               : "the MetaImage header has no ElementDataFile line");
      }
      end = text.size();
    }
    std::string line = text.substr(begin, end - begin);
    begin = std::min(end + 1, text.size());
    if (line.size() > 400)
    {
      file.Fail("a MetaImage header line is longer than MetaIO reads (400 characters)");
    }
    line = Trim(line);
    if (line.empty())
    {
      continue;
    }
    const auto separator = line.find_first_of("=:");
    if (separator == std::string::npos)
    {
      file.Fail("malformed MetaImage header line '" + line.substr(0, 80) + "'");
    }
    const std::string key = Trim(line.substr(0, separator));
    const std::string value = Trim(line.substr(separator + 1));
    if (perDimension.count(key) && fields.count("NDims") == 0)
    {
      file.Fail("the MetaImage field " + key + " comes before NDims");
    }
    if (!fields.emplace(key, value).second)
    {
      file.Fail("the MetaImage header gives " + key + " twice");
    }
    if (key == "ElementDataFile")
    {
      sawDataFile = true;
      dataStart = begin;
    }
  }
  if (Lower(fields["ObjectType"]) != "image")
  {
    file.Fail("the MetaImage ObjectType is '" + fields["ObjectType"] + "', not Image");
  }
  std::uint64_t dimensions = 0;
  if (!ParseUnsigned(fields["NDims"], 1, 7, dimensions))
  {
    file.Fail("the MetaImage NDims '" + fields["NDims"] + "' is not in 1 .. 7");
  }
  ImageFileLayout layout;
  layout.format = format;
  layout.size = ParseSizes(file, fields["DimSize"], dimensions, INT32_MAX, "MetaImage DimSize");
  layout.pixels = PixelCount(file, layout.size);
  std::uint64_t channels = 1;
  if (fields.count("ElementNumberOfChannels") && !ParseUnsigned(fields["ElementNumberOfChannels"], 1, 4096, channels))
  {
    file.Fail("the MetaImage ElementNumberOfChannels '" + fields["ElementNumberOfChannels"] + "' is not in 1 .. 4096");
  }
  const std::uint64_t elementBytes = MetaElementBytes(fields["ElementType"]);
  if (elementBytes == 0)
  {
    file.Fail("the MetaImage ElementType '" + fields["ElementType"] + "' is not supported");
  }
  const std::uint64_t elements = Multiply(file, layout.pixels, channels, "the element count");
  const std::uint64_t payload = Multiply(file, elements, elementBytes, "the data size");
  const bool          binary = fields.count("BinaryData") && MetaBool(file, "BinaryData", fields["BinaryData"]);
  const bool compressed = fields.count("CompressedData") && MetaBool(file, "CompressedData", fields["CompressedData"]);
  std::uint64_t compressedSize = 0;
  if (fields.count("CompressedDataSize") && !ParseUnsigned(fields["CompressedDataSize"], 0, UINT64_MAX, compressedSize))
  {
    file.Fail("the MetaImage CompressedDataSize '" + fields["CompressedDataSize"] + "' is not a byte count");
  }
  std::int64_t headerSize = 0;
  if (fields.count("HeaderSize") && !ParseSigned(fields["HeaderSize"], -1, INT64_MAX, headerSize))
  {
    file.Fail("the MetaImage HeaderSize '" + fields["HeaderSize"] + "' is not -1 or a byte count");
  }

  // The data: LOCAL (after the header) or one file beside it.
  layout.files.push_back(path);
  const std::string dataName = fields["ElementDataFile"];
  std::string       dataPath = path;
  if (Lower(dataName) != "local")
  {
    // Several files: "LIST" or a format with '%' and its numbers; any other
    // text is one file's name, spaces included (as MetaIO reads it).
    if (dataName.empty() || dataName.compare(0, 4, "LIST") == 0 || dataName.find('%') != std::string::npos)
    {
      file.Fail("MetaImage data in several files (ElementDataFile = " + dataName.substr(0, 80) + ") is not supported");
    }
    dataPath = dataName[0] == '/' ? dataName : DirectoryOf(path) + dataName;
    layout.files.push_back(dataPath);
    dataStart = 0;
  }
  else if (format == ImageFormat::MetaImageDetached && dataStart == 0)
  {
    file.Fail("the MetaImage header has no data");
  }
  const BinaryFile data(dataPath);
  // MetaIO seeks to HeaderSize when it is positive, and takes the last bytes of the file for -1.
  std::uint64_t offset = headerSize > 0 ? static_cast<std::uint64_t>(headerSize) : dataStart;
  if (binary && compressed)
  {
    if (headerSize == -1)
    {
      file.Fail("MetaImage HeaderSize = -1 cannot be used with compressed data");
    }
    if (compressedSize > 0 && (offset > data.Size() || compressedSize > data.Size() - offset))
    {
      data.Fail("the file is truncated: CompressedDataSize is " + std::to_string(compressedSize) +
                " bytes, the file holds " + std::to_string(offset <= data.Size() ? data.Size() - offset : 0) +
                " after the header");
    }
    RequireInflatedBytes(data, offset, compressedSize > 0 ? compressedSize : UINT64_MAX, payload, "pixel data");
  }
  else if (binary)
  {
    if (headerSize == -1)
    {
      offset = 0;
    }
    RequireBytes(data, offset, payload, "pixel data");
  }
  else
  {
    if (compressed)
    {
      file.Fail("MetaImage text data cannot be compressed");
    }
    RequireTextNumbers(data, offset, elements, "numbers");
  }
  return layout;
}

} // namespace filecheck
} // namespace ccaapp
