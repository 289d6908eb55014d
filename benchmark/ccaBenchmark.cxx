// Engine-level benchmark following the papers' protocol (Lemaitre 2021, their GTC 2021 talk,
// Cabaret 2017): random N x N images (or N^3 volumes) from MT19937 with
// density d = 0 .. 100 % in steps of 10 % and granularity g = 1, 4, 16 (g x g
// (x g) blocks share one draw), plus the all-foreground image (RandomImages.h;
// the peers' harness regenerates the same images bit for bit). Each image runs
// warm-up times, then the median of repeated runs is taken; stage times come
// from the engine (CUDA events on the GPU). Kernel throughput = pixels /
// (label + features time; with --labels-on-device, whose image is in device
// memory as the peers' are, also the upload stage's run count), averaged
// over density two ways: all pixels over the summed time, and the mean of
// the per-image throughputs (as the papers average). Per image, one more
// untimed run of a fresh engine gives the device memory the engine's
// buffers need (bytes per pixel).
//
// Usage: cca_benchmark [--quick] [--dimension 2|3] [--size N] [--reps R] [--warmup W]
//                      [--connectivity face|full|both] [--outputs features|all|labels]
//                      [--labels-on-device] [--backend cuda|cpu] [--algorithm NAME|all]
//                      [--g G] [--density D] [--compaction Scan|TreeMerge|None]
//                      [--no-atomic-counts] [--block-labeling auto|always|never]
//                      [--strip-labeling auto|always|never] [--no-dependent-launches] [--no-side-stream]
//                      [--wide-cub-counts]
//                      [--link-fan-in N] [--link-block-rows N] [--shared-row-links auto|never]
//                      [--queued-merges auto|never]
//                      [--row-bit-links auto|always|never]
//                      [--vote-order auto|always|never] [--whole-components auto|always|never]
//                      [--narrow-table auto|host|never] [--planar-table auto|never]
//                      [--largest-apart auto|always|never] [--largest-subtracted auto|always|never]
//                      [--full-pairs-after-labels] [--run-end-index auto|always|never]
//                      [--region-piece-bytes N]
//                      [--json FILE]
// --block-labeling: where labels only under full connectivity may take the
// block labeling (cuda/BlockLabeling.cuh), when it does (auto: by the runs'
// mean length, as users get it; always and never compare the two).
// --strip-labeling: the same for the strips of two rows (tubes of 2 x 2 rows
// in volumes) that labels only under full connectivity may take
// (cuda/StripLabeling.cuh), and through which the feature table's runs may
// be joined (cuda/StripJoin.cuh).
// --no-dependent-launches: every kernel launched the ordinary way, not as a
// programmatic dependent launch (cuda/DependentLaunch.cuh), to compare.
// --no-side-stream: the label image and the stored pairs' count queued in
// order on the run's stream, not beside the sort into component order
// (cuda/HostSequence.cuh's SideWork), to compare.
// --wide-cub-counts: CUB's sorts and scans given 64-bit counts, as counts
// from 2^31 on are, not 32-bit ones where they fit, to compare.
// --link-fan-in: blocks of rows (and slices) every level of the union-find
// joins (cuda/UnionFind.cuh's ForEachLinkPass), in place of the default (512
// in volumes, 8 in planes of long runs), to compare.
// --link-block-rows: rows of the blocks the union-find joins first, in
// place of the default, to compare.
// --shared-row-links: whether a volume's first union-find pass, and a
// plane's joined from its rows' bits, join their blocks of rows with their
// links in shared memory (cuda/RowBlocksInShared.cuh,
// cuda/ByteRowBlocksInShared.cuh; auto, as users get it) or in global
// memory (never), to compare.
// --queued-merges: whether the union-find's passes over a mask's whole runs
// (in global memory and in the shared row blocks) queue each warp's merges,
// a pair a lane (cuda/QueuedMerges.cuh; auto, as users get it), or merge
// each run's own (never), and whether a plane's passes from the rows' bits
// queue each stretch's events across the warp or join them by their lanes,
// to compare.
// --row-bit-links: where the union-find joins the runs of byte masks from
// the rows' foreground bits (cuda/RowPairLinks.cuh) instead of searching
// the runs (auto: labels only, and the table of planes, by the runs' mean
// length and the sampled density, as users get it; always and never compare
// the two). Under full connectivity the table's runs joined from the bits
// have their perimeter's pairs counted after the labels.
// --vote-order: whether the feature votes take the units in component order
// (cuda/ComponentOrder.cuh; auto: where the runs' grouping sorts them
// anyway, as users get it; always and never compare).
// --whole-components: whether the votes in component order store the
// components whose runs lie in one warp's chunk whole (cuda/WholeComponents.cuh;
// auto: where components are many among the runs, as users get it; always
// and never compare).
// --narrow-table: whether the default algorithm's dense feature table holds
// 32-bit counts, 160 bytes an entry instead of 216 (src/NarrowFeatures.h;
// auto: widened on the device where components are few, else on the host,
// as users get it; host: always widened on the host; never: wide entries).
// --largest-apart: whether the component order leaves the largest
// component's units out of its radix sort (cuda/LargestComponent.cuh; auto:
// where it holds many of the units, as users get it; always and never
// compare).
// --largest-subtracted: whether the largest component's table entry is the
// foreground's totals less the other entries, its runs voting their
// bounding box only (cuda/LargestBySubtraction.cuh; a byte mask of whole
// 16-byte rows, either connectivity; where the pairs' pass after the labels
// runs, it places that component's runs, cuda/PlacedLargest.cuh; auto:
// where it holds a share of the units, as users get it).
// --planar-table: whether a 2D image's narrow table holds planar entries, 96
// bytes without the z axis's fields (auto, as users get it), or 160-byte ones
// (never), to compare.
// --full-pairs-after-labels: under full connectivity the perimeter's pairs
// counted once the labels exist (cuda/PrecedingPairs.cuh's
// CountPrecedingPairsKernel), not by the union-find, to compare; with
// --row-bit-links always the union-find then joins the runs from the rows'
// bits.
// --run-end-index: whether a byte mask's runs carry their end index, with
// which the searches for a neighbour row's runs take one load
// (cuda/RunNeighbours.cuh; auto: where the rows hold many runs,
// cuda/UnitDetection.cuh's WritesRunEndIndex, as users get it; always:
// wherever rows have at most 65,536 pixels; never: binary searches; to
// compare).
// --region-piece-bytes: the pieces in which an upload or download by
// regions (one a copy thread, cuda/HostStaging.h) crosses the bus, in place
// of the default, to compare (the upload column of an image in host memory).
#include "RandomImages.h"
#include "WallClock.h"
#include "cca/Engine.h"

