// NRRD writing (.nrrd with the data attached, .nhdr with a data file beside
// it): the header ITK's NrrdImageIO writes (3D images in LPS space, as ITK
// keeps them; 2D images with a space dimension of 2; each axis's space
// direction its direction times its spacing), the data raw or gzip-encoded
// on every thread (ParallelGzip), every write checked.
#ifndef CudaLabelStatisticsApp_NrrdWriter_h
#define CudaLabelStatisticsApp_NrrdWriter_h

#include "ImageFormats.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ccaapp
{

/** Where an image's pixels lie: ITK's size, spacing, origin and direction
 *  (direction[row][column]; column d is axis d's direction) of a 2D or 3D image. */
struct ImageGeometry
{
  unsigned int                                     dimension = 3;
  std::array<std::uint64_t, 3>                     size{};
  std::array<double, 3>                            spacing{};
  std::array<double, 3>                            origin{};
  std::array<std::array<double, 3>, 3>             direction{};
  std::vector<std::pair<std::string, std::string>> keyValues; ///< "key:=value" lines (string metadata)
};

/** Writes `pixels` (of `component`, in ITK's order, little-endian) to `path`,
 *  or its header to `path` and the data to `dataPath` when dataPath is not
 *  empty (the header names the data file by its file name). zlibLevel 0:
 *  raw encoding; 1 to 9: gzip. Errors name displayPath. */
void
WriteNrrd(const std::string &   path,
          const std::string &   dataPath,
          const std::string &   displayPath,
          const ImageGeometry & geometry,
          PixelComponent        component,
          const void *          pixels,
          int                   zlibLevel);

} // namespace ccaapp

#endif
