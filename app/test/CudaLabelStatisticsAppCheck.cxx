// Runs the CudaLabelStatistics program on generated inputs and checks what it
// writes: the label image must equal ITK's ConnectedComponentImageFilter output
// (same raster-order numbering), the CSV must have one row per component with
// the right pixel counts, the Slicer return file must hold the count.
//
// Usage: CudaLabelStatisticsAppCheck PROGRAM WORKDIR SCENARIO
#include "AppTestSupport.h"

namespace
{

using namespace ccaapptest;

RunResult
RunIn(const std::string & program, const std::string & dir, std::vector<std::string> arguments)
{
  RunOptions options;
  options.argv = { program };
  options.argv.insert(options.argv.end(), arguments.begin(), arguments.end());
  options.workDir = dir;
  return RunAndShow(options);
}

void
RequireSuccess(const RunResult & result)
{
  Require(!result.Signalled() && result.exitCode == 0, "program failed: " + result.command);
}

int
RunScenario(const std::string & program, const std::string & dir, const std::string & scenario)
{
  Expectation e;
  if (scenario == "default2d")
  {
    const auto result = RunIn(program, dir,
                              { "--defaultSize", "301x203", "--density", "0.5", "--granularity", "2", "--seed", "7",
                                "--saveInput", "in.nrrd", "--labels", "labels.nrrd", "--csv", "table.csv",
                                "--returnparameterfile", "return.txt", "--backend", "auto" });
    RequireSuccess(result);
    Require(result.out.find("<filter-progress>") != std::string::npos, "no progress lines with --returnparameterfile");
    Require(result.out.find("components:") != std::string::npos, "no summary");
    CheckReturnFile(dir + "/return.txt",
                    CheckOutputsAnyDimension(dir + "/in.nrrd", dir + "/labels.nrrd", dir + "/table.csv", e));
    return 0;
  }
  if (scenario == "default3d")
  {
    // The dashed spellings are aliases of the camelCase options.
    RequireSuccess(RunIn(program, dir,
                         { "--default-size", "41x30x19", "--density", "0.1", "--granularity", "1", "--fully-connected",
                           "--feret", "--oriented-bounding-box", "--no-perimeter", "--save-input", "in.nrrd", "--labels",
                           "labels.nrrd", "--csv", "table.csv" }));
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
    RequireSuccess(RunIn(program, dir,
                         { "in.nrrd", "--foregroundValue", "2", "--fullyConnected", "--backend", "cpu", "--labels",
                           "labels.mha", "--csv", "table.csv" }));
    e.fullyConnected = true;
    e.equalRule = true;
    e.value = 2;
    CheckOutputsAnyDimension(dir + "/in.nrrd", dir + "/labels.mha", dir + "/table.csv", e);
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
    RequireSuccess(RunIn(program, dir, { "in.png", "--backgroundValue", "1", "--labels=labels.nrrd", "--csv=table.csv" }));
    e.value = 1;
    CheckOutputsAnyDimension(dir + "/in.png", dir + "/labels.nrrd", dir + "/table.csv", e);
    return 0;
  }
  if (scenario == "missing-input")
  {
    RequireCleanFailure(RunIn(program, dir, { "does-not-exist.nrrd", "--csv", "table.csv" }), "a missing input");
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
