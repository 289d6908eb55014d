// The feature compactions of the CUDA backend (cca::FeatureCompaction) with
// their kernels on CPU threads (CudaEmulation.h), against the CPU backend:
//  - TreeMerge (seed 002's TMK, TreeMergeCompaction.cuh): tile trees in
//    "shared memory", merges in "global memory" span by span, subtree sizes,
//    balancing; then the host side: a guessed first copy, a second one when
//    the root says more nodes exist, nodes ordered by label;
//  - None (the HA4 baseline): the sparse per-root table of the vote kernels,
//    compacted on the host.
// Units are full runs, HA sub-runs or pixels, labeled by the union-find of
// UnionFind.cuh (the labeling does not matter to the compaction). Also checks
// the tree itself: unique labels, parent / child links that agree, sizes,
// the trie order of the labels. Logic only: the GPU tests remain the reference.
//
// Usage: ccaTreeMergeEmulationTest [--cases N] [--seed S]
#include "CudaEmulation.h"

// The kernels live in their own namespace here: the engine library linked
// for the CPU reference holds the real ones under the same names.
#define cuda cudaemulated
#include "Compaction.cuh"
#include "FeatureUpdate.cuh"
#include "RunDetection.cuh"
#include "TreeMergeCompaction.cuh"
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

/** The labeled units of an image: parent (flattened: the root unit, the
 *  component's first), label (dense component number), linked flags. */
template <class Index>
struct Labeled
{
  Geometry           g{};
  detail::ImageFaces     faces{};
  UnitTable<Index>   units;
  std::vector<std::uint8_t> linked;
  std::vector<Index> label;
  Index              componentCount = 0;
};

template <class Index, class Units>
Labeled<Index>
Label(const std::vector<Pixel> & image, int dimension, const std::int64_t (&size)[3], bool full)
{
  Labeled<Index> l;
  l.g = Geometry{ size[0], size[1], size[2], size[1] * size[2] };
  l.faces = detail::ImageFaces{ static_cast<std::int32_t>(size[0]), static_cast<std::int32_t>(size[1]),
                             static_cast<std::int32_t>(size[2]), dimension == 3 };
  Detect<Index, Units>(image.data(), l.g, l.units);
  const Index n = l.units.arrays.count;
  l.linked.assign(n + 1, 0);
  if (n == 0)
  {
    return l;
  }
  Index * parent = l.units.parent.data();
  Launch(1, 64, [&] { LinkRunsKernel<Index, PlainUnion, Units>(l.units.arrays, l.g, full, parent, l.linked.data()); });
  Launch(2, 64, [&] { FlattenKernel<Index>(n, parent); });
  std::vector<Index> rank(n), rootOf(n);
  Index              acc = 0;
  for (Index i = 0; i < n; ++i)
  {
    rank[i] = acc;
    acc += parent[i] == i ? 1 : 0;
  }
  l.label.assign(n, 0);
  Launch(2, 64, [&] {
    NumberComponentsKernel<Index>(n, rank.data(), parent, l.label.data(), rootOf.data(), &l.componentCount);
  });
  return l;
}

/** Checks the tree of TMK: every valid node reachable from the root along
 *  its label's bits, links that agree both ways, sizes that add up. */
template <class Index>
std::string
CheckTree(const std::vector<FeatureTreeNode<Index>> & nodes, Index root, Index components)
{
  constexpr Index None = NoTreeNode<Index>();
  Index           valid = 0;
  for (Index i = 0; i < static_cast<Index>(nodes.size()); ++i)
  {
    const FeatureTreeNode<Index> & node = nodes[i];
    if (node.label == None)
    {
      continue;
    }
    ++valid;
    Index childSizes = 0;
    for (Index child : { node.left, node.right })
    {
      if (child != None)
      {
        if (nodes[child].parent != i || nodes[child].label == None)
        {
          return "child " + std::to_string(child) + " of node " + std::to_string(i) + " does not point back";
        }
        childSizes += nodes[child].size;
      }
    }
    if (node.size != childSizes + 1)
    {
      return "node " + std::to_string(i) + " has size " + std::to_string(node.size) + ", its subtree " +
             std::to_string(childSizes + 1);
    }
    Index current = root;
    int   depth = 0;
    while (current != None && current != i)
    {
      if (nodes[current].label == node.label)
      {
        return "label " + std::to_string(node.label) + " occurs twice";
      }
      current = ((node.label >> depth) & 1) != 0 ? nodes[current].right : nodes[current].left;
      ++depth;
    }
    if (current != i)
    {
      return "node " + std::to_string(i) + " is not where its label leads";
    }
  }
  if (valid != components || (root != None && nodes[root].size != components))
  {
    return std::to_string(valid) + " valid nodes for " + std::to_string(components) + " components";
  }
  return {};
}

/** Host side of TMK, as CudaBackend::DownloadFeatureTree: the guessed count
 *  first, the rest when the root's size says so. */
struct CopyState
{
  std::int64_t guess = 16;
  int          secondCopies = 0;
};

