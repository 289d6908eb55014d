// Engine-level benchmark following the papers' protocol (Lemaitre 2021, their GTC 2021 talk, Cabaret 2017):
// random N x N images from MT19937 with density d = 0 .. 100 % in steps of
// 10 % and granularity g = 1, 4, 16 (g x g blocks share one draw), plus the
// all-foreground image. Each image runs warm-up times, then the median of
// repeated runs is taken; stage times come from the engine (CUDA events on the
// GPU). Kernel throughput = pixels / (label + features time), averaged over
// density as in the papers.
//
// Usage: cca_benchmark [--quick] [--size N] [--reps R] [--warmup W]
//                      [--connectivity face|full|both] [--outputs features|all]
//                      [--backend cuda|cpu] [--algorithm NAME|all] [--g G] [--density D]
//                      [--compaction Scan|TreeMerge|None] [--json FILE]
#include "RandomImages.h"
#include "cca/Engine.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using ccabench::Median;
using ccabench::RandomImage;

struct Settings : ccabench::ProtocolOptions
{
  Settings()
  {
    size = 8192;
    reps = 10;
    warmup = 2;
    connectivity = "both";
  }
  std::string                 outputs = "features";
  std::string                 backend = "cuda";
  std::vector<cca::Algorithm> algorithms{ cca::Algorithm::Default };     ///< --algorithm NAME|all
  cca::FeatureCompaction      compaction = cca::FeatureCompaction::Scan; ///< --compaction Scan|TreeMerge|None
};

struct Measurement
{
  std::string  algorithm;
  std::string  connectivity;
  int          g = 1;
  double       density = 0;
  bool         allForeground = false;
  std::int64_t components = 0;
  std::int64_t runs = 0;
  double       uploadMs = 0;
  double       labelMs = 0;
  double       featuresMs = 0;
  double       downloadMs = 0;
  double       totalMs = 0;
  double       kernelGpixPerS = 0;
  double       totalGpixPerS = 0;
  std::int64_t atomicFeatureUpdates = -1; ///< from one extra, untimed run
  double       estimatedConflicts = -1;
  std::int64_t bytesCopiedToHost = 0; ///< device to host, last timed run
};

Measurement
Measure(cca::Engine &                     engine,
        const std::vector<std::uint8_t> & image,
        const Settings &                  s,
        cca::Connectivity                 c,
        cca::Algorithm                    algorithm,
        std::vector<std::uint32_t> &      labels,
        cca::Result &                     r)
{
  cca::ImageView view;
  view.data = image.data();
  view.pixelType = cca::PixelType::UInt8;
  view.dimension = 2;
  view.size[0] = s.size;
  view.size[1] = s.size;
  cca::Options options;
  options.connectivity = c;
  options.backend = s.backend == "cpu" ? cca::Backend::Cpu : cca::Backend::Cuda;
  options.computeRuns = s.outputs == "all";
  options.algorithm = algorithm;
  options.featureCompaction = s.compaction;
  if (s.outputs == "all")
  {
    labels.resize(image.size());
    options.labelImageType = cca::LabelImageType::UInt32;
    options.labelImage = labels.data();
  }
  std::vector<double> upload, label, features, download, total, kernel;
  Measurement         m;
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
    kernel.push_back(r.times.labelMs + r.times.featuresMs);
    m.components = r.componentCount;
    m.runs = options.computeRuns ? static_cast<std::int64_t>(r.runs.size()) : -1;
    m.bytesCopiedToHost = r.bytesCopiedToHost;
  }
  const double pixels = static_cast<double>(image.size());
  m.uploadMs = Median(upload);
  m.labelMs = Median(label);
  m.featuresMs = Median(features);
  m.downloadMs = Median(download);
  m.totalMs = Median(total);
  m.kernelGpixPerS = pixels / (Median(kernel) * 1e6);
  m.totalGpixPerS = pixels / (m.totalMs * 1e6);
  if (s.backend == "cuda")
  {
    // Lemaitre 2021 section 4.1: atomic feature updates and estimated conflicts.
    options.countAtomicUpdates = true;
    engine.Run(view, options, r);
    m.atomicFeatureUpdates = r.atomicFeatureUpdates;
    m.estimatedConflicts = r.estimatedConflicts;
  }
  return m;
}

