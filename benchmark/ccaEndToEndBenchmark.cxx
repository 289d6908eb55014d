// What users wait for, end to end (issue 10): Update() of a fresh
// itk::CudaLabelStatisticsImageFilter per repetition (CUDA) against ITK
// 5.2.1's BinaryImageToShapeLabelMapFilter on the same masks in the same run
// (perimeter on, Feret diameter and oriented bounding box off, the ITK
// threader's default threads), best of --reps; and the 2048 x 2048 x 560
// volume with a label image, CUDA against our CPU backend. Per mask: the
// stage breakdown (engine: upload, labeling, features, download; LabelMap;
// the rest of Update), and at the engine level (a fresh cca::Engine per run,
// which takes the device state the one before it left, as a user's new
// engine does; the filter's options) the bytes moved, the pinned bandwidth measured at the
// start of the run and the bound (bytes up / H2D + bytes down / D2H + kernel
// time) the engine time is compared with; and beside it the bound with the
// host's part of the upload, the mask read once on the copy threads (its
// bits cross the bus faster than the host reads the mask to make them). Our objects are checked against
// ITK's: same count, same NumberOfPixels and BoundingBox per label.
//
// ITK's objects are summarized for the check and its LabelMap freed before
// ours are made, so that each filter runs with no other map alive, as in a
// program that runs one of them.
//
// Usage: cca_e2e_benchmark [--reps N] [--itk-reps N] [--threads N] [--only NAME[,NAME]] [--no-itk] [--quick]
//                          [--io-factories] [--keep-itk-output] [--add-label-object] [--no-host-image-pool]
//                          [--region-piece-bytes N] [--streamed-uploads never|on|PIECE_BYTES] [--cold]
//                          [--label-pages never|first|always]
//                          [--shape-objects] [--shape-objects-first] [--json FILE]
//   --itk-reps: ITK's repetitions (default 3; 1 once a repetition took 5 s)
//   --threads: the ITK threader's threads, ours and ITK's filter alike (default:
//              ITK's default, the host's cores; the table used 16)
//   --only: masks by name: ct-face ct-full balls-60k random3d-g4 random3d-g1
//           random2d-g16 random2d-g4 random2d-g1 large-labels
//   --quick: the masks at an eighth of their size (CI-sized smoke run)
//   --io-factories: registers ITK's NRRD, NIfTI, MetaImage, VTK and TIFF image
//              IO factories first, as an application that reads images through
//              ITK has them (ITK's CMake registers some twenty): each label
//              object's New() then asks each of them, in ITK's filter too
//   --keep-itk-output: keeps ITK's last LabelMap alive while ours are made (the
//              tables before 2026-11-24 were measured so)
//   --add-label-object: our LabelMaps filled through LabelMap::AddLabelObject,
//              as before 2026-11-25, not appended to their container
//   --no-host-image-pool: label images in memory from new[] (as before
//              2026-11-25), not from the host image pool (cca/HostImageMemory.h)
//   --shape-objects: one more row a mask, ours-shape: our filter (CUDA where
//              there is a device, else the CPU backend) with a LabelMap of
//              ShapeLabelObject, the object ITK's filter makes (the filter's
//              default is StatisticsLabelObject, which a feature image fills
//              too)
//   --shape-objects-first: the same row before the default one, so that
//              either can be measured first in a process
//   --region-piece-bytes: the pieces in which each copy thread packs and
//              copies its region (the CUDA backend's test hook; default 2 MiB):
//              smaller pieces let a region's copy overlap its packing
//   --streamed-uploads: whether a mask's foreground bits are read by the
//              unpacking kernel from page-locked memory as the copy threads
//              pack them (on, the default: from 4 MiB of bits, where they
//              would go by regions, up to 32 MiB; a number: so, in pieces
//              of that many bytes) or go by regions or slabs (never;
//              HostStaging::UploadStreamed)
//   --cold: CUDA is not started before the masks, so that the first CUDA
//              Update() is a process's first, start-up included (the pinned
//              bandwidth is measured after it; the driver's initialization,
//              the first Engine::CudaAvailable(), is timed apart before)
//   --label-pages: which CUDA runs write a never written label image's
//              pages before the copy fills it (src/EngineTesting.h): never
//              (as before 2026-12-05), the process's first beside CUDA's
//              start-up, or always (the default)
// With a label image (large-labels) every repetition is printed: the first
// takes a fresh block of the pool, the second reuses it, and a block locked
// after its second use takes the labels by DMA from the next one on.
#include "BallImages.h"
#include "ImageIOFactories.h"
#include "JsonText.h"
#include "RandomImages.h"
#include "WallClock.h"

#include "itkBinaryImageToShapeLabelMapFilter.h"
#include "itkCudaLabelStatisticsImageFilter.h"

#include "cca/HostImageMemory.h"
#include "itkImage.h"
#include "itkMultiThreaderBase.h"
#include "itkShapeLabelObject.h"

#include "EngineTesting.h"
#include "cca/Engine.h"

#ifdef CCA_HAVE_CUDA
#  include "CudaBackendTesting.h"

