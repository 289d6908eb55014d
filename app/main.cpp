// CudaLabelStatistics: connected-component analysis of a 2D/3D image from the
// command line, and a 3D Slicer command-line module (--xml).
//
// Every run ends in one of two ways: all requested outputs complete and exit
// status 0, or one line "error: ..." on stderr, exit status 1 (2 for an
// unusable command line) and no output file created or changed.
#include "Analysis.h"
#include "Arguments.h"
#include "CudaStartup.h"
#include "DefaultImage.h"
#include "MemoryBudget.h"
#include "OutputFiles.h"
#include "SlicerXml.h"
#include "StderrCapture.h"

#include "itkMacro.h"
#include "itkMultiThreaderBase.h"
#include "itkOutputWindow.h"

#include "cca/Engine.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <sstream>
#include <system_error>
#include <thread>
#include <vector>

#ifndef CCA_APP_VERSION
#  define CCA_APP_VERSION "unknown"
#endif

namespace
{

using ccaapp::AppOptions;
using ccaapp::OutputPlan;
using ccaapp::RunSummary;

// Default output names used when the program runs on its generated image.
const char * const DefaultLabelsPath = "CudaLabelStatistics-labels.nrrd";
const char * const DefaultCsvPath = "CudaLabelStatistics-components.csv";

/** ITK's warnings, one line each, marked as warnings. */
class OneLineOutputWindow : public itk::OutputWindow
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(OneLineOutputWindow);
  using Self = OneLineOutputWindow;
  using Superclass = itk::OutputWindow;
  using Pointer = itk::SmartPointer<Self>;
  itkNewMacro(Self);

  void
  DisplayText(const char * text) override
  {
    std::cerr << "warning: " << ccaapp::OneLine(text ? text : "") << "\n";
  }

protected:
  OneLineOutputWindow() = default;
};

/** Starts ITK's thread pool with as many threads as can start. ITK 5.2's
 *  ThreadPool ends the process (std::terminate) when one of its threads
 *  cannot be created (a thread stack beyond ulimit -v, a thread limit): the
 *  threads are tried here first, and ITK is given only as many as started. */
void
StartItkThreads()
{
  const unsigned int wanted = itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads();
  unsigned int       started = 0;
  {
    std::vector<std::thread> trial;
    trial.reserve(wanted);
    try
    {
      for (; started < wanted; ++started)
      {
        trial.emplace_back([] {});
      }
    }
    catch (const std::system_error &)
    {}
    for (auto & thread : trial)
    {
      thread.join();
    }
  }
  if (started == 0)
  {
    // Not one thread can start: ITK's threader that runs one work unit on the calling thread.
    itk::MultiThreaderBase::SetGlobalDefaultThreader(itk::MultiThreaderBase::ThreaderEnum::Platform);
    started = 1;
  }
  if (started < wanted)
  {
    itk::MultiThreaderBase::SetGlobalMaximumNumberOfThreads(started);
    itk::MultiThreaderBase::SetGlobalDefaultNumberOfThreads(started);
  }
  itk::MultiThreaderBase::New(); // the pool's threads start now, not inside an analysis
}

