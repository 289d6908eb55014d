// Runs the CudaLabelStatistics program on generated inputs and checks what it
// writes: the label image must equal ITK's ConnectedComponentImageFilter output
// (same raster-order numbering), the CSV must have one row per component with
// the right pixel counts, and the Slicer return file and XML must be well formed.
//
// Usage: CudaLabelStatisticsAppCheck PROGRAM WORKDIR SCENARIO
#include "itkConnectedComponentImageFilter.h"
#include "itkImageFileReader.h"
#include "itkImageFileWriter.h"
#include "itkImageIOFactory.h"
#include "itkImageRegionConstIterator.h"
#include "itkImageRegionIterator.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace
{

struct Failure : std::runtime_error
{
  using std::runtime_error::runtime_error;
};

void
Require(bool condition, const std::string & message)
{
  if (!condition)
    throw Failure(message);
}

std::string
ReadText(const std::string & path)
{
  std::ifstream      in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs the program with arguments; stdout and stderr go to files in the work dir.
int
RunProgram(const std::string & program, const std::string & workDir, const std::string & arguments)
{
  const std::string command = "cd '" + workDir + "' && '" + program + "' " + arguments + " > stdout.txt 2> stderr.txt";
  std::cout << "running: " << command << std::endl;
  const int status = std::system(command.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::cout << ReadText(workDir + "/stdout.txt") << ReadText(workDir + "/stderr.txt");
  return code;
}

// Random blocks of values from `values`; fixed seed so failures reproduce.
template <typename TPixel, unsigned int D>
void
MakeImage(const std::string & path, const itk::Size<D> & size, const std::vector<double> & values, unsigned seed)
{
  using ImageType = itk::Image<TPixel, D>;
  auto image = ImageType::New();
  image->SetRegions(size);
  image->Allocate();
  typename ImageType::SpacingType spacing;
  for (unsigned int d = 0; d < D; ++d)
    spacing[d] = 0.5 + d; // non-unit spacing must not change labels
  image->SetSpacing(spacing);
  std::mt19937                          generator(seed);
  std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
  for (itk::ImageRegionIterator<ImageType> it(image, image->GetLargestPossibleRegion()); !it.IsAtEnd(); ++it)
    it.Set(static_cast<TPixel>(values[pick(generator)]));
  auto writer = itk::ImageFileWriter<ImageType>::New();
  writer->SetInput(image);
  writer->SetFileName(path);
  writer->Update();
}

struct Expectation
{
  bool   fullyConnected = false;
  bool   equalRule = false; // foreground = (value == v), else value != v
  double value = 0;
  bool   perimeterColumns = true;
  bool   feretColumn = false;
  bool   orientedBoxColumns = false;
};

std::vector<std::string>
SplitCsvLine(const std::string & line)
{
  std::vector<std::string> cells;
  std::stringstream        stream(line);
  std::string              cell;
  while (std::getline(stream, cell, ','))
    cells.push_back(cell);
  return cells;
}

// Checks labels and CSV against ConnectedComponentImageFilter on the input's mask.
template <unsigned int D>
size_t
CheckOutputs(const std::string & input, const std::string & labelsPath, const std::string & csvPath, const Expectation & e)
{
  using RealImageType = itk::Image<double, D>;
  using MaskImageType = itk::Image<unsigned char, D>;
  using LabelImageType = itk::Image<unsigned int, D>;

  auto reader = itk::ImageFileReader<RealImageType>::New();
  reader->SetFileName(input);
  reader->Update();
  auto real = reader->GetOutput();
  auto mask = MaskImageType::New();
  mask->CopyInformation(real);
  mask->SetRegions(real->GetLargestPossibleRegion());
  mask->Allocate();
  itk::ImageRegionConstIterator<RealImageType> in(real, real->GetLargestPossibleRegion());
  itk::ImageRegionIterator<MaskImageType>      out(mask, mask->GetLargestPossibleRegion());
  for (; !in.IsAtEnd(); ++in, ++out)
    out.Set((in.Get() == e.value) == e.equalRule ? 1 : 0);

  auto reference = itk::ConnectedComponentImageFilter<MaskImageType, LabelImageType>::New();
  reference->SetInput(mask);
  reference->SetFullyConnected(e.fullyConnected);
  reference->Update();
  const size_t expectedCount = reference->GetObjectCount();

  auto labelsReader = itk::ImageFileReader<LabelImageType>::New();
  labelsReader->SetFileName(labelsPath);
  labelsReader->Update();
  auto labels = labelsReader->GetOutput();
  Require(labels->GetLargestPossibleRegion() == mask->GetLargestPossibleRegion(), "label image size differs from the input");

  std::map<unsigned int, size_t>                 counts;
  itk::ImageRegionConstIterator<LabelImageType> ours(labels, labels->GetLargestPossibleRegion());
  itk::ImageRegionConstIterator<LabelImageType> theirs(reference->GetOutput(), labels->GetLargestPossibleRegion());
  for (; !ours.IsAtEnd(); ++ours, ++theirs)
  {
    if (ours.Get() != theirs.Get())
    {
      std::ostringstream message;
      message << "label image differs from ConnectedComponentImageFilter at index " << ours.GetIndex() << ": "
              << ours.Get() << " vs " << theirs.Get();
      throw Failure(message.str());
    }
    if (ours.Get() != 0)
      ++counts[ours.Get()];
  }

  // The CSV: header, one row per component in label order.
  std::ifstream csv(csvPath);
  Require(csv.good(), "cannot read " + csvPath);
  std::string line;
  std::getline(csv, line);
  const auto header = SplitCsvLine(line);
  auto       column = [&header](const std::string & name) -> long {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name)
        return static_cast<long>(i);
    return -1;
  };
  Require(column("Label") == 0 && column("NumberOfPixels") == 1, "CSV header must start with Label,NumberOfPixels");
  for (const char * name : { "PhysicalSize", "Centroid_x", "BoundingBoxIndex_x", "BoundingBoxSize_x",
                             "NumberOfPixelsOnBorder", "PerimeterOnBorder", "PrincipalMoments_0", "PrincipalAxes_0_x",
                             "Elongation", "EquivalentSphericalRadius", "EquivalentSphericalPerimeter",
                             "EquivalentEllipsoidDiameter_0", "Flatness" })
    Require(column(name) >= 0, std::string("CSV lacks column ") + name);
  Require((column("Perimeter") >= 0) == e.perimeterColumns, "Perimeter column present iff perimeter computed");
  Require((column("Roundness") >= 0) == e.perimeterColumns, "Roundness column present iff perimeter computed");
  Require((column("FeretDiameter") >= 0) == e.feretColumn, "FeretDiameter column present iff requested");
  Require((column("OrientedBoundingBoxSize_0") >= 0) == e.orientedBoxColumns,
          "OrientedBoundingBox columns present iff requested");
  Require(column(D == 3 ? "Centroid_z" : "Centroid_y") >= 0 && column("Centroid_z") == (D == 3 ? column("Centroid_z") : -1),
          "one Centroid column per dimension");

  size_t rows = 0;
  while (std::getline(csv, line))
  {
    if (line.empty())
      continue;
    ++rows;
    const auto cells = SplitCsvLine(line);
    Require(cells.size() == header.size(), "CSV row " + std::to_string(rows) + " has a wrong number of cells");
    const auto label = std::stoul(cells[0]);
    Require(label == rows, "CSV rows must be labels 1..N in order; row " + std::to_string(rows) + " is " + cells[0]);
    Require(std::stoul(cells[1]) == counts[label],
            "NumberOfPixels of label " + cells[0] + " is " + cells[1] + ", the label image has " +
              std::to_string(counts[label]));
  }
  Require(rows == expectedCount,
          "CSV has " + std::to_string(rows) + " rows, ITK finds " + std::to_string(expectedCount) + " components");
  Require(counts.size() == expectedCount, "label image has a wrong number of labels");
  return expectedCount;
}

size_t
CheckOutputsAnyDimension(const std::string & input, const std::string & labels, const std::string & csv, const Expectation & e)
{
  auto io = itk::ImageIOFactory::CreateImageIO(input.c_str(), itk::IOFileModeEnum::ReadMode);
  Require(io != nullptr, "cannot read " + input);
  io->SetFileName(input);
  io->ReadImageInformation();
  return io->GetNumberOfDimensions() == 3 ? CheckOutputs<3>(input, labels, csv, e) : CheckOutputs<2>(input, labels, csv, e);
}

void
CheckReturnFile(const std::string & path, size_t components)
{
  const std::string text = ReadText(path);
  Require(text == "numberOfComponents = " + std::to_string(components) + "\n",
          "return parameter file reads '" + text + "'");
}

// Tags must nest; CDATA, comments and the <?xml?> declaration are skipped.
void
CheckXmlWellFormed(const std::string & xml)
{
  std::vector<std::string> open;
  size_t                   i = 0;
  while ((i = xml.find('<', i)) != std::string::npos)
  {
    if (xml.compare(i, 9, "<![CDATA[") == 0)
    {
      i = xml.find("]]>", i);
      Require(i != std::string::npos, "unterminated CDATA");
      continue;
    }
    const size_t end = xml.find('>', i);
    Require(end != std::string::npos, "unterminated tag");
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty() || tag[0] == '?' || tag[0] == '!')
      continue;
    if (tag.back() == '/')
      continue;
    if (tag[0] == '/')
    {
      Require(!open.empty() && open.back() == tag.substr(1), "mismatched closing tag </" + tag.substr(1) + ">");
      open.pop_back();
    }
    else
      open.push_back(tag.substr(0, tag.find(' ')));
  }
  Require(open.empty(), "unclosed tags in the XML");
}

int
RunScenario(const std::string & program, const std::string & dir, const std::string & scenario)
{
  Expectation e;
  if (scenario == "xml")
  {
    const auto start = std::chrono::steady_clock::now();
    Require(RunProgram(program, dir, "--xml") == 0, "--xml failed");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    Require(seconds < 5.0, "--xml took more than 5 s (Slicer's limit)");
    Require(ReadText(dir + "/stderr.txt").empty(), "--xml wrote to stderr: Slicer rejects the module");
    const std::string xml = ReadText(dir + "/stdout.txt");
    CheckXmlWellFormed(xml);
    for (const char * needle : { "<executable>", "<image>", "<image type=\"label\">", "<table", "<channel>input</channel>",
                                 "<channel>output</channel>", "<longflag>labels</longflag>", "<longflag>csv</longflag>",
                                 "<name>numberOfComponents</name>", "<longflag>fully-connected</longflag>",
                                 "<longflag>backend</longflag>", "<index>0</index>" })
      Require(xml.find(needle) != std::string::npos, std::string("XML lacks ") + needle);
    return 0;
  }
  if (scenario == "default2d")
  {
    Require(RunProgram(program, dir,
                       "--default-size 301x203 --density 0.5 --granularity 2 --seed 7 --save-input in.nrrd "
                       "--labels labels.nrrd --csv table.csv --returnparameterfile return.txt --backend auto") == 0,
            "program failed");
    const std::string out = ReadText(dir + "/stdout.txt");
    Require(out.find("<filter-progress>") != std::string::npos, "no progress lines with --returnparameterfile");
    Require(out.find("components:") != std::string::npos, "no summary");
    CheckReturnFile(dir + "/return.txt", CheckOutputsAnyDimension(dir + "/in.nrrd", dir + "/labels.nrrd", dir + "/table.csv", e));
    return 0;
  }
  if (scenario == "default3d")
  {
    Require(RunProgram(program, dir,
                       "--default-size 41x30x19 --density 0.1 --granularity 1 --fully-connected --feret "
                       "--oriented-bounding-box --no-perimeter --save-input in.nrrd --labels labels.nrrd --csv table.csv") == 0,
            "program failed");
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
    Require(RunProgram(program, dir,
                       "in.nrrd --foreground-value 2 --fully-connected --backend cpu --labels labels.mha --csv table.csv") == 0,
            "program failed");
    e.fullyConnected = true;
    e.equalRule = true;
    e.value = 2;
    CheckOutputsAnyDimension(dir + "/in.nrrd", dir + "/labels.mha", dir + "/table.csv", e);
    return 0;
  }
  if (scenario == "float2d")
  {
    MakeImage<float, 2>(dir + "/in.mha", itk::Size<2>{ { 64, 48 } }, { 0, 0, 0.5, 1.0 }, 12);
    Require(RunProgram(program, dir, "in.mha --labels labels.png --csv table.csv") == 0, "program failed");
    CheckOutputsAnyDimension(dir + "/in.mha", dir + "/labels.png", dir + "/table.csv", e);
    return 0;
  }
  if (scenario == "png2d")
  {
    MakeImage<unsigned char, 2>(dir + "/in.png", itk::Size<2>{ { 50, 70 } }, { 1, 1, 7, 255 }, 13);
    Require(RunProgram(program, dir, "in.png --background-value 1 --labels=labels.nrrd --csv=table.csv") == 0,
            "program failed");
    e.value = 1;
    CheckOutputsAnyDimension(dir + "/in.png", dir + "/labels.nrrd", dir + "/table.csv", e);
    return 0;
  }
  if (scenario == "slicer-cli")
  {
    // The command line Slicer builds from the XML: every parameter with its
    // value, the image last. --foreground-value must not override the rule.
    MakeImage<unsigned char, 3>(dir + "/in.nrrd", itk::Size<3>{ { 20, 16, 12 } }, { 0, 0, 1, 2 }, 14);
    Require(RunProgram(program, dir,
                       "--labels labels.nrrd --csv table.csv --foreground-value 1 --foreground-rule not-background "
                       "--background-value 0 --fully-connected --backend auto --returnparameterfile return.txt "
                       "in.nrrd") == 0,
            "program failed");
    Require(ReadText(dir + "/stdout.txt").find("<filter-progress>") != std::string::npos, "no progress lines");
    e.fullyConnected = true;
    CheckReturnFile(dir + "/return.txt", CheckOutputsAnyDimension(dir + "/in.nrrd", dir + "/labels.nrrd", dir + "/table.csv", e));
    return 0;
  }
  if (scenario == "missing-input")
  {
    Require(RunProgram(program, dir, "does-not-exist.nrrd --csv table.csv") == 1, "a missing input must exit with 1");
    Require(ReadText(dir + "/stderr.txt").find("error:") != std::string::npos, "no error message on stderr");
    Require(RunProgram(program, dir, "--no-such-option") == 2, "an unknown option must exit with 2");
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
  ::mkdir(dir.c_str(), 0755);
  try
  {
    return RunScenario(argv[1], dir, argv[3]);
  }
  catch (const std::exception & error)
  {
    std::cerr << "FAILED (" << argv[3] << ", inputs and outputs kept in " << dir << "): " << error.what() << "\n";
    return 1;
  }
}
