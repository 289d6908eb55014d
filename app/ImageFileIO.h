// Reading and writing image files through ITK's ImageIO of their format (the
// program never asks ITK's factories), with what the libraries print on
// stderr and their exceptions turned into one-line FileErrors. Writing: PNG,
// TIFF, NRRD, MetaImage, .nii.gz and VTK by the program's own writers
// (PngFile, TiffWriter, NrrdWriter, MetaImageWriter, NiftiGzWriter, with
// ITK's NIfTI header, VtkWriter), .nii and .hdr by ITK. ITK's files are read back
// (ImageFileCheck, their compressed data inflated), so a write that ITK cut
// short without reporting it is an error; the program's own writers check
// every write and flush (CheckedFile), and reading their files back took as
// long as writing them (a 512^3 label image: 0.5 s of inflation).
#ifndef CudaLabelStatisticsApp_ImageFileIO_h
#define CudaLabelStatisticsApp_ImageFileIO_h

#include "ImageFileCheck.h"
#include "ImageFormats.h"
#include "MetaImageWriter.h"
#include "NiftiGzWriter.h"
#include "NrrdWriter.h"
#include "OutputFiles.h"
#include "PngFile.h"
#include "StderrCapture.h"
#include "TiffWriter.h"
#include "VtkWriter.h"

