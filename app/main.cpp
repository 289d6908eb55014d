// CudaLabelStatistics: connected-component analysis of a 2D/3D image from the
// command line, and a 3D Slicer command-line module (--xml).
#include "Analysis.h"
#include "Arguments.h"
#include "DefaultImage.h"
#include "SlicerXml.h"

#include "itkMacro.h"

#include "cca/Engine.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#ifndef CCA_APP_VERSION
#  define CCA_APP_VERSION "unknown"
#endif

namespace
{

using ccaapp::AppOptions;
using ccaapp::RunSummary;

// Default output names used when the program runs on its generated image.
const char * const DefaultLabelsPath = "CudaLabelStatistics-labels.nrrd";
const char * const DefaultCsvPath = "CudaLabelStatistics-components.csv";

RunSummary
RunOnDefaultImage(const AppOptions & options, const ccaapp::ProgressSink & progress)
{
  RunSummary summary;
  if (options.defaultDimension == 3)
  {
    auto image = ccaapp::MakeRandomBinaryImage<3>(
      options.defaultSize, options.defaultDensity, options.defaultGranularity, options.defaultSeed);
    summary = ccaapp::AnalyzeImage<std::uint8_t, 3>(image, options, progress);
  }
  else
  {
    auto image = ccaapp::MakeRandomBinaryImage<2>(
      options.defaultSize, options.defaultDensity, options.defaultGranularity, options.defaultSeed);
    summary = ccaapp::AnalyzeImage<std::uint8_t, 2>(image, options, progress);
  }
  summary.pixelType = "uint8";
  return summary;
}

std::string
Milliseconds(double seconds)
{
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(1);
  text << seconds * 1000.0 << " ms";
  return text.str();
}

void
PrintSummary(const AppOptions & options, const RunSummary & summary, double totalSeconds)
{
  std::ostringstream out;
  std::int64_t       pixels = 1;
  std::ostringstream size;
  for (int d = 0; d < summary.dimension; ++d)
  {
    size << (d ? " x " : "") << summary.size[d];
    pixels *= summary.size[d];
  }
  out << "CudaLabelStatistics " << CCA_APP_VERSION << "\n";
  if (options.input.empty())
  {
    out << "input:       generated " << size.str() << " random binary image (MT19937 seed " << options.defaultSeed
        << ", density " << options.defaultDensity << ", granularity " << options.defaultGranularity << ")\n";
  }
  else
  {
    out << "input:       " << options.input << ": " << summary.dimension << "D, " << size.str() << " (read as "
        << summary.pixelType << ")\n";
  }
  out << "foreground:  ";
  if (options.foregroundMode == ccaapp::ForegroundMode::EqualTo)
    out << "pixel == " << (options.foregroundValue ? ccaapp::ToString(*options.foregroundValue) : "the type's maximum");
  else
    out << "pixel != " << ccaapp::ToString(options.backgroundValue);
  const int neighbours =
    summary.dimension == 2 ? (options.fullyConnected ? 8 : 4) : (options.fullyConnected ? 26 : 6);
  out << ", " << neighbours << "-connectivity\n";
  out << "backend:     " << summary.backendUsed << " (requested " << options.backend;
  if (options.backend == "auto" && summary.backendUsed == "cpu" && !summary.cudaAvailable)
    out << (cca::Engine::CudaCompiledIn() ? "; no usable CUDA device" : "; this build has no CUDA backend");
  out << ")\n";
  out << "components:  " << summary.components << "\n";
  const auto & t = summary.stageTimes;
  out << "time:        filter " << Milliseconds(summary.filterSeconds) << " (engine " << Milliseconds(t.totalMs / 1000)
      << ": labeling " << Milliseconds(t.labelMs / 1000) << ", features " << Milliseconds(t.featuresMs / 1000);
  if (summary.backendUsed == "cuda")
    out << ", upload " << Milliseconds(t.uploadMs / 1000) << ", download " << Milliseconds(t.downloadMs / 1000);
  out << ")";
  if (!options.input.empty())
    out << ", read " << Milliseconds(summary.readSeconds);
  out << ", write " << Milliseconds(summary.writeSeconds) << ", total " << Milliseconds(totalSeconds) << "\n";
  if (summary.filterSeconds > 0)
  {
    out.precision(3);
    out << "throughput:  " << pixels / summary.filterSeconds / 1e6 << " Mpixel/s through the filter\n";
  }
  for (const auto & path : summary.written)
    out << "wrote:       " << path << "\n";
  std::cout << out.str() << std::flush;
}

void
WriteReturnParameters(const std::string & path, const RunSummary & summary)
{
  std::ofstream out(path);
  out << "numberOfComponents = " << summary.components << "\n";
  if (!out)
    throw std::runtime_error("cannot write the return parameter file '" + path + "'");
}

} // namespace

int
main(int argc, char * argv[])
{
  const auto start = std::chrono::steady_clock::now();
  AppOptions options;
  try
  {
    options = ccaapp::ParseArguments(argc, argv);
  }
  catch (const ccaapp::UsageError & error)
  {
    std::cerr << "error: " << error.what() << " (see CudaLabelStatistics --help)\n";
    return 2;
  }
  if (options.xml)
  {
    std::cout << ccaapp::SlicerXmlDescription(CCA_APP_VERSION);
    return 0;
  }
  if (options.help)
  {
    std::cout << ccaapp::UsageText(argv[0]);
    return 0;
  }
  if (options.version)
  {
    std::cout << "CudaLabelStatistics " << CCA_APP_VERSION << "\n";
    return 0;
  }

  // Slicer always passes --returnparameterfile: show progress there.
  const ccaapp::ProgressSink progress(options.progress || !options.returnParameterFile.empty());
  try
  {
    if (options.input.empty() && options.labelsPath.empty() && options.csvPath.empty())
    {
      options.labelsPath = DefaultLabelsPath;
      options.csvPath = DefaultCsvPath;
    }
    progress.Begin("CudaLabelStatistics", "Connected-component analysis");
    progress.Report(0.0);
    const RunSummary summary =
      options.input.empty() ? RunOnDefaultImage(options, progress) : ccaapp::AnalyzeAnyFile(options.input, options, progress);
    if (!options.returnParameterFile.empty())
    {
      WriteReturnParameters(options.returnParameterFile, summary);
    }
    progress.Report(1.0);
    const double totalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    progress.End("CudaLabelStatistics", totalSeconds);
    if (!options.quiet)
    {
      PrintSummary(options, summary, totalSeconds);
    }
  }
  catch (const itk::ExceptionObject & error)
  {
    std::cerr << "error: " << error.GetDescription() << "\n";
    return 1;
  }
  catch (const std::exception & error)
  {
    std::cerr << "error: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
