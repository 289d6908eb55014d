/*=========================================================================
 *
 *  Licensed under the Apache License, Version 2.0 (the "License");
 *  you may not use this file except in compliance with the License.
 *  You may obtain a copy of the License at
 *
 *         http://www.apache.org/licenses/LICENSE-2.0.txt
 *
 *  Unless required by applicable law or agreed to in writing, software
 *  distributed under the License is distributed on an "AS IS" BASIS,
 *  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 *  See the License for the specific language governing permissions and
 *  limitations under the License.
 *
 *=========================================================================*/
// How the filters of this module hand an itk::Image to the cca engine: the
// engine's pixel type of a scalar type, a view of a region of the buffer
// (its strides, no copy), and the runtime dispatch of an image given as
// ImageBase (the feature image) to its scalar itk::Image type.
#ifndef itkCudaLabelStatisticsEngineView_h
#define itkCudaLabelStatisticsEngineView_h

#include "cca/Types.h"

#include "itkImage.h"
#include "itkImageBase.h"

#include <cstdint>
#include <type_traits>

namespace itk
{
namespace CudaLabelStatisticsDetail
{
/** The engine's name for a scalar pixel type. */
template <typename TPixel>
constexpr cca::PixelType
EnginePixelType()
{
  return cca::PixelTypeOf<TPixel>();
}

/** The engine's view of region of image (its buffer's strides). */
template <typename TImage>
cca::ImageView
ViewOf(const TImage * image, const typename TImage::RegionType & region)
{
  constexpr unsigned int D = TImage::ImageDimension;
  cca::ImageView         view;
  view.pixelType = EnginePixelType<typename TImage::PixelType>();
  view.dimension = D;
  view.data = image->GetBufferPointer() + image->ComputeOffset(region.GetIndex());
  const auto & offsetTable = image->GetOffsetTable();
  for (unsigned int d = 0; d < 3; ++d)
  {
    view.size[d] = d < D ? static_cast<std::int64_t>(region.GetSize(d)) : 1;
    view.stride[d] = d < D ? static_cast<std::int64_t>(offsetTable[d]) : view.stride[d - 1] * view.size[d - 1];
  }
  return view;
}

/** Calls f(image) with image cast to the itk::Image of its scalar pixel
 *  type; false when it is none of them. */
template <unsigned int D, typename F>
bool
WithScalarImage(const ImageBase<D> * image, F && f)
{
  bool found = false;
  auto attempt = [&](auto zero) {
    using ImageType = Image<decltype(zero), D>;
    if (!found)
    {
      if (const auto * typed = dynamic_cast<const ImageType *>(image))
      {
        found = true;
        f(typed);
      }
    }
  };
  attempt(static_cast<unsigned char>(0));
  attempt(static_cast<signed char>(0));
  attempt(char{});
  attempt(static_cast<unsigned short>(0));
  attempt(short{});
  attempt(static_cast<unsigned int>(0));
  attempt(int{});
  attempt(static_cast<unsigned long>(0));
  attempt(long{});
  attempt(static_cast<unsigned long long>(0));
  attempt(static_cast<long long>(0));
  attempt(float{});
  attempt(double{});
  return found;
}

} // namespace CudaLabelStatisticsDetail
} // end namespace itk

#endif