#include "itkImage.h"
#include "itkImageFileReader.h"
#include "itkImageFileWriter.h"
#include "itkImageIOBase.h"
#include "itkMetaDataObject.h"

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace ccaapp
{

/** ITK's ImageIO for a format (not PNG, which the program reads itself). */
itk::ImageIOBase::Pointer
ImageIOFor(ImageFormat format);

/** Runs call() (an ITK read or write of `path`) with stderr captured. An
 *  itk::ExceptionObject becomes a FileError for displayPath ("read" or
 *  "write"), with what the libraries printed, and `path` (a temporary file)
 *  named as displayPath. */
template <typename TCall>
void
CallItk(const std::string & verb, const std::string & path, const std::string & displayPath, TCall && call)
{
  StderrCapture capture;
  try
  {
    call();
  }
  catch (const itk::ExceptionObject & error)
  {
    std::string message = OneLine(error.GetDescription()) + (capture.Text().empty() ? "" : " (" + capture.Text() + ")");
    for (auto at = message.find(path); path != displayPath && at != std::string::npos;
         at = message.find(path, at + displayPath.size()))
    {
      message.replace(at, path.size(), displayPath);
    }
    throw FileError(verb, displayPath, message);
  }
}

/** Reads a file (checked before, see ImageFileCheck) with the ImageIO of its format. */
template <typename TImage>
typename TImage::Pointer
ReadImageFile(const std::string & path, ImageFormat format)
{
  auto reader = itk::ImageFileReader<TImage>::New();
  reader->SetImageIO(ImageIOFor(format));
  reader->SetFileName(path);
  CallItk("read", path, path, [&reader] { reader->Update(); });
  typename TImage::Pointer image = reader->GetOutput();
  image->DisconnectPipeline();
  return image;
}

/** ReadImageFile, but PNG files (2D, 8- or 16-bit) by the program's own
 *  reader, with the spacing of their pHYs chunk. */
template <typename TImage>
typename TImage::Pointer
ReadImageOrPngFile(const std::string & path, ImageFormat format)
{
  if (format != ImageFormat::Png)
  {
    return ReadImageFile<TImage>(path, format);
  }
  const PngHeader           header = ReadPngHeader(path);
  auto                      image = TImage::New();
  typename TImage::SizeType size;
  size.Fill(1);
  size[0] = header.width;
  size[1] = header.height;
  image->SetRegions(size);
  typename TImage::SpacingType spacing;
  spacing.Fill(1.0);
  spacing[0] = header.spacing[0];
  spacing[1] = header.spacing[1];
  image->SetSpacing(spacing);
  image->Allocate();
  ReadPngPixels(path,
                image->GetBufferPointer(),
                static_cast<std::size_t>(header.width) * header.height * sizeof(typename TImage::PixelType));
  return image;
}

/** Checks the file an ITK writer produced: complete, and `size` pixels. FileError naming displayPath otherwise. */
void
VerifyWrittenImage(const std::string &                path,
                   const std::string &                displayPath,
                   ImageFormat                        format,
                   const std::vector<std::uint64_t> & size);

namespace detail
{
/** n pixels converted to the file's component type (which holds their values). */
template <typename TPixel>
void
ConvertRow(const TPixel * in, std::size_t n, PixelComponent component, void * out)
{
  auto convert = [&](auto * typed) {
    using Out = std::remove_pointer_t<decltype(typed)>;
    for (std::size_t i = 0; i < n; ++i)
    {
      typed[i] = static_cast<Out>(in[i]);
    }
  };
  switch (component)
  {
    case PixelComponent::UInt8:
      return convert(static_cast<std::uint8_t *>(out));
    case PixelComponent::Int8:
      return convert(static_cast<std::int8_t *>(out));
    case PixelComponent::UInt16:
      return convert(static_cast<std::uint16_t *>(out));
    case PixelComponent::Int16:
      return convert(static_cast<std::int16_t *>(out));
    case PixelComponent::UInt32:
      return convert(static_cast<std::uint32_t *>(out));
    case PixelComponent::Int32:
      return convert(static_cast<std::int32_t *>(out));
    default:
      throw std::logic_error("ConvertRow: unsupported file component");
  }
}
/** The geometry of an image for the program's own writers, with the
 *  string entries of its metadata (what a reader found in the input's
 *  header), as ITK's writers write them. */
template <typename TPixel, unsigned int VDimension>
ImageGeometry
GeometryOf(const itk::Image<TPixel, VDimension> & image)
{
  static_assert(VDimension >= 1 && VDimension <= 3, "images of 1 to 3 dimensions");
  ImageGeometry geometry;
  geometry.dimension = VDimension;
  for (unsigned int d = 0; d < VDimension; ++d)
  {
    geometry.size[d] = image.GetLargestPossibleRegion().GetSize()[d];
    geometry.spacing[d] = image.GetSpacing()[d];
    geometry.origin[d] = image.GetOrigin()[d];
    for (unsigned int column = 0; column < VDimension; ++column)
    {
      geometry.direction[d][column] = image.GetDirection()[d][column];
    }
  }
  const auto & dictionary = image.GetMetaDataDictionary();
  for (const auto & key : dictionary.GetKeys())
  {
    std::string value;
    // NRRD_ entries are the fields of the header the reader read (space,
    // kinds, ...): the header written says them from the image itself. The
    // name of the reader that read the input describes no file written here.
    if (key.compare(0, 5, "NRRD_") != 0 && key != "ITK_InputFilterName" &&
        itk::ExposeMetaData<std::string>(dictionary, key, value))
    {
      geometry.keyValues.emplace_back(key, value);
    }
  }
  return geometry;
}
} // namespace detail

/** Writes `image` to `path` (a temporary file of an OutputTransaction) as
 *  `format`, compressed as asked where the format can be; PNG and TIFF store
 *  `fileComponent` (the caller checked that it holds every value), the ITK
 *  formats the image's own type. Errors name displayPath. */
template <typename TPixel, unsigned int VDimension>
void
WriteImageFile(const itk::Image<TPixel, VDimension> * image,
               const std::string &                    path,
               const std::string &                    displayPath,
               ImageFormat                            format,
               PixelComponent                         fileComponent,
               Compression                            compression)
{
  using ImageType = itk::Image<TPixel, VDimension>;
  const auto        size = image->GetLargestPossibleRegion().GetSize();
  const TPixel *    pixels = image->GetBufferPointer();
  const std::size_t width = size[0];
  const std::size_t height = size[1];
  // The x and y spacing: what PNG (pHYs) and TIFF (its resolution) keep.
  const double planeSpacing[2] = { image->GetSpacing()[0], image->GetSpacing()[1] };
  if (format == ImageFormat::Png)
  {
    CheckedFile file(path, displayPath);
    WritePng(file,
             displayPath,
             static_cast<std::uint32_t>(width),
             static_cast<std::uint32_t>(height),
             fileComponent == PixelComponent::UInt16 ? 16 : 8,
             planeSpacing,
             ZlibLevel(compression),
             [&](std::uint32_t y, void * row) { detail::ConvertRow(pixels + y * width, width, fileComponent, row); });
    file.Finish();
  }
  else if (format == ImageFormat::Tiff)
  {
    CheckedFile file(path, displayPath);
    WriteTiff(file,
              displayPath,
              static_cast<std::uint32_t>(width),
              static_cast<std::uint32_t>(height),
              VDimension == 3 ? static_cast<std::uint32_t>(size[VDimension - 1]) : 1u,
              fileComponent,
              planeSpacing,
              ZlibLevel(compression),
              [&](std::uint32_t z, std::uint32_t y, void * row) {
                detail::ConvertRow(
                  pixels + (static_cast<std::size_t>(z) * height + y) * width, width, fileComponent, row);
              });
    file.Finish();
  }
  else if (format == ImageFormat::Nrrd || format == ImageFormat::NrrdDetached || format == ImageFormat::MetaImage ||
           format == ImageFormat::MetaImageDetached)
  {
    // The program's own NRRD and MetaImage writers: ITK's deflate on one thread.
    const auto        files = FilesWrittenFor(path, format, compression);
    const std::string dataPath = files.size() > 1 ? files[1] : std::string();
    const bool        nrrd = format == ImageFormat::Nrrd || format == ImageFormat::NrrdDetached;
    const auto        write = nrrd ? WriteNrrd : WriteMetaImage;
    write(
      path, dataPath, displayPath, detail::GeometryOf(*image), ComponentOf<TPixel>(), pixels, ZlibLevel(compression));
  }
  else if (format == ImageFormat::Vtk)
  {
    WriteVtk(path, displayPath, detail::GeometryOf(*image), ComponentOf<TPixel>(), VtkTypeName<TPixel>(), pixels);
  }
  else if (format == ImageFormat::NiftiGz)
  {
    // ITK makes NIfTI's header (its qform and sform from the direction) for
    // an image of 2 pixels an axis with this one's geometry and metadata;
    // the program writes it, sized, with the pixels.
    const ScratchFile scratch(path + ".itk-header.nii");
    {
      auto                         small = ImageType::New();
      typename ImageType::SizeType two;
      two.Fill(2);
      small->SetRegions(two);
      small->SetSpacing(image->GetSpacing());
      small->SetOrigin(image->GetOrigin());
      small->SetDirection(image->GetDirection());
      small->SetMetaDataDictionary(image->GetMetaDataDictionary());
      small->Allocate(true);
      auto writer = itk::ImageFileWriter<ImageType>::New();
      writer->SetInput(small);
      writer->SetImageIO(ImageIOFor(ImageFormat::Nifti));
      writer->SetFileName(scratch.Path());
      CallItk("write", scratch.Path(), displayPath, [&writer] { writer->Update(); });
    }
    WriteNiftiGz(path,
                 displayPath,
                 ReadNiftiHeader(scratch.Path(), displayPath),
                 detail::GeometryOf(*image),
                 ComponentOf<TPixel>(),
                 pixels,
                 ZlibLevel(compression));
  }
  else
  {
    // The writer gets the pixels without the image's pipeline: an update
    // through the filter that made them would touch its state while
    // another thread reads its other outputs (Analysis.hxx writes the CSV
    // meanwhile).
    auto detached = ImageType::New();
    detached->CopyInformation(image);
    detached->SetRegions(image->GetLargestPossibleRegion());
    detached->SetPixelContainer(const_cast<typename ImageType::PixelContainer *>(image->GetPixelContainer()));
    auto writer = itk::ImageFileWriter<ImageType>::New();
    writer->SetInput(detached);
    writer->SetImageIO(ImageIOFor(format));
    writer->SetFileName(path);
    // What ITK still writes (.nii, .hdr) is raw (CompressionOf).
    writer->SetUseCompression(false);
    CallItk("write", path, displayPath, [&writer] { writer->Update(); });
    VerifyWrittenImage(path, displayPath, format, std::vector<std::uint64_t>(size.begin(), size.end()));
  }
}

} // namespace ccaapp

#endif
