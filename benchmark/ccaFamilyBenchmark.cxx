// Times the engine on one image family at one or more sizes, for a list of
// algorithms, feature-compaction modes and connectivities: the experiments of
// the papers' reproduction (benchmark/reproduce-papers.sh). Families:
//  - random: the papers' protocol (Lemaitre 2021, Windisch 2023, Cabaret
//    2017; RandomImages.h),
//    granularities g and densities d, plus the all-foreground image; the same
//    images as cca_benchmark for densities on its 0.1 grid;
//  - leveling, scaling, subdivision, instancing, merging, spiral, ridge (all
//    six): Asad 2019's synthetic families (PatternImages.h), whose expected
//    component count is checked against every run.
// Each image is made once, then every connectivity x algorithm x compaction
// runs on it: warm-up runs (the first one counts atomic updates when asked),
// then up to --reps timed runs, fewer when their summed end-to-end time passes
// --rep-budget-ms; stage times are the medians of the timed runs. The JSON
// (rewritten after every image, so that a run cut short keeps what it
// measured) has one record per image and variant: stage times, kernel time,
// bytes copied to the host, component count, atomic updates.
//
// Usage: cca_family_benchmark --family NAME [--size N | --sizes N,N,...]
//          [--algorithms LIST|lemaitre2021|asad2019|all] [--full-algorithms LIST] [--compactions Scan,TreeMerge,None]
//          [--connectivity face|full|both] [--reps R] [--warmup W] [--rep-budget-ms MS]
//          [--backend cuda|cpu] [--json FILE] [--label TEXT]
//          random:   [--g 1,4,16,all] [--density LIST | --density-step S] [--atomic-counts none|g1|all]
//          patterns: [--instances K] [--probability-steps P] [--scaling-steps S] [--spiral-steps S]
//                    [--scaling-level L] [--subdivision-level L] [--random-level L] [--random-subdivisions S]
#include "JsonText.h"
#include "PatternImages.h"
#include "RandomImages.h"
#include "WallClock.h"
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

using cca::benchmark::JsonString;

using ccabench::Median;

std::vector<std::string>
SplitList(const std::string & text)
{
  std::vector<std::string> items;
  std::stringstream        in(text);
  std::string              item;
  while (std::getline(in, item, ','))
  {
    if (!item.empty())
      items.push_back(item);
  }
  return items;
}

struct Settings : ccabench::ProtocolOptions
{
  Settings()
  {
    size = 2048;
    reps = 3;
    warmup = 1;
    connectivity = "face";
  }
  std::string                 family = "random";
  std::vector<std::int64_t>   sizes;
  std::vector<cca::Algorithm> algorithms{ cca::Algorithm::Default };
  std::vector<cca::Algorithm>
    fullAlgorithms; ///< --full-algorithms: full connectivity's own list (saves making big images twice)
  std::vector<cca::FeatureCompaction> compactions{ cca::FeatureCompaction::Scan };
  std::string                         backend = "cuda";
  std::string                         label;
  double                              repBudgetMs = 0;   ///< 0: always --reps timed runs
  std::vector<int>                    gs{ 1, 4, 16, 0 }; ///< 0 = the all-foreground image
  std::vector<double>                 densities;         ///< empty: 0 .. 1 by densityStep
  std::string                         atomicCounts = "none";
  ccabench::FamilySettings            families;
};

/** One image, in the JSON's terms. */
struct ImageRecord
{
  std::string   family;
  std::string   member;
  double        parameter = 0;
  int           g = -1; ///< random family: granularity, 0 = all foreground
  double        density = -1;
  int           level = -1;
  int           subdivisions = -1;
  int           instance = 0;
  std::uint32_t seed = 0;
  std::int64_t  expectedComponents = -1; ///< pattern families: by construction
  std::int64_t  foreground = 0;
  double        generateMs = 0;
};

struct Measurement
{
  ImageRecord  image;
  std::int64_t size = 0;
  std::string  algorithm;
  std::string  compaction;
  std::string  connectivity;
  std::int64_t components = 0;
  int          timedRuns = 0;
  double       uploadMs = 0, labelMs = 0, featuresMs = 0, downloadMs = 0, totalMs = 0;
  double       kernelMs = 0, minKernelMs = 0;
  std::int64_t bytesCopiedToHost = 0;
  std::int64_t atomicFeatureUpdates = -1;
  double       estimatedConflicts = -1;
  bool         check = true; ///< components == expectedComponents (when known)
};

