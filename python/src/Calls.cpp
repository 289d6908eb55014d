// analyze and label (Calls.h): the steps every call shares (the engine's
// input, the report of the run) and each call's own.
#include "Calls.h"

#include "Choices.h"
#include "Columns.h"
#include "EnginePool.h"
#include "Errors.h"

#include "cca/BackgroundWork.h"
#include "cca/Engine.h"
#include "cca/ShapeAttributes.h"

#include <chrono>
#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace ccapython
{
namespace
{

/** Sets options.objects, intensity and selection from `arguments`. */
void
ApplyObjectArguments(const ObjectArguments & arguments, const cca::ImageView & view, cca::Options & options)
{
  options.objects = ObjectsOf(arguments.objects);
  if (arguments.featureImage)
  {
    // Host or CUDA memory: cca::ValidateInput checks the device against the image's and the backend.
    const cca::ImageView feature = ViewOf(*arguments.featureImage, true);
    if (feature.dimension != view.dimension || feature.size[0] != view.size[0] || feature.size[1] != view.size[1] ||
        feature.size[2] != view.size[2])
    {
      ThrowValue("the feature image must have the image's shape");
    }
    options.intensity.featureImage = feature;
    options.intensity.weightedMoments = true;
    options.intensity.histogram = cca::StatisticsLabelMapHistogram(feature.pixelType, arguments.histogramBins);
  }
  options.selection.minimumPixels = arguments.minimumPixels;
  options.selection.maximumPixels = arguments.maximumPixels;
  options.selection.keepLargest = arguments.keepLargest;
  options.selection.orderBySize = arguments.orderBySize;
}

/** The engine's view of the image and the options every call shares; the
 *  label image goes to `labels` when given (`name` in messages). */
std::pair<cca::ImageView, cca::Options>
EngineInput(const RunArguments & arguments, const std::optional<WritableArray> & labels, const char * name)
{
  const cca::ImageView view = ViewOf(arguments.image);
  cca::Options         options;
  options.foregroundRule = arguments.foregroundEqual ? cca::ForegroundRule::EqualTo : cca::ForegroundRule::NotEqualTo;
  options.foregroundValue = ForegroundBits(arguments.value, arguments.image.dtype());
  options.connectivity = arguments.fullyConnected ? cca::Connectivity::Full : cca::Connectivity::Face;
  options.backend = BackendOf(arguments.backend);
  options.cudaDevice = arguments.cudaDevice;
  options.algorithm = AlgorithmOf(arguments.algorithm);
  options.numberOfThreads = arguments.threads;
  if (arguments.stream)
  {
    options.useCallerStream = true;
    options.cudaStream = *arguments.stream;
  }
  if (labels)
  {
    options.labelImageType = CheckLabelDestination(*labels, view, name);
    options.labelImage = labels->data();
    options.labelImageMemory = view.memory;
  }
  return { view, options };
}

/** What every call reports besides its own results: the count, the backend
 *  that ran, the engine's stage times, its warnings and the transfers. */
nb::dict
RunReport(const cca::Result & result, const cca::ImageView & view)
{
  nb::dict out;
  out["component_count"] = result.componentCount;
  out["backend"] = result.backendUsed == cca::Backend::Cuda ? "cuda" : "cpu";
  nb::dict times;
  times["upload_ms"] = result.times.uploadMs;
  times["label_ms"] = result.times.labelMs;
  times["features_ms"] = result.times.featuresMs;
  times["download_ms"] = result.times.downloadMs;
  times["total_ms"] = result.times.totalMs;
  out["times"] = times;
  nb::list warnings;
  for (const std::string & warning : result.warnings)
  {
    warnings.append(nb::str(warning.c_str()));
  }
  out["warnings"] = warnings;
  out["data_pointer"] = reinterpret_cast<std::uintptr_t>(view.data);
  out["bytes_copied_to_device"] = result.bytesCopiedToDevice;
  out["bytes_copied_to_host"] = result.bytesCopiedToHost;
  return out;
}

} // namespace

nb::dict
Analyze(const RunArguments &         arguments,
        const ObjectArguments &      objects,
        std::optional<WritableArray> labels,
        std::array<double, 3>        spacing,
        std::array<double, 3>        origin,
        std::array<double, 9>        direction,
        std::array<std::int64_t, 3>  regionIndex,
        bool                         perimeter,
        bool                         feretDiameter,
        bool                         orientedBoundingBox,
        bool                         lines)
{
  auto [view, options] = EngineInput(arguments, labels, "the label image");
  ApplyObjectArguments(objects, view, options);
  cca::ShapeAttributeOptions attributeOptions;
  attributeOptions.perimeter = perimeter;
  attributeOptions.feretDiameter = feretDiameter;
  attributeOptions.orientedBoundingBox = orientedBoundingBox;
  options.computeRuns = lines || feretDiameter || orientedBoundingBox;

  cca::ImageGeometry geometry;
  geometry.dimension = view.dimension;
  for (int i = 0; i < 3; ++i)
  {
    geometry.spacing[i] = spacing[i];
    geometry.origin[i] = origin[i];
    geometry.regionIndex[i] = regionIndex[i];
    for (int j = 0; j < 3; ++j)
    {
      geometry.direction[i][j] = direction[3 * i + j];
    }
  }
  for (int i = 0; i < view.dimension; ++i)
  {
    if (!(spacing[i] > 0))
    {
      ThrowValue("spacing must be positive");
    }
  }

  // Wall times of the host's stages (they grow with the number of
  // components, not of pixels).
  using Clock = std::chrono::steady_clock;
  const auto milliseconds = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  auto                         worker = EnginePool::Instance().Borrow();
  cca::Result &                result = worker->result;
  std::unique_ptr<ColumnTable> table;
  double                       attributesMs = 0;
  const int                    dimension = view.dimension; // a structured binding: not captured in C++17
  const auto                   computeAttributes = [&] {
    const Clock::time_point start = Clock::now();
    table = std::make_unique<ColumnTable>(dimension, attributeOptions, result.componentCount);
    cca::ComputeShapeAttributes(
      result,
      geometry,
      attributeOptions,
      [&table](std::int64_t index, const cca::ShapeAttributes & row) { table->Store(index, row); },
      arguments.threads);
    attributesMs = milliseconds(start, Clock::now());
  };
  {
    nb::gil_scoped_release released;
    // With a label image on the host, the attributes are computed while the
    // engine copies it (Options::objectsReady), as the ITK filter builds
    // its LabelMap; otherwise after the run.
    cca::BackgroundWork attributes(computeAttributes);
    if (options.labelImageType != cca::LabelImageType::None && options.labelImageMemory == cca::MemorySpace::Host)
    {
      attributes.StartWhenObjectsReady(options);
    }
    try
    {
      worker->engine.Run(view, options, result);
    }
    catch (...)
    {
      attributes.Abandon(); // it reads the result; the engine's error is the one to report
      throw;
    }
    attributes.Finish();
  }

  const Clock::time_point columnsStart = Clock::now();
  nb::dict                out = RunReport(result, view);
  nb::dict                columns = table->ToDict();
  AddObjectColumns(result, geometry, options, view.pixelType, columns);
  out["columns"] = columns;
  nb::dict times = out["times"];
  times["shape_attributes_ms"] = attributesMs;
  times["columns_ms"] = milliseconds(columnsStart, Clock::now());
  if (options.computeRuns && lines)
  {
    std::vector<std::int32_t> runs(result.runs.size() * 4);
    for (size_t r = 0; r < result.runs.size(); ++r)
    {
      runs[4 * r] = result.runs[r].x;
      runs[4 * r + 1] = result.runs[r].y;
      runs[4 * r + 2] = result.runs[r].z;
      runs[4 * r + 3] = result.runs[r].length;
    }
    out["runs"] = NumpyColumn(std::move(runs));
    out["run_offsets"] = NumpyColumn(std::vector<std::int64_t>(result.runOffsets.begin(), result.runOffsets.end()));
  }
  return out;
}

nb::dict
Label(const RunArguments & arguments, const WritableArray & labels)
{
  auto [view, options] = EngineInput(arguments, labels, "out");
  options.computeFeatures = false;
  options.computeRuns = false;
  auto          worker = EnginePool::Instance().Borrow();
  cca::Result & result = worker->result;
  {
    nb::gil_scoped_release released;
    worker->engine.Run(view, options, result);
  }
  return RunReport(result, view);
}

} // namespace ccapython