#  include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace
{

using cca::benchmark::JsonString;

using cca::benchmark::Clock;
using cca::benchmark::MillisecondsSince;
using BackendEnum = itk::CudaLabelStatisticsEnums::Backend;

/** One mask of the table. */
struct MaskCase
{
  std::string  name;
  std::string  description;
  int          dimension = 3;
  std::int64_t size[3] = { 1, 1, 1 };
  double       spacing[3] = { 1, 1, 1 };
  bool         full = false;
  bool         labelImage = false; ///< the large volume: label image on, CUDA against our CPU backend
  std::function<void(const MaskCase &, std::uint8_t *)> fill;
};

struct Settings
{
  int  reps = 3;
  int  itkReps = 3;
  int  threads = 0; ///< 0: ITK's default
  bool runItk = true;
  bool quick = false;
  bool ioFactories = false;
  bool keepItkOutput = false; ///< ITK's last LabelMap alive while ours are made
  bool cold = false;          ///< CUDA started by the first Update, not before
  /** An ours-shape row (a LabelMap of ShapeLabelObject) after or before the default one. */
  enum class ShapeRow
  {
    None,
    After,
    First
  };
  ShapeRow                 shapeObjects = ShapeRow::None;
  std::vector<std::string> only;
  std::string              json;
};

/** Pinned host <-> device bandwidth in GB/s, measured now (0 without CUDA),
 *  and what Engine::StartCuda took. */
struct Bandwidth
{
  double hostToDevice = 0;
  double deviceToHost = 0;
  double startCudaMs = 0;
  bool   measured = false;
};

Bandwidth
MeasurePinnedBandwidth()
{
  Bandwidth b;
#ifdef CCA_HAVE_CUDA
  const std::size_t bytes = std::size_t{ 256 } << 20;
  void *            host = nullptr;
  void *            device = nullptr;
  if (cudaMallocHost(&host, bytes) != cudaSuccess || cudaMalloc(&device, bytes) != cudaSuccess)
  {
    cudaGetLastError();
    return b;
  }
  std::fill(static_cast<char *>(host), static_cast<char *>(host) + bytes, 1);
  auto best = [&](cudaMemcpyKind kind) {
    double ms = std::numeric_limits<double>::max();
    for (int i = 0; i < 5; ++i)
    {
      const auto start = Clock::now();
      cudaMemcpy(
        kind == cudaMemcpyHostToDevice ? device : host, kind == cudaMemcpyHostToDevice ? host : device, bytes, kind);
      ms = std::min(ms, MillisecondsSince(start));
    }
    return static_cast<double>(bytes) / (ms * 1e6);
  };
  b.hostToDevice = best(cudaMemcpyHostToDevice);
  b.deviceToHost = best(cudaMemcpyDeviceToHost);
  b.measured = true;
  cudaFree(device);
  cudaFreeHost(host);
#endif
  return b;
}

/** One implementation on one mask. */
struct Row
{
  std::string     mask;
  std::string     impl; ///< itk, ours-cuda, ours-cpu
  std::int64_t    objects = 0;
  double          updateMs = 0;   ///< best Update() wall time
  double          labelMapMs = 0; ///< of that repetition
  cca::StageTimes stages{};       ///< of that repetition
  std::string     check = "reference";
  std::string     firstMismatch;
  // Engine level (ours-cuda): a fresh engine per run, best of the repetitions.
  double       engineMs = 0;
  double       engineUploadMs = 0;
  double       engineDownloadMs = 0;
  double       kernelMs = 0;
  std::int64_t bytesUp = 0;
  std::int64_t bytesDown = 0;
  double       boundMs = 0;
  // The host's part of the upload: the engine reads the whole mask to pack
  // its foreground bits, which for small masks takes longer than the bits
  // take on the bus (benchmark/results/h100-small-masks-host-read).
  std::int64_t maskBytes = 0;   ///< the mask's bytes (8-bit pixels)
  double       maskReadMs = 0;  ///< reading the mask once on readThreads threads, best of 5
  int          readThreads = 0; ///< the engine's copy threads: the host's cores, at most 16
  double       hostBoundMs = 0; ///< boundMs with the upload max(bus, mask read)
  // The same ratio a repetition at a time, each against the mask's read
  // measured right after it: the host's memory speed varies between
  // moments (by 40 % in a process that has just run ITK,
  // benchmark/results/h100-streamed-uploads call 3), and a best engine over
  // a best read taken at another moment mixes two of them. The best of
  // these ratios is the figure, as the best repetition is everywhere else
  // (a process's first engine run, into a new result's pages, is the
  // slowest); the median and the largest say how they spread.
  double pairedRatioMedian = 0;
  double pairedRatioMin = 0;
  double pairedRatioMax = 0;
};

/** The threads that read the mask for the bound: the engine's copy
 *  threads, the host's cores, at most 16. */
int
ReadThreads()
{
  return static_cast<int>(std::min(16u, std::max(1u, std::thread::hardware_concurrency())));
}

/** The engine's bound: the upload no faster than the bus or the host's
 *  read of the mask (readMs; 0: the bus alone), then the download at the
 *  bus's speed and the kernels. */
double
HostBoundMs(const Bandwidth & b, std::int64_t bytesUp, std::int64_t bytesDown, double kernelMs, double readMs)
{
  const double busUpMs = static_cast<double>(bytesUp) / (b.hostToDevice * 1e6);
  const double downMs = static_cast<double>(bytesDown) / (b.deviceToHost * 1e6);
  return std::max(busUpMs, readMs) + downMs + kernelMs;
}

/** Milliseconds for threads threads to read bytes bytes (regions of 8-byte
 *  words, four sums a thread), best of 5: how fast this host reads a mask. */
double
ReadMilliseconds(const void * data, std::size_t bytes, int threads)
{
  const auto *               words = static_cast<const std::uint64_t *>(data);
  const std::size_t          count = bytes / 8;
  std::vector<std::uint64_t> sums(static_cast<std::size_t>(threads));
  double                     best = std::numeric_limits<double>::max();
  for (int rep = 0; rep < 5; ++rep)
  {
    const auto               start = Clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
    {
      pool.emplace_back([&, t] {
        const std::size_t first = count * static_cast<std::size_t>(t) / static_cast<std::size_t>(threads);
        const std::size_t end = count * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(threads);
        std::uint64_t     s[4] = { 0, 0, 0, 0 };
        std::size_t       i = first;
        for (; i + 4 <= end; i += 4)
        {
          s[0] += words[i];
          s[1] += words[i + 1];
          s[2] += words[i + 2];
          s[3] += words[i + 3];
        }
        for (; i < end; ++i)
        {
          s[0] += words[i];
        }
        sums[static_cast<std::size_t>(t)] = s[0] + s[1] + s[2] + s[3];
      });
    }
    for (auto & thread : pool)
    {
      thread.join();
    }
    best = std::min(best, MillisecondsSince(start));
  }
  volatile std::uint64_t keep = 0;
  for (const std::uint64_t v : sums)
  {
    keep = keep + v;
  }
  return best;
}

template <unsigned D>
using MaskImage = itk::Image<std::uint8_t, D>;

template <unsigned D>
typename MaskImage<D>::Pointer
MakeImage(const MaskCase & m)
{
  auto                               image = MaskImage<D>::New();
  typename MaskImage<D>::SizeType    size;
  typename MaskImage<D>::SpacingType spacing;
  for (unsigned i = 0; i < D; ++i)
  {
    size[i] = static_cast<itk::SizeValueType>(m.size[i]);
    spacing[i] = m.spacing[i];
  }
  image->SetRegions(typename MaskImage<D>::RegionType(size));
  image->SetSpacing(spacing);
  image->Allocate();
  m.fill(m, image->GetBufferPointer());
  return image;
}

/** What the comparison needs of ITK's objects: label, NumberOfPixels and
 *  BoundingBox, in label order. Taken so that ITK's LabelMap can be freed
 *  before ours are made, as in a program that runs one filter (on the H100
 *  machine freeing it or not made no difference beyond the noise:
 *  benchmark/results/h100-labelmap-insertion/). */
template <unsigned D>
struct ReferenceObject
{
  itk::SizeValueType  label = 0;
  itk::SizeValueType  pixels = 0;
  itk::ImageRegion<D> box;
};

template <unsigned D, typename TReference>
std::vector<ReferenceObject<D>>
SummarizeReference(const TReference * reference)
{
  std::vector<ReferenceObject<D>> objects;
  objects.reserve(reference->GetNumberOfLabelObjects());
  for (typename TReference::ConstIterator it(reference); !it.IsAtEnd(); ++it)
  {
    const auto * object = it.GetLabelObject();
    objects.push_back({ it.GetLabel(), object->GetNumberOfPixels(), object->GetBoundingBox() });
  }
  return objects;
}

/** Same objects, NumberOfPixels and BoundingBox per label (both in label order). */
template <unsigned D, typename TOurs>
void
Compare(const TOurs * ours, const std::vector<ReferenceObject<D>> & reference, Row & row)
{
  std::int64_t mismatches = 0;
  auto         note = [&](const std::string & what) {
    if (mismatches++ == 0)
      row.firstMismatch = what;
  };
  if (ours->GetNumberOfLabelObjects() != reference.size())
  {
    note("object count " + std::to_string(ours->GetNumberOfLabelObjects()) + " vs ITK " +
         std::to_string(reference.size()));
  }
  typename TOurs::ConstIterator a(ours);
  auto                          b = reference.begin();
  for (; !a.IsAtEnd() && b != reference.end(); ++a, ++b)
  {
    const auto * x = a.GetLabelObject();
    if (a.GetLabel() != b->label || x->GetNumberOfPixels() != b->pixels || x->GetBoundingBox() != b->box)
    {
      std::ostringstream what;
      what << "label " << a.GetLabel() << " (ITK " << b->label << "): " << x->GetNumberOfPixels() << " pixels vs "
           << b->pixels;
      note(what.str());
    }
  }
  row.check = mismatches == 0 ? "match" : "mismatch";
}

template <typename TFilter>
void
Configure(TFilter * filter, const MaskCase & m)
{
  filter->SetInputForegroundValue(1);
  filter->SetFullyConnected(m.full);
  filter->SetComputePerimeter(true);
  filter->SetComputeFeretDiameter(false);
  filter->SetComputeOrientedBoundingBox(false);
}

/** Where a label image lives now: a page-locked block of the host image pool, another block, or elsewhere. */
const char *
LabelImageMemory(const void * labels, std::size_t bytes)
{
  if (cca::HostImageMemory::Pinned(labels, bytes))
    return "in a page-locked block of the pool";
  return cca::HostImageMemory::Use().inUseBytes >= bytes ? "in a block of the pool" : "from new[]";
}

/** Best Update() of a fresh ITK filter per repetition; returns the last filter, for the comparison. */
template <unsigned D>
typename itk::BinaryImageToShapeLabelMapFilter<MaskImage<D>>::Pointer
RunItk(const MaskImage<D> * image, const MaskCase & m, const Settings & s, Row & row)
{
  using Filter = itk::BinaryImageToShapeLabelMapFilter<MaskImage<D>>;
  typename Filter::Pointer filter;
  row.updateMs = std::numeric_limits<double>::max();
  for (int r = 0; r < s.itkReps; ++r)
  {
    filter = nullptr; // the previous output is freed before the next repetition, as a program would
    filter = Filter::New();
    filter->SetInput(image);
    Configure(filter.GetPointer(), m);
    const auto start = Clock::now();
    filter->Update();
    const double ms = MillisecondsSince(start);
    row.updateMs = std::min(row.updateMs, ms);
    if (ms > 5000)
      break;
  }
  row.objects = static_cast<std::int64_t>(filter->GetOutput()->GetNumberOfLabelObjects());
  return filter;
}

/** Our filter's output with ITK's ShapeLabelObject (--shape-objects). */
template <unsigned D>
using ShapeMap = itk::LabelMap<itk::ShapeLabelObject<itk::SizeValueType, D>>;

/** Best Update() of a fresh filter of ours per repetition (its LabelMap of
 *  TOutput's objects); returns the last filter, for the comparison. */
template <unsigned D, typename TOutput = typename itk::CudaLabelStatisticsImageFilter<MaskImage<D>>::OutputImageType>
typename itk::CudaLabelStatisticsImageFilter<MaskImage<D>, TOutput>::Pointer
RunOurs(const MaskImage<D> * image, const MaskCase & m, BackendEnum backend, const Settings & s, Row & row)
{
  using Filter = itk::CudaLabelStatisticsImageFilter<MaskImage<D>, TOutput>;
  typename Filter::Pointer filter;
  row.updateMs = std::numeric_limits<double>::max();
  for (int r = 0; r < s.reps; ++r)
  {
    filter = nullptr;
    filter = Filter::New();
    filter->SetInput(image);
    Configure(filter.GetPointer(), m);
    filter->SetBackend(backend);
    filter->SetComputeLabelImage(m.labelImage);
    const auto start = Clock::now();
    filter->Update();
    const double ms = MillisecondsSince(start);
    if (ms < row.updateMs)
    {
      row.updateMs = ms;
      row.stages = filter->GetStageTimes();
      row.labelMapMs = filter->GetLabelMapMilliseconds();
    }
    if (m.labelImage)
    {
      const auto *      labels = filter->GetLabelImage();
      const std::size_t bytes = labels->GetBufferedRegion().GetNumberOfPixels() * sizeof(*labels->GetBufferPointer());
      std::printf("%-18s repetition %d: Update %.1f ms, engine %.1f, download %.1f, LabelMap %.1f; label image %s\n",
                  row.mask.c_str(),
                  r + 1,
                  ms,
                  filter->GetStageTimes().totalMs,
                  filter->GetStageTimes().downloadMs,
                  filter->GetLabelMapMilliseconds(),
                  LabelImageMemory(labels->GetBufferPointer(), bytes));
    }
  }
  row.objects = static_cast<std::int64_t>(filter->GetOutput()->GetNumberOfLabelObjects());
  return filter;
}

/** The engine alone, from host memory, with the filter's options: time, bytes and the bound. */
template <unsigned D>
void
RunEngine(const MaskImage<D> * image, const MaskCase & m, const Settings & s, const Bandwidth & bandwidth, Row & row)
{
  cca::ImageView view;
  view.data = image->GetBufferPointer();
  view.dimension = static_cast<int>(D);
  for (unsigned i = 0; i < 3; ++i)
  {
    view.size[i] = i < D ? m.size[i] : 1;
  }
  cca::Options options;
  options.backend = cca::Backend::Cuda;
  options.foregroundRule = cca::ForegroundRule::EqualTo;
  options.foregroundValue = 1;
  options.connectivity = m.full ? cca::Connectivity::Full : cca::Connectivity::Face;
  // The label image as the filter has it: a block of the host image pool per
  // repetition, or (the pool off) one buffer from new[] for all, not zeroed
  // first (the engine writes every label).
  std::unique_ptr<std::uint64_t[]> labels;
  const std::size_t                labelBytes = static_cast<std::size_t>(view.NumberOfPixels()) * sizeof(std::uint64_t);
  if (m.labelImage)
  {
    options.labelImageType = cca::LabelImageType::UInt64;
  }
  cca::Result result; // kept across repetitions, as the filter's cache keeps it
  row.engineMs = std::numeric_limits<double>::max();
  std::vector<double> pairedRatios;
  for (int r = 0; r < s.reps; ++r)
  {
    void * block = m.labelImage ? cca::HostImageMemory::Acquire(labelBytes) : nullptr;
    if (m.labelImage && block == nullptr && !labels)
    {
      labels.reset(new std::uint64_t[static_cast<std::size_t>(view.NumberOfPixels())]);
    }
    if (m.labelImage)
    {
      options.labelImage = block != nullptr ? block : labels.get();
    }
    cca::Engine engine; // fresh: its memory comes from the process's pools
    engine.Run(view, options, result);
    if (bandwidth.hostToDevice > 0 && bandwidth.deviceToHost > 0)
    {
      const double read = ReadMilliseconds(view.data, static_cast<std::size_t>(view.NumberOfPixels()), ReadThreads());
      pairedRatios.push_back(result.times.totalMs / HostBoundMs(bandwidth,
                                                                result.bytesCopiedToDevice,
                                                                result.bytesCopiedToHost,
                                                                result.times.labelMs + result.times.featuresMs,
                                                                read));
    }
    if (m.labelImage)
    {
      std::printf("%-18s engine alone, repetition %d: %.1f ms, download %.1f ms (%.1f GB/s); label image %s\n",
                  m.name.c_str(),
                  r + 1,
                  result.times.totalMs,
                  result.times.downloadMs,
                  static_cast<double>(result.bytesCopiedToHost) / (result.times.downloadMs * 1e6),
                  LabelImageMemory(options.labelImage, labelBytes));
      cca::HostImageMemory::Release(block);
    }
    if (result.times.totalMs < row.engineMs)
    {
      row.engineMs = result.times.totalMs;
      row.engineUploadMs = result.times.uploadMs;
      row.engineDownloadMs = result.times.downloadMs;
      row.kernelMs = result.times.labelMs + result.times.featuresMs;
      row.bytesUp = result.bytesCopiedToDevice;
      row.bytesDown = result.bytesCopiedToHost;
    }
  }
  if (bandwidth.hostToDevice > 0 && bandwidth.deviceToHost > 0)
  {
    row.boundMs = HostBoundMs(bandwidth, row.bytesUp, row.bytesDown, row.kernelMs, 0.0);
    row.readThreads = ReadThreads();
    row.maskBytes = view.NumberOfPixels();
    row.maskReadMs = ReadMilliseconds(view.data, static_cast<std::size_t>(row.maskBytes), row.readThreads);
    row.hostBoundMs = HostBoundMs(bandwidth, row.bytesUp, row.bytesDown, row.kernelMs, row.maskReadMs);
  }
  if (!pairedRatios.empty())
  {
    std::sort(pairedRatios.begin(), pairedRatios.end());
    const std::size_t n = pairedRatios.size();
    row.pairedRatioMedian = n % 2 == 1 ? pairedRatios[n / 2] : (pairedRatios[n / 2 - 1] + pairedRatios[n / 2]) / 2;
    row.pairedRatioMin = pairedRatios.front();
    row.pairedRatioMax = pairedRatios.back();
  }
}

void
WriteJson(const Settings & s, const Bandwidth & b, const std::vector<Row> & rows)
{
  if (s.json.empty())
    return;
  std::ofstream out(s.json);
  out << "{\n  \"program\": \"cca_e2e_benchmark\",\n  \"reps\": " << s.reps << ",\n  \"itkReps\": " << s.itkReps
      << ",\n  \"threads\": " << itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads()
      << ",\n  \"objectFactories\": " << itk::ObjectFactoryBase::GetRegisteredFactories().size()
      << ",\n  \"pinnedHostToDeviceGBs\": " << b.hostToDevice << ",\n  \"pinnedDeviceToHostGBs\": " << b.deviceToHost
      << ",\n  \"startCudaMs\": " << b.startCudaMs << ",\n  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i)
  {
    const Row & r = rows[i];
    out << "    {\"mask\": " << JsonString(r.mask) << ", \"impl\": \"" << r.impl << "\", \"objects\": " << r.objects
        << ", \"updateMs\": " << r.updateMs << ", \"labelMapMs\": " << r.labelMapMs
        << ", \"engineTotalMs\": " << r.stages.totalMs << ", \"uploadMs\": " << r.stages.uploadMs
        << ", \"labelMs\": " << r.stages.labelMs << ", \"featuresMs\": " << r.stages.featuresMs
        << ", \"downloadMs\": " << r.stages.downloadMs << ", \"check\": \"" << r.check
        << "\", \"firstMismatch\": " << JsonString(r.firstMismatch) << ", \"engineAloneMs\": " << r.engineMs
        << ", \"engineUploadMs\": " << r.engineUploadMs << ", \"engineDownloadMs\": " << r.engineDownloadMs
        << ", \"kernelMs\": " << r.kernelMs << ", \"bytesUp\": " << r.bytesUp << ", \"bytesDown\": " << r.bytesDown
        << ", \"boundMs\": " << r.boundMs << ", \"maskReadMs\": " << r.maskReadMs
        << ", \"readThreads\": " << r.readThreads << ", \"hostBoundMs\": " << r.hostBoundMs
        << ", \"pairedRatioMedian\": " << r.pairedRatioMedian << ", \"pairedRatioMin\": " << r.pairedRatioMin
        << ", \"pairedRatioMax\": " << r.pairedRatioMax << "}" << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

void
PrintRow(const Row & r, double itkMs)
{
  std::printf("%-18s %-10s %9lld %10.1f %8.1f %8.1f %7.1f %7.1f %7.1f %8.1f %8s %s%s\n",
              r.mask.c_str(),
              r.impl.c_str(),
              static_cast<long long>(r.objects),
              r.updateMs,
              r.stages.totalMs,
              r.stages.uploadMs,
              r.stages.labelMs + r.stages.featuresMs,
              r.stages.downloadMs,
              r.labelMapMs,
              itkMs > 0 && r.impl != "itk" ? itkMs / r.updateMs : 0.0,
              r.check.c_str(),
              r.firstMismatch.empty() ? "" : ": ",
              r.firstMismatch.c_str());
  if (r.engineMs > 0)
  {
    std::printf("%-18s engine alone %.2f ms: up %.1f MB in %.2f ms (%.1f GB/s), down %.1f MB in %.2f ms (%.1f GB/s), "
                "kernels %.2f ms; bound %.2f ms, engine/bound %.2f\n",
                "",
                r.engineMs,
                r.bytesUp / 1e6,
                r.engineUploadMs,
                r.engineUploadMs > 0 ? r.bytesUp / (r.engineUploadMs * 1e6) : 0.0,
                r.bytesDown / 1e6,
                r.engineDownloadMs,
                r.engineDownloadMs > 0 ? r.bytesDown / (r.engineDownloadMs * 1e6) : 0.0,
                r.kernelMs,
                r.boundMs,
                r.boundMs > 0 ? r.engineMs / r.boundMs : 0.0);
    std::printf("%-18s the mask read once on %d threads in %.2f ms (%.1f GB/s); with that read in the upload, "
                "bound %.2f ms, engine/bound %.2f\n",
                "",
                r.readThreads,
                r.maskReadMs,
                r.maskReadMs > 0 ? static_cast<double>(r.maskBytes) / (r.maskReadMs * 1e6) : 0.0,
                r.hostBoundMs,
                r.hostBoundMs > 0 ? r.engineMs / r.hostBoundMs : 0.0);
    if (r.pairedRatioMedian > 0)
    {
      std::printf("%-18s engine/bound a repetition at a time, each with the mask's read right after it: "
                  "best %.2f (as the best of the repetitions is the engine's time), median %.2f, largest %.2f\n",
                  "",
                  r.pairedRatioMin,
                  r.pairedRatioMedian,
                  r.pairedRatioMax);
    }
  }
  std::fflush(stdout);
}

template <unsigned D>
void
RunMask(const MaskCase & m, const Settings & s, Bandwidth & bandwidth, std::vector<Row> & rows)
{
  const auto start = Clock::now();
  auto       image = MakeImage<D>(m);
  std::printf("== %s: %s (made in %.0f ms)\n", m.name.c_str(), m.description.c_str(), MillisecondsSince(start));
  double                                                                itkMs = 0;
  typename itk::BinaryImageToShapeLabelMapFilter<MaskImage<D>>::Pointer itkFilter;
  std::optional<std::vector<ReferenceObject<D>>>                        reference;
  if (s.runItk && !m.labelImage)
  {
    Row r;
    r.mask = m.name;
    r.impl = "itk";
    itkFilter = RunItk<D>(image, m, s, r);
    reference = SummarizeReference<D>(itkFilter->GetOutput());
    if (!s.keepItkOutput)
      itkFilter = nullptr;
    itkMs = r.updateMs;
    PrintRow(r, 0);
    rows.push_back(r);
  }
  std::vector<BackendEnum> backends;
  if (cca::Engine::CudaAvailable())
    backends.push_back(BackendEnum::CUDA);
  if (m.labelImage || !cca::Engine::CudaAvailable())
    backends.push_back(BackendEnum::CPU);
  // --shape-objects: our filter with a LabelMap of ShapeLabelObject, on the
  // first backend, after its default row or (--shape-objects-first) before.
  const auto shapeRow = [&](BackendEnum backend) {
    Row shape;
    shape.mask = m.name;
    shape.impl = "ours-shape";
    auto filter = RunOurs<D, ShapeMap<D>>(image, m, backend, s, shape);
    if (reference)
      Compare<D>(filter->GetOutput(), *reference, shape);
    else
      shape.check = "not checked";
    filter = nullptr;
    PrintRow(shape, itkMs);
    rows.push_back(shape);
    WriteJson(s, bandwidth, rows);
  };
  const bool shapeRows = s.shapeObjects != Settings::ShapeRow::None && !m.labelImage;
  for (BackendEnum backend : backends)
  {
    if (shapeRows && backend == backends.front() && s.shapeObjects == Settings::ShapeRow::First)
    {
      shapeRow(backend);
    }
    Row r;
    r.mask = m.name;
    r.impl = backend == BackendEnum::CUDA ? "ours-cuda" : "ours-cpu";
    auto filter = RunOurs<D>(image, m, backend, s, r);
    if (reference)
      Compare<D>(filter->GetOutput(), *reference, r);
    else
      r.check = "not checked";
    filter = nullptr;
    if (backend == BackendEnum::CUDA && !bandwidth.measured)
    {
      // --cold: CUDA started in the Update()s above.
      const double startCudaMs = bandwidth.startCudaMs;
      bandwidth = MeasurePinnedBandwidth();
      bandwidth.startCudaMs = startCudaMs;
      std::printf("pinned bandwidth measured now: H2D %.1f GB/s, D2H %.1f GB/s\n",
                  bandwidth.hostToDevice,
                  bandwidth.deviceToHost);
    }
    if (backend == BackendEnum::CUDA)
      RunEngine<D>(image, m, s, bandwidth, r);
    PrintRow(r, itkMs);
    rows.push_back(r);
    WriteJson(s, bandwidth, rows);
    if (shapeRows && backend == backends.front() && s.shapeObjects == Settings::ShapeRow::After)
    {
      shapeRow(backend);
    }
  }
}

std::vector<MaskCase>
Masks(bool quick)
{
  // --quick: every side divided by 8 (ball counts by 8^3, radii kept).
  const std::int64_t    k = quick ? 8 : 1;
  std::vector<MaskCase> masks;
  auto                  balls = [](int count, double minRadius, double maxRadius, std::uint32_t seed) {
    return [=](const MaskCase & m, std::uint8_t * out) {
      const auto list = ccabench::RandomBalls(m.size, count, minRadius, maxRadius, seed);
      ccabench::DrawBalls(m.size, list, out);
    };
  };
  auto random = [](double density, int g, std::uint32_t seed) {
    return [=](const MaskCase & m, std::uint8_t * out) {
      cca::FillRandomBlockImage(m.size[0], m.size[1], m.size[2], density, g, seed, out);
    };
  };
  const int ballScale = static_cast<int>(k * k * k);
  MaskCase  ct;
  ct.name = "ct-face";
  ct.description = "CT-like 512x512x400, 3000 balls r 2..10, spacing 0.7/0.7/1.25, face";
  ct.size[0] = 512 / k;
  ct.size[1] = 512 / k;
  ct.size[2] = 400 / k;
  ct.spacing[0] = 0.7;
  ct.spacing[1] = 0.7;
  ct.spacing[2] = 1.25;
  ct.fill = balls(std::max(1, 3000 / ballScale), 2, 10, 4);
  masks.push_back(ct);
  ct.name = "ct-full";
  ct.description = "the same, full connectivity";
  ct.full = true;
  masks.push_back(ct);
  MaskCase small = ct;
  small.name = "balls-60k";
  small.description = "512x512x400, 60000 small balls r 1..3, face";
  small.full = false;
  small.spacing[0] = small.spacing[1] = small.spacing[2] = 1;
  small.fill = balls(std::max(1, 60000 / ballScale), 1, 3, 5);
  masks.push_back(small);
  MaskCase r3;
  r3.size[0] = r3.size[1] = r3.size[2] = 512 / k;
  r3.name = "random3d-g4";
  r3.description = "random 512^3, g=4, d=0.3";
  r3.fill = random(0.3, 4, 3);
  masks.push_back(r3);
  r3.name = "random3d-g1";
  r3.description = "random 512^3, g=1, d=0.2";
  r3.fill = random(0.2, 1, 2);
  masks.push_back(r3);
  for (int g : { 16, 4, 1 })
  {
    MaskCase r2;
    r2.dimension = 2;
    r2.size[0] = r2.size[1] = 8192 / k;
    r2.name = "random2d-g" + std::to_string(g);
    r2.description = "random 8192^2, g=" + std::to_string(g) + ", d=0.5 (the papers' protocol image)";
    r2.fill = random(0.5, g, static_cast<std::uint32_t>(1000 * g + 5));
    masks.push_back(r2);
  }
  MaskCase big;
  big.name = "large-labels";
  big.description = "2048x2048x560, 300000 balls r 2..10, label image; CUDA against the CPU backend";
  big.size[0] = big.size[1] = 2048 / k;
  big.size[2] = 560 / k;
  big.labelImage = true;
  big.fill = balls(std::max(1, 300000 / ballScale), 2, 10, 6);
  masks.push_back(big);
  return masks;
}

/** Whether our D-dimensional LabelMaps are appended to their container
 *  (CudaLabelStatisticsLabelMapBuilder::SetAppendToContainer). */
template <unsigned D>
void
AppendToContainer(bool append)
{
  using Map = typename itk::CudaLabelStatisticsImageFilter<MaskImage<D>>::OutputImageType;
  itk::CudaLabelStatisticsLabelMapBuilder<Map>::SetAppendToContainer(append);
}

} // namespace

int
main(int argc, char * argv[])
{
  Settings s;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto              next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string("1"); };
    if (arg == "--reps")
      s.reps = std::max(1, std::stoi(next()));
    else if (arg == "--itk-reps")
      s.itkReps = std::max(1, std::stoi(next()));
    else if (arg == "--threads")
      s.threads = std::max(1, std::stoi(next()));
    else if (arg == "--no-itk")
      s.runItk = false;
    else if (arg == "--quick")
      s.quick = true;
    else if (arg == "--io-factories")
      s.ioFactories = true;
    else if (arg == "--keep-itk-output")
      s.keepItkOutput = true;
    else if (arg == "--add-label-object")
    {
      AppendToContainer<2>(false);
      AppendToContainer<3>(false);
    }
    else if (arg == "--no-host-image-pool")
      cca::HostImageMemory::SetIdleLimit(0);
    else if (arg == "--region-piece-bytes")
    {
      const auto bytes = static_cast<std::size_t>(std::stoull(next()));
#ifdef CCA_HAVE_CUDA
      cca::cuda::SetRegionCopies(0, bytes);
#else
      (void)bytes;
#endif
    }
    else if (arg == "--streamed-uploads")
    {
      const std::string how = next();
#ifdef CCA_HAVE_CUDA
      // on: the default sizes (from where copies would go by regions,
      // which HostStaging's static_assert keeps so).
      cca::cuda::SetStreamedUploads(how == "never" ? cca::cuda::NeverStreamedUploads : 0,
                                    how == "never" || how == "on" ? 0 : static_cast<std::size_t>(std::stoull(how)));
#else
      (void)how;
#endif
    }
    else if (arg == "--cold")
      s.cold = true;
    else if (arg == "--shape-objects")
      s.shapeObjects = Settings::ShapeRow::After;
    else if (arg == "--shape-objects-first")
      s.shapeObjects = Settings::ShapeRow::First;
    else if (arg == "--label-pages")
    {
      const std::string when = next();
      cca::SetLabelPagesWritten(when == "never"   ? cca::LabelPagesWritten::Never
                                : when == "first" ? cca::LabelPagesWritten::FirstRun
                                                  : cca::LabelPagesWritten::Always);
    }
    else if (arg == "--json")
      s.json = next();
    else if (arg == "--only")
    {
      std::stringstream list(next());
      for (std::string name; std::getline(list, name, ',');)
        s.only.push_back(name);
    }
    else
    {
      std::cerr << "usage: " << argv[0]
                << " [--reps N] [--itk-reps N] [--threads N] [--only NAME[,NAME]] [--no-itk] [--quick] [--io-factories]"
                   " [--keep-itk-output] [--add-label-object] [--no-host-image-pool] [--region-piece-bytes N]"
                   " [--streamed-uploads never|on|PIECE_BYTES] [--cold]"
                   " [--label-pages never|first|always] [--shape-objects] [--shape-objects-first] [--json FILE]\n";
      return 2;
    }
  }
  if (s.ioFactories)
  {
    cca::benchmark::RegisterImageIOFactories();
  }
  if (s.threads > 0)
  {
    itk::MultiThreaderBase::SetGlobalMaximumNumberOfThreads(static_cast<itk::ThreadIdType>(s.threads));
    itk::MultiThreaderBase::SetGlobalDefaultNumberOfThreads(static_cast<itk::ThreadIdType>(s.threads));
  }

  Bandwidth bandwidth;
  if (s.cold)
  {
    // The first Update()s start CUDA. Asking whether a device is usable
    // initializes the driver, which a first Update() would do too.
    const auto   ask = Clock::now();
    const bool   cuda = cca::Engine::CudaAvailable();
    const double askMs = MillisecondsSince(ask);
    bandwidth.measured = !cuda;
    std::printf("CUDA %s (the driver's initialization %.0f ms; start-up left to the first Update()), %u threads, "
                "%zu object factories registered\n",
                cuda ? "available" : "not available",
                askMs,
                itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads(),
                itk::ObjectFactoryBase::GetRegisteredFactories().size());
  }
  else
  {
    // CUDA's start-up, as the program overlaps it with reading its input.
    const auto   startCuda = Clock::now();
    const bool   cuda = cca::Engine::StartCuda();
    const double startCudaMs = MillisecondsSince(startCuda);
    bandwidth = MeasurePinnedBandwidth();
    bandwidth.measured = true;
    bandwidth.startCudaMs = startCudaMs;
    std::printf("CUDA %s (start-up %.0f ms), pinned bandwidth H2D %.1f GB/s, D2H %.1f GB/s, %u threads, %zu object "
                "factories registered\n",
                cuda ? "available" : "not available",
                startCudaMs,
                bandwidth.hostToDevice,
                bandwidth.deviceToHost,
                itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads(),
                itk::ObjectFactoryBase::GetRegisteredFactories().size());
  }
  std::printf("%-18s %-10s %9s %10s %8s %8s %7s %7s %7s %8s %8s\n",
              "mask",
              "impl",
              "objects",
              "update ms",
              "engine",
              "upload",
              "kernel",
              "down",
              "labelmap",
              "x ITK",
              "check");

  std::vector<Row> rows;
  for (const MaskCase & m : Masks(s.quick))
  {
    if (!s.only.empty() && std::find(s.only.begin(), s.only.end(), m.name) == s.only.end())
      continue;
    if (m.dimension == 2)
      RunMask<2>(m, s, bandwidth, rows);
    else
      RunMask<3>(m, s, bandwidth, rows);
  }
  WriteJson(s, bandwidth, rows);
#ifdef CCA_HAVE_CUDA
  // Says whether --streamed-uploads took effect: a mask whose bits do not
  // fit the streamed path is copied by regions without a word.
  std::printf("uploads streamed: %lld\n", static_cast<long long>(cca::cuda::StreamedUploadsMade()));
#endif
  int mismatches = 0;
  for (const Row & r : rows)
    mismatches += r.check == "mismatch" ? 1 : 0;
  if (mismatches)
    std::printf("MISMATCH: %d rows differ from ITK\n", mismatches);
  return mismatches ? 1 : 0;
}
