// Structural checks of image files, run before ITK reads an input and after a
// library wrote an output: the header is parsed strictly, sizes are multiplied
// with overflow checks, and the pixel data the header describes must be in the
// file completely (its byte count for raw data; a full, intact decompression
// for gzip/zlib data). So a truncated or corrupted file is refused before any
// allocation is sized from its header, and a write cut short by a full disk is
// noticed although the library that wrote it did not report it.
#ifndef CudaLabelStatisticsApp_ImageFileCheck_h
#define CudaLabelStatisticsApp_ImageFileCheck_h

#include "ImageFormats.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ccaapp
{

struct ImageFileLayout
{
  ImageFormat                format = ImageFormat::Nrrd;
  std::vector<std::uint64_t> size;       ///< pixels per axis, as the header gives them
  std::uint64_t              pixels = 0; ///< product of size, checked against overflow
  std::vector<std::string>   files;      ///< the header file, then the data file(s) it names
};

/** Checks the file (and the data file its header names); throws FileError
 *  ("cannot read 'path': why") when the header is malformed, a size is 0,
 *  negative or overflows, or the pixel data is shorter than the header says
 *  or fails to decompress. PNG files are checked by PngFile, not here. */
ImageFileLayout
CheckImageFile(const std::string & path, ImageFormat format);

} // namespace ccaapp

#endif