RunSummary
RunOnDefaultImage(const AppOptions & options, OutputPlan & plan, const ccaapp::ProgressSink & progress)
{
  const auto dimension = static_cast<unsigned int>(options.defaultDimension);
  ccaapp::CheckOutputsCanHold(options, plan, dimension, ccaapp::PixelComponent::UInt8);
  const std::uint64_t pixels =
    ccaapp::SaturatingProduct(ccaapp::SaturatingProduct(static_cast<std::uint64_t>(options.defaultSize[0]),
                                                        static_cast<std::uint64_t>(options.defaultSize[1])),
                              static_cast<std::uint64_t>(options.defaultSize[2]));
  ccaapp::RequireMemory(ccaapp::SaturatingProduct(pixels, 1 + ccaapp::AnalysisBytesPerPixel(options)),
                        "the generated image");
  RunSummary summary;
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&start] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  if (dimension == 3)
  {
    auto image = ccaapp::MakeRandomBinaryImage<3>(
      options.defaultSize, options.defaultDensity, options.defaultGranularity, options.defaultSeed);
    const double made = seconds();
    summary = ccaapp::AnalyzeImage<std::uint8_t, 3>(image, options, plan, progress);
    summary.readSeconds = made;
  }
  else
  {
    auto image = ccaapp::MakeRandomBinaryImage<2>(
      options.defaultSize, options.defaultDensity, options.defaultGranularity, options.defaultSeed);
    const double made = seconds();
    summary = ccaapp::AnalyzeImage<std::uint8_t, 2>(image, options, plan, progress);
    summary.readSeconds = made;
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
  double             pixels = 1;
  std::ostringstream size;
  for (int d = 0; d < summary.dimension; ++d)
  {
    size << (d ? " x " : "") << summary.size[d];
    pixels *= static_cast<double>(summary.size[d]);
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
  const int neighbours = summary.dimension == 2 ? (options.fullyConnected ? 8 : 4) : (options.fullyConnected ? 26 : 6);
  out << ", " << neighbours << "-connectivity\n";
  if (options.labelInput)
  {
    out << "objects:     "
        << (options.splitLabels ? "each connected component of each label value" : "each label value")
        << " (label input)\n";
  }
  if (!options.featureImage.empty())
  {
    out << "feature:     " << options.featureImage << "\n";
  }
  out << "backend:     " << summary.backendUsed << " (requested " << options.backend;
  if (options.backend == "auto" && summary.backendUsed == "cpu" && !summary.cudaAvailable)
    out << (cca::Engine::CudaCompiledIn() ? "; no usable CUDA device" : "; this build has no CUDA backend");
  out << ")\n";
  out << "components:  " << summary.components;
  if (options.minimumSize > 0 || options.maximumSize > 0 || options.minimumPhysicalSize > 0 ||
      options.maximumPhysicalSize > 0 || options.keepLargest > 0)
  {
    out << " (after the size selection)";
  }
  out << "\n";
  // Every stage, so that what a run waits for is visible (issue 10), and
  // they add up to the total: the files reach the disk when the outputs
  // are committed (ITK's writers do not flush them), and "other" is the
  // rest (threads started, outputs planned). The analysis's objects are
  // released beside the flush and not waited for (ReleaseInBackground): the
  // process's exit, after this summary, takes back what they still hold.
  const auto & t = summary.stageTimes;
  const double writeSeconds = summary.saveInputSeconds + summary.outputsSeconds;
  const double otherSeconds = totalSeconds - summary.readSeconds - summary.labelMemorySeconds -
                              summary.cudaWaitSeconds - summary.filterSeconds - writeSeconds - summary.commitSeconds;
  out << "time:        total " << Milliseconds(totalSeconds) << ": " << (options.input.empty() ? "generate " : "read ")
      << Milliseconds(summary.readSeconds);
  if (summary.labelMemorySeconds >= 0.0005)
    out << ", label image memory " << Milliseconds(summary.labelMemorySeconds);
  if (summary.cudaStartupRan)
    out << ", waiting for CUDA " << Milliseconds(summary.cudaWaitSeconds);
  out << ", analysis " << Milliseconds(summary.filterSeconds) << ", write " << Milliseconds(writeSeconds)
      << ", sync and rename " << Milliseconds(summary.commitSeconds) << ", other "
      << Milliseconds(std::max(0.0, otherSeconds)) << "\n";
  out << "analysis:    engine " << Milliseconds(t.totalMs / 1000) << " (labeling " << Milliseconds(t.labelMs / 1000)
      << ", features " << Milliseconds(t.featuresMs / 1000);
  if (summary.backendUsed == "cuda")
    out << ", upload " << Milliseconds(t.uploadMs / 1000) << ", download " << Milliseconds(t.downloadMs / 1000);
  // With a label image the filter builds the LabelMap while the engine
  // copies the label image: then only what outlasts the copy adds.
  const bool labelMapBesideCopy = !options.labelsPath.empty();
  out << "), LabelMap " << Milliseconds(summary.labelMapSeconds)
      << (labelMapBesideCopy ? " (beside the label image's copy)" : "") << ", rest of the filter "
      << Milliseconds(std::max(
           0.0, summary.filterSeconds - t.totalMs / 1000 - (labelMapBesideCopy ? 0.0 : summary.labelMapSeconds)))
      << "\n";
  if (summary.cudaStartupRan)
  {
    out << "cuda:        start-up " << Milliseconds(summary.cudaStartupSeconds) << " on its own thread while "
        << (options.input.empty() ? "generating" : "reading") << " the input; the analysis waited "
        << Milliseconds(summary.cudaWaitSeconds) << " for it\n";
  }
  if (writeSeconds > 0)
  {
    out << "write:       ";
    const char * separator = "";
    if (!options.labelsPath.empty())
    {
      out << "labels " << Milliseconds(summary.labelsSeconds) << " (compression "
          << ccaapp::CompressionName(summary.labelsCompression) << ")";
      separator = ", ";
    }
    if (!options.csvPath.empty())
    {
      out << separator << "CSV " << Milliseconds(summary.csvSeconds)
          << (options.labelsPath.empty() ? "" : " (beside the labels)");
      separator = ", ";
    }
    if (!options.saveInputPath.empty())
    {
      out << separator << "input copy " << Milliseconds(summary.saveInputSeconds);
    }
    out << "\n";
  }
  if (summary.filterSeconds > 0)
  {
    out.precision(3);
    out << "throughput:  " << pixels / summary.filterSeconds / 1e6 << " Mpixel/s through the filter\n";
  }
  for (const std::string * path :
       { &options.saveInputPath, &options.labelsPath, &options.csvPath, &options.returnParameterFile })
  {
    if (!path->empty())
      out << "wrote:       " << *path << "\n";
  }
  std::cout << out.str() << std::flush;
}

void
WriteReturnParameters(const std::string & path, const std::string & displayPath, const RunSummary & summary)
{
  ccaapp::CheckedFile file(path, displayPath);
  file.Write("numberOfComponents = " + std::to_string(summary.components) + "\n");
  file.Finish();
}

/** Ends the program without running the libraries' exit handlers: after a
 *  failure inside ITK (a thread that could not start, an allocation that
 *  failed) their static destructors can crash, and a signal must never end
 *  the program. Every output is complete or removed by then, and the
 *  standard streams are flushed here. */
[[noreturn]] void
Exit(int status)
{
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  std::_Exit(status);
}

/** Releases the analysis's objects (RunSummary::analysisObjects) on a
 *  thread of its own that nothing waits for: freeing them (a LabelMap's
 *  objects, the filter's cached result, the images' pages) overlaps the
 *  outputs' flush to disk and the summary, and what is still held when the
 *  program ends (Exit: no destructor runs there) goes back with the rest of
 *  the process. Waiting for it had cost 125-197 ms after a short flush on
 *  the H200 (benchmark/results/h200-idle-device-states call 5). Here at once
 *  if no thread can start. */
void
ReleaseInBackground(std::vector<itk::LightObject::Pointer> && objects)
{
  try
  {
    std::thread([held = std::move(objects)]() mutable { held.clear(); }).detach();
  }
  catch (const std::system_error &)
  {
    // No thread: the lambda that held the objects released them as it went.
  }
}

[[noreturn]] void
Fail(const std::string & message)
{
  std::cerr.clear();
  std::cerr << "error: " << ccaapp::OneLine(message, 1000) << "\n";
  Exit(1);
}

} // namespace

