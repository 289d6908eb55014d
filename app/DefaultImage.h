// The generated default input: a random binary image of the family the GPU CCA
// papers benchmark with (MT19937, density d, granularity g; cca/RandomImages.h).
#ifndef CudaLabelStatisticsApp_DefaultImage_h
#define CudaLabelStatisticsApp_DefaultImage_h

#include "itkImage.h"

#include <cstdint>

namespace ccaapp
{

/** g x g (x g) blocks, in raster order of blocks, each take one MT19937 draw
 *  u; the block is foreground (255) when u < density * 2^32 (cca::FillRandomBlockImage).
 *  Instantiated for 2 and 3 D. */
template <unsigned int VDimension>
typename itk::Image<std::uint8_t, VDimension>::Pointer
MakeRandomBinaryImage(const std::int64_t size[3], double density, int granularity, std::uint32_t seed);

} // namespace ccaapp

#endif
