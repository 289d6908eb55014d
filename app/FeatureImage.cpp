#include "FeatureImage.h"

#include "ImageFileIO.h"

#include "itkImage.h"

#include <cstdint>

namespace ccaapp
{
namespace
{

std::string
SizeText(const std::vector<std::uint64_t> & size)
{
  std::string text;
  for (const auto s : size)
  {
    text += (text.empty() ? "" : " x ") + std::to_string(s);
  }
  return text;
}

template <typename TPixel, unsigned int VDimension>
typename itk::ImageBase<VDimension>::Pointer
ReadAs(const std::string & path, ImageFormat format)
{
  return ReadImageOrPngFile<itk::Image<TPixel, VDimension>>(path, format).GetPointer();
}

} // namespace

ImageHeader
ReadFeatureImageHeader(const std::string & path, const std::vector<std::uint64_t> & inputSize)
{
  const ImageHeader header = ReadImageHeader(path, InputFormatOf(path));
  if (header.size != inputSize)
  {
    FailReading(path,
                "the feature image is " + SizeText(header.size) + " pixels and the input " + SizeText(inputSize) +
                  "; it must have the input's size and pixel grid");
  }
  return header;
}

template <unsigned int VDimension>
typename itk::ImageBase<VDimension>::Pointer
ReadFeatureImage(const std::string & path, const std::vector<std::uint64_t> & inputSize)
{
  const ImageHeader header = ReadFeatureImageHeader(path, inputSize);
  const ImageFormat format = ImageFormatOf(path, false);
  using C = itk::IOComponentEnum;
  switch (header.component)
  {
    case C::UCHAR:
      return ReadAs<std::uint8_t, VDimension>(path, format);
    case C::CHAR:
      return ReadAs<std::int8_t, VDimension>(path, format);
    case C::USHORT:
      return ReadAs<std::uint16_t, VDimension>(path, format);
    case C::SHORT:
      return ReadAs<std::int16_t, VDimension>(path, format);
    case C::UINT:
      return ReadAs<std::uint32_t, VDimension>(path, format);
    case C::INT:
      return ReadAs<std::int32_t, VDimension>(path, format);
    case C::ULONG:
    case C::ULONGLONG:
      return header.fileComponentBytes == 8 ? ReadAs<std::uint64_t, VDimension>(path, format)
                                            : ReadAs<std::uint32_t, VDimension>(path, format);
    case C::LONG:
    case C::LONGLONG:
      return header.fileComponentBytes == 8 ? ReadAs<std::int64_t, VDimension>(path, format)
                                            : ReadAs<std::int32_t, VDimension>(path, format);
    case C::FLOAT:
      return ReadAs<float, VDimension>(path, format);
    case C::DOUBLE:
      return ReadAs<double, VDimension>(path, format);
    default:
      FailReading(path, "its pixel component type is not supported");
  }
}

template itk::ImageBase<2>::Pointer
ReadFeatureImage<2>(const std::string &, const std::vector<std::uint64_t> &);
template itk::ImageBase<3>::Pointer
ReadFeatureImage<3>(const std::string &, const std::vector<std::uint64_t> &);

} // namespace ccaapp