void
WriteJsonTo(const std::string & file, const Settings & s, const std::vector<Measurement> & all, double elapsedS)
{
  std::ofstream out(file);
  out << "{\n  \"program\": \"cca_family_benchmark\",\n  \"label\": " << JsonString(s.label)
      << ",\n  \"family\": " << JsonString(s.family) << ",\n  \"backend\": " << JsonString(s.backend)
      << ",\n  \"reps\": " << s.reps << ",\n  \"warmup\": " << s.warmup << ",\n  \"repBudgetMs\": " << s.repBudgetMs
      << ",\n  \"elapsedS\": " << elapsedS << ",\n  \"measurements\": [\n";
  for (std::size_t i = 0; i < all.size(); ++i)
  {
    const Measurement & m = all[i];
    const ImageRecord & im = m.image;
    out << "    {\"size\": " << m.size << ", \"family\": " << JsonString(im.family)
        << ", \"member\": " << JsonString(im.member) << ", \"parameter\": " << im.parameter << ", \"g\": " << im.g
        << ", \"density\": " << im.density << ", \"allForeground\": " << (im.g == 0 ? "true" : "false")
        << ", \"level\": " << im.level << ", \"subdivisions\": " << im.subdivisions << ", \"instance\": " << im.instance
        << ", \"seed\": " << im.seed << ", \"foreground\": " << im.foreground << ", \"generateMs\": " << im.generateMs
        << ", \"algorithm\": " << JsonString(m.algorithm) << ", \"compaction\": " << JsonString(m.compaction)
        << ", \"connectivity\": " << JsonString(m.connectivity) << ", \"components\": " << m.components
        << ", \"expectedComponents\": " << im.expectedComponents << ", \"check\": " << (m.check ? "true" : "false")
        << ", \"timedRuns\": " << m.timedRuns << ", \"uploadMs\": " << m.uploadMs << ", \"labelMs\": " << m.labelMs
        << ", \"featuresMs\": " << m.featuresMs << ", \"downloadMs\": " << m.downloadMs
        << ", \"totalMs\": " << m.totalMs << ", \"kernelMs\": " << m.kernelMs << ", \"minKernelMs\": " << m.minKernelMs
        << ", \"bytesCopiedToHost\": " << m.bytesCopiedToHost
        << ", \"atomicFeatureUpdates\": " << m.atomicFeatureUpdates
        << ", \"estimatedConflicts\": " << m.estimatedConflicts << "}" << (i + 1 < all.size() ? ",\n" : "\n");
  }
  out << "  ]\n}\n";
}

/** Writes a temporary file, then renames it: a run killed by a time limit leaves the last whole file. */
void
WriteJson(const Settings & s, const std::vector<Measurement> & all, double elapsedS)
{
  const std::string temporary = s.json + ".tmp";
  WriteJsonTo(temporary, s, all, elapsedS);
  std::rename(temporary.c_str(), s.json.c_str());
}

Measurement
Measure(cca::Engine &                     engine,
        const std::vector<std::uint8_t> & image,
        std::int64_t                      size,
        const Settings &                  s,
        cca::Connectivity                 c,
        cca::Algorithm                    algorithm,
        cca::FeatureCompaction            compaction,
        bool                              countUpdates,
        cca::Result &                     r)
{
  cca::ImageView view;
  view.data = image.data();
  view.pixelType = cca::PixelType::UInt8;
  view.dimension = 2;
  view.size[0] = size;
  view.size[1] = size;
  cca::Options options;
  options.connectivity = c;
  options.backend = s.backend == "cpu" ? cca::Backend::Cpu : cca::Backend::Cuda;
  options.computeRuns = false; // the feature table only, as the papers time it
  options.algorithm = algorithm;
  options.featureCompaction = compaction;

  Measurement m;
  countUpdates = countUpdates && s.backend == "cuda";
  // Warm-up runs; the first one doubles as the instrumented run that counts
  // atomic updates (its time is discarded anyway).
  for (int i = 0; i < std::max(s.warmup, countUpdates ? 1 : 0); ++i)
  {
    options.countAtomicUpdates = countUpdates && i == 0;
    engine.Run(view, options, r); // reuses r's host memory, as a streaming caller would
    if (options.countAtomicUpdates)
    {
      m.atomicFeatureUpdates = r.atomicFeatureUpdates;
      m.estimatedConflicts = r.estimatedConflicts;
    }
  }
  options.countAtomicUpdates = false;
  std::vector<double> upload, label, features, download, total, kernel;
  double              spentMs = 0;
  for (int i = 0; i < s.reps; ++i)
  {
    if (i > 0 && s.repBudgetMs > 0 && spentMs >= s.repBudgetMs)
      break;
    engine.Run(view, options, r);
    upload.push_back(r.times.uploadMs);
    label.push_back(r.times.labelMs);
    features.push_back(r.times.featuresMs);
    download.push_back(r.times.downloadMs);
    total.push_back(r.times.totalMs);
    kernel.push_back(r.times.labelMs + r.times.featuresMs);
    spentMs += r.times.totalMs;
    m.components = r.componentCount;
    m.bytesCopiedToHost = r.bytesCopiedToHost;
  }
  m.timedRuns = static_cast<int>(kernel.size());
  m.uploadMs = Median(upload);
  m.labelMs = Median(label);
  m.featuresMs = Median(features);
  m.downloadMs = Median(download);
  m.totalMs = Median(total);
  m.kernelMs = Median(kernel);
  m.minKernelMs = *std::min_element(kernel.begin(), kernel.end());
  m.algorithm = cca::AlgorithmName(algorithm);
  m.compaction = cca::FeatureCompactionName(compaction);
  m.connectivity = c == cca::Connectivity::Face ? "face" : "full";
  return m;
}