int
main(int argc, char * argv[])
{
  const auto start = std::chrono::steady_clock::now();
  // Write errors must come back as errors: a closed pipe (SIGPIPE) or the
  // file size limit (SIGXFSZ) would otherwise end the program by a signal.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
  ccaapp::InstallInterruptCleanup();
  itk::OutputWindow::SetInstance(OneLineOutputWindow::New());

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

  StartItkThreads();
  // Slicer always passes --returnparameterfile: show progress there.
  const ccaapp::ProgressSink progress(options.progress || !options.returnParameterFile.empty());
  RunSummary                 summary;
  try
  {
    if (options.input.empty() && options.labelsPath.empty() && options.csvPath.empty())
    {
      options.labelsPath = DefaultLabelsPath;
      options.csvPath = DefaultCsvPath;
    }
    OutputPlan plan;
    ccaapp::PlanOutputs(options, plan);
    ccaapp::StartCudaInBackground(options.backend, options.cudaDevice);
    progress.Begin("CudaLabelStatistics", "Connected-component analysis");
    progress.Report(0.0);
    summary = options.input.empty() ? RunOnDefaultImage(options, plan, progress)
                                    : ccaapp::AnalyzeAnyFile(options.input, options, plan, progress);
    if (!plan.returnParameters.empty())
    {
      WriteReturnParameters(plan.returnParameters, options.returnParameterFile, summary);
    }
    ReleaseInBackground(std::move(summary.analysisObjects));
    const auto commitStart = std::chrono::steady_clock::now();
    plan.transaction.Commit();
    summary.commitSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - commitStart).count();
  }
  catch (const itk::ExceptionObject & error)
  {
    // itkExceptionMacro's "ITK ERROR: Class(0x...): " names an object's
    // address, nothing a user can act on: the reason alone.
    std::string description = error.GetDescription();
    const auto  reason = description.find("): ");
    if (description.rfind("ITK ERROR: ", 0) == 0 && reason != std::string::npos)
    {
      description.erase(0, reason + 3);
    }
    Fail(description);
  }
  catch (const std::bad_alloc &)
  {
    Fail("out of memory");
  }
  catch (const std::system_error & error)
  {
    Fail(std::string("the system refused a resource: ") + error.what());
  }
  catch (const std::exception & error)
  {
    Fail(error.what());
  }
  progress.Report(1.0);
  const double totalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.End("CudaLabelStatistics", totalSeconds);
  for (const auto & warning : summary.warnings)
  {
    std::cerr << "warning: " << ccaapp::OneLine(warning, 1000) << "\n";
  }
  if (!options.quiet)
  {
    PrintSummary(options, summary, totalSeconds);
  }
  Exit(0);
}