#ifdef CCA_HAVE_CUDA
#  include "CudaBackendTesting.h"

#  include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

using ccabench::Average;
using ccabench::ImageCase;
using ccabench::Median;

struct Settings : ccabench::ProtocolOptions
{
  Settings()
  {
    size = 0; // after parsing: 8192 (2D) or 512 (3D); --quick: 2048 or 256
    reps = 10;
    warmup = 2;
    connectivity = "both";
  }
  int                         dimension = 2;
  bool                        quick = false;
  std::string                 outputs = "features"; ///< features | all (+ runs, labels) | labels (labels only)
  bool                        labelsOnDevice = false;
  std::string                 blockLabeling = "auto";       ///< --block-labeling auto|always|never
  std::string                 stripLabeling = "auto";       ///< --strip-labeling auto|always|never
  bool                        atomicCounts = true;          ///< one more untimed run per image counts atomic updates
  bool                        dependentLaunches = true;     ///< --no-dependent-launches: false
  bool                        sideStream = true;            ///< --no-side-stream: false
  bool                        narrowCubCounts = true;       ///< --wide-cub-counts: false
  std::int64_t                linkFanIn = 0;                ///< --link-fan-in N (0: the default)
  std::string                 rowBitLinks = "auto";         ///< --row-bit-links auto|always|never
  std::string                 runEndIndex = "auto";         ///< --run-end-index auto|always|never
  std::int64_t                regionPieceBytes = 0;         ///< --region-piece-bytes N (0: the default)
  std::string                 voteOrder = "auto";           ///< --vote-order auto|always|never
  std::string                 wholeComponents = "auto";     ///< --whole-components auto|always|never
  std::string                 narrowTable = "auto";         ///< --narrow-table auto|host|never
  std::string                 planarTable = "auto";         ///< --planar-table auto|never
  std::string                 largestApart = "auto";        ///< --largest-apart auto|always|never
  std::string                 largestSubtracted = "auto";   ///< --largest-subtracted auto|always|never
  bool                        fullPairsAfterLabels = false; ///< --full-pairs-after-labels
  std::int64_t                linkBlockRows = 0;            ///< --link-block-rows N (0: the default)
  std::string                 sharedRowLinks = "auto";      ///< --shared-row-links auto|never
  std::string                 queuedMerges = "auto";        ///< --queued-merges auto|never
  std::string                 backend = "cuda";
  std::vector<cca::Algorithm> algorithms{ cca::Algorithm::Default };     ///< --algorithm NAME|all
  cca::FeatureCompaction      compaction = cca::FeatureCompaction::Scan; ///< --compaction Scan|TreeMerge|None

  std::int64_t
  Pixels() const
  {
    return dimension == 3 ? size * size * size : size * size;
  }
  bool
  WritesLabels() const
  {
    return outputs != "features";
  }
  /** "Gpix/s" or, for volumes, "Gvox/s". */
  const char *
  Unit() const
  {
    return dimension == 3 ? "Gvox/s" : "Gpix/s";
  }
};

/** 4 / 8 neighbours in 2D, 6 / 26 in 3D. */
int
Neighbours(int dimension, cca::Connectivity c)
{
  if (dimension == 3)
    return c == cca::Connectivity::Face ? 6 : 26;
  return c == cca::Connectivity::Face ? 4 : 8;
}

