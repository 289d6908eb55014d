// Baseline TIFF writing (ITK 5.2's TIFF writer has no 32-bit integer pixels,
// the type of label images): gray, one page per z slice, strips deflated at
// the caller's zlib level (level 0: stored uncompressed), every write checked. ITK's TIFFImageIO reads these files
// back, several pages as a 3D image.
#ifndef CudaLabelStatisticsApp_TiffWriter_h
#define CudaLabelStatisticsApp_TiffWriter_h

#include "ImageFormats.h"

#include <cstdint>
#include <functional>
#include <string>

namespace ccaapp
{

class CheckedFile;

/** component: an integer type of 8, 16 or 32 bits. spacing: x and y, kept
 *  as ITK's TIFF writer keeps them (XResolution and YResolution, 25.4 /
 *  spacing pixels per inch: ITK's reader gives the spacing back); 0 leaves
 *  them out. TIFF holds no origin or direction. zlibLevel: 0 (no
 *  compression) to 9. fillRow(z, y, row) fills the width pixels of row y of
 *  page z. The file must stay below 4 GiB. */
void
WriteTiff(CheckedFile &       file,
          const std::string & displayPath,
          std::uint32_t       width,
          std::uint32_t       height,
          std::uint32_t       pages,
          PixelComponent      component,
          const double (&spacing)[2],
          int                                                               zlibLevel,
          const std::function<void(std::uint32_t, std::uint32_t, void *)> & fillRow);

} // namespace ccaapp

#endif