template <class Index, class Units>
std::string
TreeMerge(const Labeled<Index> & l, bool full, CopyState & copies, std::vector<ComponentFeatures> & features)
{
  const Index n = l.units.arrays.count;
  features.clear();
  if (n == 0)
  {
    return {};
  }
  using TreeVotes = VotePolicy<VoteFolding::None, SingleUnitComponents::Voted, Units, PairVotes::All>;
  std::vector<FeatureTreeNode<Index>> nodes(n);
  Index                               segments = (n + TileNodes - 1) / TileNodes;
  std::vector<Index>                  rootIn(segments, 0), rootOut((segments + 1) / 2, 0);
  const Index *                       parent = l.units.parent.data();
  Launch(2, TileNodes, [&] {
    BuildTileTreesKernel<Index, TreeVotes>(l.units.arrays, l.label.data(), parent, l.g, l.faces, full, nodes.data(),
                                           rootIn.data());
  });
  for (Index span = TileNodes; segments > 1; span *= 2, segments = (segments + 1) / 2)
  {
    Launch(2, 64, [&] { MergeTreesKernel<Index>(nodes.data(), n, rootIn.data(), rootOut.data(), span); });
    rootIn.swap(rootOut);
  }
  Launch(2, 64, [&] { UpdateTreeSizesKernel<Index>(nodes.data(), n); });
  const std::string problem = CheckTree(nodes, rootIn[0], l.componentCount);
  if (!problem.empty())
  {
    return problem;
  }
  std::vector<CompactedFeatureNode> out(n);
  std::memset(static_cast<void *>(out.data()), 0x5a, out.size() * sizeof(CompactedFeatureNode)); // poisoned
  Launch(2, 64, [&] { BalanceTreeKernel<Index>(nodes.data(), n, rootIn.data(), out.data()); });

  const std::int64_t                first = std::max<std::int64_t>(1, std::min<std::int64_t>(copies.guess, n));
  std::vector<CompactedFeatureNode> host(out.begin(), out.begin() + first);
  const std::int64_t                valid = host[0].treeSize;
  if (valid != static_cast<std::int64_t>(l.componentCount))
  {
    return "the root says " + std::to_string(valid) + " nodes";
  }
  if (valid > first)
  {
    host.insert(host.end(), out.begin() + first, out.begin() + valid);
    ++copies.secondCopies;
  }
  host.resize(static_cast<std::size_t>(valid));
  copies.guess = valid + valid / 4 + 16;
  std::sort(host.begin(), host.end(),
            [](const CompactedFeatureNode & a, const CompactedFeatureNode & b) { return a.label < b.label; });
  for (std::size_t k = 0; k < host.size(); ++k)
  {
    if (k > 0 && host[k].label == host[k - 1].label)
    {
      return "label " + std::to_string(host[k].label) + " twice among the copied nodes";
    }
    features.push_back(host[k].record);
  }
  return {};
}

/** None: the vote kernels into the sparse table (entry = root unit), the
 *  whole table "copied", compacted on the host. */
template <class Index, class Units, class Votes>
std::string
Sparse(const Labeled<Index> & l, bool full, std::vector<ComponentFeatures> & features)
{
  const Index n = l.units.arrays.count;
  features.clear();
  if (n == 0)
  {
    return {};
  }
  std::vector<Index> identity(n);
  Launch(2, 64, [&] { IotaKernel<Index>(n, identity.data()); });
  std::vector<ComponentFeatures> table(n);
  std::memset(static_cast<void *>(table.data()), 0x5a, table.size() * sizeof(ComponentFeatures)); // poisoned
  Launch(2, PrepareThreads, [&] {
    PrepareTableKernel<Index, Votes::Singles>(l.units.arrays, n, identity.data(), l.linked.data(), l.g,
                                                       l.faces, table.data());
  });
  Launch(2, 64, [&] {
    AccumulateFeaturesKernel<Index, Votes>(l.units.arrays, l.linked.data(), l.units.parent.data(), l.g, l.faces,
                                           table.data(), UpdateCounter{ nullptr }, full);
  });
  Launch(2, 64, [&] {
    FinalizeTableKernel<Index, Votes::Singles>(n, identity.data(), l.linked.data(), table.data());
  });
  for (const ComponentFeatures & entry : table)
  {
    if (entry.pixelCount > 0)
    {
      features.push_back(entry);
    }
  }
  return {};
}

std::string
Compare(const Result & cpu, const std::vector<ComponentFeatures> & features)
{
  if (static_cast<std::int64_t>(features.size()) != cpu.componentCount)
  {
    return "componentCount cpu=" + std::to_string(cpu.componentCount) +
           " emulated=" + std::to_string(features.size());
  }
  for (std::size_t i = 0; i < features.size(); ++i)
  {
    if (std::memcmp(&cpu.features[i], &features[i], sizeof(ComponentFeatures)) != 0)
    {
      return "features of label " + std::to_string(i + 1) + " differ";
    }
  }
  return {};
}

