#include "ImageFileCheck.h"

#include "ImageFileCheckDetail.h"
#include "PngFile.h"

#include "itk_zlib.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace ccaapp
{
namespace filecheck
{

BinaryFile::BinaryFile(const std::string & path)
  : m_Path(path)
{
  m_Descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (m_Descriptor < 0)
  {
    FailReading(path, std::strerror(errno));
  }
  struct stat status;
  if (::fstat(m_Descriptor, &status) != 0)
  {
    const int error = errno;
    ::close(m_Descriptor);
    FailReading(path, std::strerror(error));
  }
  if (!S_ISREG(status.st_mode))
  {
    ::close(m_Descriptor);
    FailReading(path, S_ISDIR(status.st_mode) ? "it is a directory, not an image file" : "it is not a regular file");
  }
  m_Size = static_cast<std::uint64_t>(status.st_size);
}

BinaryFile::~BinaryFile()
{
  ::close(m_Descriptor);
}

void
BinaryFile::Read(std::uint64_t offset, void * buffer, std::size_t count) const
{
  if (offset > m_Size || count > m_Size - offset)
  {
    Fail("the file ends at byte " + std::to_string(m_Size) + ", before the " + std::to_string(count) + " bytes at " +
         std::to_string(offset) + " its header needs");
  }
  auto * out = static_cast<char *>(buffer);
  while (count > 0)
  {
    const ssize_t got = ::pread(m_Descriptor, out, count, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR)
    {
      continue;
    }
    if (got <= 0)
    {
      Fail(got < 0 ? std::strerror(errno) : "the file became shorter while it was read");
    }
    out += got;
    offset += static_cast<std::uint64_t>(got);
    count -= static_cast<std::size_t>(got);
  }
}

std::string
BinaryFile::ReadUpTo(std::uint64_t offset, std::size_t count) const
{
  if (offset >= m_Size)
  {
    return std::string();
  }
  std::string text(static_cast<std::size_t>(std::min<std::uint64_t>(count, m_Size - offset)), '\0');
  Read(offset, &text[0], text.size());
  return text;
}

std::uint64_t
Multiply(const BinaryFile & file, std::uint64_t a, std::uint64_t b, const std::string & what)
{
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product))
  {
    file.Fail(what + " overflows 64 bits (" + std::to_string(a) + " x " + std::to_string(b) + ")");
  }
  return product;
}

std::uint64_t
PixelCount(const BinaryFile & file, const std::vector<std::uint64_t> & size)
{
  std::uint64_t pixels = 1;
  std::string   text;
  for (const auto s : size)
  {
    text += (text.empty() ? "" : " x ") + std::to_string(s);
  }
  for (const auto s : size)
  {
    if (s == 0)
    {
      file.Fail("the header gives an image size of 0 (" + text + ")");
    }
    pixels = Multiply(file, pixels, s, "the pixel count of " + text);
  }
  return pixels;
}

std::vector<std::uint64_t>
ParseSizes(const BinaryFile &  file,
           const std::string & text,
           std::size_t         count,
           std::uint64_t       maximum,
           const std::string & what)
{
  std::vector<std::uint64_t> sizes;
  for (const auto & word : Words(text))
  {
    std::uint64_t size = 0;
    if (!ParseUnsigned(word, 1, maximum, size))
    {
      file.Fail("the " + what + " '" + word + "' is not an integer in 1 .. " + std::to_string(maximum));
    }
    sizes.push_back(size);
  }
  if (sizes.size() != count)
  {
    file.Fail("the " + what + " has " + std::to_string(sizes.size()) + " values, not " + std::to_string(count));
  }
  return sizes;
}

void
RequireBytes(const BinaryFile & file, std::uint64_t offset, std::uint64_t needed, const std::string & what)
{
  const std::uint64_t available = offset <= file.Size() ? file.Size() - offset : 0;
  if (offset > file.Size() || available < needed)
  {
    file.Fail("the file is truncated: the header describes " + std::to_string(needed) + " bytes of " + what +
              " from byte " + std::to_string(offset) + ", the file holds " + std::to_string(available));
  }
}

