// Runs the filter on one image and writes the requested outputs.
#ifndef CudaLabelStatisticsApp_Analysis_h
#define CudaLabelStatisticsApp_Analysis_h

#include "Arguments.h"
#include "ImageFormats.h"
#include "OutputFiles.h"
#include "Progress.h"

#include "itkImage.h"

#include "cca/Types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ccaapp
{

/** Where each requested output is written while the run lasts (temporary
 *  files of `transaction`, renamed into place by Commit). Empty: not requested. */
struct OutputPlan
{
  OutputTransaction transaction;
  std::string       labels;
  std::string       csv;
  std::string       saveInput;
  std::string       returnParameters;
  ImageFormat       labelsFormat = ImageFormat::Nrrd;
  ImageFormat       saveInputFormat = ImageFormat::Nrrd;
  Compression       labelsCompression = Compression::None; ///< what --labels is written with (CompressionOf)
  Compression       saveInputCompression = Compression::None;
};

/** Reserves every output of the options (refusing unsupported formats,
 *  outputs that are the same file, unwritable folders) before any work. */
void
PlanOutputs(const AppOptions & options, OutputPlan & plan);

/** Refuses an input file (or its data file) that is also an output. */
void
CheckInputIsNoOutput(const OutputPlan & plan, const std::string & input, const std::vector<std::string> & inputFiles);

/** Refuses outputs whose format cannot hold the image: 3D into PNG, a pixel
 *  type the format lacks. Called once the input's header is known, before reading its pixels. */
void
CheckOutputsCanHold(const AppOptions & options,
                    const OutputPlan & plan,
                    unsigned int       dimension,
                    PixelComponent     inputType);

/** Bytes of memory the analysis of `pixels` pixels needs besides the input:
 *  the uint32 label image when requested (and a uint8 mask for real inputs). */
std::uint64_t
AnalysisBytesPerPixel(const AppOptions & options);

struct RunSummary
{
  std::int64_t             components = 0;
  std::string              backendUsed;
  bool                     cudaAvailable = false;
  int                      dimension = 2;
  std::int64_t             size[3] = { 0, 0, 1 };
  std::string              pixelType;            ///< the type the image was analysed as
  double                   readSeconds = 0;      ///< reading the input, or generating the default image
  double                   filterSeconds = 0;    ///< the filter's Update(): engine, LabelMap, label image
  double                   labelMapSeconds = 0;  ///< of filterSeconds: building the LabelMap
  double                   saveInputSeconds = 0; ///< writing --saveInput
  double                   labelsSeconds = 0;    ///< writing --labels (and checking a file ITK wrote)
  Compression              labelsCompression = Compression::None; ///< what --labels was written with
  double                   csvSeconds = 0;         ///< writing --csv (beside --labels, on its own thread)
  double                   outputsSeconds = 0;     ///< writing --labels and --csv, wall time
  double                   cudaStartupSeconds = 0; ///< CUDA's start-up on its thread, overlapping the read
  double                   cudaWaitSeconds = 0;    ///< what the analysis waited for it
  double                   labelMemorySeconds = 0; ///< the label image's memory made ready before that wait
  double                   commitSeconds = 0;      ///< the outputs flushed to disk and renamed into place
  bool                     cudaStartupRan = false;
  cca::StageTimes          stageTimes;
  std::vector<std::string> warnings; ///< printed as "warning: ..." lines
  /** The analysed image and the filter (its LabelMap, its label image),
   *  for the caller to release: the program releases them on a thread of
   *  its own, not waited for, while the outputs are flushed to disk, where
   *  destroying them as the analysis returned took 137-170 ms on 2 cores
   *  (512^3, 124,000 objects, labels and CSV written:
   *  benchmark/results/dev-program-release). */
  std::vector<itk::LightObject::Pointer> analysisObjects;
};

/** Analyses an image in memory and writes the plan's image and table outputs. */
template <typename TPixel, unsigned int VDimension>
RunSummary
AnalyzeImage(itk::Image<TPixel, VDimension> * image,
             const AppOptions &               options,
             OutputPlan &                     plan,
             const ProgressSink &             progress);

/** Reads a file (checked first, see ImageFileCheck) as itk::Image<TPixel, VDimension>
 *  with the ImageIO of its format, and analyses it. Instantiated (one file
 *  each, to keep compiles small) for the types Dispatch.cpp reads. */
template <typename TPixel, unsigned int VDimension>
RunSummary
AnalyzeFile(const std::string &  path,
            ImageFormat          format,
            const AppOptions &   options,
            OutputPlan &         plan,
            const ProgressSink & progress);

/** Reads any supported file, choosing the pixel type and dimension from its header. */
RunSummary
AnalyzeAnyFile(const std::string & path, const AppOptions & options, OutputPlan & plan, const ProgressSink & progress);

} // namespace ccaapp

#endif
