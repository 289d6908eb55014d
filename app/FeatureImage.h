// The headers of input files, and the feature image (--featureImage): read as
// its own scalar type, refused unless it has the input's size.
#ifndef CudaLabelStatisticsApp_FeatureImage_h
#define CudaLabelStatisticsApp_FeatureImage_h

#include "ImageFormats.h"

#include "itkImageBase.h"
#include "itkImageIOBase.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ccaapp
{

/** An input file's header, read after its structural check (ImageFileCheck). */
struct ImageHeader
{
  std::vector<std::uint64_t> size; ///< trailing sizes of 1 removed, at least 2 entries
  std::uint64_t              pixels = 0;
  itk::IOComponentEnum       component = itk::IOComponentEnum::UCHAR;
  int                        fileComponentBytes = 1;
  std::vector<std::string>   files; ///< the header file, then its data file(s)
};

/** The format of an input path; FileError for a missing file or a folder. */
ImageFormat
InputFormatOf(const std::string & path);

/** Checks the file and reads its header (a scalar 2D or 3D image, sizes
 *  consistent with the checked data); FileError naming the path otherwise. */
ImageHeader
ReadImageHeader(const std::string & path, ImageFormat format);

/** The feature image's header; FileError unless its size is inputSize (trailing 1s removed). */
ImageHeader
ReadFeatureImageHeader(const std::string & path, const std::vector<std::uint64_t> & inputSize);

/** Reads the feature image as its own pixel type (int8 .. uint64, float32,
 *  float64); FileError unless its size is inputSize. Instantiated for 2 and 3 D. */
template <unsigned int VDimension>
typename itk::ImageBase<VDimension>::Pointer
ReadFeatureImage(const std::string & path, const std::vector<std::uint64_t> & inputSize);

} // namespace ccaapp

#endif