/** The images of the family at one size, made on demand (an 16384^2 image is 256 MiB). */
struct ImageSource
{
  std::vector<ImageRecord>           records;
  std::vector<ccabench::ImageCase>   randomCases;
  std::vector<ccabench::PatternCase> patternCases;

  void
  Make(std::size_t i, std::int64_t size, std::vector<std::uint8_t> & image)
  {
    const auto    start = cca::benchmark::Clock::now();
    ImageRecord & rec = records[i];
    if (!randomCases.empty())
      ccabench::MakeImage(size, randomCases[i], image);
    else
      rec.expectedComponents = ccabench::MakePattern(size, patternCases[i], image).components;
    rec.generateMs = cca::benchmark::MillisecondsSince(start);
    rec.foreground = 0;
    for (auto v : image)
      rec.foreground += v;
  }
};

ImageSource
Images(const Settings & s, std::int64_t size)
{
  ImageSource source;
  if (s.family == "random")
  {
    std::vector<double> densities = s.densities;
    if (densities.empty())
    {
      const int steps = static_cast<int>(1.0 / s.densityStep + 0.5);
      for (int k = 0; k <= steps; ++k)
        densities.push_back(std::min(1.0, k * s.densityStep));
    }
    for (int g : s.gs)
    {
      for (double d : g == 0 ? std::vector<double>{ 1.0 } : densities)
      {
        ccabench::ImageCase c;
        c.allForeground = g == 0;
        c.g = g == 0 ? 1 : g;
        c.density = d;
        // cca_benchmark's seeds (1000 g + index on the 0.1 grid), so the images are the same.
        c.seed = static_cast<std::uint32_t>(1000 * g + std::llround(d * 10));
        if (g != 0 && std::abs(d * 10 - std::llround(d * 10)) > 1e-9)
          c.seed = static_cast<std::uint32_t>(1000 * g + 100 + std::llround(d * 1000));
        source.randomCases.push_back(c);
        ImageRecord rec;
        rec.family = "random";
        rec.g = g;
        rec.density = d;
        rec.parameter = d;
        rec.seed = c.seed;
        std::ostringstream name;
        name << (g == 0 ? std::string("all") : "g" + std::to_string(g) + " d=" + std::to_string(d).substr(0, 4));
        rec.member = name.str();
        source.records.push_back(rec);
      }
    }
    return source;
  }
  std::vector<ccabench::PatternFamily> families;
  for (ccabench::PatternFamily f : ccabench::AllPatternFamilies)
  {
    std::string name = ccabench::PatternFamilyName(f);
    std::transform(
      name.begin(), name.end(), name.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    const std::string shortName = f == ccabench::PatternFamily::RandomInstancing ? "instancing"
                                  : f == ccabench::PatternFamily::RandomMerging  ? "merging"
                                                                                 : name;
    if (s.family == "ridge" || s.family == name || s.family == shortName)
      families.push_back(f);
  }
  if (families.empty())
    throw std::invalid_argument("unknown family " + s.family);
  for (ccabench::PatternFamily f : families)
  {
    for (const ccabench::PatternCase & c : ccabench::FamilyCases(f, size, s.families))
    {
      source.patternCases.push_back(c);
      ImageRecord rec;
      rec.family = ccabench::PatternFamilyName(f);
      rec.member = c.Name();
      rec.parameter = c.parameter;
      rec.level = c.level;
      rec.subdivisions = c.subdivisions;
      rec.instance = c.instance;
      rec.seed = c.seed;
      source.records.push_back(rec);
    }
  }
  return source;
}

bool
ParseAlgorithms(const std::string & text, std::vector<cca::Algorithm> & out)
{
  out.clear();
  for (const std::string & name : SplitList(text))
  {
    bool found = false;
    for (const cca::Algorithm a : cca::AllAlgorithms)
    {
      // lemaitre2021: the seven of its Table 1; asad2019: Label Equivalence and Tile Merging, Early and Late.
      const bool asad2019 = a >= cca::Algorithm::LE_Early && a <= cca::Algorithm::TM_Late;
      if (name == cca::AlgorithmName(a) || name == "all" || (name == "lemaitre2021" && cca::JoinsUnitsByUnionFind(a)) ||
          (name == "asad2019" && asad2019))
      {
        out.push_back(a);
        found = true;
      }
    }
    if (!found)
    {
      std::cerr << "unknown algorithm " << name << "\n";
      return false;
    }
  }
  return !out.empty();
}

bool
ParseCompactions(const std::string & text, std::vector<cca::FeatureCompaction> & out)
{
  out.clear();
  for (const std::string & name : SplitList(text))
  {
    bool found = false;
    for (cca::FeatureCompaction c :
         { cca::FeatureCompaction::Scan, cca::FeatureCompaction::TreeMerge, cca::FeatureCompaction::None })
    {
      if (name == cca::FeatureCompactionName(c))
      {
        out.push_back(c);
        found = true;
      }
    }
    if (!found)
    {
      std::cerr << "unknown compaction " << name << "\n";
      return false;
    }
  }
  return !out.empty();
}

const char * kUsage =
  " --family random|leveling|scaling|subdivision|instancing|merging|spiral|ridge [--size N | --sizes N,N,...]\n"
  "   [--algorithms NAME,...|lemaitre2021|asad2019|all] [--full-algorithms LIST] [--compactions Scan,TreeMerge,None] "
  "[--connectivity face|full|both]\n"
  "   [--reps R] [--warmup W] [--rep-budget-ms MS] [--backend cuda|cpu] [--json FILE] [--label TEXT]\n"
  "   random: [--g 1,4,16,all] [--density D,D,... | --density-step S] [--atomic-counts none|g1|all]\n"
  "   patterns: [--instances K] [--probability-steps P] [--scaling-steps S] [--spiral-steps S]\n"
  "             [--scaling-level L] [--subdivision-level L] [--random-level L] [--random-subdivisions S]\n";

} // namespace

