// The CUDA backend's host sequence (cuda/HostSequence.cuh), with every
// strategy of its table, run on emulated threads (CudaEmulation.h,
// EmulatedDevice.h) against the CPU backend: feature table, runs grouped by
// component and label image must be identical. Random 2D and 3D images
// (cca/RandomImages.h) of both connectivities, 32- and 64-bit unit indices,
// vote grids of the whole image and of 2 resident blocks, the outputs
// switched on and off; larger images around the percolation threshold,
// where unions race most; tile-border shapes for the tile labelings, Label
// Equivalence stress shapes, DLP-GPU without its optional regularization;
// and the atomic-update instrumentation, hand-counted on one 257 x 129
// component with the backend's grids. The on-the-fly merges must also
// leave no features behind at non-root units. Logic only: the GPU tests
// (ccaCudaBackendTest) remain the reference on a device.
//
// Usage: ccaStrategyEmulationTest [--cases N] [--seed S]
#include "EmulatedBackend.h"
#include "ccaSampledRows.h"
#include "ccaStripFirstPixelShapes.h"

#include "cca/Engine.h"
#include "cca/RandomImages.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
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
using Sequence = emulation::Sequence;
using Emulator = emulation::Backend;

/** One image to label. */
struct Case
{
  std::vector<Pixel> image;
  int                dimension = 2;
  std::int64_t       size[3] = { 1, 1, 1 };
  std::string        name;

  ImageView
  View() const
  {
    return emulation::ByteImageView(image, dimension, size);
  }
};

/** What a run produced. */
struct Outcome
{
  Result                     result;
  std::vector<std::uint64_t> labels; ///< the label image, widened
};

std::vector<std::uint64_t>
Widen(const std::vector<unsigned char> & bytes, LabelImageType type)
{
  std::vector<std::uint64_t> labels;
  if (type == LabelImageType::UInt32)
  {
    const auto * p = reinterpret_cast<const std::uint32_t *>(bytes.data());
    labels.assign(p, p + bytes.size() / 4);
  }
  else if (type == LabelImageType::UInt64)
  {
    const auto * p = reinterpret_cast<const std::uint64_t *>(bytes.data());
    labels.assign(p, p + bytes.size() / 8);
  }
  return labels;
}

/** Runs run(view, options, result) with a label image of the options' type. */
template <class Run>
Outcome
RunWithLabels(const Case & c, Options options, Run && run)
{
  const std::size_t          pixels = c.image.size();
  std::vector<unsigned char> labels(pixels * 8 + 1, 0x77);
  options.labelImage = labels.data();
  Outcome out;
  run(c.View(), options, out.result);
  labels.resize(options.labelImageType == LabelImageType::UInt64 ? pixels * 8 : pixels * 4);
  out.labels = Widen(labels, options.labelImageType);
  return out;
}

