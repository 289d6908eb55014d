#include "PngFile.h"

#include "OutputFiles.h"

#include "itk_png.h"

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sys/stat.h>
#include <vector>

namespace ccaapp
{
namespace
{

// libpng reports errors through a callback that must not return: it stores
// the message and longjmps to the setjmp of the function that called libpng.
// Those functions hold only trivially destructible locals, so the jump skips
// no destructor; the C++ objects live in their callers.
extern "C" void
StoreErrorAndJump(png_structp png, png_const_charp message)
{
  // The first message is kept: a write error names the file's failure first.
  auto * text = static_cast<std::string *>(png_get_error_ptr(png));
  if (text && text->empty())
  {
    *text = message ? message : "libpng error";
  }
  png_longjmp(png, 1);
}

extern "C" void
IgnoreWarning(png_structp, png_const_charp)
{}

struct Reader
{
  std::FILE * file = nullptr;
  png_structp png = nullptr;
  png_infop   info = nullptr;
  std::string error;
  PngHeader   header;
  std::size_t rowBytes = 0;
  int         passes = 1;

  ~Reader()
  {
    if (png)
    {
      png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
    }
    if (file)
    {
      std::fclose(file);
    }
  }
};

/** The header, with ITK's transforms set up. False on a libpng error. */
bool
ReadInfo(Reader & reader)
{
  if (setjmp(png_jmpbuf(reader.png)))
  {
    return false;
  }
  png_init_io(reader.png, reader.file);
  png_read_info(reader.png, reader.info);
  png_uint_32 width = 0, height = 0;
  int         bitDepth = 0, colorType = 0, interlace = 0;
  png_get_IHDR(reader.png, reader.info, &width, &height, &bitDepth, &colorType, &interlace, nullptr, nullptr);
  // ITK 5.2's PNGImageIO: palettes to RGB, gray below 8 bits to 8, tRNS to
  // alpha, 16 bits in host order, sBIT shifts.
  unsigned int components = colorType == PNG_COLOR_TYPE_GRAY         ? 1
                            : colorType == PNG_COLOR_TYPE_GRAY_ALPHA ? 2
                            : colorType == PNG_COLOR_TYPE_RGB_ALPHA  ? 4
                                                                     : 3;
  if (colorType == PNG_COLOR_TYPE_PALETTE)
  {
    png_set_palette_to_rgb(reader.png);
  }
  if (colorType == PNG_COLOR_TYPE_GRAY && bitDepth < 8)
  {
    png_set_expand_gray_1_2_4_to_8(reader.png);
  }
  if (png_get_valid(reader.png, reader.info, PNG_INFO_tRNS))
  {
    png_set_tRNS_to_alpha(reader.png);
    components += 1;
  }
  if (bitDepth > 8)
  {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    png_set_swap(reader.png);
#endif
  }
  if (png_get_valid(reader.png, reader.info, PNG_INFO_sBIT))
  {
    png_color_8p bits = nullptr;
    png_get_sBIT(reader.png, reader.info, &bits);
    png_set_shift(reader.png, bits);
  }
  int    units = 0;
  double spacingX = 1.0, spacingY = 1.0;
  if (png_get_sCAL(reader.png, reader.info, &units, &spacingX, &spacingY) == PNG_INFO_sCAL && spacingX > 0 &&
      spacingY > 0)
  {
    reader.header.spacing[0] = spacingX;
    reader.header.spacing[1] = spacingY;
  }
  reader.passes = png_set_interlace_handling(reader.png);
  png_read_update_info(reader.png, reader.info);
  reader.rowBytes = png_get_rowbytes(reader.png, reader.info);
  reader.header.width = width;
  reader.header.height = height;
  reader.header.component = bitDepth > 8 ? PixelComponent::UInt16 : PixelComponent::UInt8;
  reader.header.components = components;
  return true;
}

/** Every row, into `image` (height rows of rowBytes) or, when null, through one scratch row. */
bool
ReadRows(Reader & reader, unsigned char * image, unsigned char * scratch)
{
  if (setjmp(png_jmpbuf(reader.png)))
  {
    return false;
  }
  for (int pass = 0; pass < reader.passes; ++pass)
  {
    for (png_uint_32 y = 0; y < reader.header.height; ++y)
    {
      png_read_row(reader.png, image ? image + static_cast<std::size_t>(y) * reader.rowBytes : scratch, nullptr);
    }
  }
  png_read_end(reader.png, nullptr);
  return true;
}

void
OpenAndReadInfo(const std::string & path, Reader & reader)
{
  struct stat status;
  if (::stat(path.c_str(), &status) != 0)
  {
    FailReading(path, std::strerror(errno));
  }
  if (!S_ISREG(status.st_mode))
  {
    FailReading(path, S_ISDIR(status.st_mode) ? "it is a directory, not an image file" : "it is not a regular file");
  }
  reader.file = std::fopen(path.c_str(), "rb");
  if (reader.file == nullptr)
  {
    FailReading(path, std::strerror(errno));
  }
  unsigned char signature[8] = {};
  if (std::fread(signature, 1, 8, reader.file) != 8 || png_sig_cmp(signature, 0, 8) != 0)
  {
    FailReading(path, "not a PNG file (no PNG signature)");
  }
  std::rewind(reader.file);
  reader.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader.error, StoreErrorAndJump, IgnoreWarning);
  reader.info = reader.png ? png_create_info_struct(reader.png) : nullptr;
  if (reader.info == nullptr)
  {
    FailReading(path, "libpng cannot be initialized");
  }
  if (!ReadInfo(reader))
  {
    FailReading(path, "damaged or truncated PNG (libpng: " + reader.error + ")");
  }
}

} // namespace

