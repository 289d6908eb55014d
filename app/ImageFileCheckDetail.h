// Tools shared by the per-format checks of ImageFileCheck (internal).
#ifndef CudaLabelStatisticsApp_ImageFileCheckDetail_h
#define CudaLabelStatisticsApp_ImageFileCheckDetail_h

#include "ImageFileCheck.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ccaapp
{
namespace filecheck
{

/** A regular file opened for reading at any offset. Errors are FileError for `path`. */
class BinaryFile
{
public:
  explicit BinaryFile(const std::string & path);
  ~BinaryFile();
  BinaryFile(const BinaryFile &) = delete;
  BinaryFile &
  operator=(const BinaryFile &) = delete;

  const std::string &
  Path() const
  {
    return m_Path;
  }
  std::uint64_t
  Size() const
  {
    return m_Size;
  }
  /** Exactly `count` bytes at `offset`, or FileError "ends before ...". */
  void
  Read(std::uint64_t offset, void * buffer, std::size_t count) const;
  /** Up to `count` bytes at `offset` (fewer at the end of the file). */
  std::string
  ReadUpTo(std::uint64_t offset, std::size_t count) const;

  [[noreturn]] void
  Fail(const std::string & reason) const
  {
    FailReading(m_Path, reason);
  }

private:
  std::string   m_Path;
  int           m_Descriptor = -1;
  std::uint64_t m_Size = 0;
};

/** a * b, or FileError for `file` naming `what` when the product leaves 64 bits. */
std::uint64_t
Multiply(const BinaryFile & file, std::uint64_t a, std::uint64_t b, const std::string & what);

/** The product of the sizes, each at least 1 (else FileError), checked against overflow. */
std::uint64_t
PixelCount(const BinaryFile & file, const std::vector<std::uint64_t> & size);

/** Raw data: `needed` bytes must follow `offset` in the file. */
void
RequireBytes(const BinaryFile & file, std::uint64_t offset, std::uint64_t needed, const std::string & what);

/** Decompresses the gzip or zlib stream(s) that start at `offset` (to the end
 *  of the file, or `length` bytes) and returns the decompressed size; throws
 *  FileError when a stream is corrupt or ends early, or when it holds more
 *  than `limit` bytes. With `stopAfter`, stops (without checking the rest)
 *  once that many bytes are decompressed, and `head` receives them. */
std::uint64_t
InflatedSize(const BinaryFile & file,
             std::uint64_t      offset,
             std::uint64_t      length,
             std::uint64_t      limit,
             std::string *      head = nullptr,
             std::uint64_t      stopAfter = UINT64_MAX);

/** Compressed data: it must decompress to at least `needed` bytes (at most
 *  `needed` plus a small slack, so a tiny file cannot claim an endless stream). */
void
RequireInflatedBytes(const BinaryFile &  file,
                     std::uint64_t       offset,
                     std::uint64_t       length,
                     std::uint64_t       needed,
                     const std::string & what);

/** Text data: at least `needed` whitespace- or comma-separated numbers after `offset`. */
void
RequireTextNumbers(const BinaryFile & file, std::uint64_t offset, std::uint64_t needed, const std::string & what);

/** The sizes in `text` (decimal, 1 .. maximum each; FileError naming `what`
 *  otherwise), exactly `count` of them. */
std::vector<std::uint64_t>
ParseSizes(const BinaryFile &  file,
           const std::string & text,
           std::size_t         count,
           std::uint64_t       maximum,
           const std::string & what);

/** Decimal integer in [minimum, maximum]; false for anything else (signs, spaces, overflow). */
bool
ParseUnsigned(const std::string & text, std::uint64_t minimum, std::uint64_t maximum, std::uint64_t & value);
bool
ParseSigned(const std::string & text, std::int64_t minimum, std::int64_t maximum, std::int64_t & value);

std::string
Trim(const std::string & text);
std::string
Lower(std::string text);
std::vector<std::string>
Words(const std::string & text);

/** The directory part of a path, with its trailing '/', or "" for a bare name. */
std::string
DirectoryOf(const std::string & path);

ImageFileLayout
CheckNrrd(const std::string & path, ImageFormat format);
ImageFileLayout
CheckNifti(const std::string & path, ImageFormat format);
ImageFileLayout
CheckMetaImage(const std::string & path, ImageFormat format);
ImageFileLayout
CheckVtk(const std::string & path);
ImageFileLayout
CheckTiff(const std::string & path);

} // namespace filecheck
} // namespace ccaapp

#endif