std::string
Compare(const Outcome & cpu, const Outcome & emulated)
{
  const Result &     a = cpu.result;
  const Result &     b = emulated.result;
  std::ostringstream s;
  if (a.componentCount != b.componentCount || a.features.size() != b.features.size())
  {
    s << "componentCount cpu=" << a.componentCount << " emulated=" << b.componentCount << " (" << b.features.size()
      << " records)";
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
  if (cpu.labels != emulated.labels)
  {
    return "label images differ";
  }
  return {};
}

/** On-the-fly merges: after the unions, the features of every component are
 *  at its root unit, none are left behind at other units. */
template <class Index>
std::string
FeaturesLeftBehind(const Sequence & sequence)
{
  const LabeledUnits<Index> & l = sequence.Labeling().Last<Index>();
  if (l.unitFeatures == nullptr)
  {
    return {};
  }
  for (Index i = 0; i < l.units.count; ++i)
  {
    if (l.parent[i] != i && l.unitFeatures[i].pixelCount != 0)
    {
      return "on-the-fly features left behind at unit " + std::to_string(i);
    }
  }
  return {};
}

/** The emulated sequence against the CPU backend on one case; returns what
 *  differs (empty when identical). run(emulator, view, options, result). */
template <class Run>
std::string
EmulateAndCompare(Engine & engine, Emulator & emulator, const Case & c, const Options & options, bool wide, Run && run)
{
  Options cpuOptions = options;
  cpuOptions.backend = Backend::Cpu;
  const Outcome cpu = RunWithLabels(
    c, cpuOptions, [&](const ImageView & view, const Options & o, Result & result) { engine.Run(view, o, result); });
  emulator.sequence.Paths().SetForceWideIndex(wide);
  const Outcome emulated = RunWithLabels(
    c, options, [&](const ImageView & view, const Options & o, Result & result) { run(emulator, view, o, result); });
  std::string problem = wide ? FeaturesLeftBehind<unsigned long long>(emulator.sequence)
                             : FeaturesLeftBehind<std::uint32_t>(emulator.sequence);
  return problem.empty() ? Compare(cpu, emulated) : problem;
}

/** Runs the table's strategy of options.algorithm. */
void
RunTable(Emulator & e, const ImageView & view, const Options & options, Result & result)
{
  e.Run(view, options, result);
}

Options
OptionsFor(Algorithm algorithm, bool full)
{
  Options options;
  options.algorithm = algorithm;
  options.connectivity = full ? Connectivity::Full : Connectivity::Face;
  options.labelImageType = LabelImageType::UInt32;
  return options;
}

/** The feature votes' order for a case, from its seed without drawing from
 *  its generator (the cases stay what they were): in component order
 *  always (with a selection or without the runs, sorted for the votes
 *  alone, then again for the runs), never, or where the runs' grouping
 *  shares the sort (cuda/ComponentOrder.cuh). */
VoteOrderUse
VoteOrderOf(std::uint32_t caseSeed)
{
  const VoteOrderUse uses[] = { VoteOrderUse::Always, VoteOrderUse::Never, VoteOrderUse::Automatic };
  return uses[caseSeed % 3];
}

/** The votes' order for a case (VoteOrderOf), in component order whether
 *  they store the components of a warp's chunk whole (always, never, or
 *  where components are many among the runs: cuda/WholeComponents.cuh),
 *  whether a byte mask's runs carry their end index for the searches
 *  of neighbour rows (cuda/RunNeighbours.cuh), and whether the default
 *  algorithm's dense table holds narrow entries widened on the host,
 *  narrow entries widened where components are few on the device (the
 *  default) or wide entries (src/NarrowFeatures.h), and whether a 2D
 *  image's narrow entries are planar (the default) or NarrowFeatures,
 *  and whether the component order leaves the largest component's units
 *  out of its sort (always, never, or from 2^20 units where it holds many
 *  of them: cuda/LargestComponent.cuh), and whether its table entry is the
 *  foreground's totals less the others (cuda/LargestBySubtraction.cuh),
 *  and whether the side work (the
 *  label image and the stored pairs' count, HostSequence's SideWork) runs
 *  in order or once joined, after the sort queued beside it, and where a
 *  volume's first union-find pass joins its row blocks (shared or global
 *  memory), and whether the union-find's later passes queue each warp's
 *  merges (cuda/QueuedMerges.cuh), from its seed alone. */
void
SetSeededChoices(Emulator & emulator, std::uint32_t caseSeed)
{
  Sequence & sequence = emulator.sequence;
  emulator.device.SetDeferredSideWork((caseSeed / 7) % 2 == 0);
  const WholeComponentsUse uses[] = { WholeComponentsUse::Always,
                                      WholeComponentsUse::Never,
                                      WholeComponentsUse::Automatic };
  const NarrowTableUse narrow[] = { NarrowTableUse::HostWidening, NarrowTableUse::Never, NarrowTableUse::Automatic };
  sequence.Paths().SetVoteOrder(VoteOrderOf(caseSeed));
  sequence.Paths().SetWholeComponents(uses[(caseSeed / 3) % 3]);
  const RunEndIndexUse endIndex[] = { RunEndIndexUse::Always, RunEndIndexUse::Never, RunEndIndexUse::Automatic };
  sequence.SetRunEndIndex(endIndex[(caseSeed / 9) % 3]);
  sequence.Paths().SetNarrowTable(narrow[(caseSeed / 18) % 3]);
  sequence.Paths().SetPlanarTable((caseSeed / 54) % 2 == 0 ? PlanarTableUse::Automatic : PlanarTableUse::Never);
  // Every pair of a vote order and a largest component's use in any 15
  // seeds in a row.
  const LargestApartUse apart[] = { LargestApartUse::Always, LargestApartUse::Never, LargestApartUse::Automatic };
  sequence.Paths().SetLargestApart(apart[(caseSeed / 5) % 3]);
  // The largest component's entry from the foreground's totals where the
  // numbering found it (on a byte mask of whole 16-byte rows, either
  // connectivity), never, or where it holds a share of the units: each in
  // any 39 seeds in a row.
  const LargestSubtractedUse subtracted[] = { LargestSubtractedUse::Always,
                                              LargestSubtractedUse::Never,
                                              LargestSubtractedUse::Automatic };
  sequence.Paths().SetLargestSubtracted(subtracted[(caseSeed / 13) % 3]);
  // A volume's first union-find pass in shared memory where the default
  // takes it (rows of many runs: these images' rows seldom have them),
  // in every volume with the default's links or with 8 (most blocks then
  // join in global memory instead, in the same pass), or in global
  // memory: each in any 8 seeds in a row. The same links take a plane's
  // first pass from its rows' bits in blocks in shared memory
  // (ByteRowBlocksInShared.cuh) wherever the bits join it.
  const std::int32_t sharedLinks[] = { 0, 3072, 8, -1 };
  sequence.SetSharedLinkCapacity(sharedLinks[(caseSeed / 2) % 4]);
  // The union-find's passes over a mask's runs with each warp's merges
  // queued (the default) or each run's own: each in any 22 seeds in a row.
  sequence.SetQueuedMerges((caseSeed / 11) % 2 == 0);
}

/** cases random cases, case k seeded with seed + k: check(caseSeed, pick)
 *  returns what failed (empty when it passed), printed with its seed, as is
 *  an exception it throws (an engine's consistency check); then the tally
 *  under name. Returns the failures. */
template <class Check>
int
SeededCases(const std::string & name, int cases, std::uint32_t seed, Check && check)
{
  int failed = 0;
  for (int k = 0; k < cases; ++k)
  {
    const std::uint32_t caseSeed = seed + static_cast<std::uint32_t>(k);
    std::mt19937        rng(caseSeed);
    auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    std::string         problem;
    try
    {
      problem = check(caseSeed, pick);
    }
    catch (const std::exception & e)
    {
      problem = std::string("threw: ") + e.what();
    }
    if (!problem.empty())
    {
      ++failed;
      std::cout << "FAIL " << name << " seed=" << caseSeed << " " << problem << std::endl;
    }
  }
  std::cout << name << ": " << cases - failed << " passed, " << failed << " failed" << std::endl;
  return failed;
}

/** "W x H x D: problem", or empty when problem is. */
std::string
Described(const Case & c, const std::string & problem)
{
  return problem.empty() ? problem
                         : std::to_string(c.size[0]) + "x" + std::to_string(c.size[1]) + "x" +
                             std::to_string(c.size[2]) + ": " + problem;
}

/** Random cases of one algorithm, dense or sparse tables; large: bigger images around the
 *  percolation threshold (unions race most there). */
int
Suite(Algorithm algorithm, bool wide, int cases, std::uint32_t seed, bool large)
{
  Engine            engine;
  Emulator          emulator;
  const std::string name = std::string(AlgorithmName(algorithm)) + (wide ? " 64-bit" : "") + (large ? " (large)" : "");
  const int         failed = SeededCases(name, cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = pick(3) == 0 ? 3 : 2;
    c.size[0] = pick(4) == 0 ? 1 + pick(4) : (pick(2) ? 1 + pick(100) : 32 * (1 + pick(3)) + pick(3) - 1);
    c.size[1] = 1 + pick(c.dimension == 2 ? 40 : 12);
    c.size[2] = c.dimension == 3 ? 1 + pick(8) : 1;
    double density = pick(11) / 10.0;
    int    granularity = pick(2) ? 1 : 3;
    if (large)
    {
      c.size[0] = 100 + pick(200);
      c.size[1] = 20 + pick(40);
      density = 0.4 + pick(5) / 10.0;
      granularity = 1;
    }
    const bool full = pick(2) != 0;
    Options    options = OptionsFor(algorithm, full);
    // The outputs on and off, the other foreground rule, and resident vote
    // grids of 2 blocks (each block then folds the votes of many tiles).
    const int variant = pick(4);
    options.labelImageType =
      variant == 1 ? LabelImageType::UInt64 : (variant == 2 ? LabelImageType::None : LabelImageType::UInt32);
    options.computeRuns = variant != 3;
    options.computeFeatures = pick(4) != 0; // labels only: no feature table
    if (pick(2) != 0)
    {
      options.foregroundRule = ForegroundRule::EqualTo;
      options.foregroundValue = 1;
    }
    emulator.device.SetResidentBlocks(pick(2) != 0 ? 2 : 1024);
    // Upload slabs of a few rows (rounded down to whole rows, at least one)
    // or the default (one slab for these images): the units of each slab
    // are counted as it arrives.
    const std::size_t slabBytes = pick(2) != 0 ? static_cast<std::size_t>(1 + pick(400)) : 0;
    emulator.sequence.SetSlabBytes(slabBytes);
    // The union-find's blocks of rows: the default, or a few rows, so that
    // these small images have many block borders and levels, joined in
    // groups of the default size (512 in volumes, 8 in planes) or of 2 to 5
    // blocks; the runs of byte masks joined from the rows' bits wherever
    // that fits, or where the engine chooses.
    emulator.sequence.SetBlockRows(pick(2) != 0 ? 1 + pick(5) : 0);
    emulator.sequence.SetLinkFanIn(pick(2) != 0 ? 2 + pick(4) : 0);
    emulator.sequence.SetRowBitLinks(pick(2) != 0 ? cudaemulated::RowBitLinksUse::Always
                                                  : cudaemulated::RowBitLinksUse::Automatic);
    SetSeededChoices(emulator, caseSeed);
    c.image = RandomBlockImage(c.size[0], c.size[1], c.size[2], density, granularity, caseSeed * 7919u);
    // The numbering's climbs from several runs a thread, which by default
    // only images of millions of runs take (NumberComponentsKernel).
    emulator.sequence.SetNumberingClimbingRuns(pick(2) != 0 ? 0 : -1);
    // The roots ranked by FlagRootsKernel and CUB's scan, which by default
    // only images of more than 32,768 units take, or by one block.
    emulator.sequence.SetNumberingOneBlockRootWords(pick(2) != 0 ? 0 : -1);
    // A quarter of the tables sparse (FeatureCompaction::None: votes keyed
    // by root units, so the trees must be flattened; the dense table's
    // numbering climbs them instead).
    if (options.computeFeatures && pick(4) == 0)
    {
      options.featureCompaction = FeatureCompaction::None;
    }
    // A third of the cases streamed where the rows' bits are one stream of
    // half-words (widths of multiples of 16), read by the unpacking kernel
    // in pieces of 16 to 80 bytes (StreamDevice::UploadStreamed); no pick,
    // so that the other choices of each seed stay as they were.
    const bool streams = caseSeed % 3 == 0;
    emulator.device.SetStreamedUploads(streams, 16 * (1 + caseSeed % 5));
    const std::int64_t slabsBefore = emulator.device.UploadedSlabs();
    const std::int64_t streamedBefore = emulator.device.StreamedUploads();
    std::string        problem = EmulateAndCompare(engine, emulator, c, options, wide, RunTable);
    const std::int64_t rows = c.size[1] * c.size[2];
    const std::int64_t slabRows = std::max<std::int64_t>(1, static_cast<std::int64_t>(slabBytes) / c.size[0]);
    const bool         streamed = streams && c.size[0] % 16 == 0;
    const std::int64_t expectedSlabs = streamed ? 0 : (slabBytes == 0 ? 1 : (rows + slabRows - 1) / slabRows);
    if (problem.empty() && emulator.device.UploadedSlabs() - slabsBefore != expectedSlabs)
    {
      problem = "the image came in " + std::to_string(emulator.device.UploadedSlabs() - slabsBefore) +
                " slabs instead of " + std::to_string(expectedSlabs);
    }
    if (problem.empty() && emulator.device.StreamedUploads() - streamedBefore != (streamed ? 1 : 0))
    {
      problem = streamed ? "the image was not streamed" : "the image was streamed";
    }
    return Described(c,
                     problem.empty() ? problem
                                             : std::string(full ? "full" : "face") + " slab bytes " +
                                         std::to_string(slabBytes) + (streams ? " streamed" : "") + ": " + problem);
  });
  std::cout << name << ": " << emulator.device.StreamedUploads() << " uploads streamed" << std::endl;
  return failed;
}

/** Half the cases hand the kernels the bytes themselves (a device image,
 *  read in place) under any foreground rule, pixels of values 0, 1, 2 and
 *  255; host images travel as foreground bits, unpacked to 0/1. Returns
 *  how the case runs on the emulator. */
template <class Pick>
auto
BytesInPlaceOrBits(Case & c, Options & options, Pick & pick)
{
  const bool resident = pick(2) != 0;
  if (resident)
  {
    const std::uint8_t palette[4] = { 0, 2, 1, 255 };
    for (auto & p : c.image)
    {
      p = palette[2 * (p != 0) + pick(2)];
    }
    const ForegroundRule rules[4] = {
      ForegroundRule::EqualTo, ForegroundRule::NotEqualTo, ForegroundRule::NotEqualTo, ForegroundRule::All
    };
    options.foregroundRule = rules[pick(4)];
    options.foregroundValue = palette[pick(4)];
  }
  return [resident](Emulator & e, const ImageView & view, const Options & o, Result & result) {
    ImageView onDevice = view;
    onDevice.memory = resident ? MemorySpace::CudaDevice : view.memory;
    e.Run(onDevice, o, result);
  };
}

