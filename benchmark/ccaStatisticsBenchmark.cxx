// Issue 12's benchmark: intensity statistics on a CT-like volume (512 x 512 x
// 400, an int16 feature image in HU: air, a body of soft tissue with noise,
// 100 balls of different HU) with
//   (a) a 100-label segmentation (the balls), and
//   (b) a thresholded mask (HU > 300: the bright balls, merged where they touch),
// ours (itk::CudaLabelStatisticsImageFilter's Update() wall time, CUDA and
// CPU backends; itk::CudaLabelIntensityStatisticsImageFilter for the classic
// question) against ITK 5.2.1's LabelImageToStatisticsLabelMapFilter,
// BinaryImageToStatisticsLabelMapFilter and LabelStatisticsImageFilter on
// --threads threads in the same run, every result compared attribute by
// attribute ("MISMATCH" lines otherwise); then the engine alone at 8192^2: the
// kernel time (labeling + features) of the shape-only run beside the run with
// an int16 feature image (intensity votes), and with its histogram median.
//
// Usage: cca_statistics_benchmark [--reps N] [--itk-reps N] [--threads N] [--quick] [--json FILE]
//   --threads: the ITK threader's threads, ours and ITK's alike (default 16)
//   --quick: the volume at a quarter of each side, the plane at 1024^2 (CI-sized)
#include "BallImages.h"
#include "WallClock.h"

#include "itkBinaryImageToStatisticsLabelMapFilter.h"
#include "itkCudaLabelIntensityStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkLabelImageToStatisticsLabelMapFilter.h"
#include "itkLabelStatisticsImageFilter.h"
#include "itkMultiThreaderBase.h"

