#include "DefaultImage.h"

#include "cca/RandomImages.h"

namespace ccaapp
{

template <unsigned int VDimension>
typename itk::Image<std::uint8_t, VDimension>::Pointer
MakeRandomBinaryImage(const std::int64_t size[3], double density, int granularity, std::uint32_t seed)
{
  using ImageType = itk::Image<std::uint8_t, VDimension>;
  typename ImageType::SizeType imageSize;
  for (unsigned int d = 0; d < VDimension; ++d)
  {
    imageSize[d] = static_cast<itk::SizeValueType>(size[d]);
  }
  auto image = ImageType::New();
  image->SetRegions(typename ImageType::RegionType(imageSize));
  image->Allocate();
  const std::int64_t nz = VDimension == 3 ? size[2] : 1;
  cca::FillRandomBlockImage<std::uint8_t>(
    size[0], size[1], nz, density, granularity, seed, image->GetBufferPointer(), 255);
  return image;
}

template itk::Image<std::uint8_t, 2>::Pointer
MakeRandomBinaryImage<2>(const std::int64_t[3], double, int, std::uint32_t);
template itk::Image<std::uint8_t, 3>::Pointer
MakeRandomBinaryImage<3>(const std::int64_t[3], double, int, std::uint32_t);

} // namespace ccaapp