std::uint64_t
InflatedSize(const BinaryFile & file,
             std::uint64_t      offset,
             std::uint64_t      length,
             std::uint64_t      limit,
             std::string *      head,
             std::uint64_t      stopAfter)
{
  if (offset > file.Size())
  {
    file.Fail("the compressed data starts at byte " + std::to_string(offset) + ", past the end of the file");
  }
  length = std::min(length, file.Size() - offset);
  z_stream stream{};
  // 15 + 32: zlib or gzip, detected from the stream's header.
  if (inflateInit2(&stream, 15 + 32) != Z_OK)
  {
    file.Fail("zlib cannot be initialized");
  }
  const std::size_t chunk = 1 << 18;
  std::string       input;
  std::string       output(chunk, '\0');
  std::uint64_t     consumed = 0;
  std::uint64_t     produced = 0;
  bool              ended = false;
  std::string       problem;
  while (problem.empty())
  {
    if (stream.avail_in == 0)
    {
      if (consumed == length)
      {
        break;
      }
      input =
        file.ReadUpTo(offset + consumed, static_cast<std::size_t>(std::min<std::uint64_t>(chunk, length - consumed)));
      consumed += input.size();
      stream.next_in = reinterpret_cast<Bytef *>(&input[0]);
      stream.avail_in = static_cast<uInt>(input.size());
    }
    if (ended)
    {
      // Another gzip member may follow; anything else after a complete stream is ignored, as the readers do.
      if (stream.avail_in >= 2 && stream.next_in[0] == 0x1f && stream.next_in[1] == 0x8b)
      {
        inflateReset(&stream);
        ended = false;
      }
      else
      {
        break;
      }
    }
    stream.next_out = reinterpret_cast<Bytef *>(&output[0]);
    stream.avail_out = static_cast<uInt>(output.size());
    const int         status = inflate(&stream, Z_NO_FLUSH);
    const std::size_t got = output.size() - stream.avail_out;
    if (head && head->size() < stopAfter)
    {
      head->append(output.data(), static_cast<std::size_t>(std::min<std::uint64_t>(got, stopAfter - head->size())));
    }
    produced += got;
    if (produced >= stopAfter)
    {
      inflateEnd(&stream);
      return produced;
    }
    if (status == Z_STREAM_END)
    {
      ended = true;
    }
    else if (status != Z_OK && !(status == Z_BUF_ERROR && stream.avail_in == 0))
    {
      problem = std::string("the compressed data is corrupt (zlib: ") + (stream.msg ? stream.msg : "error") + ")";
    }
    if (produced > limit)
    {
      problem = "the compressed data holds more than the " + std::to_string(limit) + " bytes the header describes";
    }
  }
  inflateEnd(&stream);
  if (!problem.empty())
  {
    file.Fail(problem);
  }
  if (!ended)
  {
    file.Fail("the compressed data ends early (truncated after " + std::to_string(produced) + " decompressed bytes)");
  }
  return produced;
}

void
RequireInflatedBytes(const BinaryFile &  file,
                     std::uint64_t       offset,
                     std::uint64_t       length,
                     std::uint64_t       needed,
                     const std::string & what)
{
  const std::uint64_t slack = 1 << 20;
  const std::uint64_t limit = needed > UINT64_MAX - slack ? UINT64_MAX : needed + slack;
  const std::uint64_t got = InflatedSize(file, offset, length, limit);
  if (got < needed)
  {
    file.Fail("the compressed data is too short: the header describes " + std::to_string(needed) + " bytes of " + what +
              ", it decompresses to " + std::to_string(got));
  }
}

void
RequireTextNumbers(const BinaryFile & file, std::uint64_t offset, std::uint64_t needed, const std::string & what)
{
  std::uint64_t count = 0;
  bool          inNumber = false;
  for (std::uint64_t at = offset; at < file.Size() && count < needed; at += 1 << 18)
  {
    for (const char c : file.ReadUpTo(at, 1 << 18))
    {
      const bool separator = std::isspace(static_cast<unsigned char>(c)) || c == ',';
      if (!separator && !inNumber)
      {
        ++count;
      }
      inNumber = !separator;
    }
  }
  if (count < needed)
  {
    file.Fail("the file is truncated: the header describes " + std::to_string(needed) + " " + what +
              ", the file holds " + std::to_string(count));
  }
}

bool
ParseUnsigned(const std::string & text, std::uint64_t minimum, std::uint64_t maximum, std::uint64_t & value)
{
  if (text.empty() || text.size() > 20)
  {
    return false;
  }
  std::uint64_t result = 0;
  for (const char c : text)
  {
    if (c < '0' || c > '9' || __builtin_mul_overflow(result, 10u, &result) ||
        __builtin_add_overflow(result, static_cast<unsigned>(c - '0'), &result))
    {
      return false;
    }
  }
  if (result < minimum || result > maximum)
  {
    return false;
  }
  value = result;
  return true;
}

bool
ParseSigned(const std::string & text, std::int64_t minimum, std::int64_t maximum, std::int64_t & value)
{
  const bool    negative = !text.empty() && text[0] == '-';
  std::uint64_t magnitude = 0;
  if (!ParseUnsigned(negative ? text.substr(1) : text, 0, static_cast<std::uint64_t>(INT64_MAX), magnitude))
  {
    return false;
  }
  const std::int64_t result = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  if (result < minimum || result > maximum)
  {
    return false;
  }
  value = result;
  return true;
}

std::string
Trim(const std::string & text)
{
  const auto first = text.find_first_not_of(" \t\r\n");
  const auto last = text.find_last_not_of(" \t\r\n");
  return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

std::string
Lower(std::string text)
{
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::vector<std::string>
Words(const std::string & text)
{
  std::vector<std::string> words;
  std::istringstream       stream(text);
  std::string              word;
  while (stream >> word)
  {
    words.push_back(word);
  }
  return words;
}

std::string
DirectoryOf(const std::string & path)
{
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

} // namespace filecheck

ImageFileLayout
CheckImageFile(const std::string & path, ImageFormat format)
{
  switch (format)
  {
    case ImageFormat::Png:
      return CheckPngFile(path);
    case ImageFormat::Nrrd:
    case ImageFormat::NrrdDetached:
      return filecheck::CheckNrrd(path, format);
    case ImageFormat::Nifti:
    case ImageFormat::NiftiGz:
    case ImageFormat::NiftiPair:
      return filecheck::CheckNifti(path, format);
    case ImageFormat::MetaImage:
    case ImageFormat::MetaImageDetached:
      return filecheck::CheckMetaImage(path, format);
    case ImageFormat::Vtk:
      return filecheck::CheckVtk(path);
    case ImageFormat::Tiff:
      return filecheck::CheckTiff(path);
  }
  FailReading(path, "unknown format");
}

} // namespace ccaapp
