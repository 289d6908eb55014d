// The CUDA backend's strategies (cca::Algorithm) with their kernels run on
// CPU threads (CudaEmulation.h) against the CPU backend: feature table, runs
// grouped by component and label image must be identical, on random 2D and
// 3D images of both connectivities, with 32- and 64-bit run indices. The
// host sequence mirrors CudaBackend::RunStrategy (cub's scan and sort by
// their std:: equivalents). Also checks the hand-counted atomic updates on
// one 257 x 129 component, with the grids the backend launches. Logic only:
// the GPU tests (ccaCudaBackendTest) remain the reference on a device.
//
// Usage: ccaStrategyEmulationTest [--cases N] [--seed S]
#include "CudaEmulation.h"

// The kernels live in their own namespace here: the engine library linked
// for the CPU reference holds the real ones under the same names.
#define cuda cudaemulated
#include "Compaction.cuh"
#include "OnTheFlyMerge.cuh"
#include "PixelLabeling.cuh"
#include "Strategies.cuh"
#include "UnionFind.cuh"
#undef cuda

#include "cca/Engine.h"
#include "cca/RandomImages.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>

namespace
{

using namespace cca;
using namespace cca::cudaemulated;
using emulation::Launch;
using Pixel = std::uint8_t;

/** DLP-GPU without the optional DLP-SR + DLP-R of its tile step. */
using DlpUnregularizedStrategy = Strategy<PixelRuns, FeatureMerge::ConflictDetection,
                                         DistancelessLabelPropagationOf<DlpRegularization::Skipped>>;

/** Launch shapes (the kernels are grid-stride loops: any shape is valid). */
unsigned voteBlocks = 2;
unsigned voteThreads = 64;
unsigned linkThreads = 64;

template <class Index>
struct UnitTable
{
  std::vector<Index>        counts, offsets, row, parent;
  std::vector<std::int32_t> x, end;
  RunArrays<Index>          arrays{};
};

template <class Index, class Units>
void
Detect(const Pixel * image, const Geometry & g, UnitTable<Index> & u)
{
  const ForegroundTest<Pixel> test{ 0, false };
  u.counts.assign(static_cast<std::size_t>(g.rows) + 1, 0);
  Launch(2, 64, [&] { CountRunsKernel<Pixel, Index, Units>(image, g, test, u.counts.data()); });
  u.offsets.assign(u.counts.size(), 0);
  std::exclusive_scan(u.counts.begin(), u.counts.end(), u.offsets.begin(), Index{ 0 });
  const Index n = u.offsets.back();
  u.x.assign(n + 1, -7);
  u.end.assign(n + 1, -7);
  u.row.assign(n + 1, 0);
  u.parent.assign(n + 1, 0);
  u.arrays = RunArrays<Index>{ u.x.data(), u.end.data(), u.row.data(), u.offsets.data(), n };
  if (n > 0)
  {
    Launch(2, 64, [&] { WriteRunsKernel<Pixel, Index, Units>(image, g, test, u.arrays, u.parent.data()); });
  }
}

/** CudaBackend::RunStrategy on emulated threads. */
template <class Index, class S>
Result
Emulate(const std::vector<Pixel> & image, int dimension, const std::int64_t (&size)[3], bool full,
        std::vector<std::uint32_t> & labelImage, std::string & problem)
{
  const Geometry g{ size[0], size[1], size[2], size[1] * size[2] };
  detail::ImageFaces faces{ static_cast<std::int32_t>(size[0]), static_cast<std::int32_t>(size[1]),
                         static_cast<std::int32_t>(size[2]), dimension == 3 };
  UnitTable<Index> units;
  Detect<Index, typename S::Units>(image.data(), g, units);
  const Index                     unitCount = units.arrays.count;
  Index *                         parent = units.parent.data();
  std::vector<std::uint8_t>       linked(unitCount + 1, 0);
  std::vector<unsigned long long> counts(2 * static_cast<std::size_t>(unitCount) + 1, 0);
  const UpdateCounter             moveCounter{ counts.data() };
  const UpdateCounter             voteCounter{ counts.data() + unitCount };
  std::vector<ComponentFeatures>  unitFeatures;
  if (unitCount > 0)
  {
    if constexpr (S::Merge == FeatureMerge::OnTheFly)
    {
      unitFeatures.resize(unitCount);
      Launch(2, 64, [&] {
        InitUnitFeaturesKernel<Index, typename S::Units>(units.arrays, g, faces, full, unitFeatures.data());
      });
    }
    if constexpr (S::LabelsPixels)
    {
      const auto         pixels = static_cast<std::size_t>(g.rows * g.width);
      std::vector<Index> grid(pixels, BackgroundLabel<Index>()), unitAt(pixels, 0);
      Launch(2, 64, [&] { PrelabelFromUnitsKernel<Index>(units.arrays, g, grid.data(), unitAt.data()); });
      const PixelLabelingProblem<Index> problem{ g,           full, dimension == 3, grid.data(), unitFeatures.data(),
                                                 unitAt.data(), moveCounter };
      emulation::Device device;
      S::Labeling::template Label<Index, S::Merge == FeatureMerge::OnTheFly>(problem, device);
      Launch(2, 64, [&] {
        ParentsFromLabelsKernel<Index>(units.arrays, g, grid.data(), unitAt.data(), parent, linked.data());
      });
    }
    else
    {
      if constexpr (S::Merge == FeatureMerge::OnTheFly)
      {
        Launch(1, linkThreads, [&] {
          LinkRunsKernel<Index, OnTheFlyUnion, typename S::Units>(units.arrays, g, full, parent, linked.data(),
                                                              OnTheFlyUnion{ unitFeatures.data(), moveCounter });
        });
      }
      else
      {
        Launch(1, linkThreads,
               [&] { LinkRunsKernel<Index, PlainUnion, typename S::Units>(units.arrays, g, full, parent, linked.data()); });
      }
      Launch(2, 64, [&] { FlattenKernel<Index>(unitCount, parent); });
    }
  }
  UnitTable<Index> fullRuns;
  RunArrays<Index> runs = units.arrays;
  if constexpr (S::SplitUnits)
  {
    Detect<Index, FullRuns>(image.data(), g, fullRuns);
    runs = fullRuns.arrays;
  }
  Result result;
  labelImage.assign(image.size(), 0);
  result.runOffsets.assign(1, 0);
  result.atomicFeatureUpdates = 0;
  if (unitCount == 0)
  {
    return result;
  }
  std::vector<Index> rank(unitCount), label(unitCount), rootOf(unitCount);
  Index              acc = 0;
  for (Index i = 0; i < unitCount; ++i)
  {
    rank[i] = acc;
    acc += parent[i] == i ? 1 : 0;
  }
  Index componentCount = 0;
  Launch(2, 64, [&] {
    NumberComponentsKernel<Index>(unitCount, rank.data(), parent, label.data(), rootOf.data(), &componentCount);
  });
  std::vector<ComponentFeatures> table(componentCount);
  std::memset(static_cast<void *>(table.data()), 0x5a, table.size() * sizeof(ComponentFeatures)); // poisoned
  if constexpr (S::Merge == FeatureMerge::OnTheFly)
  {
    Launch(2, 64,
           [&] { GatherRootFeaturesKernel<Index>(componentCount, rootOf.data(), unitFeatures.data(), table.data()); });
    if (!full)
    {
      using Conditional =
        VotePolicy<VoteFolding::None, SingleUnitComponents::Voted, typename S::Units, PairVotes::Conditional>;
      Launch(voteBlocks, voteThreads, [&] {
        AccumulateFeaturesKernel<Index, Conditional, UpdateCounting::On>(units.arrays, linked.data(), label.data(), g, faces,
                                                           table.data(), voteCounter, full);
      });
    }
    Launch(2, 64,
           [&] { FinalizeTableKernel<Index, SingleUnitComponents::Voted>(componentCount, rootOf.data(), linked.data(), table.data()); });
    for (Index i = 0; i < unitCount; ++i)
    {
      if (parent[i] != i && unitFeatures[i].pixelCount != 0)
      {
        problem = "on-the-fly features left behind at unit " + std::to_string(i);
      }
    }
  }
  else
  {
    using Votes = typename S::Votes;
    Launch(2, PrepareThreads, [&] {
      PrepareTableKernel<Index, Votes::Singles>(units.arrays, componentCount, rootOf.data(), linked.data(),
                                                         g, faces, table.data());
    });
    Launch(voteBlocks, voteThreads, [&] {
      AccumulateFeaturesKernel<Index, Votes, UpdateCounting::On>(units.arrays, linked.data(), label.data(), g, faces, table.data(),
                                                   voteCounter, full);
    });
    Launch(2, 64, [&] {
      FinalizeTableKernel<Index, Votes::Singles>(componentCount, rootOf.data(), linked.data(), table.data());
    });
  }
  std::vector<Index> runLabels;
  const Index *      runLabel = label.data();
  if constexpr (S::SplitUnits)
  {
    runLabels.assign(runs.count, 0);
    Launch(2, 64, [&] { RunLabelsFromUnitsKernel<Index>(runs, units.arrays, label.data(), runLabels.data()); });
    runLabel = runLabels.data();
  }
  const ForegroundTest<Pixel> test{ 0, false };
  Launch(2, 64, [&] {
    WriteLabelImageKernel<Pixel, Index, std::uint32_t>(image.data(), g, test, runs.rowOffsets, runLabel,
                                                       labelImage.data());
  });
  std::vector<Index> order(runs.count), keys(runs.count);
  std::iota(order.begin(), order.end(), Index{ 0 });
  std::stable_sort(order.begin(), order.end(), [&](Index a, Index b) { return runLabel[a] < runLabel[b]; });
  for (Index k = 0; k < runs.count; ++k)
  {
    keys[k] = runLabel[order[k]];
  }
  result.runs.resize(runs.count);
  result.runOffsets.assign(componentCount + 1, -1);
  Launch(2, 64, [&] {
    GatherRunsKernel<Index>(runs, g, order.data(), keys.data(), componentCount, result.runs.data(),
                            result.runOffsets.data());
  });
  result.componentCount = componentCount;
  result.features = table;
  unsigned long long sum = 0, squares = 0;
  for (unsigned long long u : counts)
  {
    sum += u;
    squares += u * u;
  }
  result.atomicFeatureUpdates = static_cast<std::int64_t>(sum);
  result.estimatedConflicts = sum == 0 ? 0.0 : static_cast<double>(squares) / static_cast<double>(sum);
  return result;
}

std::string
Compare(const Result & a, const Result & b, const std::vector<std::uint32_t> & la,
        const std::vector<std::uint32_t> & lb)
{
  std::ostringstream s;
  if (a.componentCount != b.componentCount)
  {
    s << "componentCount cpu=" << a.componentCount << " emulated=" << b.componentCount;
    return s.str();
  }
  for (std::size_t i = 0; i < a.features.size(); ++i)
  {
    if (std::memcmp(&a.features[i], &b.features[i], sizeof(ComponentFeatures)) != 0)
    {
      s << "features of label " << i + 1 << " differ";
      return s.str();
    }
  }
  if (a.runOffsets != b.runOffsets)
  {
    return "runOffsets differ";
  }
  if (a.runs.size() != b.runs.size() ||
      !std::equal(a.runs.begin(), a.runs.end(), b.runs.begin(), [](const Run & p, const Run & q) {
        return p.x == q.x && p.y == q.y && p.z == q.z && p.length == q.length;
      }))
  {
    return "runs differ";
  }
  if (la != lb)
  {
    return "label images differ";
  }
  return {};
}

/** Strategy S on emulated threads against the CPU backend on one uint8
 *  image; returns what differs (empty when identical). */
template <class Index, class S>
std::string
EmulateAndCompare(Engine & engine, const std::vector<Pixel> & image, int dimension, const std::int64_t (&size)[3],
                  bool full)
{
  ImageView view;
  view.data = image.data();
  view.pixelType = PixelType::UInt8;
  view.dimension = dimension;
  for (int i = 0; i < 3; ++i)
  {
    view.size[i] = size[i];
  }
  Options options;
  options.backend = Backend::Cpu;
  options.connectivity = full ? Connectivity::Full : Connectivity::Face;
  std::vector<std::uint32_t> cpuLabels(image.size()), emulatedLabels;
  options.labelImageType = LabelImageType::UInt32;
  options.labelImage = cpuLabels.data();
  const Result cpu = engine.Run(view, options);
  std::string  problem;
  const Result emulated = Emulate<Index, S>(image, dimension, size, full, emulatedLabels, problem);
  return problem.empty() ? Compare(cpu, emulated, cpuLabels, emulatedLabels) : problem;
}

template <class Index, class S>
int
Suite(const char * name, int cases, std::uint32_t seed, bool large)
{
  Engine engine;
  int    failed = 0;
  for (int c = 0; c < cases; ++c)
  {
    const std::uint32_t caseSeed = seed + static_cast<std::uint32_t>(c);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int           dimension = pick(3) == 0 ? 3 : 2;
    std::int64_t        size[3] = { 1, 1, 1 };
    size[0] = pick(4) == 0 ? 1 + pick(4) : (pick(2) ? 1 + pick(100) : 32 * (1 + pick(3)) + pick(3) - 1);
    size[1] = 1 + pick(dimension == 2 ? 40 : 12);
    size[2] = dimension == 3 ? 1 + pick(8) : 1;
    double density = pick(11) / 10.0;
    int    granularity = pick(2) ? 1 : 3;
    if (large) // around the percolation threshold, where unions race most
    {
      size[0] = 100 + pick(200);
      size[1] = 20 + pick(40);
      density = 0.4 + pick(5) / 10.0;
      granularity = 1;
    }
    const bool               full = pick(2) != 0;
    const std::vector<Pixel> image =
      cca::RandomBlockImage(size[0], size[1], size[2], density, granularity, caseSeed * 7919u);
    const std::string problem = EmulateAndCompare<Index, S>(engine, image, dimension, size, full);
    if (!problem.empty())
    {
      ++failed;
      std::cout << "FAIL " << name << " seed=" << caseSeed << " " << size[0] << "x" << size[1] << "x" << size[2]
                << (full ? " full" : " face") << (large ? " large" : "") << ": " << problem << std::endl;
    }
  }
  std::cout << name << (large ? " (large)" : "") << ": " << cases - failed << " passed, " << failed << " failed"
            << std::endl;
  return failed;
}

/** Tile-border cases for the tile labelings (TM): one image, both
 *  connectivities, against the CPU backend. Shapes: a spiral and a
 *  serpentine (long paths through many tiles), anti-diagonals (joined across
 *  tile columns only through up-right neighbours under Full), a full image,
 *  a 3D diagonal staircase; sizes not multiples of the tile. */
template <class Index, class S>
int
TileShapes(const char * name)
{
  Engine engine;
  int    failed = 0;
  auto   check = [&](const char * shape, const std::vector<Pixel> & image, int dimension, std::int64_t w,
                   std::int64_t h, std::int64_t d) {
    const std::int64_t size[3] = { w, h, d };
    for (bool full : { false, true })
    {
      const std::string problem = EmulateAndCompare<Index, S>(engine, image, dimension, size, full);
      if (!problem.empty())
      {
        ++failed;
        std::cout << "FAIL " << name << " " << shape << (full ? " full" : " face") << ": " << problem << std::endl;
      }
    }
  };
  { // spiral: a one-pixel wall winding inwards, two pixels between turns
    const std::int64_t w = 45, h = 37;
    std::vector<Pixel> image(w * h, 0);
    std::int64_t       x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1;
    while (x0 <= x1 && y0 <= y1)
    {
      for (std::int64_t x = x0; x <= x1; ++x)
      {
        image[y0 * w + x] = 1;
      }
      for (std::int64_t y = y0; y <= y1; ++y)
      {
        image[y * w + x1] = 1;
      }
      for (std::int64_t x = x0 + 2; x <= x1; ++x)
      {
        image[y1 * w + x] = 1;
      }
      for (std::int64_t y = y0 + 2; y <= y1; ++y)
      {
        image[y * w + x0 + 2] = 1;
      }
      x0 += 4;
      y0 += 2;
      x1 -= 2;
      y1 -= 2;
    }
    check("spiral", image, 2, w, h, 1);
  }
  { // serpentine: rows 0, 2, 4, ... joined alternately at the right and left ends
    const std::int64_t w = 70, h = 21;
    std::vector<Pixel> image(w * h, 0);
    for (std::int64_t y = 0; y < h; y += 2)
    {
      for (std::int64_t x = 0; x < w; ++x)
      {
        image[y * w + x] = 1;
      }
      if (y + 1 < h)
      {
        image[(y + 1) * w + ((y / 2) % 2 == 0 ? w - 1 : 0)] = 1;
      }
    }
    check("serpentine", image, 2, w, h, 1);
  }
  { // anti-diagonals: under Full every line crosses tile columns only up-right; Face leaves single pixels
    const std::int64_t w = 40, h = 20;
    std::vector<Pixel> image(w * h, 0);
    for (std::int64_t i = 0; i < w * h; ++i)
    {
      image[i] = ((i % w) + (i / w)) % 5 == 0 ? 1 : 0;
    }
    check("anti-diagonals", image, 2, w, h, 1);
  }
  { // full image with partial tiles
    const std::int64_t w = 33, h = 17;
    check("full image", std::vector<Pixel>(w * h, 1), 2, w, h, 1);
  }
  { // staircase: a diagonal through x, y and z, plus a line across each slice
    const std::int64_t w = 36, h = 19, d = 5;
    std::vector<Pixel> image(w * h * d, 0);
    for (std::int64_t z = 0; z < d; ++z)
    {
      image[(z * h + 13 + z) * w + 29 + z] = 1; // a step of (1, 1, 1): Full only, across tile borders
      for (std::int64_t x = 33; x < w; ++x) // meets the diagonal in slice 4
      {
        image[(z * h + 17) * w + x] = 1;
      }
    }
    check("staircase", image, 3, w, h, d);
  }
  std::cout << name << " tile shapes: " << (failed == 0 ? "passed" : "FAILED") << std::endl;
  return failed;
}

/** Label Equivalence stress shapes, against the CPU backend in both
 *  connectivities: seed 004's Ridge patterns R_l (section IV-B: peaks at
 *  x = 3i of height 1 + #{k <= l - 2 : 2^k divides i} on a trapezoidal
 *  base; level l takes LE l Scan/Analysis iterations, the smallest label
 *  crossing the crest against raster order), the same in a 3D x-z plane and
 *  stacked in z, and a square spiral (one long equivalence chain after the
 *  first Scan). */
template <class Index, class S>
int
LeShapes(const char * name)
{
  Engine engine;
  int    failed = 0;
  auto   check = [&](const std::string & shape, const std::vector<Pixel> & image, int dimension,
                   const std::int64_t (&size)[3]) {
    for (bool full : { false, true })
    {
      const std::string problem = EmulateAndCompare<Index, S>(engine, image, dimension, size, full);
      if (!problem.empty())
      {
        ++failed;
        std::cout << "FAIL " << name << " " << shape << (full ? " full" : " face") << ": " << problem << std::endl;
      }
    }
  };
  for (int level = 2; level <= 5; ++level)
  {
    const std::int64_t peaks = (std::int64_t{ 1 } << (level - 2)) + 1;
    const std::int64_t crestWidth = 3 * (peaks - 1) + 1;
    const std::int64_t baseHeight = crestWidth - level;
    const std::int64_t margin = (baseHeight + 1) / 2; // the base widens by one pixel every other row on each side
    const std::int64_t w = crestWidth + 2 * margin + 1, h = level + baseHeight + 1;
    std::vector<Pixel> image(static_cast<std::size_t>(w * h), 0);
    for (std::int64_t i = 0; i < peaks; ++i)
    {
      std::int64_t height = 1;
      for (int k = 0; k <= level - 2; ++k)
      {
        height += i % (std::int64_t{ 1 } << k) == 0 ? 1 : 0;
      }
      for (std::int64_t y = level - height; y < level; ++y)
      {
        image[static_cast<std::size_t>(y * w + margin + 3 * i)] = 1;
      }
    }
    for (std::int64_t k = 0; k < baseHeight; ++k)
    {
      for (std::int64_t x = margin - k / 2; x < margin + crestWidth + k / 2; ++x)
      {
        image[static_cast<std::size_t>((level + k) * w + x)] = 1;
      }
    }
    const std::string ridge = "ridge level " + std::to_string(level);
    check(ridge, image, 2, { w, h, 1 });
    if (level == 5)
    {
      check(ridge + " x-z plane", image, 3, { w, 1, h }); // the same raster, y becomes z
    }
    if (level == 4)
    {
      std::vector<Pixel> stacked(image);
      stacked.insert(stacked.end(), image.begin(), image.end());
      check(ridge + " stacked", stacked, 3, { w, h, 2 });
    }
  }
  { // square spiral: a one-pixel path winding inwards with one pixel of background between turns
    const std::int64_t w = 41, h = 39;
    std::vector<Pixel> image(static_cast<std::size_t>(w * h), 0);
    std::int64_t       x = 0, y = 0, dx = 1, dy = 0, run = w - 1, turns = 0;
    image[0] = 1;
    while (run > 0)
    {
      for (std::int64_t s = 0; s < run; ++s)
      {
        x += dx;
        y += dy;
        image[static_cast<std::size_t>(y * w + x)] = 1;
      }
      const std::int64_t t = dx;
      dx = -dy;
      dy = t;
      ++turns;
      run = (dx != 0 ? w : h) - 1 - 2 * ((turns - 1) / 2); // one background pixel between neighbouring turns
    }
    check("spiral", image, 2, { w, h, 1 });
  }
  std::cout << name << " shapes: " << (failed == 0 ? "passed" : "FAILED") << std::endl;
  return failed;
}

/** The counts of ccaCudaBackendTest's CountingChecks, with the backend's grids:
 *  exact for plain votes and conflict detection, a lower bound for OTF. */
template <class S>
int
Counting(const char * name, unsigned blocks, std::int64_t exact, std::int64_t atLeast)
{
  voteBlocks = blocks;
  voteThreads = 256;
  int                        failed = 0;
  const std::vector<Pixel>   image(257 * 129, 1);
  const std::int64_t         size[3] = { 257, 129, 1 };
  std::vector<std::uint32_t> labels;
  for (bool full : { false, true })
  {
    std::string  problem;
    const Result r = Emulate<std::uint32_t, S>(image, 2, size, full, labels, problem);
    const auto   u = r.atomicFeatureUpdates;
    const bool   ok = problem.empty() && r.componentCount == 1 &&
                    (exact >= 0 ? u == exact && r.estimatedConflicts == static_cast<double>(exact)
                                : u >= atLeast && r.estimatedConflicts > 0 && r.estimatedConflicts <= u);
    if (!ok)
    {
      ++failed;
      std::cout << "FAIL counting " << name << (full ? " full" : " face") << ": updates " << u << " conflicts "
                << r.estimatedConflicts << " " << problem << std::endl;
    }
  }
  voteBlocks = 2;
  voteThreads = 64;
  return failed;
}

} // namespace