#include "cca/Engine.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace
{

using cca::benchmark::Clock;
using cca::benchmark::MillisecondsSince;
using BackendEnum = itk::CudaLabelStatisticsEnums::Backend;
using ObjectsEnum = itk::CudaLabelStatisticsEnums::Objects;
constexpr unsigned D = 3;
using FeatureImage = itk::Image<std::int16_t, D>;
using LabelImage = itk::Image<std::uint16_t, D>;
using MaskImage = itk::Image<std::uint8_t, D>;

struct Settings
{
  int         reps = 3;
  int         itkReps = 2;
  int         threads = 16;
  bool        quick = false;
  std::string json;
};

/** A deterministic noise value in [0, 1) for voxel i (splitmix64): the
 *  volume is filled in parallel and is the same on every machine. */
double
Noise(std::uint64_t i, std::uint64_t seed)
{
  std::uint64_t z = i * 0x9E3779B97F4A7C15ull + seed;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

/** Runs body(begin, end) over [0, count) on the hardware's threads (at most 16). */
template <typename TBody>
void
ParallelFor(std::int64_t count, TBody body)
{
  const unsigned           threads = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t)
  {
    workers.emplace_back([=] { body(count * t / threads, count * (t + 1) / threads); });
  }
  for (auto & worker : workers)
  {
    worker.join();
  }
}

template <typename TImage>
typename TImage::Pointer
NewImage(const std::int64_t (&size)[3])
{
  auto                         image = TImage::New();
  typename TImage::SizeType    itkSize;
  typename TImage::SpacingType spacing;
  for (unsigned i = 0; i < D; ++i)
  {
    itkSize[i] = static_cast<itk::SizeValueType>(size[i]);
  }
  spacing[0] = spacing[1] = 0.7; // mm, a CT's in-plane spacing and slice distance
  spacing[2] = 1.25;
  image->SetRegions(typename TImage::RegionType(itkSize));
  image->SetSpacing(spacing);
  image->Allocate();
  return image;
}

/** The CT-like volume: labels (the balls, 1..100), HU, and the mask HU > 300. */
struct Volume
{
  LabelImage::Pointer   labels;
  FeatureImage::Pointer hu;
  MaskImage::Pointer    mask;
};

Volume
MakeVolume(const std::int64_t (&size)[3], double radiusScale)
{
  Volume volume;
  volume.labels = NewImage<LabelImage>(size);
  volume.hu = NewImage<FeatureImage>(size);
  volume.mask = NewImage<MaskImage>(size);
  const auto      balls = ccabench::RandomBalls(size, 100, 6 * radiusScale, 30 * radiusScale, 1212);
  std::uint16_t * labels = volume.labels->GetBufferPointer();
  ccabench::DrawBallsWith(size, balls, labels, [](std::size_t i) { return static_cast<std::uint16_t>(i + 1); });
  std::int16_t *     hu = volume.hu->GetBufferPointer();
  std::uint8_t *     mask = volume.mask->GetBufferPointer();
  const std::int64_t plane = size[0] * size[1];
  ParallelFor(size[2] * size[1], [&](std::int64_t rowBegin, std::int64_t rowEnd) {
    for (std::int64_t row = rowBegin; row < rowEnd; ++row)
    {
      const double y = (static_cast<double>(row % size[1]) / static_cast<double>(size[1]) - 0.5) / 0.38;
      for (std::int64_t x = 0; x < size[0]; ++x)
      {
        const std::int64_t i = (row / size[1]) * plane + (row % size[1]) * size[0] + x;
        const double       u = (static_cast<double>(x) / static_cast<double>(size[0]) - 0.5) / 0.45;
        // Triangular noise of +-25 HU on soft tissue (40 HU) inside the body, air outside.
        const double noise =
          25.0 * (Noise(static_cast<std::uint64_t>(i), 1) + Noise(static_cast<std::uint64_t>(i), 2) - 1.0);
        double value = u * u + y * y <= 1.0 ? 40.0 + noise : -1000.0 + noise;
        if (labels[i] != 0)
        {
          // Each ball its own tissue: fat, organs, contrast, bone (-100 .. 1500 HU).
          value = -100.0 + static_cast<double>((labels[i] * 373) % 1600) + noise;
        }
        hu[i] = static_cast<std::int16_t>(std::lround(value));
        mask[i] = hu[i] > 300 ? 255 : 0; // 255: the foreground value both filters default to
      }
    }
  });
  return volume;
}

/** One implementation on one case. */
struct Row
{
  std::string  name; ///< case
  std::string  impl;
  std::int64_t objects = 0;
  double       updateMs = 0; ///< best Update() wall time
  std::string  check = "reference";
  double       engineMs = 0;   ///< ours, the last Update(): Engine::Run
  double       labelMapMs = 0; ///< ours, the last Update(): the LabelMap's objects and attributes
};

std::vector<Row> g_Rows;

void
Report(const Row & row)
{
  std::printf("%-22s %-44s %8.1f ms  %6lld objects  %s",
              row.name.c_str(),
              row.impl.c_str(),
              row.updateMs,
              static_cast<long long>(row.objects),
              row.check.c_str());
  if (row.engineMs > 0)
  {
    // Where the host time goes: the engine, then the LabelMap built from its result.
    std::printf("  (last: engine %.1f ms, label map %.1f ms)", row.engineMs, row.labelMapMs);
  }
  std::printf("\n");
  std::fflush(stdout);
  g_Rows.push_back(row);
}

/** Runs body(row) and reports the row; an exception (a backend that cannot
 *  run the case) is reported as a failed row and the run goes on. */
template <typename TBody>
void
ReportGuarded(Row row, TBody body)
{
  try
  {
    body(row);
  }
  catch (const std::exception & error)
  {
    std::string what = error.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    row.check = "MISMATCH (failed): " + what;
  }
  Report(row);
}

/** Best Update() of a fresh filter per repetition (make() configures it); the last one stays. */
template <typename TMake>
auto
TimeUpdates(int reps, TMake make, double & bestMs)
{
  decltype(make()) filter;
  bestMs = std::numeric_limits<double>::max();
  for (int r = 0; r < reps; ++r)
  {
    filter = nullptr; // the previous output is freed first, as a program would
    filter = make();
    const auto start = Clock::now();
    filter->Update();
    bestMs = std::min(bestMs, MillisecondsSince(start));
  }
  return filter;
}

/** Relative difference within tol (1e-9: integer sums are exact on our side, ITK sums doubles). */
bool
Near(double a, double b, double tol = 1e-9)
{
  return (std::isnan(a) && std::isnan(b)) || std::abs(a - b) <= tol * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

/** Every StatisticsLabelObject attribute both sides compute, label by label. */
template <typename TOurs, typename TReference>
std::string
CompareStatistics(const TOurs * ours, const TReference * reference)
{
  std::ostringstream first;
  first.precision(17);
  std::int64_t mismatches = 0;
  auto         note = [&](auto label, const char * what, double a, double b) {
    if (mismatches++ == 0)
      first << "label " << label << " " << what << ": ours " << a << ", ITK " << b;
  };
  if (ours->GetNumberOfLabelObjects() != reference->GetNumberOfLabelObjects())
  {
    return "MISMATCH object count " + std::to_string(ours->GetNumberOfLabelObjects()) + " vs ITK " +
           std::to_string(reference->GetNumberOfLabelObjects());
  }
  typename TOurs::ConstIterator      a(ours);
  typename TReference::ConstIterator b(reference);
  for (; !a.IsAtEnd(); ++a, ++b)
  {
    const auto * x = a.GetLabelObject();
    const auto * y = b.GetLabelObject();
    const auto   label = b.GetLabel();
    if (a.GetLabel() != label)
      note(label, "label", static_cast<double>(a.GetLabel()), static_cast<double>(label));
    const std::pair<const char *, std::pair<double, double>> values[] = {
      { "NumberOfPixels", { double(x->GetNumberOfPixels()), double(y->GetNumberOfPixels()) } },
      { "Minimum", { x->GetMinimum(), y->GetMinimum() } },
      { "Maximum", { x->GetMaximum(), y->GetMaximum() } },
      { "Mean", { x->GetMean(), y->GetMean() } },
      { "Sum", { x->GetSum(), y->GetSum() } },
      { "Variance", { x->GetVariance(), y->GetVariance() } },
      { "Median", { x->GetMedian(), y->GetMedian() } },
      { "Skewness", { x->GetSkewness(), y->GetSkewness() } },
      { "Kurtosis", { x->GetKurtosis(), y->GetKurtosis() } },
      { "CenterOfGravity_z", { x->GetCenterOfGravity()[2], y->GetCenterOfGravity()[2] } },
      { "WeightedElongation", { x->GetWeightedElongation(), y->GetWeightedElongation() } },
      { "PhysicalSize", { x->GetPhysicalSize(), y->GetPhysicalSize() } },
      { "Elongation", { x->GetElongation(), y->GetElongation() } },
    };
    for (const auto & value : values)
    {
      // ITK sums the powers of the values up to the fourth in double: on balls
      // at ~1000 HU with a spread of 25 HU its skewness and kurtosis lose about
      // 8 digits to cancellation (ours come from exact integer sums).
      const bool shapeOfDistribution = std::string(value.first) == "Skewness" || std::string(value.first) == "Kurtosis";
      const double tolerance = shapeOfDistribution ? 1e-4 : 1e-7;
      if (!Near(value.second.first, value.second.second, tolerance))
        note(label, value.first, value.second.first, value.second.second);
    }
    if (x->GetMinimumIndex() != y->GetMinimumIndex() || x->GetMaximumIndex() != y->GetMaximumIndex() ||
        x->GetBoundingBox() != y->GetBoundingBox())
      note(label, "MinimumIndex/MaximumIndex/BoundingBox", 0, 0);
  }
  return mismatches == 0 ? "match" : "MISMATCH (" + std::to_string(mismatches) + " values) first: " + first.str();
}

const char *
BackendName(BackendEnum backend)
{
  return backend == BackendEnum::CUDA ? "cuda" : "cpu";
}

/** (a) and (b): ours with a feature image against ITK's statistics label map filters. */
template <typename TInput, typename TReferenceFilter>
void
RunLabelMapCase(const std::string &              name,
                const TInput *                   input,
                const FeatureImage *             hu,
                ObjectsEnum                      objects,
                const std::vector<BackendEnum> & backends,
                const Settings &                 s)
{
  Row  reference{ name, TReferenceFilter::New()->GetNameOfClass(), 0, 0, "reference" };
  auto itk = TimeUpdates(
    s.itkReps,
    [&] {
      auto filter = TReferenceFilter::New();
      filter->SetInput(input);
      filter->SetFeatureImage(hu);
      filter->SetComputePerimeter(false);
      return filter;
    },
    reference.updateMs);
  reference.objects = static_cast<std::int64_t>(itk->GetOutput()->GetNumberOfLabelObjects());
  Report(reference);

  using Ours = itk::CudaLabelStatisticsImageFilter<TInput>;
  for (const BackendEnum backend : backends)
  {
    const Row start{ name, std::string("CudaLabelStatisticsImageFilter ") + BackendName(backend), 0, 0, "" };
    ReportGuarded(start, [&](Row & row) {
      auto ours = TimeUpdates(
        backend == BackendEnum::CUDA ? s.reps : std::max(1, s.reps - 1),
        [&] {
          auto filter = Ours::New();
          filter->SetInput(input);
          filter->SetFeatureImage(hu);
          filter->SetObjects(objects);
          filter->SetComputePerimeter(false);
          filter->SetBackend(backend);
          return filter;
        },
        row.updateMs);
      row.objects = static_cast<std::int64_t>(ours->GetOutput()->GetNumberOfLabelObjects());
      row.engineMs = ours->GetStageTimes().totalMs;
      row.labelMapMs = ours->GetLabelMapMilliseconds();
      row.check = CompareStatistics(ours->GetOutput(), itk->GetOutput());
    });
  }
}

/** LabelStatisticsImageFilter's question on the segmentation, median from 256 bins over -1024 .. 3071 HU. */
void
RunClassicCase(const Volume & volume, const std::vector<BackendEnum> & backends, const Settings & s)
{
  using Reference = itk::LabelStatisticsImageFilter<FeatureImage, LabelImage>;
  using Ours = itk::CudaLabelIntensityStatisticsImageFilter<FeatureImage, LabelImage>;
  const std::string name = "segmentation-classic";
  Row               reference{ name, "LabelStatisticsImageFilter", 0, 0, "reference" };
  auto              itk = TimeUpdates(
    s.itkReps,
    [&] {
      auto filter = Reference::New();
      filter->SetInput(volume.hu);
      filter->SetLabelInput(volume.labels);
      filter->SetUseHistograms(true);
      filter->SetHistogramParameters(256, -1024, 3071);
      return filter;
    },
    reference.updateMs);
  reference.objects = static_cast<std::int64_t>(itk->GetNumberOfLabels());
  Report(reference);
  for (const BackendEnum backend : backends)
  {
    const Row start{ name, std::string("CudaLabelIntensityStatisticsImageFilter ") + BackendName(backend), 0, 0, "" };
    ReportGuarded(start, [&](Row & row) {
      auto ours = TimeUpdates(
        backend == BackendEnum::CUDA ? s.reps : std::max(1, s.reps - 1),
        [&] {
          auto filter = Ours::New();
          filter->SetInput(volume.hu);
          filter->SetLabelInput(volume.labels);
          filter->SetUseHistograms(true);
          filter->SetHistogramParameters(256, -1024, 3071);
          filter->SetBackend(backend);
          return filter;
        },
        row.updateMs);
      row.objects = static_cast<std::int64_t>(ours->GetNumberOfLabels());
      std::string first;
      if (ours->GetNumberOfLabels() != itk->GetNumberOfLabels())
        first = "label count " + std::to_string(ours->GetNumberOfLabels()) + " vs ITK " +
                std::to_string(itk->GetNumberOfLabels());
      for (const auto label : ours->GetValidLabelValues())
      {
        if (!first.empty())
          break;
        const bool same =
          itk->HasLabel(label) && ours->GetCount(label) == itk->GetCount(label) &&
          Near(ours->GetMinimum(label), itk->GetMinimum(label)) &&
          Near(ours->GetMaximum(label), itk->GetMaximum(label)) && Near(ours->GetMean(label), itk->GetMean(label)) &&
          Near(ours->GetSum(label), itk->GetSum(label)) && Near(ours->GetSigma(label), itk->GetSigma(label), 1e-7) &&
          Near(ours->GetMedian(label), itk->GetMedian(label)) &&
          ours->GetBoundingBox(label) == itk->GetBoundingBox(label);
        if (!same)
          first = "label " + std::to_string(label) + ": count " + std::to_string(ours->GetCount(label)) + " vs " +
                  std::to_string(itk->GetCount(label)) + ", mean " + std::to_string(ours->GetMean(label)) + " vs " +
                  std::to_string(itk->GetMean(label));
      }
      row.check = first.empty() ? "match" : "MISMATCH first: " + first;
    });
  }
}

/** The engine alone on a plane: kernel time (labeling + features) without and with the feature image. */
struct EngineRow
{
  std::string  backend;
  std::string  run;
  double       kernelMs = 0; ///< best labelMs + featuresMs
  double       totalMs = 0;  ///< Engine::Run of that repetition
  double       uploadMs = 0;
  std::int64_t components = 0;
};
std::vector<EngineRow> g_EngineRows;
bool                   g_EngineFailed = false;

void
RunEnginePlane(std::int64_t side, cca::Backend backend, int reps)
{
  // A random binary image (45 % foreground in 4 x 4 blocks, as the papers' protocol) and int16 noise.
  const auto                pixels = static_cast<std::size_t>(side * side);
  std::vector<std::uint8_t> mask(pixels);
  std::vector<std::int16_t> hu(pixels);
  ParallelFor(side * side, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i)
    {
      const std::int64_t block = (i / side / 4) * (side / 4) + (i % side) / 4;
      mask[static_cast<std::size_t>(i)] = Noise(static_cast<std::uint64_t>(block), 3) < 0.45 ? 1 : 0;
      hu[static_cast<std::size_t>(i)] =
        static_cast<std::int16_t>(-1000 + 2600 * Noise(static_cast<std::uint64_t>(i), 4));
    }
  });
  cca::ImageView view;
  view.data = mask.data();
  view.size[0] = view.size[1] = side;
  cca::ImageView feature = view;
  feature.data = hu.data();
  feature.pixelType = cca::PixelType::Int16;

  struct Variant
  {
    const char * name;
    bool         intensity;
    bool         median;
  };
  const Variant variants[] = { { "shape only", false, false },
                               { "+ feature image (intensity votes)", true, false },
                               { "+ feature image, histogram median", true, true } };
  double        shapeKernel = 0;
  for (const Variant & variant : variants)
  {
    cca::Options options;
    options.backend = backend;
    options.computeRuns = false;
    if (variant.intensity)
    {
      options.intensity.featureImage = feature;
      options.intensity.histogram = cca::StatisticsLabelMapHistogram(cca::PixelType::Int16);
      if (!variant.median)
        options.intensity.histogram.bins = 0;
    }
    cca::Engine engine;
    cca::Result result;
    EngineRow   row{ backend == cca::Backend::Cuda ? "cuda" : "cpu", variant.name, std::numeric_limits<double>::max() };
    try
    {
      engine.Run(view, options, result); // warm-up: device buffers sized
    }
    catch (const std::exception & error)
    {
      std::printf("engine %lldx%lld %-5s %-36s MISMATCH (failed): %s\n",
                  static_cast<long long>(side),
                  static_cast<long long>(side),
                  row.backend.c_str(),
                  row.run.c_str(),
                  error.what());
      g_EngineFailed = true;
      continue;
    }
    for (int r = 0; r < reps; ++r)
    {
      engine.Run(view, options, result);
      const double kernel = result.times.labelMs + result.times.featuresMs;
      if (kernel < row.kernelMs)
      {
        row.kernelMs = kernel;
        row.totalMs = result.times.totalMs;
        row.uploadMs = result.times.uploadMs;
      }
    }
    row.components = result.componentCount;
    if (!variant.intensity)
      shapeKernel = row.kernelMs;
    std::printf("engine %lldx%lld %-5s %-36s kernels %8.2f ms (%.2fx shape only)  Run %8.2f ms  upload %7.2f ms  %lld "
                "components\n",
                static_cast<long long>(side),
                static_cast<long long>(side),
                row.backend.c_str(),
                row.run.c_str(),
                row.kernelMs,
                row.kernelMs / shapeKernel,
                row.totalMs,
                row.uploadMs,
                static_cast<long long>(row.components));
    std::fflush(stdout);
    g_EngineRows.push_back(row);
  }
}

