// Runs the filter on one image and writes the requested outputs.
#ifndef CudaLabelStatisticsApp_Analysis_h
#define CudaLabelStatisticsApp_Analysis_h

#include "Arguments.h"
#include "Progress.h"

#include "itkImage.h"

#include "cca/Types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ccaapp
{

struct RunSummary
{
  std::int64_t             components = 0;
  std::string              backendUsed;
  bool                     cudaAvailable = false;
  int                      dimension = 2;
  std::int64_t             size[3] = { 0, 0, 1 };
  double                   spacing[3] = { 1, 1, 1 };
  std::string              pixelType;      ///< the type the image was analysed as
  double                   readSeconds = 0;
  double                   filterSeconds = 0;
  double                   writeSeconds = 0;
  cca::StageTimes          stageTimes;
  std::vector<std::string> written; ///< paths of the files written
};

/** Reads the file as an itk::Image<TPixel, VDimension> and analyses it.
 *  Instantiated (one file each, to keep compiles small) for the types Dispatch.cpp reads. */
template <typename TPixel, unsigned int VDimension>
RunSummary
AnalyzeFile(const std::string & path, const AppOptions & options, const ProgressSink & progress);

/** Analyses an image already in memory. */
template <typename TPixel, unsigned int VDimension>
RunSummary
AnalyzeImage(itk::Image<TPixel, VDimension> * image, const AppOptions & options, const ProgressSink & progress);

/** Reads any supported file, choosing the pixel type and dimension from the file. */
RunSummary
AnalyzeAnyFile(const std::string & path, const AppOptions & options, const ProgressSink & progress);

} // namespace ccaapp

#endif