int
main(int argc, char * argv[])
{
  Settings s;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto              next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
    if (arg == "--family")
      s.family = next();
    else if (arg == "--sizes")
    {
      for (const std::string & v : SplitList(next()))
        s.sizes.push_back(std::stoll(v));
    }
    else if (arg == "--algorithms" || arg == "--algorithm")
    {
      if (!ParseAlgorithms(next(), s.algorithms))
        return 2;
    }
    else if (arg == "--full-algorithms")
    {
      if (!ParseAlgorithms(next(), s.fullAlgorithms))
        return 2;
    }
    else if (arg == "--compactions" || arg == "--compaction")
    {
      if (!ParseCompactions(next(), s.compactions))
        return 2;
    }
    else if (arg == "--g")
    {
      s.gs.clear();
      for (const std::string & v : SplitList(next()))
        s.gs.push_back(v == "all" ? 0 : std::stoi(v));
    }
    else if (arg == "--density")
    {
      s.densities.clear();
      for (const std::string & v : SplitList(next()))
        s.densities.push_back(std::stod(v));
    }
    else if (arg == "--density-step")
      s.densityStep = std::stod(next());
    else if (arg == "--rep-budget-ms")
      s.repBudgetMs = std::stod(next());
    else if (arg == "--backend")
      s.backend = next();
    else if (arg == "--label")
      s.label = next();
    else if (arg == "--atomic-counts")
      s.atomicCounts = next();
    else if (arg == "--instances")
      s.families.instances = std::stoi(next());
    else if (arg == "--probability-steps")
      s.families.probabilitySteps = std::stoi(next());
    else if (arg == "--scaling-steps")
      s.families.scalingSteps = std::stoi(next());
    else if (arg == "--spiral-steps")
      s.families.spiralSteps = std::stoi(next());
    else if (arg == "--scaling-level")
      s.families.scalingLevel = std::stoi(next());
    else if (arg == "--subdivision-level")
      s.families.subdivisionLevel = std::stoi(next());
    else if (arg == "--random-level")
      s.families.randomLevel = std::stoi(next());
    else if (arg == "--random-subdivisions")
      s.families.randomSubdivisions = std::stoi(next());
    else if (ccabench::ParseProtocolOption(arg, next, s))
      continue;
    else
    {
      std::cerr << "usage: " << argv[0] << kUsage;
      return 2;
    }
  }
  if (s.sizes.empty())
    s.sizes.push_back(s.size);
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

  const auto                start = cca::benchmark::Clock::now();
  auto                      elapsedS = [&] { return cca::benchmark::MillisecondsSince(start) / 1000; };
  cca::Engine               engine;
  cca::Result               result;
  std::vector<std::uint8_t> image;
  std::vector<Measurement>  all;
  int                       mismatches = 0;
  std::printf("%s backend, family %s, median of up to %d after %d warm-up (budget %.0f ms)\n",
              s.backend.c_str(),
              s.family.c_str(),
              s.reps,
              s.warmup,
              s.repBudgetMs);
  std::printf("%6s %-34s %-9s %-9s %-4s %10s %8s %8s %8s %8s %8s %12s\n",
              "size",
              "image",
              "algo",
              "compact",
              "conn",
              "components",
              "upload",
              "label",
              "features",
              "download",
              "total",
              "bytes->host");
  for (std::int64_t size : s.sizes)
  {
    ImageSource source;
    try
    {
      source = Images(s, size);
    }
    catch (const std::exception & e)
    {
      std::cerr << e.what() << "\n";
      return 2;
    }
    for (std::size_t i = 0; i < source.records.size(); ++i)
    {
      source.Make(i, size, image);
      const ImageRecord & rec = source.records[i];
      const bool          countUpdates = s.atomicCounts == "all" || (s.atomicCounts == "g1" && rec.g == 1);
      for (cca::Connectivity c : connectivities)
        for (cca::Algorithm algorithm :
             c == cca::Connectivity::Full && !s.fullAlgorithms.empty() ? s.fullAlgorithms : s.algorithms)
          for (cca::FeatureCompaction compaction : s.compactions)
          {
            Measurement m;
            try
            {
              m = Measure(engine, image, size, s, c, algorithm, compaction, countUpdates, result);
            }
            catch (const std::exception & e)
            {
              std::printf("ERROR %lld %s %s: %s\n",
                          static_cast<long long>(size),
                          rec.member.c_str(),
                          cca::AlgorithmName(algorithm),
                          e.what());
              ++mismatches;
              continue;
            }
            m.image = rec;
            m.size = size;
            m.check = rec.expectedComponents < 0 || m.components == rec.expectedComponents;
            if (!m.check)
              ++mismatches;
            std::printf("%6lld %-34s %-9s %-9s %-4s %10lld %8.3f %8.3f %8.3f %8.3f %8.3f %12lld%s\n",
                        static_cast<long long>(size),
                        rec.member.c_str(),
                        m.algorithm.c_str(),
                        m.compaction.c_str(),
                        m.connectivity.c_str(),
                        static_cast<long long>(m.components),
                        m.uploadMs,
                        m.labelMs,
                        m.featuresMs,
                        m.downloadMs,
                        m.totalMs,
                        static_cast<long long>(m.bytesCopiedToHost),
                        m.check ? "" : "  MISMATCH: expected components differ");
            all.push_back(m);
          }
      std::fflush(stdout);
      if (!s.json.empty())
        WriteJson(s, all, elapsedS());
    }
  }
  if (!s.json.empty())
    WriteJson(s, all, elapsedS());
  std::printf("== %s: %zu measurements in %.1f s%s\n",
              s.family.c_str(),
              all.size(),
              elapsedS(),
              mismatches ? (", " + std::to_string(mismatches) + " MISMATCHES/ERRORS").c_str() : "");
  return mismatches ? 1 : 0;
}
