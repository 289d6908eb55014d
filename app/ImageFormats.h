// The image file formats the program reads and writes, chosen by file name.
#ifndef CudaLabelStatisticsApp_ImageFormats_h
#define CudaLabelStatisticsApp_ImageFormats_h

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace ccaapp
{

enum class ImageFormat
{
  Png,               ///< .png: 2D, 8/16-bit unsigned (read and written by PngFile)
  Nrrd,              ///< .nrrd: header and data in one file
  NrrdDetached,      ///< .nhdr: header, data in a separate file (written as .raw.gz)
  Nifti,             ///< .nii
  NiftiGz,           ///< .nii.gz
  NiftiPair,         ///< .hdr + .img (also Analyze 7.5)
  MetaImage,         ///< .mha
  MetaImageDetached, ///< .mhd, data in a separate file (written as .zraw)
  Vtk,               ///< .vtk legacy structured points
  Tiff               ///< .tif, .tiff (written by TiffWriter)
};

/** How image outputs are compressed (--compression): NRRD, MetaImage, TIFF,
 *  .nii.gz and PNG use zlib at level 0 (none: raw data; .nii.gz and PNG,
 *  always deflated, store the data as it is), 1 (fast) or 6 (small, zlib's
 *  default). .nii, .hdr and .vtk are always raw. Not 9:
 *  on a 512^3 label image level 9 took 34 s for a file 10 % smaller than
 *  level 6's (docs/results-history.md). Auto (the default) is a request,
 *  which CompressionOf resolves for each output's format. */
enum class Compression
{
  None,
  Fast,
  Small,
  Auto
};

/** What an output of `format` is written with when `asked` is asked: Auto is
 *  fast where the format has a choice (the program deflates .nrrd .nhdr
 *  .mha .mhd .nii.gz .tif .png on every thread: on the H200 a 537 MB label
 *  image took 160 ms at level 1, as long as raw, for a file 25 times
 *  smaller); .nii .hdr .vtk are None. */
Compression
CompressionOf(ImageFormat format, Compression asked);

/** "none", "fast", "small" or "auto". */
const char *
CompressionName(Compression compression);

/** zlib's level for a Compression but Auto: 0, 1 or 6. */
int
ZlibLevel(Compression compression);

/** Pixel component types of image files. */
enum class PixelComponent
{
  UInt8,
  Int8,
  UInt16,
  Int16,
  UInt32,
  Int32,
  UInt64,
  Int64,
  Float32,
  Float64
};

/** The component of a C++ pixel type. */
template <typename TPixel>
constexpr PixelComponent
ComponentOf()
{
  static_assert(std::is_arithmetic<TPixel>::value, "a scalar pixel type");
  if (std::is_floating_point<TPixel>::value)
  {
    return sizeof(TPixel) == 4 ? PixelComponent::Float32 : PixelComponent::Float64;
  }
  constexpr bool isSigned = std::is_signed<TPixel>::value;
  switch (sizeof(TPixel))
  {
    case 1:
      return isSigned ? PixelComponent::Int8 : PixelComponent::UInt8;
    case 2:
      return isSigned ? PixelComponent::Int16 : PixelComponent::UInt16;
    case 4:
      return isSigned ? PixelComponent::Int32 : PixelComponent::UInt32;
    default:
      return isSigned ? PixelComponent::Int64 : PixelComponent::UInt64;
  }
}

int
ComponentBytes(PixelComponent component);
const char *
ComponentName(PixelComponent component);

/** An input or output file the program cannot use: the message is one line,
 *  "cannot read 'x': why" or "cannot write 'x': why". */
class FileError : public std::runtime_error
{
public:
  FileError(const std::string & verb, const std::string & path, const std::string & reason)
    : std::runtime_error("cannot " + verb + " '" + path + "': " + reason)
    , m_Reason(reason)
  {}
  /** The message without "cannot read 'x': ". */
  const std::string &
  Reason() const
  {
    return m_Reason;
  }

private:
  std::string m_Reason;
};

/** "the file 'x' ..." messages for reading / writing. */
[[noreturn]] void
FailReading(const std::string & path, const std::string & reason);
[[noreturn]] void
FailWriting(const std::string & path, const std::string & reason);

/** The format of a file name by its extension (case-insensitive); throws
 *  FileError naming the supported extensions, and saying why for JPEG, BMP and
 *  the other formats the program does not take. */
ImageFormat
ImageFormatOf(const std::string & path, bool forWriting);

const char *
ImageFormatName(ImageFormat format);

/** ".png .nrrd .nhdr .nii .nii.gz .hdr .mha .mhd .vtk .tif .tiff" */
std::string
SupportedImageExtensions();

/** The files a write of `path` produces: the path itself, and for .nhdr, .mhd
 *  and .hdr the data file beside it (same directory, ITK's name for it, which
 *  depends on whether the data is compressed). */
std::vector<std::string>
FilesWrittenFor(const std::string & path, ImageFormat format, Compression compression);

/** Throws FileError when the format cannot hold an image of this dimension and
 *  pixel type (3D in PNG, 32-bit in PNG, 64-bit in TIFF, ...). */
void
CheckFormatCanHold(const std::string & path,
                   ImageFormat         format,
                   unsigned int        dimension,
                   PixelComponent      component,
                   const std::string & what);

} // namespace ccaapp

#endif