PngHeader
ReadPngHeader(const std::string & path)
{
  Reader reader;
  OpenAndReadInfo(path, reader);
  return reader.header;
}

void
ReadPngPixels(const std::string & path, void * buffer, std::size_t bufferBytes)
{
  Reader reader;
  OpenAndReadInfo(path, reader);
  if (reader.header.components != 1 ||
      static_cast<std::uint64_t>(reader.rowBytes) * reader.header.height != bufferBytes)
  {
    FailReading(path, "the PNG file changed while it was read");
  }
  if (!ReadRows(reader, static_cast<unsigned char *>(buffer), nullptr))
  {
    FailReading(path, "damaged or truncated PNG (libpng: " + reader.error + ")");
  }
}

ImageFileLayout
CheckPngFile(const std::string & path)
{
  Reader reader;
  OpenAndReadInfo(path, reader);
  std::vector<unsigned char> row(reader.rowBytes);
  if (!ReadRows(reader, nullptr, row.data()))
  {
    FailReading(path, "damaged or truncated PNG (libpng: " + reader.error + ")");
  }
  ImageFileLayout layout;
  layout.format = ImageFormat::Png;
  layout.size = { reader.header.width, reader.header.height };
  layout.pixels = static_cast<std::uint64_t>(reader.header.width) * reader.header.height;
  layout.files = { path };
  return layout;
}

// ---- writing -------------------------------------------------------------------------

namespace
{

struct Writer
{
  CheckedFile * file = nullptr;
  std::string   error; ///< libpng's message, or the file's
  png_structp   png = nullptr;
  png_infop     info = nullptr;

  ~Writer()
  {
    if (png)
    {
      png_destroy_write_struct(&png, info ? &info : nullptr);
    }
  }
};

// The output goes through CheckedFile; its exception must not cross libpng's C
// frames, so it is turned into a libpng error here.
extern "C" void
WriteToCheckedFile(png_structp png, png_bytep data, png_size_t length)
{
  auto * writer = static_cast<Writer *>(png_get_io_ptr(png));
  try
  {
    writer->file->Write(data, length);
  }
  catch (const FileError & error)
  {
    writer->error = error.Reason();
    png_error(png, "write error");
  }
}

extern "C" void
FlushNothing(png_structp)
{}

bool
WriteRows(Writer &                                           writer,
          std::uint32_t                                      width,
          std::uint32_t                                      height,
          int                                                bitDepth,
          const double *                                     spacing,
          int                                                zlibLevel,
          unsigned char *                                    row,
          const std::function<void(std::uint32_t, void *)> & fillRow)
{
  if (setjmp(png_jmpbuf(writer.png)))
  {
    return false;
  }
  png_set_write_fn(writer.png, &writer, WriteToCheckedFile, FlushNothing);
  png_set_compression_level(writer.png, zlibLevel);
  png_set_IHDR(writer.png,
               writer.info,
               width,
               height,
               bitDepth,
               PNG_COLOR_TYPE_GRAY,
               PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  if (spacing[0] > 0 && spacing[1] > 0)
  {
    png_set_sCAL(writer.png, writer.info, PNG_SCALE_METER, spacing[0], spacing[1]);
  }
  png_write_info(writer.png, writer.info);
  if (bitDepth > 8)
  {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    png_set_swap(writer.png);
#endif
  }
  for (std::uint32_t y = 0; y < height; ++y)
  {
    fillRow(y, row);
    png_write_row(writer.png, row);
  }
  png_write_end(writer.png, writer.info);
  return true;
}

} // namespace

void
WritePng(CheckedFile &                                      file,
         const std::string &                                displayPath,
         std::uint32_t                                      width,
         std::uint32_t                                      height,
         int                                                bitDepth,
         const double                                       spacing[2],
         int                                                zlibLevel,
         const std::function<void(std::uint32_t, void *)> & fillRow)
{
  if (width == 0 || height == 0 || width > PNG_USER_WIDTH_MAX || height > PNG_USER_HEIGHT_MAX)
  {
    FailWriting(displayPath,
                "PNG holds at most " + std::to_string(PNG_USER_WIDTH_MAX) + " x " +
                  std::to_string(PNG_USER_HEIGHT_MAX) + " pixels; use .nrrd, .nii.gz, .mha or .tif");
  }
  Writer writer;
  writer.file = &file;
  writer.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer.error, StoreErrorAndJump, IgnoreWarning);
  writer.info = writer.png ? png_create_info_struct(writer.png) : nullptr;
  if (writer.info == nullptr)
  {
    FailWriting(displayPath, "libpng cannot be initialized");
  }
  std::vector<unsigned char> row(static_cast<std::size_t>(width) * (bitDepth > 8 ? 2 : 1));
  if (!WriteRows(writer, width, height, bitDepth, spacing, zlibLevel, row.data(), fillRow))
  {
    FailWriting(displayPath, writer.error);
  }
}

} // namespace ccaapp