/** The rest of a byte label image case once c's sizes are drawn: its
 *  options (either connectivity, 32- or 64-bit labels, the table in two
 *  cases of three, the runs in one of two, and with the table, in one case
 *  of selectionOdds, a selection of the objects of at least 1 ..
 *  largestMinimum pixels), then its image (makeImage()), its bytes read in
 *  place or as bits, emulated and compared with the CPU backend. */
template <class Pick, class MakeImage>
std::string
ByteLabelImageCase(Engine &     engine,
                   Emulator &   emulator,
                   Case &       c,
                   Pick &       pick,
                   int          selectionOdds,
                   int          largestMinimum,
                   MakeImage && makeImage)
{
  Options options = OptionsFor(Algorithm::Default, pick(2) != 0);
  options.labelImageType = pick(2) != 0 ? LabelImageType::UInt64 : LabelImageType::UInt32;
  options.computeFeatures = pick(3) != 0;
  options.computeRuns = pick(2) != 0;
  if (options.computeFeatures && pick(selectionOdds) == 0)
  {
    options.selection.minimumPixels = 1 + pick(largestMinimum);
  }
  c.image = makeImage();
  const auto run = BytesInPlaceOrBits(c, options, pick);
  return Described(c, EmulateAndCompare(engine, emulator, c, options, pick(4) == 0, run));
}

/** The label image of byte images whose rows are whole 16-pixel lane loads
 *  (WriteByteLabelImageKernel, cuda/Compaction.cuh, rows of few long runs
 *  from their runs, others from their pixels; the runs by
 *  WriteByteRunsKernel, cuda/RunDetection.cuh): widths of 16 to 1120
 *  pixels (one to three 512-pixel stretches of a warp, runs crossing lanes
 *  and stretches), both connectivities, 32- and 64-bit labels, labels only
 *  or with the table, a selection that removes objects (their pixels
 *  become background), and bytes read in place under every foreground
 *  rule; a quarter of the cases larger and around the percolation
 *  threshold; the union-find's row blocks the default or a few rows,
 *  joined in groups of the default size or of 2 to 5, and its runs joined
 *  from the rows' foreground bits (LinkByteRowsKernel,
 *  cuda/RowPairLinks.cuh) where the engine chooses or in every case that
 *  fits (every pass, 3D, full connectivity, link flags); against the CPU
 *  backend. */
int
ByteLabelImageSuite(int cases, std::uint32_t seed)
{
  Engine   engine;
  Emulator emulator;
  return SeededCases("byte label image", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = pick(3) == 0 ? 3 : 2;
    const bool large = pick(4) == 0;
    c.size[0] = 16 * (1 + pick(70));
    c.size[1] = large ? 10 + pick(c.dimension == 2 ? 40 : 10) : 1 + pick(c.dimension == 2 ? 12 : 4);
    c.size[2] = c.dimension == 3 ? (large ? 3 + pick(6) : 1 + pick(4)) : 1;
    const double density = large ? 0.4 + pick(4) / 10.0 : pick(11) / 10.0;
    emulator.sequence.SetBlockRows(pick(2) != 0 ? 1 + pick(5) : 0);
    emulator.sequence.SetLinkFanIn(pick(2) != 0 ? 2 + pick(4) : 0);
    emulator.sequence.SetRowBitLinks(pick(2) != 0 ? cudaemulated::RowBitLinksUse::Always
                                                  : cudaemulated::RowBitLinksUse::Automatic);
    SetSeededChoices(emulator, caseSeed);
    return ByteLabelImageCase(engine, emulator, c, pick, 2, 6, [&] {
      return RandomBlockImage(
        c.size[0], c.size[1], c.size[2], density, large ? 1 : 1 + pick(4), caseSeed * 2654435761u);
    });
  });
}

/** The label image of byte masks whose rows are wide enough to be made from
 *  their runs alone where a row has at most 32 of them (FillRowFromRuns,
 *  cuda/Compaction.cuh; 2048 pixels and more), others from their pixels:
 *  granularities from 1 (hundreds of runs a row) to 1024 (a few), every
 *  density, both connectivities and label widths, labels only or with the
 *  table and the runs, a selection that removes objects, and bytes read in
 *  place under every foreground rule; against the CPU backend. */
int
WideRowSuite(int cases, std::uint32_t seed)
{
  Engine   engine;
  Emulator emulator;
  return SeededCases("wide rows", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = pick(4) == 0 ? 3 : 2;
    c.size[0] = 2048 + 16 * pick(40);
    c.size[1] = 1 + pick(c.dimension == 2 ? 6 : 3);
    c.size[2] = c.dimension == 3 ? 1 + pick(2) : 1;
    const int granularities[] = { 1, 16, 128, 1024 };
    const int granularity = granularities[pick(4)];
    SetSeededChoices(emulator, caseSeed);
    return ByteLabelImageCase(engine, emulator, c, pick, 3, 64, [&] {
      return RandomBlockImage(c.size[0], c.size[1], c.size[2], pick(11) / 10.0, granularity, caseSeed * 2246822519u);
    });
  });
}

/** Labels only where a plane's rows are joined from their bits in blocks of
 *  rows in shared memory (cuda/ByteRowBlocksInShared.cuh), with the runs'
 *  end index written for them (WriteByteRunEndIndexKernel): planes of 2048
 *  to 2800 pixels a row at g = 1 around the percolation threshold, face
 *  connectivity, the default links, 3072 (every block in shared memory) or
 *  8 (every block in global memory), the index or none (the warps then
 *  count the stretches before them), both label widths and both index
 *  widths; the label image and the count against the CPU backend. */
int
LabelsOnlyRowBlockSuite(int cases, std::uint32_t seed)
{
  Engine    engine;
  Emulator  emulator;
  const int failed = SeededCases("labels-only row blocks", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = 2;
    c.size[0] = 2048 + 16 * pick(48);
    c.size[1] = 3 + pick(10);
    c.size[2] = 1;
    Options options = OptionsFor(Algorithm::Default, false);
    options.computeFeatures = false;
    options.computeRuns = false;
    options.labelImageType = pick(2) == 0 ? LabelImageType::UInt64 : LabelImageType::UInt32;
    const std::int32_t links[] = { 0, 3072, 8 };
    emulator.sequence.SetSharedLinkCapacity(links[caseSeed % 3]);
    emulator.sequence.SetRunEndIndex((caseSeed / 3) % 4 == 0 ? RunEndIndexUse::Never : RunEndIndexUse::Automatic);
    c.image = RandomBlockImage(c.size[0], c.size[1], c.size[2], 0.4 + pick(4) / 10.0, 1, caseSeed * 2654435761u);
    return Described(c, EmulateAndCompare(engine, emulator, c, options, pick(4) == 0, RunTable));
  });
  emulator.sequence.SetSharedLinkCapacity(0);
  emulator.sequence.SetRunEndIndex(RunEndIndexUse::Automatic);
  return failed;
}

/** Runs of the last run with 32-bit indices whose pairs with the previous
 *  row of their slice did not fit their 16-bit fields (the votes searched
 *  that row themselves), or -1 where it had runs but counted no pairs. */
std::int64_t
PairsNotCounted(const Sequence & sequence)
{
  const LabeledUnits<std::uint32_t> & l = sequence.Labeling().Last<std::uint32_t>();
  const PrecedingPairs &              pairs = l.precedingPairs;
  if (!pairs.Stored())
  {
    return l.units.count > 0 ? -1 : 0;
  }
  std::int64_t n = 0;
  for (std::uint32_t i = 0; i < l.units.count; ++i)
  {
    const std::uint32_t packed = pairs.records != nullptr ? pairs.records[i].rowPairs : pairs.row[i];
    n += (packed & 0xffffu) == NotCounted ? 1 : 0;
  }
  return n;
}

/** The default algorithm's stored perimeter pairs (cuda/PrecedingPairs.cuh),
 *  counted by the union-find under full connectivity and once the labels
 *  exist under face connectivity (one case in four) or where asked under
 *  full connectivity (one full case in three; half of those with the
 *  union-find over the rows' bits), in the runs' records
 *  or, one case in four, without them (as where the rows do not fit
 *  RunRecord): masks of ordinary rows, and rows of 40,000 to 70,000 pixels
 *  whose long runs' counts do not fit their 16-bit fields (the votes then
 *  search those rows themselves; the suite fails if no case reached that
 *  path); the neighbour rows found in 32- or 64-bit arithmetic (half the
 *  cases each); the union-find's row blocks and groups the default or a few rows
 *  (each run's counts stored by the pass that joins its rows); the table,
 *  the runs and the label image against the CPU backend. */