void
WriteJson(const std::string &              file,
          const Settings &                 s,
          const std::vector<Measurement> & all,
          const std::vector<std::string> & summary)
{
  std::ofstream out(file);
  out << "{\n  \"program\": \"cca_benchmark\",\n  \"size\": " << s.size << ",\n  \"reps\": " << s.reps
      << ",\n  \"warmup\": " << s.warmup << ",\n  \"backend\": \"" << s.backend << "\",\n  \"outputs\": \"" << s.outputs
      << "\",\n  \"compaction\": \"" << cca::FeatureCompactionName(s.compaction) << "\",\n  \"summary\": [\n";
  for (std::size_t i = 0; i < summary.size(); ++i)
  {
    out << "    " << summary[i] << (i + 1 < summary.size() ? ",\n" : "\n");
  }
  out << "  ],\n  \"measurements\": [\n";
  for (std::size_t i = 0; i < all.size(); ++i)
  {
    const Measurement & m = all[i];
    out << "    {\"algorithm\": \"" << m.algorithm << "\", \"connectivity\": \"" << m.connectivity
        << "\", \"g\": " << m.g << ", \"density\": " << m.density
        << ", \"allForeground\": " << (m.allForeground ? "true" : "false") << ", \"components\": " << m.components
        << ", \"runs\": " << m.runs << ", \"uploadMs\": " << m.uploadMs << ", \"labelMs\": " << m.labelMs
        << ", \"featuresMs\": " << m.featuresMs << ", \"downloadMs\": " << m.downloadMs
        << ", \"totalMs\": " << m.totalMs << ", \"kernelGpixPerS\": " << m.kernelGpixPerS
        << ", \"totalGpixPerS\": " << m.totalGpixPerS << ", \"atomicFeatureUpdates\": " << m.atomicFeatureUpdates
        << ", \"estimatedConflicts\": " << m.estimatedConflicts << ", \"bytesCopiedToHost\": " << m.bytesCopiedToHost
        << "}" << (i + 1 < all.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

} // namespace

int
main(int argc, char * argv[])
{
  Settings s;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto              next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
    if (arg == "--quick")
    {
      s.size = 2048;
      s.reps = 3;
      s.warmup = 1;
      s.densityStep = 0.2;
    }
    else if (ccabench::ParseProtocolOption(arg, next, s))
      continue;
    else if (arg == "--outputs")
      s.outputs = next();
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
      std::cerr << "usage: " << argv[0]
                << " [--quick] [--size N] [--reps R] [--warmup W] [--g G] [--density D]"
                   " [--connectivity face|full|both] [--outputs features|all] [--backend cuda|cpu]"
                   " [--algorithm NAME|all] [--compaction Scan|TreeMerge|None] [--json FILE]\n";
      return 2;
    }
  }
  if (s.backend == "cuda" && !cca::Engine::CudaAvailable())
  {
    std::cout << "skipped: no CUDA device" << std::endl;
    return 77;
  }

  std::vector<cca::Connectivity> connectivities;
  if (s.connectivity != "full")
    connectivities.push_back(cca::Connectivity::Face);
  if (s.connectivity != "face")
    connectivities.push_back(cca::Connectivity::Full);

  cca::Engine                engine;
  cca::Result                result;
  std::vector<std::uint8_t>  image;
  std::vector<std::uint32_t> labels;
  std::vector<Measurement>   all;
  std::vector<std::string>   summary;
  std::printf("%s backend, %lldx%lld uint8, outputs=%s, median of %d after %d warm-up\n",
              s.backend.c_str(),
              static_cast<long long>(s.size),
              static_cast<long long>(s.size),
              s.outputs.c_str(),
              s.reps,
              s.warmup);
  std::printf("%-8s %-5s %3s %5s %10s %9s %9s %9s %9s %9s %10s\n",
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
              "kern Gpx/s");
  const int steps = static_cast<int>(1.0 / s.densityStep + 0.5);
  for (cca::Algorithm algorithm : s.algorithms)
    for (cca::Connectivity c : connectivities)
    {
      const std::string  name = c == cca::Connectivity::Face ? "face" : "full";
      const std::string  algorithmName = cca::AlgorithmName(algorithm);
      std::ostringstream line;
      line << "{\"algorithm\": \"" << algorithmName << "\", \"connectivity\": \"" << name << "\"";
      for (int g : { 1, 4, 16, 0 })
      {
        if (s.onlyG >= 0 && g != s.onlyG)
          continue;
        // Two averages over density: the mean of throughputs (as the papers
        // average) and pixels over summed time (weights slow densities fully).
        double sumKernel = 0, sumTotal = 0, sumKernelMs = 0, sumTotalMs = 0;
        int    count = 0;
        for (int k = 0; k <= steps; ++k)
        {
          const bool   allOn = g == 0;
          const double d = allOn ? 1.0 : std::min(1.0, k * s.densityStep);
          if (allOn && k > 0)
            break;
          if (s.onlyDensity >= 0 && !allOn && std::abs(d - s.onlyDensity) > 1e-9)
            continue;
          RandomImage(s.size, d, allOn ? 1 : g, static_cast<std::uint32_t>(1000 * g + k), image);
          Measurement m = Measure(engine, image, s, c, algorithm, labels, result);
          m.algorithm = algorithmName;
          m.connectivity = name;
          m.g = g;
          m.density = d;
          m.allForeground = allOn;
          all.push_back(m);
          std::printf("%-8s %-5s %3s %5.2f %10lld %9.3f %9.3f %9.3f %9.3f %9.3f %10.2f\n",
                      algorithmName.c_str(),
                      name.c_str(),
                      allOn ? "all" : std::to_string(g).c_str(),
                      d,
                      static_cast<long long>(m.components),
                      m.uploadMs,
                      m.labelMs,
                      m.featuresMs,
                      m.downloadMs,
                      m.totalMs,
                      m.kernelGpixPerS);
          std::fflush(stdout);
          sumKernel += m.kernelGpixPerS;
          sumTotal += m.totalGpixPerS;
          sumKernelMs += m.labelMs + m.featuresMs;
          sumTotalMs += m.totalMs;
          ++count;
        }
        if (count == 0)
          continue;
        const double      pixels = static_cast<double>(s.size) * static_cast<double>(s.size) * count;
        const std::string key = g == 0 ? "all" : "g" + std::to_string(g);
        line << ", \"" << key << "KernelGpixPerS\": " << sumKernel / count << ", \"" << key
             << "TotalGpixPerS\": " << sumTotal / count << ", \"" << key
             << "KernelGpixPerSTimeWeighted\": " << pixels / (sumKernelMs * 1e6) << ", \"" << key
             << "TotalGpixPerSTimeWeighted\": " << pixels / (sumTotalMs * 1e6);
        std::printf(
          "== %s %s %s: kernel %.2f Gpix/s (mean over density; %.2f pixels/summed time), end-to-end %.2f (%.2f)\n",
          algorithmName.c_str(),
          name.c_str(),
          key.c_str(),
          sumKernel / count,
          pixels / (sumKernelMs * 1e6),
          sumTotal / count,
          pixels / (sumTotalMs * 1e6));
      }
      line << "}";
      summary.push_back(line.str());
      // Written after each connectivity too: a run cut short keeps what it measured.
      if (!s.json.empty())
        WriteJson(s.json, s, all, summary);
    }
  if (!s.json.empty())
  {
    WriteJson(s.json, s, all, summary);
  }
  return 0;
}