void
WriteJson(const Settings & s, std::int64_t side)
{
  if (s.json.empty())
    return;
  std::ofstream out(s.json);
  out << "{\n  \"benchmark\": \"statistics\",\n  \"quick\": " << (s.quick ? "true" : "false")
      << ",\n  \"threads\": " << itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads() << ",\n  \"rows\": [";
  for (std::size_t i = 0; i < g_Rows.size(); ++i)
  {
    const Row & r = g_Rows[i];
    out << (i ? "," : "") << "\n    {\"case\": \"" << r.name << "\", \"impl\": \"" << r.impl
        << "\", \"update_ms\": " << r.updateMs << ", \"engine_ms\": " << r.engineMs
        << ", \"label_map_ms\": " << r.labelMapMs << ", \"objects\": " << r.objects << ", \"check\": \""
        << (r.check.compare(0, 8, "MISMATCH") == 0 ? "mismatch" : r.check) << "\"}";
  }
  out << "\n  ],\n  \"engine_side\": " << side << ",\n  \"engine\": [";
  for (std::size_t i = 0; i < g_EngineRows.size(); ++i)
  {
    const EngineRow & r = g_EngineRows[i];
    out << (i ? "," : "") << "\n    {\"backend\": \"" << r.backend << "\", \"run\": \"" << r.run
        << "\", \"kernel_ms\": " << r.kernelMs << ", \"run_ms\": " << r.totalMs << ", \"upload_ms\": " << r.uploadMs
        << ", \"components\": " << r.components << "}";
  }
  out << "\n  ]\n}\n";
}

} // namespace