int
PrecedingPairsSuite(int cases, std::uint32_t seed)
{
  Engine       engine;
  Emulator     emulator;
  std::int64_t searched = 0;
  const int    failed = SeededCases("preceding pairs", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = pick(3) == 0 ? 3 : 2;
    // The first case always has rows of 70,000 foreground pixels, whose
    // counts overflow both fields, however few cases run (the sanitizers').
    const bool first = caseSeed == seed;
    const bool wide = first || pick(2) == 0;
    c.size[0] = first ? 70000 : wide ? 40000 + 16 * pick(1875) : 1 + pick(120);
    c.size[1] = first ? 2 : wide ? 1 + pick(3) : 1 + pick(c.dimension == 2 ? 50 : 10);
    c.size[2] = c.dimension == 3 ? (wide ? 2 : 1 + pick(8)) : 1;
    emulator.sequence.SetBlockRows(pick(2) != 0 ? 1 + pick(4) : 0);
    emulator.sequence.SetLinkFanIn(pick(2) != 0 ? 2 + pick(3) : 0);
    SetSeededChoices(emulator, caseSeed);
    const double density = first ? 1.0 : wide ? 0.8 + pick(3) / 10.0 : pick(11) / 10.0;
    const int    granularity = wide ? 8192 : 1 + pick(4);
    c.image = RandomBlockImage(c.size[0], c.size[1], c.size[2], density, granularity, caseSeed * 83492791u);
    // The second case always counts full connectivity's pairs once the
    // labels exist, however few cases run.
    const bool second = caseSeed == seed + 1;
    const bool full = second || pick(4) != 0;
    Options    options = OptionsFor(Algorithm::Default, full);
    options.computeRuns = pick(2) != 0;
    emulator.sequence.SetRunRecords(pick(4) != 0);
    // Half the cases find the neighbour rows in 64-bit arithmetic, as
    // images of 2^31 pixels and more do.
    emulator.sequence.SetWideRowArithmetic(pick(2) == 0);
    // Under full connectivity, one case in three counts the pairs once the
    // labels exist, half of those with the union-find over the rows' bits.
    const bool afterLabels = second || (full && pick(3) == 0);
    emulator.sequence.SetFullPairsAfterLabels(afterLabels);
    emulator.sequence.SetRowBitLinks(afterLabels && pick(2) == 0 ? cudaemulated::RowBitLinksUse::Always
                                                                 : cudaemulated::RowBitLinksUse::Automatic);
    const std::string  problem = EmulateAndCompare(engine, emulator, c, options, false, RunTable);
    const std::int64_t notCounted = PairsNotCounted(emulator.sequence);
    if (problem.empty() && notCounted < 0)
    {
      return Described(c, "the union-find counted no pairs");
    }
    searched += notCounted > 0 ? 1 : 0;
    if (problem.empty() && afterLabels && !emulator.sequence.Labeling().Last<std::uint32_t>().pairsAfterLabels)
    {
      return Described(c, "full connectivity's pairs were not counted after the labels as asked");
    }
    return Described(c, problem);
  });
  if (searched == 0)
  {
    std::cout << "FAIL preceding pairs: no case had a run whose pairs did not fit" << std::endl;
    return failed + 1;
  }
  return failed;
}

/** The largest component's runs placed by the pairs' pass after the labels
 *  (cuda/PlacedLargest.cuh), whose blocks place a tile's runs of that
 *  component first and queue the other runs' searches
 *  (CountPrecedingPairsKernel): masks of whole 16-pixel lanes above the
 *  percolation threshold, large enough for several tiles of runs, 2D and
 *  3D, both connectivities (face: the pairs between components counted
 *  too), the largest component subtracted always, with or without the
 *  label image, the side work in order or deferred, 32- or 64-bit
 *  indices and row arithmetic, host masks (as bits) and device images
 *  read in place under every foreground rule, the other components stored
 *  whole by the votes, all merged, or either by their share of the runs
 *  the votes visit (cuda/WholeComponents.cuh); the table, the runs and the
 *  label image against the CPU backend. The suite fails if no case
 *  placed, or none placed with the others stored whole. */
int
PlacedLargestSuite(int cases, std::uint32_t seed)
{
  Engine   engine;
  Emulator emulator;
  int      placedCases = 0;
  int      placedWholeCases = 0;
  int      failed = SeededCases("placed largest", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = pick(2) == 0 ? 3 : 2;
    c.size[0] = 16 * (4 + pick(12));
    c.size[1] = c.dimension == 2 ? 48 + pick(80) : 8 + pick(16);
    c.size[2] = c.dimension == 3 ? 4 + pick(8) : 1;
    const bool full = pick(2) == 0;
    // Above each connectivity's percolation threshold, so that one
    // component holds most runs and the others' searches are few a tile.
    const double least = c.dimension == 2 ? (full ? 0.5 : 0.65) : (full ? 0.25 : 0.4);
    const double density = least + pick(5) * (0.95 - least) / 4.0;
    c.image = RandomBlockImage(c.size[0], c.size[1], c.size[2], density, 1, caseSeed * 2246822519u);
    Options options = OptionsFor(Algorithm::Default, full);
    options.computeRuns = true;
    options.labelImageType = pick(3) == 0 ? LabelImageType::None : LabelImageType::UInt32;
    emulator.device.SetDeferredSideWork(pick(2) == 0);
    emulator.sequence.SetWideRowArithmetic(pick(2) == 0);
    // Under full connectivity the pairs wait for the labels only where
    // asked (or where strips, tubes or the rows' bits join the runs).
    emulator.sequence.SetFullPairsAfterLabels(full);
    emulator.sequence.Paths().SetLargestApart(LargestApartUse::Always);
    emulator.sequence.Paths().SetLargestSubtracted(LargestSubtractedUse::Always);
    const WholeComponentsUse wholeUses[] = { WholeComponentsUse::Always,
                                             WholeComponentsUse::Never,
                                             WholeComponentsUse::Automatic };
    const WholeComponentsUse whole = wholeUses[pick(3)];
    emulator.sequence.Paths().SetWholeComponents(whole);
    // The subtraction reads the mask's bytes 16 a lane: a host mask crosses
    // as bits, a device image's bytes are read in place.
    const auto        run = BytesInPlaceOrBits(c, options, pick);
    const std::string problem = EmulateAndCompare(engine, emulator, c, options, pick(4) == 0, run);
    const bool        placed = emulator.sequence.PlacedLargestLastRun();
    placedCases += placed ? 1 : 0;
    placedWholeCases += placed && whole == WholeComponentsUse::Always ? 1 : 0;
    return Described(c, problem);
  });
  if (placedCases == 0 || placedWholeCases == 0)
  {
    std::cout << "FAIL placed largest: no case placed the largest component's runs"
              << (placedCases == 0 ? "" : " with the others stored whole") << std::endl;
    return failed + 1;
  }
  std::cout << "placed largest: " << placedCases << " of " << cases << " cases placed, " << placedWholeCases
            << " with the others stored whole" << std::endl;
  return failed;
}

/** The default algorithm's feature table with its votes in component order
 *  always, never or where the runs' grouping shares the sort
 *  (cuda/ComponentOrder.cuh), the runs asked or not, three cases in four
 *  with a selection (which relabels the runs, so their grouping sorts
 *  again, and half the time numbers the objects by size): the table, the
 *  runs and the label image against the CPU backend. */
int
VoteOrderSuite(int cases, std::uint32_t seed)
{
  Engine   engine;
  Emulator emulator;
  return SeededCases("vote orders", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = pick(3) == 0 ? 3 : 2;
    c.size[0] = 1 + pick(90);
    c.size[1] = 1 + pick(c.dimension == 2 ? 60 : 12);
    c.size[2] = c.dimension == 3 ? 1 + pick(8) : 1;
    SetSeededChoices(emulator, caseSeed);
    Options options = OptionsFor(Algorithm::Default, pick(2) != 0);
    options.computeRuns = pick(4) != 0;
    if (pick(4) != 0)
    {
      options.selection.minimumPixels = 1 + pick(4);
      options.selection.orderBySize = pick(2) != 0;
    }
    c.image = RandomBlockImage(c.size[0], c.size[1], c.size[2], 0.2 + pick(7) / 10.0, 1 + pick(3), caseSeed * 40503u);
    return Described(c, EmulateAndCompare(engine, emulator, c, options, pick(4) == 0, RunTable));
  });
}

/** Labels only under full connectivity, labeled by blocks of 2 x 2 (x 2)
 *  pixels (cuda/BlockLabeling.cuh): odd and even sizes, single rows and
 *  slices, densities around the percolation threshold, both label widths,
 *  32- and 64-bit indices, the block labeling forced or chosen by the runs'
 *  length; the label image and the count against the CPU backend. */