template <class Index, class Units>
int
Suite(const char * name, int cases, std::uint32_t seed)
{
  Engine    engine;
  CopyState copies; // kept across the cases, like the backend's guess across calls
  int       failed = 0;
  for (int c = 0; c < cases; ++c)
  {
    const std::uint32_t caseSeed = seed + static_cast<std::uint32_t>(c);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int           dimension = pick(3) == 0 ? 3 : 2;
    std::int64_t        size[3] = { 1, 1, 1 };
    size[0] = pick(4) == 0 ? 1 + pick(4) : 20 + pick(120);
    size[1] = 1 + pick(dimension == 2 ? 60 : 14);
    size[2] = dimension == 3 ? 1 + pick(8) : 1;
    const double density = pick(11) / 10.0;
    const int    granularity = pick(2) ? 1 : 3;
    const bool   full = pick(2) != 0;
    std::vector<Pixel> image;
    const int          pattern = pick(8);
    if (pattern == 0) // a checkerboard: the most components (Face connectivity)
    {
      image.resize(static_cast<std::size_t>(size[0] * size[1] * size[2]));
      for (std::size_t i = 0; i < image.size(); ++i)
      {
        const std::int64_t x = static_cast<std::int64_t>(i) % size[0];
        const std::int64_t y = static_cast<std::int64_t>(i) / size[0] % size[1];
        const std::int64_t z = static_cast<std::int64_t>(i) / (size[0] * size[1]);
        image[i] = (x + y + z) % 2 == 0 ? 1 : 0;
      }
    }
    else if (pattern == 1) // all on: one component
    {
      image.assign(static_cast<std::size_t>(size[0] * size[1] * size[2]), 1);
    }
    else
    {
      image = cca::RandomBlockImage(size[0], size[1], size[2], density, granularity, caseSeed * 7919u);
    }
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
    const Result                   cpu = engine.Run(view, options);
    const Labeled<Index>           labeled = Label<Index, Units>(image, dimension, size, full);
    std::vector<ComponentFeatures> features;
    std::string                    problem = TreeMerge<Index, Units>(labeled, full, copies, features);
    if (problem.empty())
    {
      problem = Compare(cpu, features);
    }
    if (!problem.empty())
    {
      problem = "TreeMerge: " + problem;
    }
    auto sparse = [&](auto votes, const char * what) {
      if (problem.empty())
      {
        problem = Sparse<Index, Units, decltype(votes)>(labeled, full, features);
        if (problem.empty())
        {
          problem = Compare(cpu, features);
        }
        if (!problem.empty())
        {
          problem = std::string(what) + problem;
        }
      }
    };
    sparse(VotePolicy<VoteFolding::ConflictDetection, SingleUnitComponents::WrittenWhole, Units, PairVotes::All>{},
           "None (CD votes): ");
    sparse(VotePolicy<VoteFolding::None, SingleUnitComponents::Voted, Units, PairVotes::All>{},
           "None (plain votes): ");
    if (!problem.empty())
    {
      ++failed;
      std::cout << "FAIL " << name << " seed=" << caseSeed << " " << size[0] << "x" << size[1] << "x" << size[2]
                << (full ? " full" : " face") << " pattern " << pattern << ": " << problem << std::endl;
    }
  }
  std::cout << name << ": " << cases - failed << " passed, " << failed << " failed (" << copies.secondCopies
            << " second copies)" << std::endl;
  return failed;
}

/** The guessed copy both ways: a growing count needs a second copy, the
 *  same count again does not. */
int
CopyPaths()
{
  Engine             engine;
  const std::int64_t size[3] = { 40, 40, 1 };
  std::vector<Pixel> board(40 * 40);
  for (std::size_t i = 0; i < board.size(); ++i)
  {
    board[i] = (i % 40 + i / 40) % 2 == 0 ? 1 : 0; // 800 components (Face)
  }
  const Labeled<std::uint32_t> labeled = Label<std::uint32_t, FullRuns>(board, 2, size, false);
  CopyState                      copies;
  std::vector<ComponentFeatures> features;
  int                            failed = 0;
  for (int expected : { 1, 1, 1 }) // the first call guesses 16: a second copy; the next ones guess right
  {
    const std::string problem = TreeMerge<std::uint32_t, FullRuns>(labeled, false, copies, features);
    if (!problem.empty() || copies.secondCopies != expected || features.size() != 800)
    {
      ++failed;
      std::cout << "FAIL copy paths: " << problem << " second copies " << copies.secondCopies << std::endl;
    }
  }
  std::cout << "copy paths: " << (failed == 0 ? "passed" : "failed") << std::endl;
  return failed;
}

} // namespace

int
main(int argc, char * argv[])
{
  int           cases = 10;
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
  failed += Suite<std::uint32_t, FullRuns>("FLSL units", cases, seed);
  failed += Suite<std::uint32_t, BlockRuns>("HA units", cases, seed + 1000);
  failed += Suite<std::uint32_t, PixelRuns>("pixel units", cases, seed + 2000);
  failed += Suite<unsigned long long, PixelRuns>("pixel units, 64-bit", cases / 2, seed + 3000);
  failed += CopyPaths();
  std::cout << (failed == 0 ? "all passed" : "FAILED") << std::endl;
  return failed == 0 ? 0 : 1;
}
