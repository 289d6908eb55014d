// The program's own NRRD, MetaImage, .nii.gz and VTK writers (app/NrrdWriter,
// MetaImageWriter, NiftiGzWriter, VtkWriter, ParallelDeflate) against
// independent readers: a .nii.gz must inflate to the bytes of ITK's own, a
// .vtk must be the bytes of ITK's own; ITK's
// NrrdImageIO and MetaImageIO must find the input's geometry bit for bit (an
// oblique direction, spacings and an origin that decimal text does not hold
// exactly), its pixels and its string metadata; zlib itself must inflate the
// gzip or zlib data of several pieces to the same bytes, checking the
// stream's checksum (and gzip's length); the data must be hardly larger than
// zlib's one-thread stream of the same bytes at the same level, and
// MetaImage's CompressedDataSize must be its size.
//
// Usage: ImageWriterCheck PROGRAM WORKDIR
#include "AppTestSupport.h"
#include "ZlibInflate.h"

#include "itkMetaDataObject.h"
#include "itk_zlib.h"

#include <cstdint>

namespace
{

using namespace ccaapptest;

using InputImage = itk::Image<std::uint16_t, 3>;
using LabelImage = itk::Image<std::uint32_t, 3>;
// Two string entries: one line (both formats), two lines (NRRD escapes the
// newline; MetaImage, a header of lines, leaves it out).
const char * const MetadataKey = "Segment0_Color";
const char * const MetadataValue = "0.5 0.25 1";
const char * const MultiLineKey = "Segment0_Name";
const char * const MultiLineValue = "left \\ right\nsecond line";

/** 150 x 130 x 60 uint16 (2.3 MB, three deflate pieces; its labels as
 *  uint32 five), runs of a few values so that zlib has something to do;
 *  rotated axes, spacings and an origin of no short decimal form. */
InputImage::Pointer
MakeInput(unsigned seed)
{
  auto image = InputImage::New();
  image->SetRegions(itk::Size<3>{ { 150, 130, 60 } });
  image->Allocate();
  std::mt19937                         generator(seed);
  std::uniform_int_distribution<int>   value(0, 5);
  std::uniform_int_distribution<int>   run(1, 12);
  itk::ImageRegionIterator<InputImage> it(image, image->GetLargestPossibleRegion());
  for (int left = 0, current = 0; !it.IsAtEnd(); ++it, --left)
  {
    if (left == 0)
    {
      left = run(generator);
      current = value(generator) < 3 ? 0 : value(generator);
    }
    it.Set(static_cast<std::uint16_t>(current));
  }
  InputImage::SpacingType spacing;
  spacing[0] = 0.7;
  spacing[1] = 1.0 / 3.0;
  spacing[2] = 1.25;
  image->SetSpacing(spacing);
  InputImage::PointType origin;
  origin[0] = -12.5;
  origin[1] = 0.1 + 0.2;
  origin[2] = 100.1;
  image->SetOrigin(origin);
  // 30 degrees about z, then 10 about x: orthonormal, no entry exact in decimal.
  const double              a = 30.0 * std::acos(-1.0) / 180.0;
  const double              b = 10.0 * std::acos(-1.0) / 180.0;
  InputImage::DirectionType rz, rx;
  rz.SetIdentity();
  rz[0][0] = std::cos(a);
  rz[0][1] = -std::sin(a);
  rz[1][0] = std::sin(a);
  rz[1][1] = std::cos(a);
  rx.SetIdentity();
  rx[1][1] = std::cos(b);
  rx[1][2] = -std::sin(b);
  rx[2][1] = std::sin(b);
  rx[2][2] = std::cos(b);
  image->SetDirection(rx * rz);
  itk::EncapsulateMetaData<std::string>(image->GetMetaDataDictionary(), MetadataKey, MetadataValue);
  itk::EncapsulateMetaData<std::string>(image->GetMetaDataDictionary(), MultiLineKey, MultiLineValue);
  return image;
}

template <typename TImage>
typename TImage::Pointer
Read(const std::string & path)
{
  auto reader = itk::ImageFileReader<TImage>::New();
  reader->SetFileName(path);
  reader->Update();
  return reader->GetOutput();
}

/** Spacing, origin and direction equal bit for bit. */
void
RequireSameGeometry(const itk::ImageBase<3> * expected, const itk::ImageBase<3> * found, const std::string & what)
{
  Require(expected->GetLargestPossibleRegion() == found->GetLargestPossibleRegion(), what + ": size differs");
  for (unsigned int i = 0; i < 3; ++i)
  {
    Require(expected->GetSpacing()[i] == found->GetSpacing()[i], what + ": spacing differs");
    Require(expected->GetOrigin()[i] == found->GetOrigin()[i], what + ": origin differs");
    for (unsigned int j = 0; j < 3; ++j)
    {
      Require(expected->GetDirection()[i][j] == found->GetDirection()[i][j], what + ": direction differs");
    }
  }
}

template <typename TImage>
void
RequireSamePixels(const TImage * expected, const TImage * found, const std::string & what)
{
  const auto count = expected->GetLargestPossibleRegion().GetNumberOfPixels();
  Require(std::equal(expected->GetBufferPointer(), expected->GetBufferPointer() + count, found->GetBufferPointer()),
          what + ": pixels differ");
}

std::string
ReadBytes(const std::string & path)
{
  std::ifstream      file(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << file.rdbuf();
  Require(file.good() || file.eof(), "cannot read " + path);
  return bytes.str();
}

/** zlib's one-thread deflate of `bytes` at `level`: the size to stay near. */
std::size_t
OneThreadDeflatedSize(const std::string & bytes, int level)
{
  uLongf             size = compressBound(static_cast<uLong>(bytes.size()));
  std::vector<Bytef> out(size);
  Require(compress2(out.data(), &size, reinterpret_cast<const Bytef *>(bytes.data()), bytes.size(), level) == Z_OK,
          "compress2");
  return size;
}

bool
EndsWith(const std::string & text, const std::string & end)
{
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

/** The value of "field" in a header of lines ("field: value", "field = value"). */
std::string
HeaderValue(const std::string & header, const std::string & field, const std::string & name)
{
  const auto at = header.find("\n" + field);
  Require(at != std::string::npos, name + ": no " + field + " line");
  const auto begin = at + 1 + field.size();
  return header.substr(begin, header.find('\n', begin) - begin);
}

/** The data of a NRRD or MetaImage file: after the header (its blank line;
 *  "ElementDataFile = LOCAL"), or in the data file the header names. */
std::string
FileData(const std::string & dir, const std::string & name)
{
  const std::string file = ReadBytes(dir + "/" + name);
  if (EndsWith(name, ".nhdr"))
    return ReadBytes(dir + "/" + HeaderValue(file, "data file: ", name));
  if (EndsWith(name, ".mhd"))
    return ReadBytes(dir + "/" + HeaderValue(file, "ElementDataFile = ", name));
  const std::string end = EndsWith(name, ".mha") ? "ElementDataFile = LOCAL\n" : "\n\n";
  const auto        at = file.find(end);
  Require(at != std::string::npos, name + ": no end of the header");
  return file.substr(at + end.size());
}

template <typename TImage>
std::string
PixelBytes(const TImage * image)
{
  return std::string(reinterpret_cast<const char *>(image->GetBufferPointer()),
                     image->GetLargestPossibleRegion().GetNumberOfPixels() * sizeof(typename TImage::PixelType));
}

/** One run of the program: the input's copy and its label image as
 *  `extension` under `compression`, read back by ITK and by zlib. */
void
CheckWrittenFiles(const std::string & program,
                  const std::string & dir,
                  const std::string & extension,
                  const std::string & compression)
{
  const bool        nrrd = extension == "nrrd" || extension == "nhdr";
  const std::string labels = "labels-" + compression + "." + extension;
  const std::string copy = "copy-" + compression + "." + extension;
  RequireSuccess(RunIn(
    program,
    dir,
    { "in.nrrd", "--quiet", "--labels", labels, "--saveInput", copy, "--csv", "t.csv", "--compression", compression }));
  const auto        input = Read<InputImage>(dir + "/in.nrrd");
  const auto        copied = Read<InputImage>(dir + "/" + copy);
  const std::string what = "." + extension + " --compression " + compression;
  RequireSameGeometry(input, copied, "the input's copy " + what);
  RequireSamePixels(input.GetPointer(), copied.GetPointer(), "the input's copy " + what);
  std::string value;
  Require(itk::ExposeMetaData<std::string>(copied->GetMetaDataDictionary(), MetadataKey, value) &&
            value == MetadataValue,
          "the input's copy " + what + ": the metadata entry is lost or changed ('" + value + "')");
  const bool multiLine = itk::ExposeMetaData<std::string>(copied->GetMetaDataDictionary(), MultiLineKey, value);
  Require(nrrd ? multiLine && value == MultiLineValue : !multiLine,
          "the input's copy " + what + ": the two-line metadata entry " +
            (nrrd ? "lost or changed ('" + value + "')" : "written"));
  const auto labelImage = Read<LabelImage>(dir + "/" + labels);
  RequireSameGeometry(input, labelImage, "the label image " + what);
  // Its pixels against ConnectedComponentImageFilter on the same mask.
  CheckOutputs<3>(dir + "/in.nrrd", dir + "/" + labels, dir + "/t.csv", Expectation{});

  const std::string raw = PixelBytes(labelImage.GetPointer());
  const std::string data = FileData(dir, labels);
  if (compression == "none")
  {
    Require(data == raw, "the label image " + what + ": raw data differs from the pixels ITK read");
    return;
  }
  Require(Inflate(data, nrrd, "the label image " + what) == raw,
          "the label image " + what + ": zlib inflates other bytes");
  Require(Inflate(FileData(dir, copy), nrrd, "the input's copy " + what) == PixelBytes(input.GetPointer()),
          "the input's copy " + what + ": zlib inflates other bytes");
  if (!nrrd)
  {
    const std::string size = HeaderValue(ReadBytes(dir + "/" + labels), "CompressedDataSize = ", labels);
    Require(std::stoull(size) == data.size(),
            "the label image " + what + ": CompressedDataSize " + size + " for " + std::to_string(data.size()) +
              " bytes");
  }
  const std::size_t oneThread = OneThreadDeflatedSize(raw, compression == "fast" ? 1 : 6);
  std::cout << what << ": label data " << raw.size() << " bytes deflated to " << data.size() << " (zlib on one thread "
            << oneThread << ")\n";
  Require(data.size() <= oneThread + oneThread / 50 + 64,
          "the label image " + what + ": deflated data 2 % larger than zlib's one-thread stream");
}

/** A .nii.gz of the program holds, inflated, the very bytes of ITK's own
 *  .nii.gz of the same image: ITK's header (qform, sform, its metadata) and
 *  the pixels; ITK's reader finds the labels of the checked .nrrd run. */
void
CheckNiftiGz(const std::string & program, const std::string & dir, const std::string & compression)
{
  const std::string labels = "labels-" + compression + ".nii.gz";
  const std::string copy = "copy-" + compression + ".nii.gz";
  RequireSuccess(RunIn(
    program,
    dir,
    { "in.nrrd", "--quiet", "--labels", labels, "--saveInput", copy, "--csv", "t.csv", "--compression", compression }));
  const std::string what = ".nii.gz --compression " + compression;
  // The labels of the .nrrd run, which ConnectedComponentImageFilter checked
  // (NIfTI's geometry is float: not the input's within CheckOutputs' 1e-6).
  const auto found = Read<LabelImage>(dir + "/" + labels);
  RequireSamePixels(Read<LabelImage>(dir + "/labels-none.nrrd").GetPointer(), found.GetPointer(), what);

  // ITK's files of the same images: the input as read, and a label image of
  // its geometry with the labels found, no metadata (as the filter's).
  const auto input = Read<InputImage>(dir + "/in.nrrd");
  WriteImage(input.GetPointer(), dir + "/itk-copy.nii.gz");
  auto reference = LabelImage::New();
  reference->SetRegions(input->GetLargestPossibleRegion());
  reference->SetSpacing(input->GetSpacing());
  reference->SetOrigin(input->GetOrigin());
  reference->SetDirection(input->GetDirection());
  reference->Allocate();
  std::copy(found->GetBufferPointer(),
            found->GetBufferPointer() + found->GetLargestPossibleRegion().GetNumberOfPixels(),
            reference->GetBufferPointer());
  WriteImage(reference.GetPointer(), dir + "/itk-labels.nii.gz");
  for (const auto & [ours, theirs] : { std::make_pair(labels, std::string("itk-labels.nii.gz")),
                                       std::make_pair(copy, std::string("itk-copy.nii.gz")) })
  {
    const std::string inflated = Inflate(ReadBytes(dir + "/" + ours), true, ours);
    Require(inflated == Inflate(ReadBytes(dir + "/" + theirs), true, theirs),
            ours + " (" + what + "): not the bytes of ITK's own .nii.gz once inflated");
  }
  std::cout << what << ": the bytes of ITK's .nii.gz, " << ReadBytes(dir + "/" + labels).size()
            << " bytes of label file\n";
}

/** A .vtk of the program has the very bytes of ITK's own .vtk of the same
 *  image (ITK's header, the pixels big-endian; the format holds no
 *  direction), for the labels and for the input's 16-bit copy. */
void
CheckVtk(const std::string & program, const std::string & dir)
{
  RequireSuccess(RunIn(
    program, dir, { "in.nrrd", "--quiet", "--labels", "labels.vtk", "--saveInput", "copy.vtk", "--csv", "t.csv" }));
  const auto input = Read<InputImage>(dir + "/in.nrrd");
  WriteImage(input.GetPointer(), dir + "/itk-copy.vtk");
  const auto found = Read<LabelImage>(dir + "/labels-none.nrrd");
  WriteImage(found.GetPointer(), dir + "/itk-labels.vtk");
  for (const auto & [ours, theirs] : { std::make_pair(std::string("labels.vtk"), std::string("itk-labels.vtk")),
                                       std::make_pair(std::string("copy.vtk"), std::string("itk-copy.vtk")) })
  {
    Require(ReadBytes(dir + "/" + ours) == ReadBytes(dir + "/" + theirs), ours + ": not the bytes of ITK's own .vtk");
  }
  std::cout << ".vtk: the bytes of ITK's .vtk, " << ReadBytes(dir + "/labels.vtk").size() << " bytes of label file\n";
}

} // namespace

int
main(int argc, char * argv[])
{
  if (argc != 3)
  {
    std::cerr << "Usage: " << argv[0] << " PROGRAM WORKDIR\n";
    return 2;
  }
  const std::string dir = argv[2];
  const unsigned    seed = 20261204;
  try
  {
    FreshDirectory(dir);
    // ITK's own writer makes the input: the reference for what its reader finds.
    WriteImage(MakeInput(seed).GetPointer(), dir + "/in.nrrd");
    for (const std::string extension : { "nrrd", "nhdr", "mha", "mhd" })
    {
      for (const std::string compression : { "none", "fast", "small" })
      {
        CheckWrittenFiles(argv[1], dir, extension, compression);
      }
    }
    for (const std::string compression : { "none", "fast", "small" })
    {
      CheckNiftiGz(argv[1], dir, compression);
    }
    CheckVtk(argv[1], dir);
    std::cout << "NRRD, MetaImage, .nii.gz and .vtk outputs: as ITK's readers and zlib find\n";
    return 0;
  }
  catch (const std::exception & error)
  {
    std::cerr << "FAILED (seed " << seed << ", files kept in " << dir << "): " << error.what() << "\n";
    return 1;
  }
}
