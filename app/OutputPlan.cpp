// Which outputs a run writes, where, and whether their formats can hold them:
// all decided before the input's pixels are read.
#include "Analysis.h"

#include <stdexcept>

namespace ccaapp
{
namespace
{

/** Reserves an image output and returns where to write it; sets its format
 *  and what it is written with. */
std::string
AddImageOutput(OutputPlan &        plan,
               const std::string & path,
               Compression         asked,
               ImageFormat &       format,
               Compression &       compression,
               const std::string & role)
{
  format = ImageFormatOf(path, true);
  compression = CompressionOf(format, asked);
  auto companions = FilesWrittenFor(path, format, compression);
  companions.erase(companions.begin());
  return plan.transaction.Add(path, companions, false, role);
}

} // namespace

void
PlanOutputs(const AppOptions & options, OutputPlan & plan)
{
  if (!options.labelsPath.empty())
  {
    plan.labels = AddImageOutput(
      plan, options.labelsPath, options.compression, plan.labelsFormat, plan.labelsCompression, "--labels");
  }
  if (!options.saveInputPath.empty())
  {
    plan.saveInput = AddImageOutput(
      plan, options.saveInputPath, options.compression, plan.saveInputFormat, plan.saveInputCompression, "--saveInput");
  }
  if (!options.csvPath.empty())
  {
    plan.csv = plan.transaction.Add(options.csvPath, {}, true, "--csv");
  }
  if (!options.returnParameterFile.empty())
  {
    plan.returnParameters = plan.transaction.Add(options.returnParameterFile, {}, true, "--returnparameterfile");
  }
}

void
CheckInputIsNoOutput(const OutputPlan & plan, const std::string & input, const std::vector<std::string> & inputFiles)
{
  for (const auto & file : inputFiles)
  {
    if (plan.transaction.Replaces(file))
    {
      FailWriting(file,
                  "it is " + std::string(file == input ? "the input image" : "a data file of the input image") +
                    ", and also an output");
    }
  }
}

void
CheckOutputsCanHold(const AppOptions & options,
                    const OutputPlan & plan,
                    unsigned int       dimension,
                    PixelComponent     inputType)
{
  if (!plan.labels.empty())
  {
    // PNG stores labels as uint16; whether they fit is known after the analysis.
    CheckFormatCanHold(options.labelsPath,
                       plan.labelsFormat,
                       dimension,
                       plan.labelsFormat == ImageFormat::Png ? PixelComponent::UInt16 : PixelComponent::UInt32,
                       "the label image");
  }
  if (!plan.saveInput.empty())
  {
    CheckFormatCanHold(options.saveInputPath, plan.saveInputFormat, dimension, inputType, "the input image");
  }
}

std::uint64_t
AnalysisBytesPerPixel(const AppOptions & options)
{
  return options.labelsPath.empty() ? 0 : sizeof(std::uint32_t);
}

} // namespace ccaapp
