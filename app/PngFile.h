// PNG through libpng with its errors caught where they happen (setjmp in the
// frame that calls libpng). ITK 5.2's PNGImageIO calls setjmp in a helper that
// has returned by the time libpng jumps, so a truncated file or one missing
// its palette aborts or crashes the process; the program therefore reads and
// writes PNG here, with the pixel semantics of ITK's reader for gray images.
#ifndef CudaLabelStatisticsApp_PngFile_h
#define CudaLabelStatisticsApp_PngFile_h

#include "ImageFileCheck.h"
#include "ImageFormats.h"

#include <cstdint>
#include <functional>
#include <string>

namespace ccaapp
{

class CheckedFile;

struct PngHeader
{
  std::uint32_t  width = 0;
  std::uint32_t  height = 0;
  PixelComponent component = PixelComponent::UInt8; ///< UInt8 (1 to 8 bits) or UInt16
  unsigned int   components = 1;            ///< as ITK reads it: 1 gray, 2 gray + alpha, 3 RGB (also palette), 4 RGBA
  double         spacing[2] = { 1.0, 1.0 }; ///< from the sCAL chunk, as ITK reads and writes it
};

/** The header of a PNG file; FileError when it is not a usable PNG. */
PngHeader
ReadPngHeader(const std::string & path);

/** Decodes a gray PNG (components == 1) into `buffer`: width * height pixels
 *  of the header's component type, rows top first, as ITK's PNGImageIO gives them
 *  (1/2/4-bit expanded to 8, sBIT shifts applied). FileError for a damaged file. */
void
ReadPngPixels(const std::string & path, void * buffer, std::size_t bufferBytes);

/** Decodes every row (nothing kept): the PNG check ImageFileCheck runs. */
ImageFileLayout
CheckPngFile(const std::string & path);

/** Writes a gray PNG of 8 or 16 bits, deflated at zlibLevel (0 to 9);
 *  fillRow(y, row) fills one row of width pixels (uint8_t or uint16_t, host
 *  order). The spacing goes into an sCAL chunk, as ITK writes it. Every write
 *  is checked. */
void
WritePng(CheckedFile &                                      file,
         const std::string &                                displayPath,
         std::uint32_t                                      width,
         std::uint32_t                                      height,
         int                                                bitDepth,
         const double                                       spacing[2],
         int                                                zlibLevel,
         const std::function<void(std::uint32_t, void *)> & fillRow);

} // namespace ccaapp

#endif