int
BlockSuite(int cases, std::uint32_t seed)
{
  Engine    engine;
  Emulator  emulator;
  const int failed = SeededCases("blocks", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = pick(2) == 0 ? 3 : 2;
    const bool large = pick(4) == 0;
    c.size[0] = large ? 60 + pick(140) : 1 + pick(40);
    c.size[1] = large ? 20 + pick(40) : 1 + pick(c.dimension == 2 ? 30 : 10);
    c.size[2] = c.dimension == 3 ? (large ? 4 + pick(8) : 1 + pick(7)) : 1;
    const double density = large ? 0.2 + pick(6) / 10.0 : pick(11) / 10.0;
    Options      options = OptionsFor(Algorithm::Default, true);
    options.computeFeatures = false;
    options.computeRuns = false;
    const int variant = pick(3);
    options.labelImageType =
      variant == 0 ? LabelImageType::UInt64 : (variant == 1 ? LabelImageType::None : LabelImageType::UInt32);
    if (pick(2) != 0)
    {
      options.foregroundRule = ForegroundRule::EqualTo;
      options.foregroundValue = 1;
    }
    const bool wide = pick(4) == 0;
    emulator.sequence.Paths().SetBlockLabeling(pick(4) == 0 ? cudaemulated::BlockLabelingUse::Automatic
                                                            : cudaemulated::BlockLabelingUse::Always);
    emulator.sequence.SetSlabBytes(pick(2) != 0 ? static_cast<std::size_t>(1 + pick(400)) : 0);
    c.image = RandomBlockImage(c.size[0], c.size[1], c.size[2], density, 1 + pick(3), caseSeed * 6151u);
    return Described(c, EmulateAndCompare(engine, emulator, c, options, wide, RunTable));
  });
  emulator.sequence.Paths().SetBlockLabeling(cudaemulated::BlockLabelingUse::Automatic);
  return failed;
}

/** Labels only under full connectivity, labeled by the runs of strips of
 *  two rows in planes and of tubes of 2 x 2 rows in volumes
 *  (cuda/StripLabeling.cuh): widths of whole lane loads of one to four
 *  512-pixel stretches (and a few others, which keep the rows' runs), odd
 *  and even heights and depths from one
 *  row, densities around the percolation threshold, both label widths or
 *  none, 32- and 64-bit indices, slabs of any size, host images (as
 *  foreground bits) and device images read in place under every foreground
 *  rule, 3D images of one slice and more, the strips forced, chosen by the
 *  runs and the foreground fraction, or off; the label image and the count
 *  against the CPU backend. */
int
StripSuite(int cases, std::uint32_t seed)
{
  Engine    engine;
  Emulator  emulator;
  const int failed = SeededCases("strips", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = pick(3) == 0 ? 3 : 2;
    const bool large = pick(4) == 0;
    // Rows of two to four stretches: the union-find takes them in parts
    // (ByteRowLinkParts, cuda/RowPairLinks.cuh).
    const bool wideRows = large && pick(2) == 0;
    c.size[0] = wideRows ? 16 * (33 + pick(70)) : (pick(8) == 0 ? 1 + pick(70) : 16 * (1 + pick(large ? 24 : 6)));
    c.size[1] = large ? 20 + pick(wideRows ? 20 : 50) : 1 + pick(12);
    c.size[2] = c.dimension == 3 && pick(4) != 0 ? 1 + pick(wideRows ? 3 : (large ? 12 : 7)) : 1;
    const double density = large ? 0.3 + pick(5) / 10.0 : pick(11) / 10.0;
    Options      options = OptionsFor(Algorithm::Default, true);
    options.computeFeatures = false;
    options.computeRuns = false;
    const int variant = pick(3);
    options.labelImageType =
      variant == 0 ? LabelImageType::UInt64 : (variant == 1 ? LabelImageType::None : LabelImageType::UInt32);
    const bool wide = pick(4) == 0;
    const int  use = pick(4);
    emulator.sequence.Paths().SetStripLabeling(use == 0   ? cudaemulated::StripLabelingUse::Never
                                               : use == 1 ? cudaemulated::StripLabelingUse::Automatic
                                                          : cudaemulated::StripLabelingUse::Always);
    emulator.sequence.SetSlabBytes(pick(2) != 0 ? static_cast<std::size_t>(1 + pick(400)) : 0);
    c.image = RandomBlockImage(c.size[0], c.size[1], c.size[2], density, 1 + pick(3), caseSeed * 7919u);
    // In a third of the cases about half the image rows are blank, so that
    // many components start in a strip's later rows: their first pixel is
    // then offered by runs other than the root (OfferStripFirstPixelsKernel).
    // Drawn from the case's seed, so that the picks stay those of before.
    if (caseSeed % 3 == 0)
    {
      const std::int64_t rows = c.size[1] * c.size[2];
      for (std::int64_t r = 0; r < rows; ++r)
      {
        if (((caseSeed * 2654435761u) ^ static_cast<std::uint32_t>(r * 40503u)) * 2246822519u >> 31)
        {
          std::fill_n(c.image.begin() + r * c.size[0], c.size[0], Pixel{ 0 });
        }
      }
    }
    const auto run = BytesInPlaceOrBits(c, options, pick);
    return Described(c, EmulateAndCompare(engine, emulator, c, options, wide, run));
  });
  emulator.sequence.Paths().SetStripLabeling(cudaemulated::StripLabelingUse::Automatic);
  return failed;
}

/** The feature table's runs joined through the strips under full
 *  connectivity (cuda/StripJoin.cuh): planes and volumes of widths of
 *  whole lane loads (and a few others, which keep the union-find over the
 *  runs), densities around the percolation thresholds, with the runs, the
 *  label image and a selection in some cases, the dense, sparse or
 *  tree-merged table, 32- and 64-bit indices,
 *  slabs of any size, host images and device images read in place under
 *  every foreground rule, rows in 32- or 64-bit arithmetic; the strips
 *  forced, chosen, or off. The table,
 *  the runs and the label image against the CPU backend. */
int
StripJoinSuite(int cases, std::uint32_t seed)
{
  Engine    engine;
  Emulator  emulator;
  const int failed = SeededCases("strip joins", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    Case c;
    c.dimension = pick(2) == 0 ? 3 : 2;
    const bool large = pick(3) == 0;
    c.size[0] = pick(8) == 0 ? 1 + pick(70) : 16 * (1 + pick(large ? 20 : 5));
    c.size[1] = large ? 16 + pick(40) : 1 + pick(12);
    c.size[2] = c.dimension == 3 ? 1 + pick(large ? 10 : 7) : 1;
    const double density = large ? 0.1 + pick(8) / 10.0 : pick(11) / 10.0;
    Options      options = OptionsFor(Algorithm::Default, true);
    options.computeRuns = pick(2) == 0;
    const int variant = pick(3);
    options.labelImageType =
      variant == 0 ? LabelImageType::UInt64 : (variant == 1 ? LabelImageType::None : LabelImageType::UInt32);
    if (pick(5) == 0)
    {
      options.selection.minimumPixels = 1 + pick(4);
    }
    // The sparse table and the tree merge key the runs by their roots,
    // read straight from the parents the join leaves (without a
    // selection, which needs the dense table).
    const int compaction = pick(6);
    if (!options.selection.Active())
    {
      options.featureCompaction = compaction == 0   ? FeatureCompaction::None
                                  : compaction == 1 ? FeatureCompaction::TreeMerge
                                                    : FeatureCompaction::Scan;
    }
    const bool wide = pick(4) == 0;
    const int  use = pick(4);
    emulator.sequence.Paths().SetStripLabeling(use == 0   ? cudaemulated::StripLabelingUse::Never
                                               : use == 1 ? cudaemulated::StripLabelingUse::Automatic
                                                          : cudaemulated::StripLabelingUse::Always);
    SetSeededChoices(emulator, caseSeed);
    // Half the cases place the runs' rows in 64-bit arithmetic, as images
    // of 2^31 pixels and more do (CoveredRunParentsKernel's Small).
    emulator.sequence.SetWideRowArithmetic((caseSeed / 2) % 2 == 0);
    emulator.sequence.SetSlabBytes(pick(2) != 0 ? static_cast<std::size_t>(1 + pick(400)) : 0);
    c.image = RandomBlockImage(c.size[0], c.size[1], c.size[2], density, 1 + pick(2), caseSeed * 5237u);
    const auto run = BytesInPlaceOrBits(c, options, pick);
    return Described(c, EmulateAndCompare(engine, emulator, c, options, wide, run));
  });
  emulator.sequence.Paths().SetStripLabeling(cudaemulated::StripLabelingUse::Automatic);
  emulator.sequence.SetWideRowArithmetic(false);
  emulator.sequence.Paths().SetVoteOrder(cudaemulated::VoteOrderUse::Automatic);
  emulator.sequence.Paths().SetWholeComponents(cudaemulated::WholeComponentsUse::Automatic);
  emulator.sequence.Paths().SetNarrowTable(cudaemulated::NarrowTableUse::Automatic);
  return failed;
}

