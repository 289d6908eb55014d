// The feature compactions of the CUDA backend (cca::FeatureCompaction other
// than the default Scan) in the backend's host sequence (cuda/HostSequence.cuh)
// on emulated threads (CudaEmulation.h, EmulatedDevice.h), with every
// strategy of the table, against the CPU backend:
//  - TreeMerge (Windisch 2023's tree merge kernel, TreeMergeCompaction.cuh):
//    tile trees in "shared memory", merges in "global memory" span by span,
//    subtree sizes, balancing; then the host side: a guessed first copy, a
//    second one when the root says more nodes exist, nodes ordered by label.
//    The tree itself is checked too: unique labels, parent / child links
//    that agree, sizes, the trie order of the labels;
//  - None (Windisch 2023's HA4 baseline): the sparse per-root table of the
//    vote kernels, copied whole and compacted on the host.
// Also the guessed first copy both ways, as ccaCudaBackendTest checks it.
// Logic only: the GPU tests remain the reference.
//
// Usage: ccaTreeMergeEmulationTest [--cases N] [--seed S]
#include "EmulatedBackend.h"
#include "ccaTreeCopySteps.h"

#include "cca/Engine.h"
#include "cca/RandomImages.h"

#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace
{

using namespace cca;
using namespace cca::cudaemulated;
using Pixel = std::uint8_t;

/** The emulated backend, kept across the cases like an engine (buffers,
 *  the tree copy guess). */
using Emulator = emulation::Backend;

/** Checks the last tree of TMK before balancing: every valid node reachable
 *  from the root along its label's bits, links that agree both ways, sizes
 *  that add up, as many valid nodes as components. */
template <class Index>
std::string
CheckTree(const FeatureTree<Index> & tree, std::int64_t components)
{
  constexpr Index                None = NoTreeNode<Index>();
  const FeatureTreeNode<Index> * nodes = tree.nodes;
  const Index                    root = *tree.root;
  Index                          valid = 0;
  for (Index i = 0; i < tree.count; ++i)
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
  if (static_cast<std::int64_t>(valid) != components ||
      (root != None && static_cast<std::int64_t>(nodes[root].size) != components))
  {
    return std::to_string(valid) + " valid nodes for " + std::to_string(components) + " components";
  }
  return {};
}

std::string
Compare(const Result & cpu, const Result & emulated)
{
  if (emulated.componentCount != cpu.componentCount ||
      static_cast<std::int64_t>(emulated.features.size()) != cpu.componentCount)
  {
    return "componentCount cpu=" + std::to_string(cpu.componentCount) +
           " emulated=" + std::to_string(emulated.componentCount) + " (" + std::to_string(emulated.features.size()) +
           " records)";
  }
  for (std::size_t i = 0; i < cpu.features.size(); ++i)
  {
    if (std::memcmp(&cpu.features[i], &emulated.features[i], sizeof(ComponentFeatures)) != 0)
    {
      return "features of label " + std::to_string(i + 1) + " differ";
    }
  }
  if (cpu.runOffsets != emulated.runOffsets)
  {
    return "runOffsets differ";
  }
  return {};
}

/** Both compactions on one image against the CPU's result. */
std::string
CheckCompactions(Emulator & emulator, const Result & cpu, const ImageView & view, Options options, bool wide)
{
  for (const FeatureCompaction compaction : { FeatureCompaction::TreeMerge, FeatureCompaction::None })
  {
    options.featureCompaction = compaction;
    emulator.sequence.Paths().SetForceWideIndex(wide);
    Result emulated;
    emulator.Run(view, options, emulated);
    std::string problem = Compare(cpu, emulated);
    if (problem.empty() && compaction == FeatureCompaction::TreeMerge && cpu.componentCount > 0)
    {
      problem = wide ? CheckTree(emulator.sequence.TreeMerge().LastTree<unsigned long long>(), cpu.componentCount)
                     : CheckTree(emulator.sequence.TreeMerge().LastTree<std::uint32_t>(), cpu.componentCount);
    }
    if (!problem.empty())
    {
      return std::string(FeatureCompactionName(compaction)) + ": " + problem;
    }
  }
  return {};
}

int
Suite(Algorithm algorithm, bool wide, int cases, std::uint32_t seed)
{
  Engine      engine;
  Emulator    emulator;
  int         failed = 0;
  std::string name = std::string(AlgorithmName(algorithm)) + (wide ? " 64-bit" : "");
  for (int k = 0; k < cases; ++k)
  {
    const std::uint32_t caseSeed = seed + static_cast<std::uint32_t>(k);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int           dimension = pick(3) == 0 ? 3 : 2;
    std::int64_t        size[3] = { 1, 1, 1 };
    size[0] = pick(4) == 0 ? 1 + pick(4) : 20 + pick(120);
    size[1] = 1 + pick(dimension == 2 ? 60 : 14);
    size[2] = dimension == 3 ? 1 + pick(8) : 1;
    const double       density = pick(11) / 10.0;
    const int          granularity = pick(2) ? 1 : 3;
    const bool         full = pick(2) != 0;
    const std::size_t  pixels = static_cast<std::size_t>(size[0] * size[1] * size[2]);
    std::vector<Pixel> image;
    const int          pattern = pick(8);
    if (pattern == 0) // a checkerboard: the most components (Face connectivity)
    {
      image.resize(pixels);
      for (std::size_t i = 0; i < pixels; ++i)
      {
        const std::int64_t x = static_cast<std::int64_t>(i) % size[0];
        const std::int64_t y = static_cast<std::int64_t>(i) / size[0] % size[1];
        const std::int64_t z = static_cast<std::int64_t>(i) / (size[0] * size[1]);
        image[i] = (x + y + z) % 2 == 0 ? 1 : 0;
      }
    }
    else if (pattern == 1) // all on: one component
    {
      image.assign(pixels, 1);
    }
    else
    {
      image = RandomBlockImage(size[0], size[1], size[2], density, granularity, caseSeed * 7919u);
    }
    const ImageView view = emulation::ByteImageView(image, dimension, size);
    Options         options;
    options.algorithm = algorithm;
    options.connectivity = full ? Connectivity::Full : Connectivity::Face;
    emulator.device.SetResidentBlocks(pick(2) != 0 ? 2 : 1024);
    Options cpuOptions = options;
    cpuOptions.backend = Backend::Cpu;
    const Result      cpu = engine.Run(view, cpuOptions);
    const std::string problem = CheckCompactions(emulator, cpu, view, options, wide);
    if (!problem.empty())
    {
      ++failed;
      std::cout << "FAIL " << name << " seed=" << caseSeed << " " << size[0] << "x" << size[1] << "x" << size[2]
                << (full ? " full" : " face") << " pattern " << pattern << ": " << problem << std::endl;
    }
  }
  std::cout << name << ": " << cases - failed << " passed, " << failed << " failed ("
            << emulator.sequence.TreeMergeSecondCopies() << " second copies)" << std::endl;
  return failed;
}

/** The guessed first copy both ways on a fresh sequence (ccaTreeCopySteps.h). */
int
CopyPaths()
{
  Engine             engine;
  Emulator           emulator;
  const std::int64_t size[3] = { 200, 200, 1 };
  std::vector<Pixel> many(200 * 200);
  for (std::size_t i = 0; i < many.size(); ++i)
  {
    many[i] = (i % 200 + i / 200) % 2 == 0 ? 1 : 0; // 20000 components (Face)
  }
  const std::vector<Pixel> few = RandomBlockImage(200, 200, 1, 0.7, 4, 35);
  int                      failed = 0;
  for (const ccatest::TreeCopyStep & step : ccatest::TreeCopySteps)
  {
    Options options;
    options.featureCompaction = FeatureCompaction::TreeMerge;
    const ImageView view = emulation::ByteImageView(step.manyComponents ? many : few, 2, size);
    Options         cpuOptions = options;
    cpuOptions.backend = Backend::Cpu;
    const Result       cpu = engine.Run(view, cpuOptions);
    const std::int64_t before = emulator.sequence.TreeMergeSecondCopies();
    Result             emulated;
    emulator.Run(view, options, emulated);
    const bool        second = emulator.sequence.TreeMergeSecondCopies() != before;
    const std::string problem = Compare(cpu, emulated);
    if (!problem.empty() || second != step.secondCopy)
    {
      ++failed;
      std::cout << "FAIL copy paths: " << step.what << ": " << problem << (second ? " a" : " no") << " second copy"
                << std::endl;
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
  if (!emulation::ParseCasesAndSeed(argc, argv, cases, seed))
  {
    return 2;
  }
  int failed = 0;
  for (const Algorithm algorithm : AllAlgorithms)
  {
    const auto a = static_cast<std::uint32_t>(algorithm);
    failed += Suite(algorithm, false, cases, seed + 1000 * a);
    failed += Suite(algorithm, true, cases / 2, seed + 1000 * a + 100000);
  }
  failed += CopyPaths();
  std::cout << (failed == 0 ? "all passed" : "FAILED") << std::endl;
  return failed == 0 ? 0 : 1;
}
