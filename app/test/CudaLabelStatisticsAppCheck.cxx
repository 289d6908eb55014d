// Runs the CudaLabelStatistics program on generated inputs and checks what it
// writes: the label image must equal ITK's ConnectedComponentImageFilter output
// (same raster-order numbering), the CSV must have one row per component with
// the right pixel counts, the Slicer return file must hold the count.
//
// Usage: CudaLabelStatisticsAppCheck PROGRAM WORKDIR SCENARIO
#include "AppTestSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

#if defined(CCA_TEST_HAVE_LIBTIFF)
#  include <tiffio.h>
#endif

namespace
{

using namespace ccaapptest;

/** Each pixel of `input` equals the one of `copy` (both read by ITK). */
template <typename TPixel, unsigned int D>
void
RequireSameImage(const std::string & input, const std::string & copy)
{
  using ImageType = itk::Image<TPixel, D>;
  auto read = [](const std::string & path) {
    auto reader = itk::ImageFileReader<ImageType>::New();
    reader->SetFileName(path);
    reader->Update();
    return typename ImageType::Pointer(reader->GetOutput());
  };
  const auto a = read(input);
  const auto b = read(copy);
  Require(a->GetLargestPossibleRegion().GetSize() == b->GetLargestPossibleRegion().GetSize(), copy + ": size differs");
  itk::ImageRegionConstIterator<ImageType> ia(a, a->GetLargestPossibleRegion());
  itk::ImageRegionConstIterator<ImageType> ib(b, b->GetLargestPossibleRegion());
  for (; !ia.IsAtEnd(); ++ia, ++ib)
  {
    Require(ia.Get() == ib.Get(), copy + ": a pixel differs from the input");
  }
}

/** A one-page TIFF of 16- or 32-bit unsigned pixels, read with libtiff. */
std::vector<unsigned int>
ReadTiffLabels(const std::string & path)
{
#if !defined(CCA_TEST_HAVE_LIBTIFF)
  throw Failure("libtiff was not found when this check was built: " + path + " cannot be read back");
#else
  TIFF * tiff = TIFFOpen(path.c_str(), "r");
  Require(tiff != nullptr, "libtiff cannot open " + path);
  std::uint32_t width = 0, height = 0;
  std::uint16_t bits = 0, format = SAMPLEFORMAT_UINT;
  TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
  TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
  TIFFGetField(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLEFORMAT, &format);
  std::vector<unsigned int>  pixels;
  std::vector<unsigned char> row(TIFFScanlineSize(tiff));
  for (std::uint32_t y = 0; y < height && format == SAMPLEFORMAT_UINT && (bits == 16 || bits == 32); ++y)
  {
    Require(TIFFReadScanline(tiff, row.data(), y, 0) > 0,
            "libtiff cannot read row " + std::to_string(y) + " of " + path);
    for (std::uint32_t x = 0; x < width; ++x)
    {
      if (bits == 16)
        pixels.push_back(reinterpret_cast<const std::uint16_t *>(row.data())[x]);
      else
        pixels.push_back(reinterpret_cast<const std::uint32_t *>(row.data())[x]);
    }
  }
  TIFFClose(tiff);
  return pixels;
#endif
}

/** Bytes of an image file and of its data file (.nhdr, .mhd, .hdr). */
std::uint64_t
WrittenBytes(const std::string & path, const std::string & extension)
{
  const std::string stem = path.substr(0, path.size() - extension.size() - 1);
  std::uint64_t     total = 0;
  for (const std::string & file : { path, stem + ".raw", stem + ".raw.gz", stem + ".zraw", stem + ".img" })
  {
    struct stat status;
    if ((file == path || extension == "nhdr" || extension == "mhd" || extension == "hdr") &&
        ::stat(file.c_str(), &status) == 0)
      total += static_cast<std::uint64_t>(status.st_size);
  }
  return total;
}

/** The file says it is compressed (or not) as --compression asked, where the
 *  format says so: NRRD's encoding, MetaImage's CompressedData, the data file
 *  names of .nhdr and .mhd, TIFF's Compression tag. */
void
RequireCompressionAsAsked(const std::string & path, const std::string & extension, bool compressed)
{
  const std::string text = ReadText(path);
  const std::string stem = path.substr(0, path.size() - extension.size() - 1);
  const std::string what = path + " (--compression " + (compressed ? "fast/small" : "none") + ")";
  if (extension == "nrrd" || extension == "nhdr")
    Require(text.find(compressed ? "encoding: gzip" : "encoding: raw") != std::string::npos, what + ": NRRD encoding");
  if (extension == "nhdr")
    Require(Exists(stem + (compressed ? ".raw.gz" : ".raw")), what + ": data file");
  if (extension == "mha" || extension == "mhd")
    Require(text.find(compressed ? "CompressedData = True" : "CompressedData = False") != std::string::npos,
            what + ": MetaImage CompressedData");
  if (extension == "mhd")
    Require(Exists(stem + (compressed ? ".zraw" : ".raw")), what + ": data file");
  if (extension == "tif")
  {
    // Little-endian TIFF: the first directory's entries, tag 259 (Compression): 1 none, 8 deflate.
    auto at = [&text](std::size_t offset, int bytes) {
      std::uint32_t value = 0;
      for (int i = bytes - 1; i >= 0; --i)
        value = value * 256 + static_cast<unsigned char>(text.at(offset + i));
      return value;
    };
    const std::uint32_t directory = at(4, 4);
    std::uint32_t       compression = 0;
    for (std::uint32_t e = 0; e < at(directory, 2); ++e)
    {
      if (at(directory + 2 + 12 * e, 2) == 259)
        compression = at(directory + 2 + 12 * e + 8, 2);
    }
    Require(compression == (compressed ? 8u : 1u), what + ": TIFF Compression tag " + std::to_string(compression));
  }
}

template <typename T>
std::string
ToString(T value)
{
  return std::to_string(value);
}

/** Labels of a 64-bit image against ConnectedComponentImageFilter on (pixel == value), compared exactly. */
template <typename TPixel>
void
CheckExactEqualRule(const std::string & input, const std::string & labelsPath, TPixel value)
{
  using ImageType = itk::Image<TPixel, 3>;
  using MaskType = itk::Image<unsigned char, 3>;
  auto reader = itk::ImageFileReader<ImageType>::New();
  reader->SetFileName(input);
  reader->Update();
  auto mask = MaskType::New();
  mask->CopyInformation(reader->GetOutput());
  mask->SetRegions(reader->GetOutput()->GetLargestPossibleRegion());
  mask->Allocate();
  itk::ImageRegionConstIterator<ImageType> in(reader->GetOutput(), mask->GetLargestPossibleRegion());
  itk::ImageRegionIterator<MaskType>       out(mask, mask->GetLargestPossibleRegion());
  size_t                                   on = 0;
  for (; !in.IsAtEnd(); ++in, ++out)
  {
    out.Set(in.Get() == value ? 1 : 0);
    on += in.Get() == value ? 1 : 0;
  }
  Require(on > 0, "the test image has no pixel of the value");
  size_t expected = 0;
  CheckLabelImage<3>(mask, false, labelsPath, expected);
  std::cout << ToString(value) << ": " << expected << " components, as ITK finds on the exact comparison\n";
}

int
RunScenario(const std::string & program, const std::string & dir, const std::string & scenario)
{
  Expectation e;
  if (scenario == "default2d")
  {
    const auto result = RunIn(program,
                              dir,
                              { "--defaultSize",
                                "301x203",
                                "--density",
                                "0.5",
                                "--granularity",
                                "2",
                                "--seed",
                                "7",
                                "--saveInput",
                                "in.nrrd",
                                "--labels",
                                "labels.nrrd",
                                "--csv",
                                "table.csv",
                                "--returnparameterfile",
                                "return.txt",
                                "--backend",
                                "auto" });
    RequireSuccess(result);
    Require(result.out.find("<filter-progress>") != std::string::npos, "no progress lines with --returnparameterfile");
    Require(result.out.find("components:") != std::string::npos, "no summary");
    // The summary gives every stage's time (issue 10): read, analysis with the LabelMap, each output's write.
    for (const char * stage : { "time:        total",
                                "sync and rename",
                                "other",
                                "analysis:    engine",
                                "LabelMap",
                                "write:       labels",
                                "CSV",
                                "input copy" })
      Require(result.out.find(stage) != std::string::npos, std::string("the summary has no '") + stage + "'");
    CheckReturnFile(dir + "/return.txt",
                    CheckOutputsAnyDimension(dir + "/in.nrrd", dir + "/labels.nrrd", dir + "/table.csv", e));
    return 0;
  }
  if (scenario == "default3d")
  {
    // The dashed spellings are aliases of the camelCase options.
    RequireSuccess(RunIn(program,
                         dir,
                         { "--default-size",
                           "41x30x19",
                           "--density",
                           "0.1",
                           "--granularity",
                           "1",
                           "--fully-connected",
                           "--feret",
                           "--oriented-bounding-box",
                           "--no-perimeter",
                           "--save-input",
                           "in.nrrd",
                           "--labels",
                           "labels.nrrd",
                           "--csv",
                           "table.csv" }));
    e.fullyConnected = true;
    e.perimeterColumns = false;
    e.feretColumn = true;
    e.orientedBoxColumns = true;
    CheckOutputsAnyDimension(dir + "/in.nrrd", dir + "/labels.nrrd", dir + "/table.csv", e);
    return 0;
  }
  if (scenario == "int16-3d-equal")
  {
    MakeImage<short, 3>(dir + "/in.nrrd", itk::Size<3>{ { 23, 17, 13 } }, { -1, 0, 1, 2, 2 }, 11);
    RequireSuccess(RunIn(program,
                         dir,
                         { "in.nrrd",
                           "--foregroundValue",
                           "2",
                           "--fullyConnected",
                           "--backend",
                           "cpu",
                           "--labels",
                           "labels.mha",
                           "--csv",
                           "table.csv" }));
    e.fullyConnected = true;
    e.equalRule = true;
    e.value = 2;
    CheckOutputsAnyDimension(dir + "/in.nrrd", dir + "/labels.mha", dir + "/table.csv", e);

    // A volume of one slice (as Slicer stores a 2D image) stays a volume:
    // a 3D label image on its grid (spacing 0.5, 1.5, 2.5, an origin off
    // the plane z = 0) and 3D attributes, as ITK's filters measure it.
    auto                  slice = RandomImage<short, 3>(itk::Size<3>{ { 23, 17, 1 } }, { -1, 0, 2, 2 }, 13);
    itk::Point<double, 3> origin;
    origin[0] = 1.0;
    origin[1] = -2.0;
    origin[2] = 7.5;
    slice->SetOrigin(origin);
    WriteImage(slice.GetPointer(), dir + "/slice.nrrd");
    RequireSuccess(RunIn(program,
                         dir,
                         { "slice.nrrd",
                           "--foregroundValue",
                           "2",
                           "--fullyConnected",
                           "--backend",
                           "cpu",
                           "--labels",
                           "slice-labels.nrrd",
                           "--csv",
                           "slice.csv" }));
    Require(FileDimension(dir + "/slice-labels.nrrd") == 3, "the label image of a one-slice volume is not 3D");
    CheckOutputsAnyDimension(dir + "/slice.nrrd", dir + "/slice-labels.nrrd", dir + "/slice.csv", e);
    const auto rows = Lines(ReadText(dir + "/slice.csv"));
    const auto header = SplitCsvLine(rows.front());
    const auto at = [&header](const char * name) {
      return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    for (size_t r = 1; r < rows.size(); ++r)
    {
      const auto cells = SplitCsvLine(rows[r]);
      Require(std::abs(std::stod(cells.at(at("PhysicalSize"))) - std::stod(cells.at(at("NumberOfPixels"))) * 1.875) <
                1e-9,
              "a one-slice volume's PhysicalSize is not its voxels' volume (0.5 x 1.5 x 2.5 each)");
      Require(std::abs(std::stod(cells.at(at("Centroid_z"))) - 7.5) < 1e-9, "its Centroid_z is not the slice's z");
    }
    // A format without that geometry (TIFF: x and y spacing only) says what it drops.
    const auto tiff = RunIn(program, dir, { "slice.nrrd", "--foregroundValue", "2", "--labels", "slice.tif" });
    RequireSuccess(tiff);
    Require(tiff.err.find("keeps no origin and z spacing of the input") != std::string::npos,
            "no warning of the geometry a TIFF label image drops: " + tiff.err);
    return 0;
  }
  if (scenario == "float2d")
  {
    MakeImage<float, 2>(dir + "/in.mha", itk::Size<2>{ { 64, 48 } }, { 0, 0, 0.5, 1.0 }, 12);
    RequireSuccess(RunIn(program, dir, { "in.mha", "--labels", "labels.png", "--csv", "table.csv" }));
    CheckOutputsAnyDimension(dir + "/in.mha", dir + "/labels.png", dir + "/table.csv", e);
    return 0;
  }
  if (scenario == "png2d")
  {
    MakeImage<unsigned char, 2>(dir + "/in.png", itk::Size<2>{ { 50, 70 } }, { 1, 1, 7, 255 }, 13);
    RequireSuccess(
      RunIn(program, dir, { "in.png", "--backgroundValue", "1", "--labels=labels.nrrd", "--csv=table.csv" }));
    e.value = 1;
    CheckOutputsAnyDimension(dir + "/in.png", dir + "/labels.nrrd", dir + "/table.csv", e);
    return 0;
  }
  if (scenario == "formats")
  {
    // Every label format and --saveInput format, 2D and 3D, read back by ITK.
    MakeImage<unsigned char, 2>(dir + "/in2.nrrd", itk::Size<2>{ { 61, 47 } }, { 0, 0, 1, 3 }, 15);
    MakeImage<unsigned char, 3>(dir + "/in3.nrrd", itk::Size<3>{ { 23, 19, 9 } }, { 0, 0, 0, 1 }, 16);
    for (const std::string dimension : { "2", "3" })
    {
      const std::string input = "in" + dimension + ".nrrd";
      for (const std::string extension : { "nrrd", "nhdr", "nii", "nii.gz", "hdr", "mha", "mhd", "vtk", "tif", "png" })
      {
        // Each compression round-trips; the formats that compress do as asked.
        // auto, the default (no flag): fast wherever the format has a choice.
        const bool autoCompresses = extension == "nrrd" || extension == "nhdr" || extension == "mha" ||
                                    extension == "mhd" || extension == "nii.gz" || extension == "tif" ||
                                    extension == "png";
        std::map<std::string, std::uint64_t> bytes;
        for (const std::string compression : { "none", "fast", "small", "auto" })
        {
          // Names of their own: .nhdr and .mhd both write a .raw data file beside them.
          const std::string name = dimension + "-" + compression + "-" + extension.substr(0, extension.find('.'));
          const std::string labels = "labels" + name + "." + extension;
          const std::string copy = "copy" + name + "." + extension;
          std::vector<std::string> arguments = { input,   "--quiet", "--labels",    labels,
                                                 "--csv", "t.csv",   "--saveInput", copy };
          if (compression != "auto")
          {
            arguments.insert(arguments.end(), { "--compression", compression });
          }
          const bool compressed = compression == "auto" ? autoCompresses : compression != "none";
          const auto result = RunIn(program, dir, arguments);
          if (dimension == "3" && extension == "png")
          {
            // A 3D image cannot go into PNG: refused before the analysis, nothing written.
            RequireCleanFailure(result, "3D labels to PNG");
            Require(result.err.find("2D images only") != std::string::npos, "3D to PNG: unclear message " + result.err);
            Require(!Exists(dir + "/" + labels) && !Exists(dir + "/" + copy), "3D to PNG wrote a file");
            continue;
          }
          RequireSuccess(result);
          CheckOutputsAnyDimension(dir + "/" + input, dir + "/" + labels, dir + "/t.csv", e);
          if (dimension == "3")
            RequireSameImage<unsigned char, 3>(dir + "/" + input, dir + "/" + copy);
          else
            RequireSameImage<unsigned char, 2>(dir + "/" + input, dir + "/" + copy);
          RequireCompressionAsAsked(dir + "/" + labels, extension, compressed);
          RequireCompressionAsAsked(dir + "/" + copy, extension, compressed);
          bytes[compression] = WrittenBytes(dir + "/" + labels, extension);
          std::cout << "labels and input as ." << extension << " (" << dimension << "D, --compression " << compression
                    << ", labels " << bytes[compression] << " bytes): as ITK finds\n";
        }
        if (bytes.size() == 4)
        {
          // .nii, .hdr and .vtk are always raw; the others shrink with
          // compression (PNG and .nii.gz are always deflated: level 0 stores
          // the data as it is).
          const bool fixed = extension == "nii" || extension == "hdr" || extension == "vtk";
          Require(fixed ? bytes["fast"] == bytes["none"] && bytes["small"] == bytes["none"]
                        : bytes["fast"] < bytes["none"] && bytes["small"] <= bytes["fast"],
                  "." + extension + " (" + dimension + "D): label image sizes none/fast/small " +
                    std::to_string(bytes["none"]) + "/" + std::to_string(bytes["fast"]) + "/" +
                    std::to_string(bytes["small"]));
          Require(bytes["auto"] == bytes[autoCompresses && !fixed ? "fast" : "none"],
                  "." + extension + " (" + dimension + "D): the default compression wrote " +
                    std::to_string(bytes["auto"]) + " bytes");
        }
      }
    }
    // Detached headers whose data file's name has a space (as ITK's readers
    // take it, one file): the copies read back as the input itself.
    MakeDirectory(dir + "/with space");
    RequireSuccess(RunIn(program, dir, { "in3.nrrd", "--quiet", "--csv", "t-in3.csv" }));
    for (const std::string name : { "with space/in copy.nhdr", "with space/in copy.mhd" })
    {
      RequireSuccess(RunIn(program, dir, { "in3.nrrd", "--quiet", "--saveInput", name }));
      RequireSuccess(RunIn(program, dir, { name, "--quiet", "--csv", "t-copy.csv" }));
      Require(ReadText(dir + "/t-copy.csv") == ReadText(dir + "/t-in3.csv"), "'" + name + "' reads as another image");
    }
    // More than 65535 components: PNG (16-bit) refuses, TIFF (32-bit) holds them.
    {
      using ImageType = itk::Image<unsigned char, 2>;
      auto board = ImageType::New();
      board->SetRegions(itk::Size<2>{ { 400, 400 } });
      board->Allocate();
      for (itk::ImageRegionIterator<ImageType> it(board, board->GetLargestPossibleRegion()); !it.IsAtEnd(); ++it)
        it.Set((it.GetIndex()[0] + it.GetIndex()[1]) % 2);
      WriteImage(board.GetPointer(), dir + "/board.nrrd");
      const auto png = RunIn(program, dir, { "board.nrrd", "--quiet", "--labels", "board.png" });
      RequireCleanFailure(png, "80000 labels to PNG");
      Require(png.err.find("16-bit") != std::string::npos && !Exists(dir + "/board.png"), "80000 labels to PNG");
      // 32-bit TIFF: read here with libtiff (ITK 5.2 misreads 32-bit integer TIFF).
      RequireSuccess(RunIn(program, dir, { "board.nrrd", "--quiet", "--labels", "board.tif" }));
      const auto tiffLabels = ReadTiffLabels(dir + "/board.tif");
      Require(tiffLabels.size() == 400 * 400, "board.tif: wrong size");
      using LabelType = itk::Image<unsigned int, 2>;
      auto reference = itk::ConnectedComponentImageFilter<ImageType, LabelType>::New();
      reference->SetInput(board);
      reference->Update();
      Require(reference->GetObjectCount() == 80000, "the board has 80000 components");
      const unsigned int * expected = reference->GetOutput()->GetBufferPointer();
      Require(std::equal(tiffLabels.begin(), tiffLabels.end(), expected),
              "board.tif differs from ConnectedComponentImageFilter");
      // The program refuses to read such a file back through ITK 5.2.
      const auto back = RunIn(program, dir, { "board.tif", "--csv", "back.csv" });
      RequireCleanFailure(back, "a 32-bit TIFF as input");
      Require(back.err.find("ITK 5.2") != std::string::npos, "unclear refusal of a 32-bit TIFF: " + back.err);
      std::cout << "80000 labels: refused by PNG, written to TIFF as uint32 (checked with libtiff)\n";
      // Two objects, one of them labeled 70000: a label input keeps its
      // values, so the largest label decides the width, not the count.
      using ValueImageType = itk::Image<unsigned int, 2>;
      auto values = ValueImageType::New();
      values->SetRegions(itk::Size<2>{ { 30, 20 } });
      values->Allocate();
      values->FillBuffer(0);
      for (itk::ImageRegionIterator<ValueImageType> it(values, values->GetLargestPossibleRegion()); !it.IsAtEnd(); ++it)
      {
        const auto & i = it.GetIndex();
        it.Set(i[1] < 5 && i[0] < 5 ? 70000 : (i[1] > 10 && i[0] > 10 && i[0] < 20 ? 3 : 0));
      }
      WriteImage(values.GetPointer(), dir + "/values.nrrd");
      const auto valuesPng =
        RunIn(program, dir, { "values.nrrd", "--labelInput", "--quiet", "--labels", "values.png" });
      RequireCleanFailure(valuesPng, "label 70000 to PNG");
      Require(valuesPng.err.find("largest label is 70000") != std::string::npos && !Exists(dir + "/values.png"),
              "label 70000 to PNG: " + valuesPng.err);
      RequireSuccess(RunIn(program, dir, { "values.nrrd", "--labelInput", "--quiet", "--labels", "values.tif" }));
      const auto valueLabels = ReadTiffLabels(dir + "/values.tif");
      Require(std::equal(valueLabels.begin(), valueLabels.end(), values->GetBufferPointer()) &&
                valueLabels.size() == 600,
              "values.tif does not hold the label values (70000 and 3)");
      std::cout << "label 70000 of a label input: refused by PNG, written to TIFF as uint32\n";
      // Their table, formatted in chunks of rows on ITK's threads: every row
      // in label order with the label image's pixel count, and the same
      // bytes on one thread as on four.
      std::string tables[2];
      for (int k = 0; k < 2; ++k)
      {
        const std::string threads = k == 0 ? "1" : "4";
        const std::string table = "board-" + threads + ".csv";
        RunOptions        options;
        options.argv = { program, "board.nrrd", "--quiet", "--labels", "board-labels.nrrd", "--csv", table };
        options.workDir = dir;
        options.environment = { "ITK_GLOBAL_DEFAULT_NUMBER_OF_THREADS=" + threads };
        RequireSuccess(RunAndShow(options));
        Require(CheckOutputsAnyDimension(
                  dir + "/board.nrrd", dir + "/board-labels.nrrd", dir + "/" + table, Expectation{}) == 80000,
                table + ": not the board's 80000 components");
        tables[k] = ReadText(dir + "/" + table);
      }
      Require(tables[0] == tables[1], "the board's table differs between 1 and 4 threads");
      std::cout << "80000 rows: the table checked against ITK, the same bytes on 1 and 4 threads\n";
    }
    for (const std::string extension : { "jpg", "jpeg", "bmp", "gipl" })
    {
      const auto result = RunIn(program, dir, { "in2.nrrd", "--labels", "l." + extension });
      RequireCleanFailure(result, "labels to ." + extension);
    }
    return 0;
  }
  if (scenario == "arguments")
  {
    MakeImage<unsigned char, 3>(dir + "/in.nrrd", itk::Size<3>{ { 17, 13, 7 } }, { 0, 8, 10, 10 }, 17);
    const std::string in = "in.nrrd";
    RequireUsageError(program, dir, { in, "--csv", "--labels", "l.nrrd" }, "followed by the option --labels");
    Require(!Exists(dir + "/--labels"), "a file named --labels was written");
    RequireUsageError(program, dir, { in, "--labels=" }, "empty value");
    RequireUsageError(program, dir, { in, "--labels", "" }, "empty value");
    RequireUsageError(program, dir, { in, "--labels", "a.nrrd", "--labels", "b.nrrd" }, "given twice");
    RequireUsageError(program, dir, { in, "--fullyConnected", "--fully-connected" }, "given twice");
    RequireUsageError(program, dir, { in, "--foregroundValue", "0x10" }, "decimal integer");
    RequireUsageError(program, dir, { in, "--foregroundValue", "18446744073709551616" }, "decimal integer");
    RequireUsageError(program, dir, { in, "--backgroundValue", "-9223372036854775809" }, "decimal integer");
    RequireUsageError(program, dir, { in, "--cudaDevice", "2147483648" }, "-1 .. 2147483647");
    RequireUsageError(program, dir, { in, "--cudaDevice", "-2" }, "-1 .. 2147483647");
    RequireUsageError(program, dir, { "--seed", "4294967296" }, "0 .. 4294967295");
    RequireUsageError(program, dir, { "--seed", "-1" }, "0 .. 4294967295");
    RequireUsageError(program, dir, { "--granularity", "2000000" }, "1 .. 1048576");
    RequireUsageError(program, dir, { "--granularity", "0" }, "1 .. 1048576");
    RequireUsageError(program, dir, { "--density", "1.5" }, "0 .. 1");
    RequireUsageError(program, dir, { "--density", "nan" }, "0 .. 1");
    RequireUsageError(program, dir, { "--defaultSize", "0x5" }, "1 .. 2147483646");
    RequireUsageError(program, dir, { "--defaultSize", "2147483647x2" }, "1 .. 2147483646");
    RequireUsageError(program, dir, { "--defaultSize", "5x5x5x5" }, "WxH or WxHxD");
    RequireUsageError(program, dir, { in, "--fullyConnected=maybe" }, "true or false");
    RequireUsageError(program, dir, { in, "--foregroundRule", "greater" }, "not-background or equal");
    RequireUsageError(program, dir, { in, "--backend", "gpu" }, "auto, cuda or cpu");
    RequireUsageError(program, dir, { in, "--compression", "fastest" }, "auto, none, fast or small");
    RequireUsageError(program, dir, { in, "--compression=9" }, "auto, none, fast or small");
    RequireUsageError(program, dir, { in, "other.nrrd" }, "more than one input");
    RequireUsageError(program, dir, { "--no-such-option" }, "unknown option");
    // Duplicate outputs and values outside the pixel type: run errors (exit 1), nothing written.
    RequireCleanFailure(RunIn(program, dir, { in, "--labels", "x.nrrd", "--csv", "x.nrrd" }), "--labels X --csv X");
    Require(!Exists(dir + "/x.nrrd"), "--labels X --csv X wrote X");
    RequireCleanFailure(RunIn(program, dir, { in, "--backgroundValue", "300" }), "a background value past uint8");
    // "010" is ten, not octal eight.
    RequireSuccess(RunIn(program, dir, { in, "--foregroundValue", "010", "--labels", "ten.nrrd", "--csv", "ten.csv" }));
    e.equalRule = true;
    e.value = 10;
    CheckOutputsAnyDimension(dir + "/" + in, dir + "/ten.nrrd", dir + "/ten.csv", e);
    // Large values are decimal too, with a sign.
    RequireSuccess(RunIn(program, dir, { in, "--quiet", "--backgroundValue=+0", "--csv", "plus.csv" }));
    return 0;
  }
  if (scenario == "wide-integers")
  {
    // uint64 values >= 2^63 and negative int64 values are compared exactly.
    using U64 = itk::Image<std::uint64_t, 3>;
    const std::uint64_t high = (std::uint64_t{ 1 } << 63) + 5;
    auto                u = RandomImage<std::uint64_t, 3>(itk::Size<3>{ { 19, 11, 6 } }, { 0, 0, 1 }, 18);
    for (itk::ImageRegionIterator<U64> it(u, u->GetLargestPossibleRegion()); !it.IsAtEnd(); ++it)
      it.Set(it.Get() == 1 ? high : (it.GetIndex()[0] % 7 == 0 ? std::numeric_limits<std::uint64_t>::max() : 0));
    WriteImage(u.GetPointer(), dir + "/u64.nrrd");
    RequireSuccess(
      RunIn(program, dir, { "u64.nrrd", "--foregroundValue", std::to_string(high), "--labels", "u64-labels.nrrd" }));
    CheckExactEqualRule<std::uint64_t>(dir + "/u64.nrrd", dir + "/u64-labels.nrrd", high);
    auto i = RandomImage<std::int64_t, 3>(itk::Size<3>{ { 19, 11, 6 } }, { 0, -5, -5 }, 19);
    WriteImage(i.GetPointer(), dir + "/i64.nrrd");
    RequireSuccess(RunIn(program, dir, { "i64.nrrd", "--foregroundValue", "-5", "--labels", "i64-labels.nrrd" }));
    CheckExactEqualRule<std::int64_t>(dir + "/i64.nrrd", dir + "/i64-labels.nrrd", -5);
    auto w = RandomImage<std::uint32_t, 3>(itk::Size<3>{ { 19, 11, 6 } }, { 0, 4294967295.0, 7 }, 20);
    WriteImage(w.GetPointer(), dir + "/u32.nrrd");
    const auto u32 =
      RunIn(program, dir, { "u32.nrrd", "--foregroundValue", "4294967295", "--labels", "u32-labels.nrrd" });
    RequireSuccess(u32);
    Require(u32.out.find("read as uint32") != std::string::npos, "a uint32 file must be read as uint32");
    CheckExactEqualRule<std::uint32_t>(dir + "/u32.nrrd", dir + "/u32-labels.nrrd", 4294967295u);
    return 0;
  }
  if (scenario == "rules")
  {
    // NaN is never foreground, under either rule.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    MakeImage<float, 3>(dir + "/nan.nrrd", itk::Size<3>{ { 21, 15, 7 } }, { nan, nan, 0, 1 }, 21);
    RequireSuccess(RunIn(program, dir, { "nan.nrrd", "--labels", "nan.nrrd.labels.nrrd", "--csv", "nan.csv" }));
    CheckOutputsAnyDimension(dir + "/nan.nrrd", dir + "/nan.nrrd.labels.nrrd", dir + "/nan.csv", e);
    Expectation equal = e;
    equal.equalRule = true;
    equal.value = 1;
    RequireSuccess(
      RunIn(program, dir, { "nan.nrrd", "--foregroundValue", "1", "--labels", "nan1.nrrd", "--csv", "nan1.csv" }));
    CheckOutputsAnyDimension(dir + "/nan.nrrd", dir + "/nan1.nrrd", dir + "/nan1.csv", equal);
    // The equal rule without a value: the type's maximum, as ITK's filter (255, 32767).
    MakeImage<unsigned char, 3>(dir + "/mask.nrrd", itk::Size<3>{ { 21, 15, 7 } }, { 0, 0, 255 }, 22);
    RequireSuccess(
      RunIn(program, dir, { "mask.nrrd", "--foregroundRule", "equal", "--labels", "max.nrrd", "--csv", "max.csv" }));
    equal.value = 255;
    CheckOutputsAnyDimension(dir + "/mask.nrrd", dir + "/max.nrrd", dir + "/max.csv", equal);
    MakeImage<short, 3>(dir + "/short.nrrd", itk::Size<3>{ { 21, 15, 7 } }, { 0, 255, 32767 }, 23);
    RequireSuccess(
      RunIn(program, dir, { "short.nrrd", "--foregroundRule", "equal", "--labels", "smax.nrrd", "--csv", "smax.csv" }));
    equal.value = 32767;
    CheckOutputsAnyDimension(dir + "/short.nrrd", dir + "/smax.nrrd", dir + "/smax.csv", equal);
    // A 0/255 mask under "equal 1" has no foreground: the run says why.
    const auto none =
      RunIn(program, dir, { "mask.nrrd", "--foregroundValue", "1", "--labels", "none.nrrd", "--csv", "none.csv" });
    RequireSuccess(none);
    Require(none.err.find("warning: no pixel is foreground") != std::string::npos &&
              none.err.find("0 .. 255") != std::string::npos,
            "no warning for a rule that matches no pixel: " + none.err);
    equal.value = 1;
    CheckOutputsAnyDimension(dir + "/mask.nrrd", dir + "/none.nrrd", dir + "/none.csv", equal);
    return 0;
  }
  if (scenario == "missing-input")
  {
    RequireCleanFailure(RunIn(program, dir, { "does-not-exist.nrrd", "--csv", "table.csv" }), "a missing input");
    // A folder: one line, no HDF5 diagnostics (no ImageIO probes it).
    MakeDirectory(dir + "/folder.nrrd");
    const auto folder = RunIn(program, dir, { "folder.nrrd", "--csv", "table.csv" });
    RequireCleanFailure(folder, "a folder as input");
    Require(folder.err.find("directory") != std::string::npos, "the folder is not named as such: " + folder.err);
    RequireCleanFailure(RunIn(program, dir, { dir, "--csv", "table.csv" }), "a folder without extension as input");
    WriteText(dir + "/photo.jpg", "not really a JPEG");
    RequireCleanFailure(RunIn(program, dir, { "photo.jpg", "--csv", "table.csv" }), "a JPEG input");
    const auto unknown = RunIn(program, dir, { "--no-such-option" });
    Require(unknown.exitCode == 2 && Lines(unknown.err).size() == 1, "an unknown option must exit with 2 and one line");
    Require(!Exists(dir + "/table.csv"), "a failed run left table.csv");
    return 0;
  }
  std::cerr << "unknown scenario " << scenario << "\n";
  return 2;
}

} // namespace

int
main(int argc, char * argv[])
{
  if (argc != 4)
  {
    std::cerr << "Usage: " << argv[0] << " PROGRAM WORKDIR SCENARIO\n";
    return 2;
  }
  const std::string dir = argv[2];
  try
  {
    FreshDirectory(dir);
    return RunScenario(argv[1], dir, argv[3]);
  }
  catch (const std::exception & error)
  {
    std::cerr << "FAILED (" << argv[3] << ", inputs and outputs kept in " << dir << "): " << error.what() << "\n";
    return 1;
  }
}