/** The strip labeling's first pixels on ccaStripFirstPixelShapes.h's masks,
 *  against the CPU backend. */
int
StripFirstPixelShapes()
{
  std::vector<Case> cases;
  for (const auto & shape : ccatest::StripFirstPixelShapes())
  {
    Case c;
    c.name = shape.name;
    c.dimension = shape.dimension;
    std::copy(shape.size, shape.size + 3, c.size);
    c.image = ccatest::StripFirstPixelMask(shape);
    cases.push_back(c);
  }
  Engine   engine;
  Emulator emulator;
  Options  options = OptionsFor(Algorithm::Default, true);
  options.computeFeatures = false;
  options.computeRuns = false;
  options.labelImageType = LabelImageType::UInt32;
  emulator.sequence.Paths().SetStripLabeling(cudaemulated::StripLabelingUse::Always);
  int failed = 0;
  for (const Case & c : cases)
  {
    const std::string problem = EmulateAndCompare(engine, emulator, c, options, false, RunTable);
    if (!problem.empty())
    {
      ++failed;
      std::cout << "FAIL strip first pixels " << c.name << ": " << problem << std::endl;
    }
  }
  emulator.sequence.Paths().SetStripLabeling(cudaemulated::StripLabelingUse::Automatic);
  std::cout << "strip first pixels: " << (failed == 0 ? "passed" : "FAILED") << std::endl;
  return failed;
}

/** The run count's foreground sample (ForegroundSample,
 *  cuda/RunDetection.cuh), by which the engine chooses its labeling,
 *  against a count on the host: the foreground pixels of one row in each
 *  block of 64 rows (longer blocks in large images: at most about 512
 *  rows) over those rows' pixels, exactly, whatever slabs the image is counted
 *  in, by the byte kernel (8-bit rows of whole lane loads) and the
 *  per-pixel one (other widths, 16-bit pixels), under every foreground
 *  rule; the run count beside it against the host's. */
int
ForegroundSampleSuite(int cases, std::uint32_t seed)
{
  emulation::Device             device;
  LabelStage<emulation::Device> stage;
  return SeededCases("foreground sample", cases, seed, [&](std::uint32_t caseSeed, auto & pick) {
    const int dimension = pick(2) != 0 ? 3 : 2;
    // Up to 300 x 300 rows: blocks of 64 to 256 rows.
    std::int64_t size[3] = { pick(2) != 0 ? 16 * (1 + pick(4)) : 1 + pick(40),
                             1 + pick(300),
                             dimension == 3 ? 1 + pick(300) : 1 };
    const std::vector<Pixel> mask =
      RandomBlockImage(size[0], size[1], size[2], pick(11) / 10.0, 1 + pick(3), caseSeed * 40503u);
    // Values 0 to 3 where the mask is 0 or not, tested by a random rule.
    std::vector<std::uint16_t> values(mask.size());
    for (std::size_t i = 0; i < mask.size(); ++i)
    {
      values[i] = static_cast<std::uint16_t>(mask[i] != 0 ? 1 + pick(3) : 0);
    }
    const bool           sixteenBits = pick(2) != 0;
    std::vector<Pixel>   bytes(values.begin(), values.end());
    Options              options = OptionsFor(Algorithm::Default, pick(2) != 0);
    const ForegroundRule rules[3] = { ForegroundRule::EqualTo, ForegroundRule::NotEqualTo, ForegroundRule::All };
    options.foregroundRule = rules[pick(3)];
    options.foregroundValue = pick(4);
    ImageView view = emulation::ByteImageView(bytes, dimension, size);
    if (sixteenBits)
    {
      view.data = values.data();
      view.pixelType = PixelType::UInt16;
    }
    const Frame        frame = MakeFrame(view, options);
    const std::int64_t rows = size[1] * size[2];
    const std::int64_t slabRows = pick(2) != 0 ? 1 + pick(static_cast<int>(rows)) : rows;
    for (std::int64_t first = 0; first < rows; first += slabRows) // as the upload calls it: the image, its rows
    {
      stage.CountUnits<std::uint32_t, FullRuns>(device, frame, view.data, first, std::min(rows, first + slabRows));
    }
    const std::uint32_t runs = stage.CountedUnits<std::uint32_t>(device, frame);
    auto                foreground = [&](std::size_t i) {
      return options.foregroundRule == ForegroundRule::All ||
             ((values[i] == options.foregroundValue) == (options.foregroundRule == ForegroundRule::EqualTo));
    };
    std::int64_t expectedRuns = 0;
    std::int64_t sampled = 0;
    std::int64_t sampledRows = 0;
    for (std::int64_t r = 0; r < rows; ++r)
    {
      for (std::int64_t x = 0; x < size[0]; ++x)
      {
        const auto i = static_cast<std::size_t>(r * size[0] + x);
        expectedRuns += foreground(i) && (x == 0 || !foreground(i - 1)) ? 1 : 0;
        sampled += ccatest::IsSampledRow(r, rows) && foreground(i) ? 1 : 0;
      }
      sampledRows += ccatest::IsSampledRow(r, rows) ? 1 : 0;
    }
    const double       expected = static_cast<double>(sampled) / static_cast<double>(sampledRows * size[0]);
    std::ostringstream problem;
    if (runs != expectedRuns || stage.CountedForegroundFraction() != expected)
    {
      problem << size[0] << "x" << size[1] << "x" << size[2] << (sixteenBits ? " 16-bit" : " 8-bit") << " slab rows "
              << slabRows << ": runs " << runs << " (host " << expectedRuns << "), sampled foreground fraction "
              << stage.CountedForegroundFraction() << " (host " << expected << ")";
    }
    return problem.str();
  });
}

/** Images in (emulated) device memory: read in place when dense, packed on
 *  the device from strides (transposed, reversed, padded), and label images
 *  written in place, against the CPU backend on the same strided view; no
 *  host bytes may be uploaded for them. */
int
DeviceMemory(int cases, std::uint32_t seed)
{
  Engine   engine;
  Emulator emulator;
  int      failed = 0;
  for (int k = 0; k < cases; ++k)
  {
    const std::uint32_t      caseSeed = seed + static_cast<std::uint32_t>(k);
    std::mt19937             rng(caseSeed);
    auto                     pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
    const int                dimension = pick(2) == 0 ? 3 : 2;
    const std::int64_t       size[3] = { 1 + pick(70), 1 + pick(30), dimension == 3 ? 1 + pick(6) : 1 };
    const double             density = pick(11) / 10.0;
    const std::vector<Pixel> logical =
      RandomBlockImage(size[0], size[1], size[2], density, 1 + pick(3), caseSeed * 104729u);
    // The layout: 0 dense, 1 axes x and y swapped in memory, 2 x reversed,
    // 3 rows padded and z reversed.
    const int          layout = pick(4);
    const std::int64_t pad = layout == 3 ? 5 : 0;
    std::int64_t       stride[3] = { 1, size[0] + pad, (size[0] + pad) * size[1] };
    if (layout == 1)
    {
      stride[0] = size[1];
      stride[1] = 1;
    }
    std::vector<Pixel> storage(static_cast<std::size_t>(stride[2] * size[2]) + 8, 0);
    std::int64_t       origin = 0; // the storage index of pixel (0, 0, 0)
    if (layout == 2)
    {
      origin = size[0] - 1;
      stride[0] = -1;
    }
    if (layout == 3)
    {
      origin = stride[2] * (size[2] - 1);
      stride[2] = -stride[2];
    }
    for (std::int64_t z = 0; z < size[2]; ++z)
      for (std::int64_t y = 0; y < size[1]; ++y)
        for (std::int64_t x = 0; x < size[0]; ++x)
          storage[static_cast<std::size_t>(origin + x * stride[0] + y * stride[1] + z * stride[2])] =
            logical[static_cast<std::size_t>(x + size[0] * (y + size[1] * z))];
    ImageView view;
    view.data = storage.data() + origin;
    view.dimension = dimension;
    for (int i = 0; i < 3; ++i)
    {
      view.size[i] = size[i];
      view.stride[i] = layout == 0 ? 0 : stride[i];
    }
    Options options = OptionsFor(Algorithm::Default, pick(2) != 0);
    options.labelImageType = pick(2) != 0 ? LabelImageType::UInt64 : LabelImageType::UInt32;
    const std::size_t          labelBytes = options.labelImageType == LabelImageType::UInt64 ? 8 : 4;
    const std::size_t          pixels = logical.size();
    std::vector<unsigned char> cpuLabels(pixels * labelBytes, 0x77);
    std::vector<unsigned char> deviceLabels(pixels * labelBytes, 0x77);
    Outcome                    cpu;
    Outcome                    emulated;
    Options                    cpuOptions = options;
    cpuOptions.backend = Backend::Cpu;
    cpuOptions.labelImage = cpuLabels.data();
    engine.Run(view, cpuOptions, cpu.result);
    cpu.labels = Widen(cpuLabels, options.labelImageType);
    ImageView deviceView = view;
    deviceView.memory = MemorySpace::CudaDevice;
    options.labelImage = deviceLabels.data();
    options.labelImageMemory = MemorySpace::CudaDevice;
    emulator.Run(deviceView, options, emulated.result);
    emulated.labels = Widen(deviceLabels, options.labelImageType);
    std::string problem = Compare(cpu, emulated);
    if (problem.empty() && emulated.result.bytesCopiedToDevice != 0)
    {
      problem = std::to_string(emulated.result.bytesCopiedToDevice) + " bytes uploaded for a device image";
    }
    if (!problem.empty())
    {
      ++failed;
      std::cout << "FAIL device memory seed=" << caseSeed << " layout " << layout << " " << size[0] << "x" << size[1]
                << "x" << size[2] << ": " << problem << std::endl;
    }
  }
  // A host image: its foreground bits are uploaded (rows of 37 pixels: 5
  // bytes each), and counted.
  {
    Case c;
    c.size[0] = 37;
    c.size[1] = 11;
    c.image = RandomBlockImage(37, 11, 1, 0.5, 1, seed);
    Result  result;
    Options options = OptionsFor(Algorithm::Default, false);
    options.labelImageType = LabelImageType::None;
    emulator.Run(c.View(), options, result);
    if (result.bytesCopiedToDevice != 5 * 11)
    {
      ++failed;
      std::cout << "FAIL host image: " << result.bytesCopiedToDevice << " bytes counted as uploaded, not 55"
                << std::endl;
    }
  }
  std::cout << "device memory: " << cases + 1 - failed << " passed, " << failed << " failed" << std::endl;
  return failed;
}