int
main(int argc, char * argv[])
{
  int           cases = 12;
  std::uint32_t seed = 1;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    if (arg == "--cases" && i + 1 < argc)
    {
      cases = std::atoi(argv[++i]);
    }
    else if (arg == "--seed" && i + 1 < argc)
    {
      seed = static_cast<std::uint32_t>(std::strtoul(argv[++i], nullptr, 10));
    }
    else
    {
      std::cerr << "usage: " << argv[0] << " [--cases N] [--seed S]" << std::endl;
      return 2;
    }
  }
  int failed = 0;
  failed += Suite<std::uint32_t, FlslCdStrategy>("FLSL_CD", cases, seed, false);
  failed += Suite<std::uint32_t, FlslStrategy>("FLSL", cases, seed + 1000, false);
  failed += Suite<std::uint32_t, FlslOtfStrategy>("FLSL_OTF", cases, seed + 2000, false);
  failed += Suite<std::uint32_t, HaStrategy>("HA", cases, seed + 3000, false);
  failed += Suite<std::uint32_t, HaCdStrategy>("HA_CD", cases, seed + 4000, false);
  failed += Suite<std::uint32_t, HaOtfStrategy>("HA_OTF", cases, seed + 5000, false);
  failed += Suite<std::uint32_t, NaiveStrategy>("Naive", cases, seed + 6000, false);
  failed += Suite<unsigned long long, HaOtfStrategy>("HA_OTF 64-bit", cases / 2, seed + 7000, false);
  failed += Suite<unsigned long long, HaCdStrategy>("HA_CD 64-bit", cases / 2, seed + 8000, false);
  failed += Suite<unsigned long long, NaiveStrategy>("Naive 64-bit", cases / 2, seed + 9000, false);
  failed += Suite<std::uint32_t, DlpStrategy>("DLP", cases, seed + 13000, false);
  failed += Suite<std::uint32_t, LeEarlyStrategy>("LE_Early", cases, seed + 14000, false);
  failed += Suite<std::uint32_t, LeLateStrategy>("LE_Late", cases, seed + 15000, false);
  failed += Suite<std::uint32_t, TmEarlyStrategy>("TM_Early", cases, seed + 16000, false);
  failed += Suite<std::uint32_t, TmLateStrategy>("TM_Late", cases, seed + 17000, false);
  failed += Suite<unsigned long long, LeEarlyStrategy>("LE_Early 64-bit", cases / 2, seed + 18000, false);
  failed += Suite<unsigned long long, TmLateStrategy>("TM_Late 64-bit", cases / 2, seed + 19000, false);
  failed += TileShapes<std::uint32_t, TmEarlyStrategy>("TM_Early");
  failed += TileShapes<std::uint32_t, DlpStrategy>("DLP");
  failed += TileShapes<unsigned long long, DlpUnregularizedStrategy>("DLP without SR+R 64-bit");
  failed += LeShapes<std::uint32_t, LeEarlyStrategy>("LE_Early");
  linkThreads = 512;
  failed += Suite<std::uint32_t, FlslOtfStrategy>("FLSL_OTF", cases / 4, seed + 10000, true);
  failed += Suite<std::uint32_t, HaOtfStrategy>("HA_OTF", cases / 4, seed + 11000, true);
  failed += Suite<std::uint32_t, HaCdStrategy>("HA_CD", cases / 4, seed + 12000, true);
  failed += Suite<std::uint32_t, DlpStrategy>("DLP", cases / 4, seed + 20000, true);
  failed += Suite<std::uint32_t, LeEarlyStrategy>("LE_Early", cases / 4, seed + 21000, true);
  failed += Suite<std::uint32_t, TmEarlyStrategy>("TM_Early", cases / 4, seed + 22000, true);
  linkThreads = 64;
  failed += Counting<NaiveStrategy>("Naive", 2, 257 * 129, -1);
  failed += Counting<HaStrategy>("HA", 2, 9 * 129, -1);
  failed += Counting<FlslStrategy>("FLSL", 2, 129, -1);
  failed += Counting<FlslCdStrategy>("FLSL_CD", 1, 6, -1);
  failed += Counting<HaCdStrategy>("HA_CD", 5, 42, -1);
  failed += Counting<FlslOtfStrategy>("FLSL_OTF", 1, -1, 128);
  failed += Counting<HaOtfStrategy>("HA_OTF", 5, -1, 9 * 129 - 1);
  failed += Counting<LeLateStrategy>("LE_Late", 2, 257 * 129, -1);
  failed += Counting<TmLateStrategy>("TM_Late", 2, 257 * 129, -1);
  failed += Counting<LeEarlyStrategy>("LE_Early", 2, -1, 257 * 129 - 1);
  failed += Counting<TmEarlyStrategy>("TM_Early", 2, -1, 257 * 129 - 1);
  std::cout << (failed == 0 ? "all passed" : "FAILED") << std::endl;
  return failed == 0 ? 0 : 1;
}
