#include "DefaultImage.h"

#include <cmath>
#include <random>
#include <vector>

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

  const std::int64_t nx = size[0];
  const std::int64_t ny = size[1];
  const std::int64_t nz = VDimension == 3 ? size[2] : 1;
  const std::int64_t g = granularity;
  const std::int64_t blocksX = (nx + g - 1) / g;
  const std::int64_t blocksY = (ny + g - 1) / g;
  const std::int64_t blocksZ = (nz + g - 1) / g;
  // density 1 gives 2^32: every draw is below it.
  const auto threshold = static_cast<std::uint64_t>(std::llround(density * 4294967296.0));

  std::mt19937         generator(seed);
  std::vector<uint8_t> blockRow(static_cast<size_t>(blocksX));
  std::uint8_t *       pixels = image->GetBufferPointer();
  for (std::int64_t bz = 0; bz < blocksZ; ++bz)
  {
    for (std::int64_t by = 0; by < blocksY; ++by)
    {
      for (auto & block : blockRow)
      {
        block = static_cast<std::uint64_t>(generator()) < threshold ? 255 : 0;
      }
      for (std::int64_t z = bz * g; z < std::min(nz, (bz + 1) * g); ++z)
      {
        for (std::int64_t y = by * g; y < std::min(ny, (by + 1) * g); ++y)
        {
          std::uint8_t * row = pixels + (z * ny + y) * nx;
          for (std::int64_t x = 0; x < nx; ++x)
          {
            row[x] = blockRow[static_cast<size_t>(x / g)];
          }
        }
      }
    }
  }
  return image;
}

template itk::Image<std::uint8_t, 2>::Pointer
MakeRandomBinaryImage<2>(const std::int64_t[3], double, int, std::uint32_t);
template itk::Image<std::uint8_t, 3>::Pointer
MakeRandomBinaryImage<3>(const std::int64_t[3], double, int, std::uint32_t);

} // namespace ccaapp