/** Each case in both connectivities; run selects the strategy. */
template <class Run>
int
Shapes(const std::string & name, Algorithm algorithm, bool wide, const std::vector<Case> & cases, Run && run)
{
  Engine   engine;
  Emulator emulator;
  int      failed = 0;
  for (const Case & c : cases)
  {
    for (bool full : { false, true })
    {
      const std::string problem = EmulateAndCompare(engine, emulator, c, OptionsFor(algorithm, full), wide, run);
      if (!problem.empty())
      {
        ++failed;
        std::cout << "FAIL " << name << " " << c.name << (full ? " full" : " face") << ": " << problem << std::endl;
      }
    }
  }
  std::cout << name << " shapes: " << (failed == 0 ? "passed" : "FAILED") << std::endl;
  return failed;
}

Case
Blank(const std::string & name, int dimension, std::int64_t w, std::int64_t h, std::int64_t d)
{
  Case c;
  c.name = name;
  c.dimension = dimension;
  c.size[0] = w;
  c.size[1] = h;
  c.size[2] = d;
  c.image.assign(static_cast<std::size_t>(w * h * d), 0);
  return c;
}

/** Tile-border cases for the tile labelings (TM, DLP): a spiral and a
 *  serpentine (long paths through many tiles), anti-diagonals (joined across
 *  tile columns only through up-right neighbours under Full), a full image,
 *  a 3D diagonal staircase; sizes not multiples of the tile. */
std::vector<Case>
TileShapes()
{
  std::vector<Case> cases;
  { // spiral: a one-pixel wall winding inwards, two pixels between turns
    const std::int64_t w = 45, h = 37;
    Case               c = Blank("spiral", 2, w, h, 1);
    std::int64_t       x0 = 0, y0 = 0, x1 = w - 1, y1 = h - 1;
    while (x0 <= x1 && y0 <= y1)
    {
      for (std::int64_t x = x0; x <= x1; ++x)
      {
        c.image[y0 * w + x] = 1;
      }
      for (std::int64_t y = y0; y <= y1; ++y)
      {
        c.image[y * w + x1] = 1;
      }
      for (std::int64_t x = x0 + 2; x <= x1; ++x)
      {
        c.image[y1 * w + x] = 1;
      }
      for (std::int64_t y = y0 + 2; y <= y1; ++y)
      {
        c.image[y * w + x0 + 2] = 1;
      }
      x0 += 4;
      y0 += 2;
      x1 -= 2;
      y1 -= 2;
    }
    cases.push_back(c);
  }
  { // serpentine: rows 0, 2, 4, ... joined alternately at the right and left ends
    const std::int64_t w = 70, h = 21;
    Case               c = Blank("serpentine", 2, w, h, 1);
    for (std::int64_t y = 0; y < h; y += 2)
    {
      for (std::int64_t x = 0; x < w; ++x)
      {
        c.image[y * w + x] = 1;
      }
      if (y + 1 < h)
      {
        c.image[(y + 1) * w + ((y / 2) % 2 == 0 ? w - 1 : 0)] = 1;
      }
    }
    cases.push_back(c);
  }
  { // anti-diagonals: under Full every line crosses tile columns only up-right; Face leaves single pixels
    const std::int64_t w = 40, h = 20;
    Case               c = Blank("anti-diagonals", 2, w, h, 1);
    for (std::int64_t i = 0; i < w * h; ++i)
    {
      c.image[i] = ((i % w) + (i / w)) % 5 == 0 ? 1 : 0;
    }
    cases.push_back(c);
  }
  { // full image with partial tiles
    Case c = Blank("full image", 2, 33, 17, 1);
    std::fill(c.image.begin(), c.image.end(), 1);
    cases.push_back(c);
  }
  { // staircase: a diagonal through x, y and z, plus a line across each slice
    const std::int64_t w = 36, h = 19, d = 5;
    Case               c = Blank("staircase", 3, w, h, d);
    for (std::int64_t z = 0; z < d; ++z)
    {
      c.image[(z * h + 13 + z) * w + 29 + z] = 1; // a step of (1, 1, 1): Full only, across tile borders
      for (std::int64_t x = 33; x < w; ++x)       // meets the diagonal in slice 4
      {
        c.image[(z * h + 17) * w + x] = 1;
      }
    }
    cases.push_back(c);
  }
  return cases;
}

/** Label Equivalence stress shapes: Asad 2019's Ridge patterns R_l (section
 *  IV-B: peaks at x = 3i of height 1 + #{k <= l - 2 : 2^k divides i} on a
 *  trapezoidal base; level l takes LE l Scan/Analysis iterations, the
 *  smallest label crossing the crest against raster order), the same in a
 *  3D x-z plane and stacked in z, and a square spiral (one long equivalence
 *  chain after the first Scan). */
std::vector<Case>
LeShapes()
{
  std::vector<Case> cases;
  for (int level = 2; level <= 5; ++level)
  {
    const std::int64_t peaks = (std::int64_t{ 1 } << (level - 2)) + 1;
    const std::int64_t crestWidth = 3 * (peaks - 1) + 1;
    const std::int64_t baseHeight = crestWidth - level;
    const std::int64_t margin = (baseHeight + 1) / 2; // the base widens by one pixel every other row on each side
    const std::int64_t w = crestWidth + 2 * margin + 1, h = level + baseHeight + 1;
    Case               ridge = Blank("ridge level " + std::to_string(level), 2, w, h, 1);
    for (std::int64_t i = 0; i < peaks; ++i)
    {
      std::int64_t height = 1;
      for (int k = 0; k <= level - 2; ++k)
      {
        height += i % (std::int64_t{ 1 } << k) == 0 ? 1 : 0;
      }
      for (std::int64_t y = level - height; y < level; ++y)
      {
        ridge.image[static_cast<std::size_t>(y * w + margin + 3 * i)] = 1;
      }
    }
    for (std::int64_t k = 0; k < baseHeight; ++k)
    {
      for (std::int64_t x = margin - k / 2; x < margin + crestWidth + k / 2; ++x)
      {
        ridge.image[static_cast<std::size_t>((level + k) * w + x)] = 1;
      }
    }
    cases.push_back(ridge);
    if (level == 5)
    {
      Case plane = Blank(ridge.name + " x-z plane", 3, w, 1, h); // the same raster, y becomes z
      plane.image = ridge.image;
      cases.push_back(plane);
    }
    if (level == 4)
    {
      Case stacked = Blank(ridge.name + " stacked", 3, w, h, 2);
      std::copy(ridge.image.begin(), ridge.image.end(), stacked.image.begin());
      std::copy(ridge.image.begin(), ridge.image.end(), stacked.image.begin() + static_cast<std::ptrdiff_t>(w * h));
      cases.push_back(stacked);
    }
  }
  { // square spiral: a one-pixel path winding inwards with one pixel of background between turns
    const std::int64_t w = 41, h = 39;
    Case               c = Blank("spiral", 2, w, h, 1);
    std::int64_t       x = 0, y = 0, dx = 1, dy = 0, run = w - 1, turns = 0;
    c.image[0] = 1;
    while (run > 0)
    {
      for (std::int64_t s = 0; s < run; ++s)
      {
        x += dx;
        y += dy;
        c.image[static_cast<std::size_t>(y * w + x)] = 1;
      }
      const std::int64_t t = dx;
      dx = -dy;
      dy = t;
      ++turns;
      run = (dx != 0 ? w : h) - 1 - 2 * ((turns - 1) / 2); // one background pixel between neighbouring turns
    }
    cases.push_back(c);
  }
  return cases;
}