struct Measurement
{
  std::string  algorithm;
  std::string  connectivity;
  int          neighbours = 0;
  ImageCase    image;
  std::int64_t components = 0;
  std::int64_t runs = 0;
  double       uploadMs = 0;
  double       labelMs = 0;
  double       featuresMs = 0;
  double       downloadMs = 0;
  double       kernelMs = 0; ///< median of label + features (+ the run count with --labels-on-device)
  double       totalMs = 0;
  double       kernelGpixPerS = 0;
  double       totalGpixPerS = 0;
  std::int64_t atomicFeatureUpdates = -1; ///< from one extra, untimed run
  double       estimatedConflicts = -1;
  std::int64_t bytesCopiedToHost = 0; ///< device to host, last timed run
  std::int64_t deviceBytes = -1;      ///< peak of the engine's device buffers in a fresh engine's run; -1: not measured
  double       deviceBytesPerPixel = -1;
  double       timedWallMs = 0; ///< wall time of the warm-up and timed runs, host work included
  double       extraWallMs = 0; ///< wall time of the untimed runs after them (fresh engine, atomic counts)
};

/** Device memory the program holds for --labels-on-device (the image and
 *  the label image, as the peers hold theirs): allocated and filled outside
 *  the timed runs. */
class DeviceBuffer
{
public:
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &
  operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer()
  {
#ifdef CCA_HAVE_CUDA
    cudaFree(m_Pointer);
#endif
  }

  void *
  Reserve(std::size_t bytes)
  {
#ifdef CCA_HAVE_CUDA
    if (bytes > m_Bytes)
    {
      cudaFree(m_Pointer);
      m_Pointer = nullptr;
      m_Bytes = 0;
      const cudaError_t status = cudaMalloc(&m_Pointer, bytes);
      if (status != cudaSuccess)
      {
        throw std::runtime_error(std::string("cudaMalloc for --labels-on-device: ") + cudaGetErrorString(status));
      }
      m_Bytes = bytes;
    }
    return m_Pointer;
#else
    (void)bytes;
    throw std::runtime_error("--labels-on-device needs a build with the CUDA backend");
#endif
  }

  /** Reserve(bytes), then a copy of bytes from host memory into it. */
  const void *
  Upload(const void * host, std::size_t bytes)
  {
    void * to = Reserve(bytes);
#ifdef CCA_HAVE_CUDA
    const cudaError_t status = cudaMemcpy(to, host, bytes, cudaMemcpyHostToDevice);
    if (status != cudaSuccess)
    {
      throw std::runtime_error(std::string("copying the image to the device: ") + cudaGetErrorString(status));
    }
#else
    (void)host;
#endif
    return to;
  }

private:
  void *      m_Pointer = nullptr;
  std::size_t m_Bytes = 0;
};

/** Times one image. deviceImage: its copy in device memory (--labels-on-device),
 *  or null to pass the host image. */
Measurement
Measure(cca::Engine &                     engine,
        const std::vector<std::uint8_t> & image,
        const void *                      deviceImage,
        const Settings &                  s,
        cca::Connectivity                 c,
        cca::Algorithm                    algorithm,
        void *                            labels,
        cca::Result &                     r)
{
  cca::ImageView view;
  view.data = deviceImage != nullptr ? deviceImage : image.data();
  view.memory = deviceImage != nullptr ? cca::MemorySpace::CudaDevice : cca::MemorySpace::Host;
  view.pixelType = cca::PixelType::UInt8;
  view.dimension = s.dimension;
  for (int axis = 0; axis < s.dimension; ++axis)
    view.size[axis] = s.size;
  cca::Options options;
  options.connectivity = c;
  options.backend = s.backend == "cpu" ? cca::Backend::Cpu : cca::Backend::Cuda;
  options.computeRuns = s.outputs == "all";
  options.computeFeatures = s.outputs != "labels";
  options.algorithm = algorithm;
  options.featureCompaction = s.compaction;
  if (s.WritesLabels())
  {
    options.labelImageType = cca::LabelImageType::UInt32;
    options.labelImage = labels;
    options.labelImageMemory = s.labelsOnDevice ? cca::MemorySpace::CudaDevice : cca::MemorySpace::Host;
  }
  std::vector<double> upload, label, features, download, total, kernel;
  Measurement         m;
  const auto          timedStart = cca::benchmark::Clock::now();
  for (int i = 0; i < s.warmup + s.reps; ++i)
  {
    engine.Run(view, options, r); // reuses r's host memory, as a streaming caller would
    if (i < s.warmup)
    {
      continue;
    }
    upload.push_back(r.times.uploadMs);
    label.push_back(r.times.labelMs);
    features.push_back(r.times.featuresMs);
    download.push_back(r.times.downloadMs);
    total.push_back(r.times.totalMs);
    // An image in device memory: the upload stage only counts the runs
    // (the first pass of the run detection), which the kernels' time
    // includes. From host memory that pass overlaps the copy and stays in
    // the upload time.
    kernel.push_back((deviceImage != nullptr ? r.times.uploadMs : 0.0) + r.times.labelMs + r.times.featuresMs);
    m.components = r.componentCount;
    m.runs = options.computeRuns ? static_cast<std::int64_t>(r.runs.size()) : -1;
    m.bytesCopiedToHost = r.bytesCopiedToHost;
  }
  const double pixels = static_cast<double>(image.size());
  m.uploadMs = Median(upload);
  m.labelMs = Median(label);
  m.featuresMs = Median(features);
  m.downloadMs = Median(download);
  m.kernelMs = Median(kernel);
  m.totalMs = Median(total);
  m.kernelGpixPerS = pixels / (m.kernelMs * 1e6);
  m.totalGpixPerS = pixels / (m.totalMs * 1e6);
  m.timedWallMs = cca::benchmark::MillisecondsSince(timedStart);
  const auto extraStart = cca::benchmark::Clock::now();
  if (s.backend == "cuda")
  {
    // The device memory that a fresh engine's buffers need for this image
    // (the engine above keeps its own between runs): one more, untimed run,
    // on a new device state (a new engine would take the idle one of an
    // earlier image, with its buffers at that image's sizes).
    cca::Engine::ReleaseCachedMemory();
    cca::Engine::ResetDeviceMemoryPeak();
    const std::int64_t held = cca::Engine::DeviceMemoryInUse().heldBytes;
    {
      cca::Engine fresh;
      fresh.Run(view, options, r);
    }
    m.deviceBytes = cca::Engine::DeviceMemoryInUse().peakBytes - held;
    m.deviceBytesPerPixel = static_cast<double>(m.deviceBytes) / pixels;
    if (s.atomicCounts && options.computeFeatures)
    {
      // Lemaitre 2021 section 4.1: atomic feature updates and estimated conflicts.
      options.countAtomicUpdates = true;
      engine.Run(view, options, r);
      m.atomicFeatureUpdates = r.atomicFeatureUpdates;
      m.estimatedConflicts = r.estimatedConflicts;
    }
  }
  m.extraWallMs = cca::benchmark::MillisecondsSince(extraStart);
  return m;
}

