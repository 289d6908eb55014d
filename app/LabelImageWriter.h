// Writes the filter's label image in a pixel type the file format can hold.
#ifndef CudaLabelStatisticsApp_LabelImageWriter_h
#define CudaLabelStatisticsApp_LabelImageWriter_h

#include "itkImage.h"

#include <string>

namespace ccaapp
{

/** Chooses uint16 for formats limited to 16 bits (PNG, BMP, JPEG), else uint32,
 *  else uint64, and throws when numberOfLabels does not fit. Instantiated for 2 and 3 D. */
template <unsigned int VDimension>
void
WriteLabelImage(const itk::Image<itk::SizeValueType, VDimension> * labels,
                const std::string &                                path,
                itk::SizeValueType                                 numberOfLabels);

/** Writes a uint8 image (the generated default input). */
template <unsigned int VDimension>
void
WriteMaskImage(const itk::Image<std::uint8_t, VDimension> * image, const std::string & path);

} // namespace ccaapp

#endif