/** IotaKernel (cuda/Compaction.cuh) on 32- and 64-bit indices: counts
 *  around its vectors and shares, starts 0 to 3 indices past a 16-byte
 *  boundary (the values before the first whole vector), LaunchIota's grid
 *  and grids of 1 and 2 blocks (a block taking several shares, as when
 *  BlocksFor's cap leaves fewer blocks than shares); values[i] == i, and
 *  nothing written around the range. */
template <class Index>
int
IotaSuite(const char * name)
{
  const std::int64_t counts[] = { 0, 1, 2, 3, 5, 17, 1023, 1024, 1025, 4096, 4097, 9001 };
  emulation::Device  device;
  int                failed = 0;
  for (const std::int64_t count : counts)
  {
    for (int offset = 0; offset < 4; ++offset)
    {
      for (const unsigned blocks : { 0u, 1u, 2u }) // 0: LaunchIota's grid
      {
        constexpr Index                Guard = static_cast<Index>(0x5a5a5a5a5a5a5a5aull);
        std::vector<IotaVector<Index>> storage(static_cast<std::size_t>(count) / 2 + 4);
        Index * const                  base = storage.front().value;
        const std::size_t              capacity = storage.size() * IotaVector<Index>::Values;
        Index * const                  values = base + offset;
        std::fill(base, base + capacity, Guard);
        if (blocks == 0)
        {
          LaunchIota(device, "iota", static_cast<Index>(count), values);
        }
        else
        {
          device.Launch("iota", blocks, BlockThreads, IotaKernel<Index>, static_cast<Index>(count), values);
        }
        for (std::size_t i = 0; i < capacity; ++i)
        {
          const auto at = static_cast<std::int64_t>(i) - offset; // index into values
          const bool inside = at >= 0 && at < count;
          if (base[i] != (inside ? static_cast<Index>(at) : Guard))
          {
            ++failed;
            std::cout << "FAIL iota " << name << " count " << count << " offset " << offset << " blocks " << blocks
                      << ": wrong at index " << at << (inside ? "" : " (outside the range)") << std::endl;
            break;
          }
        }
      }
    }
  }
  return failed;
}

/** The counts of ccaCudaBackendTest's CountingChecks on one 257 x 129
 *  component, with the backend's grids: exact for plain votes and conflict
 *  detection, a lower bound for on-the-fly merges; an empty image counts
 *  nothing, and counting off reports -1. */
int
Counting(Algorithm algorithm, std::int64_t exact, std::int64_t atLeast)
{
  Emulator emulator;
  Engine   engine;
  Case     all = Blank("257x129 full", 2, 257, 129, 1);
  std::fill(all.image.begin(), all.image.end(), 1);
  const Case empty = Blank("empty", 2, 40, 30, 1);
  int        failed = 0;
  for (bool full : { false, true })
  {
    Options options = OptionsFor(algorithm, full);
    options.countAtomicUpdates = true;
    std::ostringstream problem;
    problem << EmulateAndCompare(engine, emulator, all, options, false, RunTable);
    const Outcome on = RunWithLabels(all, options, [&](const ImageView & view, const Options & o, Result & result) {
      RunTable(emulator, view, o, result);
    });
    const std::int64_t u = on.result.atomicFeatureUpdates;
    const double       conflicts = on.result.estimatedConflicts;
    if (exact >= 0 ? u != exact || conflicts != static_cast<double>(exact)
                   : u < atLeast || conflicts <= 0 || conflicts > static_cast<double>(u))
    {
      problem << " updates " << u << " conflicts " << conflicts;
    }
    const Outcome none = RunWithLabels(empty, options, [&](const ImageView & view, const Options & o, Result & result) {
      RunTable(emulator, view, o, result);
    });
    if (none.result.atomicFeatureUpdates != 0 || none.result.estimatedConflicts != 0)
    {
      problem << " empty image: updates " << none.result.atomicFeatureUpdates;
    }
    options.countAtomicUpdates = false;
    const Outcome off = RunWithLabels(all, options, [&](const ImageView & view, const Options & o, Result & result) {
      RunTable(emulator, view, o, result);
    });
    if (off.result.atomicFeatureUpdates != -1 || off.result.estimatedConflicts != -1)
    {
      problem << " counting off: updates " << off.result.atomicFeatureUpdates;
    }
    if (problem.tellp() > 0)
    {
      ++failed;
      std::cout << "FAIL counting " << AlgorithmName(algorithm) << (full ? " full" : " face") << ":" << problem.str()
                << std::endl;
    }
  }
  return failed;
}

} // namespace

int
main(int argc, char * argv[])
{
  int           cases = 12;
  std::uint32_t seed = 1;
  // --no-counting leaves out the checks of the update counters' exact
  // values (Counting below: a 257 x 129 image per strategy, most of the
  // test's time under ASan); the default runs keep them.
  bool counting = true;
  if (!emulation::ParseCasesAndSeed(
        argc, argv, cases, seed, { { "--no-counting", "without the update counters' checks", &counting } }))
  {
    return 2;
  }
  // The indices every union-find starts from, before the runs that use them.
  int failed = IotaSuite<std::uint32_t>("32-bit") + IotaSuite<std::uint64_t>("64-bit");
  for (const Algorithm algorithm : AllAlgorithms)
  {
    const auto a = static_cast<std::uint32_t>(algorithm);
    failed += Suite(algorithm, false, cases, seed + 1000 * a, false);
    failed += Suite(algorithm, true, cases / 2, seed + 1000 * a + 100000, false);
    failed += Suite(algorithm, false, cases / 4, seed + 1000 * a + 200000, true);
  }
  failed += DeviceMemory(cases * 4, seed + 300000);
  failed += BlockSuite(cases * 8, seed + 400000);
  failed += ByteLabelImageSuite(cases * 4, seed + 500000);
  failed += VoteOrderSuite(cases * 8, seed + 800000);
  failed += WideRowSuite(cases * 2, seed + 900000);
  failed += LabelsOnlyRowBlockSuite(cases * 2, seed + 1200000);
  failed += PrecedingPairsSuite(cases * 2, seed + 1000000);
  failed += PlacedLargestSuite(cases * 2, seed + 1300000);
  failed += StripSuite(cases * 8, seed + 700000);
  failed += StripJoinSuite(cases * 8, seed + 1100000);
  failed += StripFirstPixelShapes();
  failed += ForegroundSampleSuite(cases * 4, seed + 600000);
  const auto tiles = TileShapes();
  failed += Shapes("TM_Early", Algorithm::TM_Early, false, tiles, RunTable);
  failed += Shapes("TM_Late 64-bit", Algorithm::TM_Late, true, tiles, RunTable);
  failed += Shapes("DLP", Algorithm::DLP, false, tiles, RunTable);
  failed += Shapes("DLP without SR+R 64-bit",
                   Algorithm::DLP,
                   true,
                   tiles,
                   [](Emulator & e, const ImageView & view, const Options & options, Result & result) {
                     e.RunUnregularizedDlp(view, options, result);
                   });
  const auto le = LeShapes();
  failed += Shapes("LE_Early", Algorithm::LE_Early, false, le, RunTable);
  failed += Shapes("LE_Late", Algorithm::LE_Late, false, le, RunTable);
  if (counting)
  {
    failed += Counting(Algorithm::Naive, 257 * 129, -1);
    failed += Counting(Algorithm::HA, 9 * 129, -1);
    failed += Counting(Algorithm::FLSL, 129, -1);
    failed += Counting(Algorithm::FLSL_CD, 6, -1);
    // Warps fold without atomics (HotFolding::WarpSlots): one global merge
    // a vote block, of the narrow entries' size.
    constexpr int narrowVoteThreads = cca::cudaemulated::VoteBlockThreads<cca::NarrowFeatures>;
    failed += Counting(Algorithm::Default, (129 + narrowVoteThreads - 1) / narrowVoteThreads, -1);
    failed += Counting(Algorithm::HA_CD, 42, -1);
    failed += Counting(Algorithm::FLSL_OTF, -1, 129 - 1);
    failed += Counting(Algorithm::HA_OTF, -1, 9 * 129 - 1);
    failed += Counting(Algorithm::DLP, -1, 1);
    failed += Counting(Algorithm::LE_Late, 257 * 129, -1);
    failed += Counting(Algorithm::TM_Late, 257 * 129, -1);
    failed += Counting(Algorithm::LE_Early, -1, 257 * 129 - 1);
    failed += Counting(Algorithm::TM_Early, -1, 257 * 129 - 1);
  }
  std::cout << (failed == 0 ? "all passed" : "FAILED") << std::endl;
  return failed == 0 ? 0 : 1;
}
