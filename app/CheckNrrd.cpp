// NRRD (.nrrd with its data attached, .nhdr with a data file): the fields that
// decide where the data is and how large it is, read as NrrdIO reads them.
#include "ImageFileCheckDetail.h"

#include <map>

namespace ccaapp
{
namespace filecheck
{
namespace
{

int
NrrdTypeBytes(const std::string & type)
{
  static const std::map<std::string, int> bytes = { { "signed char", 1 },
                                                    { "int8", 1 },
                                                    { "int8_t", 1 },
                                                    { "uchar", 1 },
                                                    { "unsigned char", 1 },
                                                    { "uint8", 1 },
                                                    { "uint8_t", 1 },
                                                    { "short", 2 },
                                                    { "short int", 2 },
                                                    { "signed short", 2 },
                                                    { "signed short int", 2 },
                                                    { "int16", 2 },
                                                    { "int16_t", 2 },
                                                    { "ushort", 2 },
                                                    { "unsigned short", 2 },
                                                    { "unsigned short int", 2 },
                                                    { "uint16", 2 },
                                                    { "uint16_t", 2 },
                                                    { "int", 4 },
                                                    { "signed int", 4 },
                                                    { "int32", 4 },
                                                    { "int32_t", 4 },
                                                    { "uint", 4 },
                                                    { "unsigned int", 4 },
                                                    { "uint32", 4 },
                                                    { "uint32_t", 4 },
                                                    { "longlong", 8 },
                                                    { "long long", 8 },
                                                    { "long long int", 8 },
                                                    { "signed long long", 8 },
                                                    { "signed long long int", 8 },
                                                    { "int64", 8 },
                                                    { "int64_t", 8 },
                                                    { "ulonglong", 8 },
                                                    { "unsigned long long", 8 },
                                                    { "unsigned long long int", 8 },
                                                    { "uint64", 8 },
                                                    { "uint64_t", 8 },
                                                    { "float", 4 },
                                                    { "double", 8 } };
  const auto                              found = bytes.find(Lower(type));
  return found == bytes.end() ? 0 : found->second;
}

} // namespace

ImageFileLayout
CheckNrrd(const std::string & path, ImageFormat format)
{
  const BinaryFile  file(path);
  const std::size_t maximumHeader = 1 << 20;
  const std::string text = file.ReadUpTo(0, maximumHeader);
  if (text.compare(0, 7, "NRRD000") != 0 || text.size() < 8 || text[7] < '1' || text[7] > '9')
  {
    file.Fail("not a NRRD file (it does not start with NRRD000x)");
  }

  // Fields up to the blank line that ends the header (or the end of a detached header).
  std::map<std::string, std::string> fields;
  std::size_t                        at = text.find('\n');
  std::size_t                        dataStart = std::string::npos;
  while (at != std::string::npos && at + 1 < text.size())
  {
    const std::size_t begin = at + 1;
    std::size_t       end = text.find('\n', begin);
    if (end == std::string::npos)
    {
      if (text.size() == maximumHeader)
      {
        file.Fail("the NRRD header is longer than 1 MiB or has no end");
      }
      end = text.size(); // the last line of a file without a final newline
    }
    std::string line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r')
    {
      line.pop_back();
    }
    at = end < text.size() ? end : std::string::npos;
    if (line.empty())
    {
      dataStart = end + 1;
      break;
    }
    if (line[0] == '#')
    {
      continue;
    }
    const auto keyValue = line.find(":=");
    const auto colon = line.find(": ");
    if (keyValue != std::string::npos && (colon == std::string::npos || keyValue < colon))
    {
      continue; // key/value pairs carry no layout
    }
    if (colon == std::string::npos)
    {
      file.Fail("malformed NRRD header line '" + line.substr(0, 80) + "'");
    }
    std::string name = Lower(Trim(line.substr(0, colon)));
    if (name == "datafile")
      name = "data file";
    if (name == "lineskip")
      name = "line skip";
    if (name == "byteskip")
      name = "byte skip";
    if (!fields.emplace(name, Trim(line.substr(colon + 2))).second)
    {
      file.Fail("the NRRD header gives the field '" + name + "' twice");
    }
  }
  for (const char * required : { "type", "dimension", "sizes", "encoding" })
  {
    if (fields.count(required) == 0)
    {
      file.Fail(std::string("the NRRD header has no '") + required + "' field");
    }
  }

  std::uint64_t dimension = 0;
  if (!ParseUnsigned(fields["dimension"], 1, 16, dimension))
  {
    file.Fail("the NRRD dimension '" + fields["dimension"] + "' is not in 1 .. 16");
  }
  ImageFileLayout layout;
  layout.format = format;
  layout.size = ParseSizes(file, fields["sizes"], dimension, UINT64_MAX, "NRRD sizes");
  layout.pixels = PixelCount(file, layout.size);
  const int bytes = NrrdTypeBytes(fields["type"]);
  if (bytes == 0)
  {
    file.Fail("the NRRD type '" + fields["type"] + "' is not supported");
  }
  const std::uint64_t payload = Multiply(file, layout.pixels, static_cast<std::uint64_t>(bytes), "the data size");

  // Where the data is: after the header, or in the file "data file" names.
  layout.files.push_back(path);
  std::string dataPath = path;
  if (fields.count("data file"))
  {
    const std::string name = fields["data file"];
    // Several files: "LIST" or a format with '%' and its numbers; any other
    // text is one file's name, spaces included (as NrrdIO reads it).
    if (name.compare(0, 4, "LIST") == 0 || name.find('%') != std::string::npos)
    {
      file.Fail("NRRD data in several files ('data file: " + name.substr(0, 80) + "') is not supported");
    }
    dataPath = name[0] == '/' ? name : DirectoryOf(path) + name;
    layout.files.push_back(dataPath);
    dataStart = 0;
  }
  else if (format == ImageFormat::NrrdDetached)
  {
    file.Fail("the detached NRRD header has no 'data file' field");
  }
  else if (dataStart == std::string::npos)
  {
    file.Fail("the NRRD header does not end with a blank line before the data");
  }
  const BinaryFile data(dataPath);

  std::int64_t lineSkip = 0;
  std::int64_t byteSkip = 0;
  if (fields.count("line skip") && !ParseSigned(fields["line skip"], 0, INT32_MAX, lineSkip))
  {
    file.Fail("the NRRD line skip '" + fields["line skip"] + "' is not a count");
  }
  if (fields.count("byte skip") && !ParseSigned(fields["byte skip"], -1, INT64_MAX, byteSkip))
  {
    file.Fail("the NRRD byte skip '" + fields["byte skip"] + "' is not -1 or a count");
  }
  std::uint64_t offset = dataStart;
  for (std::int64_t line = 0; line < lineSkip; ++line)
  {
    const std::string chunk = data.ReadUpTo(offset, 1 << 16);
    const auto        newline = chunk.find('\n');
    if (newline == std::string::npos)
    {
      data.Fail("the file ends within the " + std::to_string(lineSkip) + " lines the NRRD header says to skip");
    }
    offset += newline + 1;
  }

  const std::string encoding = Lower(fields["encoding"]);
  if (encoding == "raw")
  {
    if (byteSkip == -1)
    {
      // The data is the last `payload` bytes of the file.
      RequireBytes(data, offset, payload, "pixel data");
    }
    else
    {
      std::uint64_t needed = 0;
      if (__builtin_add_overflow(payload, static_cast<std::uint64_t>(byteSkip), &needed))
      {
        file.Fail("the NRRD byte skip and data size overflow 64 bits");
      }
      RequireBytes(data, offset, needed, byteSkip > 0 ? "skipped bytes and pixel data" : "pixel data");
    }
  }
  else if (encoding == "gzip" || encoding == "gz")
  {
    if (byteSkip < 0)
    {
      file.Fail("NRRD byte skip -1 cannot be used with gzip encoding");
    }
    std::uint64_t needed = 0;
    if (__builtin_add_overflow(payload, static_cast<std::uint64_t>(byteSkip), &needed))
    {
      file.Fail("the NRRD byte skip and data size overflow 64 bits");
    }
    RequireInflatedBytes(data, offset, UINT64_MAX, needed, "pixel data");
  }
  else if (encoding == "ascii" || encoding == "text" || encoding == "txt")
  {
    RequireTextNumbers(data, offset, layout.pixels, "numbers");
  }
  else if (encoding == "hex")
  {
    RequireBytes(data, offset, Multiply(data, payload, 2, "the hex data size"), "hex digits");
  }
  else
  {
    file.Fail("the NRRD encoding '" + fields["encoding"] + "' is not supported (raw, gzip, ascii, hex are)");
  }
  return layout;
}

} // namespace filecheck
} // namespace ccaapp
