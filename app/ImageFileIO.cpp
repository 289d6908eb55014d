#include "ImageFileIO.h"

#include "itkMetaImageIO.h"
#include "itkNiftiImageIO.h"
#include "itkNrrdImageIO.h"
#include "itkTIFFImageIO.h"
#include "itkVTKImageIO.h"

namespace ccaapp
{

itk::ImageIOBase::Pointer
ImageIOFor(ImageFormat format)
{
  switch (format)
  {
    case ImageFormat::Nrrd:
    case ImageFormat::NrrdDetached:
      return itk::NrrdImageIO::New().GetPointer();
    case ImageFormat::Nifti:
    case ImageFormat::NiftiGz:
    case ImageFormat::NiftiPair:
      return itk::NiftiImageIO::New().GetPointer();
    case ImageFormat::MetaImage:
    case ImageFormat::MetaImageDetached:
      return itk::MetaImageIO::New().GetPointer();
    case ImageFormat::Vtk:
      return itk::VTKImageIO::New().GetPointer();
    case ImageFormat::Tiff:
      return itk::TIFFImageIO::New().GetPointer();
    case ImageFormat::Png:
      break;
  }
  throw std::logic_error("no ITK ImageIO is used for PNG");
}

void
VerifyWrittenImage(const std::string &                path,
                   const std::string &                displayPath,
                   ImageFormat                        format,
                   const std::vector<std::uint64_t> & size)
{
  ImageFileLayout layout;
  try
  {
    layout = CheckImageFile(path, format);
  }
  catch (const FileError & error)
  {
    FailWriting(displayPath, "the written file is incomplete or damaged, is the disk full? (" + error.Reason() + ")");
  }
  std::uint64_t pixels = 1;
  for (const auto s : size)
  {
    pixels *= s;
  }
  bool same = layout.pixels == pixels && layout.size.size() >= size.size();
  for (std::size_t d = 0; same && d < size.size(); ++d)
  {
    same = layout.size[d] == size[d];
  }
  if (!same)
  {
    FailWriting(displayPath, "the written file does not describe the image's size");
  }
}

} // namespace ccaapp
