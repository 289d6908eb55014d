// Peer benchmark: NVIDIA NPP's nppiLabelMarkersUF_8u32u_C1R_Ctx (labels only)
// on the papers' random-image protocol (see RandomImages.h), with a
// correctness check against our engine's CUDA label image.
//
// NPP labels every region of equal pixel value (the background too) and its
// labels are not dense, so the check compares partitions of the foreground:
// two foreground pixels must share an NPP label exactly when they share ours.
// A component of ours covered by several NPP labels is "split"; an NPP label
// covering several of ours is "merged". NPP is known to split components
// (NVIDIA/cuda-samples#355): this is reported, not treated as a failure.
//
// Time: the NPP call alone (device image in, device labels out), CUDA events,
// median of --reps after --warmup.
//
// Usage: cca_npp_benchmark [--quick] [--size N] [--reps R] [--warmup W]
//                          [--g G] [--density D] [--connectivity face|full|both] [--json FILE]
#include "RandomImages.h"
#include "cca/Engine.h"

#include <cuda_runtime.h>
#include <npp.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{

void
Check(cudaError_t e, const char * what)
{
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

void
Check(NppStatus status, const char * what)
{
  if (status < NPP_SUCCESS) // positive values are warnings
    throw std::runtime_error(std::string(what) + ": NppStatus " + std::to_string(static_cast<int>(status)));
}

/** NPP 12.9+ has no nppGetStreamContext: the application fills the context. */
NppStreamContext
StreamContext(cudaStream_t stream)
{
  NppStreamContext ctx{};
  ctx.hStream = stream;
  Check(cudaGetDevice(&ctx.nCudaDeviceId), "cudaGetDevice");
  cudaDeviceProp prop{};
  Check(cudaGetDeviceProperties(&prop, ctx.nCudaDeviceId), "cudaGetDeviceProperties");
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  Check(cudaStreamGetFlags(stream, &ctx.nStreamFlags), "cudaStreamGetFlags");
  return ctx;
}

struct Partition
{
  std::int64_t nppLabels = 0;       ///< distinct NPP labels on foreground pixels
  std::int64_t splitComponents = 0; ///< our components covered by more than one NPP label
  std::int64_t mergedLabels = 0;    ///< NPP labels covering more than one of our components
};

/** Compares NPP's foreground partition with ours (dense labels 1..components, 0 = background). */
Partition
ComparePartitions(const std::vector<std::uint8_t> &  image,
                  const std::vector<std::uint32_t> & ours,
                  std::int64_t                       components,
                  const std::vector<std::uint32_t> & npp)
{
  std::uint32_t maxNpp = 0;
  for (std::size_t i = 0; i < image.size(); ++i)
    if (image[i] && npp[i] > maxNpp)
      maxNpp = npp[i];
  constexpr std::uint32_t    none = 0xffffffffu;
  std::vector<std::uint32_t> nppOfOurs(static_cast<std::size_t>(components) + 1, none);
  std::vector<std::uint32_t> oursOfNpp(static_cast<std::size_t>(maxNpp) + 1, 0);
  std::vector<std::uint8_t>  split(nppOfOurs.size(), 0), merged(oursOfNpp.size(), 0);
  Partition                  p;
  for (std::size_t i = 0; i < image.size(); ++i)
  {
    if (!image[i])
      continue;
    const std::uint32_t a = ours[i], b = npp[i];
    if (nppOfOurs[a] == none)
      nppOfOurs[a] = b;
    else if (nppOfOurs[a] != b && !split[a])
    {
      split[a] = 1;
      ++p.splitComponents;
    }
    if (oursOfNpp[b] == 0)
    {
      oursOfNpp[b] = a;
      ++p.nppLabels;
    }
    else if (oursOfNpp[b] != a && !merged[b])
    {
      merged[b] = 1;
      ++p.mergedLabels;
    }
  }
  return p;
}

struct Row
{
  std::string         connectivity;
  ccabench::ImageCase image;
  double              nppMs = 0;
  std::int64_t        components = 0;
  Partition           partition;
};

/** Averages over density, as cca_benchmark gives them, and the images NPP got wrong. */
std::vector<std::string>
Summarize(const std::vector<Row> &               rows,
          const std::vector<cca::Connectivity> & connectivities,
          double                                 pixels,
          bool                                   print)
{
  std::vector<std::string> summary;
  for (const cca::Connectivity conn : connectivities)
  {
    const std::string  name = conn == cca::Connectivity::Face ? "face" : "full";
    std::ostringstream line;
    int                images = 0, splitImages = 0, mergedImages = 0;
    line << "{\"connectivity\": \"" << name << "\"";
    for (const std::string key : { "g1", "g4", "g16", "all" })
    {
      ccabench::Average a;
      for (const Row & r : rows)
      {
        if (r.connectivity != name || r.image.Key() != key)
          continue;
        a.Add(pixels, r.nppMs);
        ++images;
        splitImages += r.partition.splitComponents > 0;
        mergedImages += r.partition.mergedLabels > 0;
      }
      if (a.count == 0)
        continue;
      line << ", \"" << key << "GpixPerS\": " << a.Mean() << ", \"" << key
           << "GpixPerSTimeWeighted\": " << a.TimeWeighted(pixels);
      if (print)
        std::printf("== %s %s: NPP %.2f Gpix/s (mean over density; %.2f pixels/summed time)\n",
                    name.c_str(),
                    key.c_str(),
                    a.Mean(),
                    a.TimeWeighted(pixels));
    }
    line << ", \"images\": " << images << ", \"imagesWithSplitComponents\": " << splitImages
         << ", \"imagesWithMergedComponents\": " << mergedImages << "}";
    if (print)
      std::printf("== %s: NPP splits components on %d of %d images, merges on %d\n",
                  name.c_str(),
                  splitImages,
                  images,
                  mergedImages);
    summary.push_back(line.str());
  }
  return summary;
}

void
WriteJson(const std::string &              json,
          const std::string &              nppVersion,
          std::int64_t                     size,
          int                              reps,
          int                              warmup,
          const std::vector<std::string> & summary,
          const std::vector<Row> &         rows)
{
  const double  pixels = static_cast<double>(size) * static_cast<double>(size);
  std::ofstream out(json);
  out << "{\n  \"program\": \"cca_npp_benchmark\",\n  \"npp\": \"" << nppVersion << "\",\n  \"size\": " << size
      << ",\n  \"reps\": " << reps << ",\n  \"warmup\": " << warmup << ",\n  \"summary\": [\n";
  for (std::size_t i = 0; i < summary.size(); ++i)
    out << "    " << summary[i] << (i + 1 < summary.size() ? ",\n" : "\n");
  out << "  ],\n  \"measurements\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i)
  {
    const Row & r = rows[i];
    out << "    {\"connectivity\": \"" << r.connectivity << "\", \"g\": " << (r.image.allForeground ? 0 : r.image.g)
        << ", \"density\": " << r.image.density << ", \"allForeground\": " << (r.image.allForeground ? "true" : "false")
        << ", \"nppMs\": " << r.nppMs << ", \"nppGpixPerS\": " << pixels / (r.nppMs * 1e6)
        << ", \"components\": " << r.components << ", \"nppLabels\": " << r.partition.nppLabels
        << ", \"splitComponents\": " << r.partition.splitComponents
        << ", \"mergedLabels\": " << r.partition.mergedLabels << ", \"partitionEqual\": "
        << (r.partition.splitComponents == 0 && r.partition.mergedLabels == 0 ? "true" : "false") << "}"
        << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

} // namespace

int
main(int argc, char * argv[])
{
  ccabench::ProtocolOptions s; // the options every protocol benchmark takes, NPP's defaults
  s.size = 8192;
  s.reps = 10;
  s.warmup = 2;
  s.connectivity = "both";
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto              next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string("0"); };
    if (arg == "--quick")
    {
      s.size = 2048;
      s.reps = 3;
      s.warmup = 1;
      s.densityStep = 0.2;
    }
    else if (ccabench::ParseProtocolOption(arg, next, s))
      continue;
    else
    {
      std::cerr << "usage: " << argv[0]
                << " [--quick] [--size N] [--reps R] [--warmup W] [--g G] [--density D]"
                   " [--connectivity face|full|both] [--json FILE]\n";
      return 2;
    }
  }
  if (!cca::Engine::CudaAvailable())
  {
    std::cout << "skipped: no CUDA device" << std::endl;
    return 77;
  }
  const NppLibraryVersion * version = nppGetLibVersion();
  std::ostringstream        nppVersion;
  nppVersion << version->major << "." << version->minor << "." << version->build;

  const std::size_t pixels = static_cast<std::size_t>(s.size * s.size);
  const NppiSize    roi{ static_cast<int>(s.size), static_cast<int>(s.size) };
  int               bufferBytes = 0;
  Check(nppiLabelMarkersUFGetBufferSize_32u_C1R(roi, &bufferBytes), "nppiLabelMarkersUFGetBufferSize_32u_C1R");
  cudaStream_t stream = nullptr;
  Check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  const NppStreamContext ctx = StreamContext(stream);
  Npp8u *                dImage = nullptr;
  Npp32u *               dLabels = nullptr;
  Npp8u *                dBuffer = nullptr;
  Check(cudaMalloc(&dImage, pixels), "cudaMalloc image");
  Check(cudaMalloc(&dLabels, pixels * sizeof(Npp32u)), "cudaMalloc labels"); // pitch must be width * 4
  Check(cudaMalloc(&dBuffer, static_cast<std::size_t>(bufferBytes)), "cudaMalloc buffer");
  cudaEvent_t start, stop;
  Check(cudaEventCreate(&start), "cudaEventCreate");
  Check(cudaEventCreate(&stop), "cudaEventCreate");

  std::vector<cca::Connectivity> connectivities;
  if (s.connectivity != "full")
    connectivities.push_back(cca::Connectivity::Face);
  if (s.connectivity != "face")
    connectivities.push_back(cca::Connectivity::Full);

  std::printf("NPP %s nppiLabelMarkersUF_8u32u_C1R_Ctx, %lldx%lld uint8, median of %d after %d warm-up, buffer %d B\n",
              nppVersion.str().c_str(),
              static_cast<long long>(s.size),
              static_cast<long long>(s.size),
              s.reps,
              s.warmup,
              bufferBytes);
  std::printf("%-5s %3s %5s %10s %10s %8s %8s %9s %10s\n",
              "conn",
              "g",
              "d",
              "components",
              "npp labels",
              "split",
              "merged",
              "npp ms",
              "Gpix/s");

  cca::Engine                engine;
  std::vector<std::uint8_t>  image;
  std::vector<std::uint32_t> ours(pixels), npp(pixels);
  std::vector<Row>           rows;
  for (const auto & c : ccabench::ProtocolCases(s.densityStep, s.onlyG, s.onlyDensity))
  {
    ccabench::MakeImage(s.size, c, image);
    Check(cudaMemcpy(dImage, image.data(), pixels, cudaMemcpyHostToDevice), "upload");
    for (const cca::Connectivity conn : connectivities)
    {
      Row row;
      row.connectivity = conn == cca::Connectivity::Face ? "face" : "full";
      row.image = c;
      const NppiNorm      norm = conn == cca::Connectivity::Face ? nppiNormL1 : nppiNormInf;
      std::vector<double> times;
      for (int i = 0; i < s.warmup + s.reps; ++i)
      {
        Check(cudaEventRecord(start, stream), "cudaEventRecord");
        Check(nppiLabelMarkersUF_8u32u_C1R_Ctx(dImage,
                                               static_cast<int>(s.size),
                                               dLabels,
                                               static_cast<int>(s.size * sizeof(Npp32u)),
                                               roi,
                                               norm,
                                               dBuffer,
                                               ctx),
              "nppiLabelMarkersUF_8u32u_C1R_Ctx");
        Check(cudaEventRecord(stop, stream), "cudaEventRecord");
        Check(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        Check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        if (i >= s.warmup)
          times.push_back(ms);
      }
      row.nppMs = ccabench::Median(times);
      Check(cudaMemcpy(npp.data(), dLabels, pixels * sizeof(Npp32u), cudaMemcpyDeviceToHost), "download");

      // Our reference labels: the engine's CUDA backend, dense uint32 label image.
      cca::ImageView view;
      view.data = image.data();
      view.size[0] = s.size;
      view.size[1] = s.size;
      cca::Options options;
      options.connectivity = conn;
      options.backend = cca::Backend::Cuda;
      options.computeRuns = false;
      options.labelImageType = cca::LabelImageType::UInt32;
      options.labelImage = ours.data();
      row.components = engine.Run(view, options).componentCount;
      row.partition = ComparePartitions(image, ours, row.components, npp);

      std::printf("%-5s %3s %5.2f %10lld %10lld %8lld %8lld %9.3f %10.2f\n",
                  row.connectivity.c_str(),
                  c.GName().c_str(),
                  c.density,
                  static_cast<long long>(row.components),
                  static_cast<long long>(row.partition.nppLabels),
                  static_cast<long long>(row.partition.splitComponents),
                  static_cast<long long>(row.partition.mergedLabels),
                  row.nppMs,
                  static_cast<double>(pixels) / (row.nppMs * 1e6));
      std::fflush(stdout);
      rows.push_back(row);
    }
    // Rewritten after each image: a run cut short still leaves its rows.
    if (!s.json.empty())
      WriteJson(s.json,
                nppVersion.str(),
                s.size,
                s.reps,
                s.warmup,
                Summarize(rows, connectivities, static_cast<double>(pixels), false),
                rows);
  }

  const auto summary = Summarize(rows, connectivities, static_cast<double>(pixels), true);
  if (!s.json.empty())
    WriteJson(s.json, nppVersion.str(), s.size, s.reps, s.warmup, summary, rows);
  cudaFree(dBuffer);
  cudaFree(dLabels);
  cudaFree(dImage);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  return 0;
}
