// NRRD writing (.nrrd with the data attached, .nhdr with a data file beside
// it): the header ITK's NrrdImageIO writes (3D images in LPS space, as ITK
// keeps them; 2D images with a space dimension of 2; each axis's space
// direction its direction times its spacing), the data raw or gzip-encoded
// on every thread (ParallelDeflate), every write checked.
#ifndef CudaLabelStatisticsApp_NrrdWriter_h
#define CudaLabelStatisticsApp_NrrdWriter_h

#include "ImageFormats.h"
#include "ImageGeometry.h"

#include <string>

namespace ccaapp
{

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
