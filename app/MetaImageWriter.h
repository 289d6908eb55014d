// MetaImage writing (.mha with the data after the header, .mhd with a data
// file beside it): the fields ITK's MetaImageIO writes and reads
// (TransformMatrix holds each axis's direction in turn, Offset the origin),
// the data raw or one zlib stream deflated on every thread
// (ParallelDeflate), every write checked. AnatomicalOrientation, a
// summary of the direction, is left out (ITK's reader takes the direction
// from TransformMatrix); string metadata of one line is written as
// "key = value".
#ifndef CudaLabelStatisticsApp_MetaImageWriter_h
#define CudaLabelStatisticsApp_MetaImageWriter_h

#include "ImageFormats.h"
#include "ImageGeometry.h"

#include <string>

namespace ccaapp
{

/** Writes `pixels` (of `component`, in ITK's order, little-endian) to
 *  `path`, or its header to `path` and the data to `dataPath` when dataPath
 *  is not empty (the header names the data file by its file name).
 *  zlibLevel 0: raw; 1 to 9: zlib. Errors name displayPath. */
void
WriteMetaImage(const std::string &   path,
               const std::string &   dataPath,
               const std::string &   displayPath,
               const ImageGeometry & geometry,
               PixelComponent        component,
               const void *          pixels,
               int                   zlibLevel);

} // namespace ccaapp

#endif