void
WriteJson(const std::string &              file,
          const Settings &                 s,
          const std::vector<Measurement> & all,
          const std::vector<std::string> & summary)
{
  std::ofstream out(file);
  out << "{\n  \"program\": \"cca_benchmark\",\n  \"dimension\": " << s.dimension << ",\n  \"size\": " << s.size
      << ",\n  \"reps\": " << s.reps << ",\n  \"warmup\": " << s.warmup << ",\n  \"backend\": \"" << s.backend
      << "\",\n  \"outputs\": \"" << s.outputs << "\",\n  \"blockLabeling\": \"" << s.blockLabeling
      << "\",\n  \"stripLabeling\": \"" << s.stripLabeling
      << "\",\n  \"dependentLaunches\": " << (s.dependentLaunches ? "true" : "false")
      << ",\n  \"sideStream\": " << (s.sideStream ? "true" : "false")
      << ",\n  \"narrowCubCounts\": " << (s.narrowCubCounts ? "true" : "false") << ",\n  \"linkFanIn\": " << s.linkFanIn
      << ",\n  \"rowBitLinks\": \"" << s.rowBitLinks << "\""
      << ",\n  \"voteOrder\": \"" << s.voteOrder << "\""
      << ",\n  \"wholeComponents\": \"" << s.wholeComponents << "\""
      << ",\n  \"narrowTable\": \"" << s.narrowTable << "\""
      << ",\n  \"planarTable\": \"" << s.planarTable << "\""
      << ",\n  \"largestApart\": \"" << s.largestApart << "\""
      << ",\n  \"runEndIndex\": \"" << s.runEndIndex << "\""
      << ",\n  \"regionPieceBytes\": " << s.regionPieceBytes
      << ",\n  \"fullPairsAfterLabels\": " << (s.fullPairsAfterLabels ? "true" : "false")
      << ",\n  \"linkBlockRows\": " << s.linkBlockRows << ",\n  \"sharedRowLinks\": \"" << s.sharedRowLinks << "\""
      << ",\n  \"queuedMerges\": \"" << s.queuedMerges << "\""
      << ",\n  \"labelsOnDevice\": " << (s.labelsOnDevice ? "true" : "false") << ",\n  \"kernelMs\": \""
      << (s.labelsOnDevice ? "uploadMs (the run count on the device image) + labelMs + featuresMs"
                           : "labelMs + featuresMs (the run count overlaps the copy, in uploadMs)")
      << "\",\n  \"compaction\": \"" << cca::FeatureCompactionName(s.compaction)
      << "\",\n  \"deviceBytes\": \"peak device memory of the engine's buffers in one run of a fresh engine "
         "(with --labels-on-device the image and the label image are the caller's and not counted)\",\n  \"summary\": "
         "[\n";
  for (std::size_t i = 0; i < summary.size(); ++i)
  {
    out << "    " << summary[i] << (i + 1 < summary.size() ? ",\n" : "\n");
  }
  out << "  ],\n  \"measurements\": [\n";
  for (std::size_t i = 0; i < all.size(); ++i)
  {
    const Measurement & m = all[i];
    out << "    {\"algorithm\": \"" << m.algorithm << "\", \"connectivity\": \"" << m.connectivity
        << "\", \"neighbours\": " << m.neighbours << ", \"g\": " << (m.image.allForeground ? 0 : m.image.g)
        << ", \"density\": " << m.image.density << ", \"allForeground\": " << (m.image.allForeground ? "true" : "false")
        << ", \"seed\": " << m.image.seed << ", \"components\": " << m.components << ", \"runs\": " << m.runs
        << ", \"uploadMs\": " << m.uploadMs << ", \"labelMs\": " << m.labelMs << ", \"featuresMs\": " << m.featuresMs
        << ", \"downloadMs\": " << m.downloadMs << ", \"kernelMs\": " << m.kernelMs << ", \"totalMs\": " << m.totalMs
        << ", \"kernelGpixPerS\": " << m.kernelGpixPerS << ", \"totalGpixPerS\": " << m.totalGpixPerS
        << ", \"atomicFeatureUpdates\": " << m.atomicFeatureUpdates
        << ", \"estimatedConflicts\": " << m.estimatedConflicts << ", \"bytesCopiedToHost\": " << m.bytesCopiedToHost
        << ", \"deviceBytes\": " << m.deviceBytes << ", \"deviceBytesPerPixel\": " << m.deviceBytesPerPixel << "}"
        << (i + 1 < all.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

/** The averages of one granularity: kernel and end to end, and the most device memory per pixel. */
struct GroupSummary
{
  std::string key;
  Average     kernel;
  Average     total;
  double      maxDeviceBytesPerPixel = -1;

  void
  Add(const Measurement & m, double pixels)
  {
    kernel.Add(pixels, m.kernelMs);
    total.Add(pixels, m.totalMs);
    maxDeviceBytesPerPixel = std::max(maxDeviceBytesPerPixel, m.deviceBytesPerPixel);
  }

  /** Prints the summary line (pixels over summed time first) and appends the JSON fields. */
  void
  Report(const Settings & s, const std::string & algorithm, const std::string & connectivity, std::ostream & json) const
  {
    const double pixels = static_cast<double>(s.Pixels());
    json << ", \"" << key << "KernelGpixPerSTimeWeighted\": " << kernel.TimeWeighted(pixels) << ", \"" << key
         << "KernelGpixPerS\": " << kernel.Mean() << ", \"" << key
         << "TotalGpixPerSTimeWeighted\": " << total.TimeWeighted(pixels) << ", \"" << key
         << "TotalGpixPerS\": " << total.Mean() << ", \"" << key
         << "MaxDeviceBytesPerPixel\": " << maxDeviceBytesPerPixel;
    std::printf("== %s %s %s: kernel %.2f %s (pixels/summed time; %.2f mean over density), end-to-end %.2f (%.2f)",
                algorithm.c_str(),
                connectivity.c_str(),
                key.c_str(),
                kernel.TimeWeighted(pixels),
                s.Unit(),
                kernel.Mean(),
                total.TimeWeighted(pixels),
                total.Mean());
    if (maxDeviceBytesPerPixel >= 0)
      std::printf(", device memory <= %.2f bytes/pixel", maxDeviceBytesPerPixel);
    std::printf("\n");
  }
};

const char * const Usage =
  " [--quick] [--dimension 2|3] [--size N] [--reps R] [--warmup W] [--g G] [--density D]"
  " [--connectivity face|full|both] [--outputs features|all|labels] [--labels-on-device] [--backend cuda|cpu]"
  " [--algorithm NAME|all] [--compaction Scan|TreeMerge|None] [--no-atomic-counts]"
  " [--block-labeling auto|always|never] [--strip-labeling auto|always|never] [--no-dependent-launches]"
  " [--no-side-stream] [--wide-cub-counts]"
  " [--link-fan-in N] [--link-block-rows N] [--shared-row-links auto|never] [--queued-merges auto|never] "
  "[--row-bit-links auto|always|never]"
  " [--vote-order auto|always|never]"
  " [--whole-components auto|always|never] [--narrow-table auto|host|never] [--planar-table auto|never]"
  " [--largest-apart auto|always|never] [--largest-subtracted auto|always|never] [--full-pairs-after-labels] "
  "[--run-end-index auto|always|never] [--region-piece-bytes N]"
  " [--json FILE]\n";

/** Whether a switch's value is one of the names it takes. */
bool
IsOneOf(const std::string & value, std::initializer_list<const char *> names)
{
  return std::find(names.begin(), names.end(), value) != names.end();
}

/** Whether a value of --block-labeling, --strip-labeling, --row-bit-links,
 *  --vote-order, --whole-components, --largest-apart, --largest-subtracted
 *  or --run-end-index is one of the three choices. */
bool
IsChoice(const std::string & value)
{
  return IsOneOf(value, { "auto", "always", "never" });
}

#ifdef CCA_HAVE_CUDA
/** The engine's choice for such a value (Use: BlockLabelingUse,
 *  StripLabelingUse, RowBitLinksUse, VoteOrderUse, WholeComponentsUse or
 *  LargestApartUse or LargestSubtractedUse). */
template <class Use>
Use
UseOf(const std::string & value)
{
  return value == "always" ? Use::Always : value == "never" ? Use::Never : Use::Automatic;
}
#endif

/** Parses the command line into s; returns 0 to go on, else the exit code. */
int
Parse(int argc, char * argv[], Settings & s)
{
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto              next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
    if (arg == "--quick")
    {
      s.quick = true;
      s.reps = 3;
      s.warmup = 1;
      s.densityStep = 0.2;
    }
    else if (ccabench::ParseProtocolOption(arg, next, s))
      continue;
    else if (arg == "--dimension")
      s.dimension = std::stoi(next());
    else if (arg == "--outputs")
      s.outputs = next();
    else if (arg == "--labels-on-device")
      s.labelsOnDevice = true;
    else if (arg == "--no-atomic-counts")
      s.atomicCounts = false;
    else if (arg == "--block-labeling")
      s.blockLabeling = next();
    else if (arg == "--strip-labeling")
      s.stripLabeling = next();
    else if (arg == "--no-dependent-launches")
      s.dependentLaunches = false;
    else if (arg == "--no-side-stream")
      s.sideStream = false;
    else if (arg == "--wide-cub-counts")
      s.narrowCubCounts = false;
    else if (arg == "--link-fan-in")
      s.linkFanIn = std::stoll(next());
    else if (arg == "--row-bit-links")
      s.rowBitLinks = next();
    else if (arg == "--run-end-index")
      s.runEndIndex = next();
    else if (arg == "--region-piece-bytes")
      s.regionPieceBytes = std::stoll(next());
    else if (arg == "--vote-order")
      s.voteOrder = next();
    else if (arg == "--whole-components")
      s.wholeComponents = next();
    else if (arg == "--narrow-table")
      s.narrowTable = next();
    else if (arg == "--planar-table")
      s.planarTable = next();
    else if (arg == "--largest-apart")
      s.largestApart = next();
    else if (arg == "--largest-subtracted")
      s.largestSubtracted = next();
    else if (arg == "--full-pairs-after-labels")
      s.fullPairsAfterLabels = true;
    else if (arg == "--link-block-rows")
      s.linkBlockRows = std::stoll(next());
    else if (arg == "--shared-row-links")
      s.sharedRowLinks = next();
    else if (arg == "--queued-merges")
      s.queuedMerges = next();
    else if (arg == "--backend")
      s.backend = next();
    else if (arg == "--compaction")
    {
      const std::string name = next();
      bool              known = false;
      for (const cca::FeatureCompaction c :
           { cca::FeatureCompaction::Scan, cca::FeatureCompaction::TreeMerge, cca::FeatureCompaction::None })
      {
        if (name == cca::FeatureCompactionName(c))
        {
          s.compaction = c;
          known = true;
        }
      }
      if (!known)
      {
        std::cerr << "unknown compaction " << name << " (Scan, TreeMerge or None)\n";
        return 2;
      }
    }
    else if (arg == "--algorithm")
    {
      const std::string name = next();
      s.algorithms.clear();
      for (const cca::Algorithm a : cca::AllAlgorithms)
      {
        // "all" is the seven strategies of Lemaitre 2021's Table 1 (Default is FLSL_CD).
        if ((name == "all" && cca::JoinsUnitsByUnionFind(a)) || name == cca::AlgorithmName(a))
          s.algorithms.push_back(a);
      }
      if (s.algorithms.empty())
      {
        std::cerr << "unknown algorithm " << name << "\n";
        return 2;
      }
    }
    else
    {
      std::cerr << "usage: " << argv[0] << Usage;
      return 2;
    }
  }
  if (s.size <= 0)
    s.size = s.dimension == 3 ? (s.quick ? 256 : 512) : (s.quick ? 2048 : 8192);
  std::string problem;
  if (s.dimension != 2 && s.dimension != 3)
    problem = "--dimension must be 2 or 3";
  else if (s.outputs != "features" && s.outputs != "all" && s.outputs != "labels")
    problem = "--outputs must be features, all or labels";
  else if (s.backend != "cuda" && s.backend != "cpu")
    problem = "--backend must be cuda or cpu";
  else if (s.labelsOnDevice && !s.WritesLabels())
    problem = "--labels-on-device needs --outputs all or labels";
  else if (s.labelsOnDevice && s.backend != "cuda")
    problem = "--labels-on-device needs --backend cuda";
  else if (s.labelsOnDevice && !cca::Engine::CudaCompiledIn())
    problem = "--labels-on-device needs a build with the CUDA backend";
  else if (!IsChoice(s.blockLabeling))
    problem = "--block-labeling must be auto, always or never";
  else if (!IsChoice(s.stripLabeling))
    problem = "--strip-labeling must be auto, always or never";
  else if (s.linkFanIn != 0 && s.linkFanIn < 2)
    problem = "--link-fan-in must be 2 or more";
  else if (!IsChoice(s.rowBitLinks))
    problem = "--row-bit-links must be auto, always or never";
  else if (!IsChoice(s.voteOrder))
    problem = "--vote-order must be auto, always or never";
  else if (!IsChoice(s.wholeComponents))
    problem = "--whole-components must be auto, always or never";
  else if (!IsOneOf(s.narrowTable, { "auto", "host", "never" }))
    problem = "--narrow-table must be auto, host or never";
  else if (!IsOneOf(s.planarTable, { "auto", "never" }))
    problem = "--planar-table must be auto or never";
  else if (!IsChoice(s.largestApart))
    problem = "--largest-apart must be auto, always or never";
  else if (!IsChoice(s.largestSubtracted))
    problem = "--largest-subtracted must be auto, always or never";
  else if (!IsChoice(s.runEndIndex))
    problem = "--run-end-index must be auto, always or never";
  else if (s.linkBlockRows < 0)
    problem = "--link-block-rows must be 0 (the default) or more";
  else if (s.regionPieceBytes < 0)
    problem = "--region-piece-bytes must be 0 (the default) or more";
  else if (!IsOneOf(s.sharedRowLinks, { "auto", "never" }))
    problem = "--shared-row-links must be auto or never";
  else if (!IsOneOf(s.queuedMerges, { "auto", "never" }))
    problem = "--queued-merges must be auto or never";
#ifndef CCA_HAVE_CUDA
  else if (s.blockLabeling != "auto" || s.stripLabeling != "auto" || !s.dependentLaunches || !s.sideStream ||
           !s.narrowCubCounts || s.linkFanIn != 0 || s.rowBitLinks != "auto" || s.linkBlockRows != 0 ||
           s.sharedRowLinks != "auto" || s.queuedMerges != "auto" || s.voteOrder != "auto" ||
           s.wholeComponents != "auto" || s.narrowTable != "auto" || s.planarTable != "auto" ||
           s.largestApart != "auto" || s.largestSubtracted != "auto" || s.fullPairsAfterLabels ||
           s.runEndIndex != "auto" || s.regionPieceBytes != 0)
    problem =
      "--block-labeling, --strip-labeling, --no-dependent-launches, --no-side-stream, --wide-cub-counts, "
      "--link-fan-in, "
      "--link-block-rows, --shared-row-links, --queued-merges, --row-bit-links, --vote-order, --whole-components, "
      "--narrow-table, --planar-table, "
      "--largest-apart, --largest-subtracted, --full-pairs-after-labels, --run-end-index and "
      "--region-piece-bytes "
      "need a build with the CUDA backend";
#endif
  if (!problem.empty())
  {
    std::cerr << problem << "\nusage: " << argv[0] << Usage;
    return 2;
  }
  return 0;
}

/** One algorithm with one connectivity over the protocol's images. */
struct Series
{
  Series(const Settings & s, cca::Algorithm a, cca::Connectivity c)
    : algorithm(a)
    , connectivity(c)
    , algorithmName(cca::AlgorithmName(a))
    , name(c == cca::Connectivity::Face ? "face" : "full")
    , shown(name + "(" + std::to_string(Neighbours(s.dimension, c)) + ")")
  {
    summary << "{\"algorithm\": \"" << algorithmName << "\", \"connectivity\": \"" << name
            << "\", \"neighbours\": " << Neighbours(s.dimension, c);
  }

  cca::Algorithm     algorithm;
  cca::Connectivity  connectivity;
  std::string        algorithmName;
  std::string        name;    ///< "face" or "full", as the JSON says
  std::string        shown;   ///< with the number of neighbours, as the tables print it
  std::ostringstream summary; ///< the JSON summary so far, without its closing brace
  GroupSummary       group;   ///< the granularity in progress
};

void
PrintRow(const Measurement & m, const std::string & connectivity)
{
  char bytesPerPixel[16] = "-";
  if (m.deviceBytesPerPixel >= 0)
    std::snprintf(bytesPerPixel, sizeof(bytesPerPixel), "%.2f", m.deviceBytesPerPixel);
  std::printf("%-8s %-8s %3s %5.2f %10lld %9.3f %9.3f %9.3f %9.3f %9.3f %10.2f %6s\n",
              m.algorithm.c_str(),
              connectivity.c_str(),
              m.image.GName().c_str(),
              m.image.density,
              static_cast<long long>(m.components),
              m.uploadMs,
              m.labelMs,
              m.featuresMs,
              m.downloadMs,
              m.totalMs,
              m.kernelGpixPerS,
              bytesPerPixel);
  std::fflush(stdout);
}

/** Runs the protocol and prints (and writes) what it measured. */
void
RunProtocol(const Settings & s)
{
  std::vector<cca::Connectivity> connectivities;
  if (s.connectivity != "full")
    connectivities.push_back(cca::Connectivity::Face);
  if (s.connectivity != "face")
    connectivities.push_back(cca::Connectivity::Full);

  const std::vector<ImageCase> cases = ccabench::ProtocolCases(s.densityStep, s.onlyG, s.onlyDensity);
  const double                 pixels = static_cast<double>(s.Pixels());
  cca::Engine                  engine;
  cca::Result                  result;
  std::vector<std::uint8_t>    image;
  std::vector<std::uint32_t>   hostLabels;
  DeviceBuffer                 deviceLabels;
  DeviceBuffer                 deviceImage;
  void *                       labels = nullptr;
  if (s.labelsOnDevice)
    labels = deviceLabels.Reserve(static_cast<std::size_t>(s.Pixels()) * sizeof(std::uint32_t));
  else if (s.WritesLabels())
  {
    hostLabels.resize(static_cast<std::size_t>(s.Pixels()));
    labels = hostLabels.data();
  }
  std::vector<Measurement> all;
  const std::string        shape = std::to_string(s.size) + (s.dimension == 3 ? "^3" : "^2");
  std::printf("%s backend, %s uint8, outputs=%s%s, median of %d after %d warm-up\n",
              s.backend.c_str(),
              shape.c_str(),
              s.outputs.c_str(),
              s.labelsOnDevice ? " (image and labels in device memory; kernels: upload (run count) + label + features)"
                               : "",
              s.reps,
              s.warmup);
  std::printf("%-8s %-8s %3s %5s %10s %9s %9s %9s %9s %9s %10s %6s\n",
              "algo",
              "conn",
              "g",
              "d",
              "components",
              "upload",
              "label",
              "features",
              "download",
              "total",
              s.dimension == 3 ? "kern Gvx/s" : "kern Gpx/s",
              "B/px");
  // Each image is made once, then timed with every algorithm and connectivity
  // (a 512^3 volume at g = 1 takes the host about 0.1 s to draw). Where a
  // run's wall time goes, printed at the end: device time is what the
  // lent GPU machines ration.
  double              makeWallMs = 0;
  double              timedWallMs = 0;
  double              extraWallMs = 0;
  std::vector<Series> series;
  for (cca::Algorithm algorithm : s.algorithms)
    for (cca::Connectivity c : connectivities)
      series.emplace_back(s, algorithm, c);
  for (std::size_t i = 0; i < cases.size(); ++i)
  {
    const ImageCase & ic = cases[i];
    const auto        makeStart = cca::benchmark::Clock::now();
    ccabench::MakeImage(s.size, ic, image, s.dimension);
    const void * onDevice = s.labelsOnDevice ? deviceImage.Upload(image.data(), image.size()) : nullptr;
    makeWallMs += cca::benchmark::MillisecondsSince(makeStart);
    // The protocol's cases come granularity by granularity: summaries at the end of each.
    const bool lastOfGroup = i + 1 == cases.size() || cases[i + 1].Key() != ic.Key();
    for (Series & one : series)
    {
      Measurement m = Measure(engine, image, onDevice, s, one.connectivity, one.algorithm, labels, result);
      m.algorithm = one.algorithmName;
      m.connectivity = one.name;
      m.neighbours = Neighbours(s.dimension, one.connectivity);
      m.image = ic;
      timedWallMs += m.timedWallMs;
      extraWallMs += m.extraWallMs;
      all.push_back(m);
      PrintRow(m, one.shown);
      one.group.key = ic.Key();
      one.group.Add(m, pixels);
    }
    if (lastOfGroup)
    {
      for (Series & one : series)
      {
        one.group.Report(s, one.algorithmName, one.shown, one.summary);
        one.group = GroupSummary{};
      }
    }
    // Written after every image: a run cut short keeps what it measured.
    if (!s.json.empty())
    {
      std::vector<std::string> summary;
      for (const Series & one : series)
        summary.push_back(one.summary.str() + "}");
      WriteJson(s.json, s, all, summary);
    }
  }
  std::printf("wall time: images made (and copied to the device) %.1f s, warm-up and timed runs %.1f s, "
              "untimed runs (fresh engine's memory, atomic counts) %.1f s\n",
              makeWallMs / 1000,
              timedWallMs / 1000,
              extraWallMs / 1000);
}

} // namespace

int
main(int argc, char * argv[])
{
  Settings s;
  if (const int code = Parse(argc, argv, s))
    return code;
#ifdef CCA_HAVE_CUDA
  cca::cuda::SetBlockLabeling(UseOf<cca::cuda::BlockLabelingUse>(s.blockLabeling));
  cca::cuda::SetStripLabeling(UseOf<cca::cuda::StripLabelingUse>(s.stripLabeling));
  cca::cuda::SetDependentLaunches(s.dependentLaunches);
  cca::cuda::SetSideStream(s.sideStream);
  cca::cuda::SetNarrowCubCounts(s.narrowCubCounts);
  cca::cuda::SetLinkFanIn(s.linkFanIn);
  cca::cuda::SetRowBitLinks(UseOf<cca::cuda::RowBitLinksUse>(s.rowBitLinks));
  cca::cuda::SetLinkBlockRows(s.linkBlockRows);
  cca::cuda::SetSharedLinkCapacity(s.sharedRowLinks == "never" ? -1 : 0);
  cca::cuda::SetQueuedMerges(s.queuedMerges != "never");
  cca::cuda::SetVoteOrder(UseOf<cca::cuda::VoteOrderUse>(s.voteOrder));
  cca::cuda::SetWholeComponents(UseOf<cca::cuda::WholeComponentsUse>(s.wholeComponents));
  cca::cuda::SetNarrowTable(s.narrowTable == "host"    ? cca::cuda::NarrowTableUse::HostWidening
                            : s.narrowTable == "never" ? cca::cuda::NarrowTableUse::Never
                                                       : cca::cuda::NarrowTableUse::Automatic);
  cca::cuda::SetPlanarTable(s.planarTable == "never" ? cca::cuda::PlanarTableUse::Never
                                                     : cca::cuda::PlanarTableUse::Automatic);
  cca::cuda::SetLargestApart(UseOf<cca::cuda::LargestApartUse>(s.largestApart));
  cca::cuda::SetLargestSubtracted(UseOf<cca::cuda::LargestSubtractedUse>(s.largestSubtracted));
  cca::cuda::SetFullPairsAfterLabels(s.fullPairsAfterLabels);
  cca::cuda::SetRunEndIndex(UseOf<cca::cuda::RunEndIndexUse>(s.runEndIndex));
  cca::cuda::SetRegionCopies(0, static_cast<std::size_t>(s.regionPieceBytes));
#endif
  if (s.backend == "cuda" && !cca::Engine::CudaAvailable())
  {
    std::cout << "skipped: no CUDA device" << std::endl;
    return 77;
  }
  try
  {
    RunProtocol(s);
  }
  catch (const std::exception & e)
  {
    std::cerr << "cca_benchmark: " << e.what() << std::endl;
    return 1;
  }
  return 0;
}
