// .nii.gz writing: NIfTI-1's header as ITK's NiftiImageIO makes it (its
// qform and sform from the direction, in its conventions), then the header
// and the pixels as one gzip stream deflated on every thread
// (ParallelDeflate). ITK 5.2's writer deflated a 537 MB label image on one
// thread at level 6 in 3.9 s and took no level.
#ifndef CudaLabelStatisticsApp_NiftiGzWriter_h
#define CudaLabelStatisticsApp_NiftiGzWriter_h

#include "ImageGeometry.h"

#include <string>

namespace ccaapp
{

/** Writes `path`: `itkHeader` (the bytes before the pixels of a .nii that
 *  ITK wrote for an image of the same geometry and pixel type, but another
 *  size: 2 pixels an axis), its axes' sizes set to the geometry's, then the
 *  `pixels` (of `component`), gzip-compressed at zlibLevel (0: stored).
 *  Errors name displayPath. */
void
WriteNiftiGz(const std::string &   path,
             const std::string &   displayPath,
             std::string           itkHeader,
             const ImageGeometry & geometry,
             PixelComponent        component,
             const void *          pixels,
             int                   zlibLevel);

/** The bytes before the pixels of the .nii file at `path` (NIfTI-1, vox_offset
 *  bytes); FileError naming displayPath when it is not one. */
std::string
ReadNiftiHeader(const std::string & path, const std::string & displayPath);

} // namespace ccaapp

#endif