int
main(int argc, char * argv[])
{
  Settings s;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto              next = [&]() -> std::string {
      if (i + 1 >= argc)
      {
        std::fprintf(stderr, "%s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--reps")
      s.reps = std::max(1, std::stoi(next()));
    else if (arg == "--itk-reps")
      s.itkReps = std::max(1, std::stoi(next()));
    else if (arg == "--threads")
      s.threads = std::max(1, std::stoi(next()));
    else if (arg == "--quick")
      s.quick = true;
    else if (arg == "--json")
      s.json = next();
    else
    {
      std::fprintf(stderr, "usage: %s [--reps N] [--itk-reps N] [--threads N] [--quick] [--json FILE]\n", argv[0]);
      return 2;
    }
  }
  itk::MultiThreaderBase::SetGlobalMaximumNumberOfThreads(static_cast<itk::ThreadIdType>(s.threads));
  itk::MultiThreaderBase::SetGlobalDefaultNumberOfThreads(static_cast<itk::ThreadIdType>(s.threads));

  const bool               cuda = cca::Engine::CudaAvailable();
  std::vector<BackendEnum> backends;
  if (cuda)
    backends.push_back(BackendEnum::CUDA);
  backends.push_back(BackendEnum::CPU);
  if (cuda)
    cca::Engine::StartCuda(-1);

  const std::int64_t size[3] = { s.quick ? 128 : 512, s.quick ? 128 : 512, s.quick ? 100 : 400 };
  const auto         start = Clock::now();
  const Volume       volume = MakeVolume(size, s.quick ? 0.25 : 1.0);
  std::printf("CT-like volume %lld x %lld x %lld (int16 HU, 100 balls), made in %.0f ms; CUDA %s; %u ITK threads\n",
              static_cast<long long>(size[0]),
              static_cast<long long>(size[1]),
              static_cast<long long>(size[2]),
              MillisecondsSince(start),
              cuda ? "available" : "not available",
              itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads());

  RunLabelMapCase<LabelImage, itk::LabelImageToStatisticsLabelMapFilter<LabelImage, FeatureImage>>(
    "segmentation-100", volume.labels, volume.hu, ObjectsEnum::LabelValues, backends, s);
  RunLabelMapCase<MaskImage, itk::BinaryImageToStatisticsLabelMapFilter<MaskImage, FeatureImage>>(
    "threshold-mask", volume.mask, volume.hu, ObjectsEnum::ForegroundComponents, backends, s);
  RunClassicCase(volume, backends, s);

  const std::int64_t side = s.quick ? 1024 : 8192;
  if (cuda)
    RunEnginePlane(side, cca::Backend::Cuda, std::max(s.reps, 5));
  RunEnginePlane(side, cca::Backend::Cpu, 1);
  WriteJson(s, side);

  bool mismatch = g_EngineFailed;
  for (const Row & row : g_Rows)
    mismatch = mismatch || row.check.compare(0, 8, "MISMATCH") == 0;
  std::printf("== statistics benchmark: %s, %.1f s\n",
              mismatch ? "MISMATCH" : "every result equals ITK's",
              MillisecondsSince(start) / 1000.0);
  return mismatch ? 1 : 0;
}
