#include "LabelImageWriter.h"

#include "itkCastImageFilter.h"
#include "itkImageFileWriter.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace ccaapp
{
namespace
{

bool
IsSixteenBitFormat(const std::string & path)
{
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char * extension : { ".png", ".bmp", ".jpg", ".jpeg" })
  {
    const std::string ext = extension;
    if (lower.size() >= ext.size() && lower.compare(lower.size() - ext.size(), ext.size(), ext) == 0)
    {
      return true;
    }
  }
  return false;
}

template <typename TOutputPixel, unsigned int VDimension>
void
CastAndWrite(const itk::Image<itk::SizeValueType, VDimension> * labels, const std::string & path)
{
  using OutputImageType = itk::Image<TOutputPixel, VDimension>;
  using CastType = itk::CastImageFilter<itk::Image<itk::SizeValueType, VDimension>, OutputImageType>;
  auto cast = CastType::New();
  cast->SetInput(labels);
  auto writer = itk::ImageFileWriter<OutputImageType>::New();
  writer->SetInput(cast->GetOutput());
  writer->SetFileName(path);
  writer->UseCompressionOn();
  writer->Update();
}

} // namespace

template <unsigned int VDimension>
void
WriteLabelImage(const itk::Image<itk::SizeValueType, VDimension> * labels,
                const std::string &                                path,
                itk::SizeValueType                                 numberOfLabels)
{
  if (IsSixteenBitFormat(path))
  {
    if (numberOfLabels > std::numeric_limits<std::uint16_t>::max())
    {
      throw std::runtime_error("'" + path + "' holds at most 16-bit pixels but there are " +
                               std::to_string(numberOfLabels) + " labels: write .nrrd, .nii.gz, .mha or .tif");
    }
    CastAndWrite<std::uint16_t>(labels, path);
  }
  else if (numberOfLabels <= std::numeric_limits<std::uint32_t>::max())
  {
    CastAndWrite<std::uint32_t>(labels, path);
  }
  else
  {
    CastAndWrite<std::uint64_t>(labels, path);
  }
}

template <unsigned int VDimension>
void
WriteMaskImage(const itk::Image<std::uint8_t, VDimension> * image, const std::string & path)
{
  auto writer = itk::ImageFileWriter<itk::Image<std::uint8_t, VDimension>>::New();
  writer->SetInput(image);
  writer->SetFileName(path);
  writer->UseCompressionOn();
  writer->Update();
}

template void
WriteLabelImage<2>(const itk::Image<itk::SizeValueType, 2> *, const std::string &, itk::SizeValueType);
template void
WriteLabelImage<3>(const itk::Image<itk::SizeValueType, 3> *, const std::string &, itk::SizeValueType);
template void
WriteMaskImage<2>(const itk::Image<std::uint8_t, 2> *, const std::string &);
template void
WriteMaskImage<3>(const itk::Image<std::uint8_t, 3> *, const std::string &);

} // namespace ccaapp
