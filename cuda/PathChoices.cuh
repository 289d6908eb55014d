// Which path a run of the host sequence (HostSequence.cuh) takes, and why:
// the labeling (units, blocks, strips or tubes), the index width, the
// votes' order and stores, the table's entries and the largest component's
// handling, each decided from what the image and the run have shown so far
// (its size, its runs counted during the upload, the sampled foreground
// fraction, the components). Every threshold keeps the measurements behind
// it. Tests and benchmarks force a path either way (the Set... uses,
// PathUses.h); the host sequence reads the device only where a rule needs
// the counts (the counts() callables). No device work here.
#ifndef cca_cuda_PathChoices_cuh
#define cca_cuda_PathChoices_cuh

#include "ComponentOrder.cuh"
#include "Frame.cuh"
#include "LabelStage.cuh"
#include "LargestComponent.cuh"
#include "NumberingStage.cuh"
#include "PathUses.h"
#include "Strategies.cuh"
#include "VotedTables.cuh"

#include "cca/Types.h"

#include <cstdint>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** The runs counted during the upload and the image's sampled foreground
 *  fraction (UnitDetection::CountedUnits, CountedForegroundFraction). */
struct CountedRuns
{
  std::int64_t runs = 0;
  double       foregroundFraction = 0;
};

/** The host sequence's choices of path (one an engine's sequence). Each
 *  rule is the default (Automatic) unless a Set... use forces it. */
class PathChoices
{
public:
  /** Tests: 64-bit unit indices even for small images (the path of large ones). */
  void
  SetForceWideIndex(bool force)
  {
    m_ForceWideIndex = force;
  }

  /** Tests and benchmarks: whether the feature votes take the units in
   *  component order (VotesInComponentOrder). */
  void
  SetVoteOrder(VoteOrderUse use)
  {
    m_VoteOrder = use;
  }

  /** Tests and benchmarks: whether the component order leaves the largest
   *  component's units out of its sort (LargestApart). */
  void
  SetLargestApart(LargestApartUse use)
  {
    m_LargestApart = use;
  }

  /** Tests and benchmarks: whether the largest component's entry is the
   *  foreground's totals less the others (SubtractsLargest). */
  void
  SetLargestSubtracted(LargestSubtractedUse use)
  {
    m_LargestSubtracted = use;
  }

  /** Tests and benchmarks: whether the votes in component order store the
   *  components of a chunk whole (VotesStoreWholeComponents). */
  void
  SetWholeComponents(WholeComponentsUse use)
  {
    m_WholeComponents = use;
  }

  /** Tests and benchmarks: whether the dense table's entries are narrow
   *  where they fit, and where they are widened (TableEntriesFor). */
  void
  SetNarrowTable(NarrowTableUse use)
  {
    m_NarrowTable = use;
  }

  /** Tests and benchmarks: whether a 2D image's narrow table holds planar
   *  entries (PlanarEntries). */
  void
  SetPlanarTable(PlanarTableUse use)
  {
    m_PlanarTable = use;
  }

  /** Tests and benchmarks: when runs that fit the block labeling take it
   *  (LabelsByBlocks). */
  void
  SetBlockLabeling(BlockLabelingUse use)
  {
    m_BlockLabeling = use;
  }

  /** Tests and benchmarks: when planes that fit the strip labeling take
   *  it, and volumes their tubes (LabelsByStrips, JoinsRunsByStrips). */
  void
  SetStripLabeling(StripLabelingUse use)
  {
    m_StripLabeling = use;
  }

  /** 32-bit unit indices while the unit count (at most one per two pixels
   *  of a row, rounded up, for full runs; one per pixel for pieces of runs)
   *  stays below 2^31, which keeps index arithmetic in range. */
  template <class S>
  bool
  NeedsWideIndex(const ImageView & image) const
  {
    const std::int64_t rows = image.size[1] * image.size[2];
    const std::int64_t unitBound = S::SplitUnits ? rows * image.size[0] : rows * ((image.size[0] + 1) / 2);
    return m_ForceWideIndex || unitBound >= (std::int64_t{ 1 } << 31);
  }

  /** Whether the feature votes take the units in component order: the
   *  default algorithm's dense table, where the runs' grouping sorts them
   *  by the same labels anyway (sharedSort), or as a test or benchmark asks.
   *  The papers' strategies vote in raster order, as reproduced. */
  template <class S, class Index>
  bool
  VotesInComponentOrder(const Options & options, Index components, bool sharedSort) const
  {
    return components >= 2 && VotesMayTakeComponentOrder<S>(options, sharedSort);
  }

  /** VotesInComponentOrder whatever the component count (not yet known
   *  where the numbering is queued). */
  template <class S>
  bool
  VotesMayTakeComponentOrder(const Options & options, bool sharedSort) const
  {
    if (options.algorithm != Algorithm::Default || options.featureCompaction != FeatureCompaction::Scan ||
        S::Merge == FeatureMerge::OnTheFly || m_VoteOrder == VoteOrderUse::Never)
    {
      return false;
    }
    return m_VoteOrder == VoteOrderUse::Always || sharedSort;
  }

  /** Whether the numbering looks for the largest component
   *  (LargestComponent.cuh): where the votes may take the units in
   *  component order and there are at least LargestApartLeastUnits, or
   *  always as a test asks. */
  template <class S, class Index>
  bool
  LooksForLargest(const Options & options, Index units, bool sharedSort) const
  {
    return m_LargestApart != LargestApartUse::Never && VotesMayTakeComponentOrder<S>(options, sharedSort) &&
           (m_LargestApart == LargestApartUse::Always || m_LargestSubtracted == LargestSubtractedUse::Always ||
            static_cast<std::int64_t>(units) >= LargestApartLeastUnits);
  }

  /** Whether the largest component (found by LooksForLargest) gets its
   *  table entry from the foreground's totals less the other entries
   *  (LargestBySubtraction.cuh): the components of a byte mask of whole
   *  16-byte rows (byteRows: the totals' kernel reads it 16 pixels a lane),
   *  under full connectivity or with the pairs counted after the labels,
   *  for the default algorithm's dense table, where its runs are many among
   *  the pixels and the other components few among the runs (the constants
   *  below, planes' own), or always as a test asks. */
  template <class Index, class S>
  bool
  SubtractsLargest(const Frame & frame, bool byteRows, const Components<Index> & c, const LabeledUnits<Index> & l) const
  {
    const Options & options = frame.options;
    const Index     units = l.units.count;
    // A mask's components, whose pairs between components (face
    // connectivity) the pairs' pass after the labels counts.
    const bool pairsKnown = options.objects == Objects::ForegroundComponents && (frame.fullMask || l.pairsAfterLabels);
    if (m_LargestSubtracted == LargestSubtractedUse::Never || c.largest.bits == nullptr || !pairsKnown || !byteRows ||
        options.algorithm != Algorithm::Default || options.featureCompaction != FeatureCompaction::Scan ||
        S::Merge == FeatureMerge::OnTheFly)
    {
      return false;
    }
    const double mostComponentsPerUnit = frame.geometry.depth > 1 ? LargestSubtractedMostComponentsPerUnit
                                                                  : LargestSubtractedMostComponentsPerUnitInPlanes;
    return m_LargestSubtracted == LargestSubtractedUse::Always ||
           (static_cast<double>(c.largest.units) >=
              LargestSubtractedLeastUnitsPerPixel * static_cast<double>(frame.pixels) &&
            static_cast<double>(c.count) <= mostComponentsPerUnit * static_cast<double>(units));
  }

  /** Whether the component order leaves the units of the largest
   *  component (found by LooksForLargest) out of its sort: where it holds
   *  at least LargestApartLeastShare of the units and the components are
   *  more than LargestApartLeastComponents, or always as a test asks. */
  template <class Index>
  bool
  LargestApart(const LargestComponent<Index> & largest, Index units, Index components) const
  {
    if (largest.bits == nullptr || m_LargestApart == LargestApartUse::Never)
    {
      return false;
    }
    return m_LargestApart == LargestApartUse::Always ||
           (static_cast<double>(largest.units) >= LargestApartLeastShare * static_cast<double>(units) &&
            static_cast<std::int64_t>(components) > LargestApartLeastComponents);
  }

  /** Whether the dense table's votes in component order store the
   *  components of a warp's chunk whole (WholeComponents.cuh): where
   *  components are at least WholeComponentsLeastShare of the units, or as
   *  a test or benchmark asks. With few components nearly every chunk
   *  holds one that crosses its boundaries, and the passes over the
   *  boundaries cost more than the prepared table's passes over the
   *  components (H200, full table, g = 1 and 4, each image both ways in
   *  one call: from 0.10 components a unit never slower, 0.03 to 0.73 ms
   *  faster an image from 0.14 up; below 0.07 up to 0.18 ms slower;
   *  benchmark/results/h200-whole-components-in-chunks call 4). Since the
   *  later kernels, 8192^2 8-conn. g = 1 d = 0.4 (0.066) took 2.26-2.29
   *  ms whole against 2.40-2.41 prepared, while 512^3 6-conn. g = 1
   *  d = 0.5 (0.036) lost 0.11 ms and 8192^2 8-conn. g = 4 d = 0.3
   *  (0.056) was even (benchmark/results/h200-plane-strips-retired call
   *  4): the threshold lies between 0.056 and 0.066. */
  template <class Index>
  bool
  VotesStoreWholeComponents(const ComponentOrder<Index> & order, Index components, Index units) const
  {
    if (order.label == nullptr || m_WholeComponents == WholeComponentsUse::Never)
    {
      return false;
    }
    return m_WholeComponents == WholeComponentsUse::Always ||
           static_cast<double>(components) >= WholeComponentsLeastShare * static_cast<double>(units);
  }

  /** From how many components the dense table's narrow entries are
   *  widened on the host as they arrive (Automatic). Fewer are widened on
   *  the device (at most 14 MB more, some microseconds), so that they go to
   *  the host in the one gathered copy of the run's results
   *  (HostStaging::GatherBytes, 8 MiB: at most 38,836 wide entries); from
   *  65,536 wide entries would take a copy of their own anyway, and their
   *  widening on the device would cost more than the narrow votes save. */
  static constexpr std::int64_t NarrowTableLeastComponents = std::int64_t{ 1 } << 16;

  /** The dense table's entries (DenseTable::Build): NarrowFeatures, 160
   *  bytes instead of 216, whose votes fold fewer words and store less
   *  (H200, full table, summed: g = 1 +3 to +7 %, a giant component's
   *  votes 3-4 % faster; benchmark/results/h200-narrow-counts), in 2D
   *  images PlanarFeatures, 96 (PlanarEntries; against 160: g = 1 +8 to
   *  +10 %, g = 4 +7 %; benchmark/results/h200-planar-entries), for the
   *  default algorithm with 32-bit indices on an image whose counts fit
   *  32 bits (NarrowFeaturesMostPixels). Many components are widened on
   *  the host, unless a selection or the intensity statistics read the
   *  table on the device (their widening there would cost more than the
   *  votes save: ComponentFeatures then); few on the device. */
  template <class Index, class S>
  TableEntries
  TableEntriesFor(const Options & options, std::int64_t pixels, Index components, bool intensity) const
  {
    if (!NarrowEntriesFit<Index, S> || m_NarrowTable == NarrowTableUse::Never ||
        options.algorithm != Algorithm::Default || pixels > NarrowFeaturesMostPixels)
    {
      return TableEntries::Wide;
    }
    const bool many = m_NarrowTable == NarrowTableUse::HostWidening ||
                      static_cast<std::int64_t>(components) >= NarrowTableLeastComponents;
    if (!many)
    {
      return TableEntries::NarrowWidenedOnDevice;
    }
    return options.selection.Active() || intensity ? TableEntries::Wide : TableEntries::NarrowWidenedOnHost;
  }

  /** Whether a 2D image's narrow table holds planar entries (PlanarFeatures). */
  bool
  PlanarEntries(const Frame & frame) const
  {
    return m_PlanarTable == PlanarTableUse::Automatic && !frame.faces.hasZAxis;
  }

  /** Whether a run labels by blocks (BlockLabeling.cuh) instead of units:
   *  the default algorithm, where the block labeling fits (fits), in a
   *  volume whose runs (counted during the upload) are short, or as a test
   *  or benchmark asks. counts() gives the CountedRuns, a read of the
   *  device: called only where the rule needs them. */
  template <class Counts>
  bool
  LabelsByBlocks(const Frame & frame, bool fits, Counts && counts) const
  {
    if (frame.options.algorithm != Algorithm::Default || !fits || m_BlockLabeling == BlockLabelingUse::Never)
    {
      return false;
    }
    if (m_BlockLabeling == BlockLabelingUse::Always)
    {
      return true;
    }
    if (frame.geometry.depth == 1)
    {
      return false;
    }
    const CountedRuns c = counts();
    return c.runs * BlockPixelsPerRunVolume > frame.pixels && c.foregroundFraction >= BlockLeastDensityVolume;
  }

  /** Whether a run labels the runs of strips of two rows, or of tubes of
   *  2 x 2 rows in a volume (StripLabeling.cuh), instead of the rows' runs
   *  or the blocks: where that fits (fits), in a plane whose runs (counted
   *  during the upload) are short and whose sampled foreground fraction is
   *  at least StripLeastDensity, in a volume whose runs are short, or as a
   *  test or benchmark asks. counts(): as for LabelsByBlocks. */
  template <class Counts>
  bool
  LabelsByStrips(const Frame & frame, bool fits, Counts && counts) const
  {
    if (m_StripLabeling == StripLabelingUse::Never || !fits)
    {
      return false;
    }
    if (m_StripLabeling == StripLabelingUse::Always)
    {
      return true;
    }
    const CountedRuns c = counts();
    if (frame.geometry.depth > 1)
    {
      return c.runs * TubePixelsPerRun > frame.pixels;
    }
    return c.runs * StripPixelsPerRun > frame.pixels && c.foregroundFraction >= StripLeastDensity;
  }

  /** Whether the runs of the image rows are joined through the strips
   *  (StripLabelingStage::JoinImageRuns) instead of by the union-find over
   *  them: the default algorithm's whole runs of a byte mask under full
   *  connectivity where the join fits (fits), with a feature table or runs
   *  (labels only take the strips' labels themselves, LabelsByStrips), in
   *  a volume whose runs are short and whose sampled foreground fraction
   *  is at least JoinStripLeastDensity, or as a test or benchmark asks
   *  (SetStripLabeling). A plane's runs are joined from its rows' bits
   *  instead (see JoinStripLeastDensity). counts(): as for LabelsByBlocks. */
  template <class S, class Counts>
  bool
  JoinsRunsByStrips(const Frame & frame, bool fits, Counts && counts) const
  {
    if constexpr (!std::is_same_v<typename S::Units, FullRuns> || S::LabelsPixels || S::Merge == FeatureMerge::OnTheFly)
    {
      return false;
    }
    else
    {
      if (m_StripLabeling == StripLabelingUse::Never || LabelsOnlyOfMask(frame.options) || !fits)
      {
        return false;
      }
      if (m_StripLabeling == StripLabelingUse::Always)
      {
        return true;
      }
      if (frame.geometry.depth == 1)
      {
        return false;
      }
      const CountedRuns c = counts();
      return c.runs * JoinStripPixelsPerRun > frame.pixels && c.foregroundFraction >= JoinStripLeastDensity;
    }
  }

  /** In a volume the block labeling is taken when the runs are shorter on
   *  average than BlockPixelsPerRunVolume pixels of a row (background
   *  included) and the sampled foreground fraction d is at least
   *  BlockLeastDensityVolume. A random image has about d (1 - d) runs a
   *  pixel, so the run length alone cannot tell d = 0.1 from d = 0.9. On
   *  the H100 (512^3, 26-connectivity, labels only, per image) the blocks
   *  took 3.8 / 4.3 / 4.3 / 4.1 / 3.8 / 3.4 / 3.0 / 2.6 / 2.1 ms at g = 1,
   *  d = 0.1 ... 0.9 (11, 6.3, 4.8, 4.2, 4, 4.2, 4.8, 6.3, 11 pixels a run)
   *  where the runs joined from the rows' bits took 2.0 / 3.5 / 4.7 / 5.2 /
   *  5.8 / 5.8 / 5.4 / 4.6 / 3.5; wherever g >= 4 (16 and more pixels a
   *  run) and on the all-foreground image the runs won. In a plane the
   *  blocks were slower everywhere (8192^2, 8-connectivity, g = 1, d =
   *  0.5: 4.0 against 1.8 ms), so planes keep the runs. */
  static constexpr std::int64_t BlockPixelsPerRunVolume = 14;
  static constexpr double       BlockLeastDensityVolume = 0.25;
  /** A plane takes the strips when its runs are shorter on average than
   *  StripPixelsPerRun pixels of a row and its sampled foreground fraction
   *  is at least StripLeastDensity. On the H200 (8192^2, 8-connectivity,
   *  labels only, per image, benchmark/results/h200-tube-labeling/, the
   *  strips joined from the facing rows' bits) the strips took 0.99 / 1.24
   *  / 1.06 / 0.91 / 0.74 / 0.60 / 0.47 ms at g = 1, d = 0.3 ... 0.9 where
   *  the rows' runs took 1.05 / 1.33 / 1.40 / 1.41 / 1.34 / 1.10 / 0.76;
   *  at d = 0.2 (0.86 against 0.67 ms) and below, at g >= 4 and on the
   *  all-foreground image (16 and more pixels a run) the rows won. Since
   *  the rows' union-find takes a row in parts (ByteRowLinkParts) the rows
   *  win at d = 0.3 too: 0.79-0.80 against 0.92-0.94 ms, while at d = 0.4
   *  the strips still do, 1.05-1.06 against 1.26-1.30
   *  (benchmark/results/h200-label-image-parts/, calls 6 and 7); the
   *  threshold is between the two, where the benchmark has no image. */
  static constexpr std::int64_t StripPixelsPerRun = 12;
  /** A volume's feature table joins its runs through the tubes where its
   *  runs average fewer than JoinStripPixelsPerRun pixels of a row and its
   *  sampled foreground fraction is at least JoinStripLeastDensity. On the
   *  H200 (512^3, 26-connectivity, full table, label + features per image,
   *  benchmark/results/h200-group-runs/ call 2) the tubes took 4.05 / 4.90
   *  / 5.72 / 5.86 / 5.91 / 5.48 / 4.88 / 3.98 / 2.69 ms at g = 1,
   *  d = 0.1 ... 0.9 where the union-find over the runs took 3.52 / 5.43 /
   *  6.89 / 7.92 / 8.94 / 8.95 / 8.26 / 6.69 / 4.22; at g = 4 (16 and more
   *  pixels a run) and on the all-foreground image the runs won. A plane
   *  took its strips from a fraction of 0.45 on until its table's runs
   *  were joined from the rows' bits (RowBitsPlaneTableDensity); since,
   *  the rows win at every density (8192^2, 8-connectivity, g = 1, full
   *  table, per image, two rounds, benchmark/results/
   *  h200-plane-strips-retired/ call 1: 1.81-1.82 / 1.77-1.78 / 1.59-1.61
   *  / 1.28 / 0.88 ms at d = 0.5 ... 0.9 against the strips' 2.08 /
   *  1.83-1.84 / 1.62-1.64 / 1.35 / 0.99; summed 49.4-49.5 -> 51.1-51.4
   *  Gpix/s), so planes never take them by default. */
  static constexpr std::int64_t JoinStripPixelsPerRun = 12;
  static constexpr double       JoinStripLeastDensity = 0.15;
  static constexpr double       StripLeastDensity = 0.35;
  /** Components a unit from which the votes store whole components
   *  (VotesStoreWholeComponents). */
  static constexpr double WholeComponentsLeastShare = 0.06;
  /** Units from which the numbering looks for the largest component, the
   *  share of them it must hold and the components there must be for the
   *  component order to leave its units out of the sort (LooksForLargest,
   *  LargestApart). With at most 256 components CUB's radix sort of all
   *  units is one pass of 8-bit digits, and leaving the largest out was
   *  0.05-0.1 ms an image slower (H200, full table, 512^3 26-conn. g = 1
   *  d = 0.4-0.7, 8192^2 8-conn. d = 0.8-0.9). Above, left out, one
   *  binary: 512^3 6-conn. g = 1 d = 0.4-0.7 0.41-0.57 ms an image faster,
   *  26-conn. d = 0.2-0.3 0.21-0.34, 8192^2 4-conn. d = 0.6-0.8 0.14-0.22,
   *  8-conn. d = 0.5 0.27 (benchmark/results/h200-largest-apart calls 1
   *  and 5). */
  static constexpr std::int64_t LargestApartLeastUnits = std::int64_t{ 1 } << 20;
  static constexpr double       LargestApartLeastShare = 0.4;
  static constexpr std::int64_t LargestApartLeastComponents = 256;
  /** Where the largest component's entry is the foreground's totals less
   *  the others (SubtractsLargest): its runs at least this many a
   *  pixel, the components at most this many a run (in volumes; planes
   *  below). The totals cost the same whatever the runs, the others' sum
   *  a pass over their entries, and each run of the largest component
   *  saves its vote and its pairs' search. H200, full table, 26-conn., a s s a, per image
   *  (benchmark/results/h200-largest-subtracted call 1, subtracted from a
   *  share of 0.3 of the runs, the totals then about 0.3 ms at 512^3 and
   *  0.1 ms at 8192^2): 512^3 g = 1 d = 0.2 ... 0.9 (0.09-0.25 runs a
   *  voxel, at most 0.005 components a run) 0.14-0.68 ms an image faster,
   *  d = 0.1 (0.14 components a run) 0.38 slower; g = 4 (at most 0.063
   *  runs a voxel) 0.25-0.31 slower; 8192^2 8-conn. g = 1 within 0.02 ms
   *  up to d = 0.7, 0.06-0.08 slower at d = 0.8-0.9, g = 4 0.10-0.13
   *  slower: in planes the votes of the largest component cost about what
   *  the totals do. Reading each row once took 0.15 ms off the totals at
   *  512^3 (call 3); forced at g = 4 they still lost. Under face
   *  connectivity, where the pairs' pass also counts the pairs between
   *  components (benchmark/results/h200-face-subtracted call 1, always
   *  against never, n a a n): 512^3 6-conn. g = 1 d = 0.7 ... 0.9 (at
   *  most 0.003 components a run) 0.26-0.52 ms an image faster, d = 0.6
   *  (0.011) even, d = 0.1 ... 0.5 0.3-1.5 ms slower; g = 4 0.06-0.38 and
   *  8192^2 4-conn. 0.04-0.51 slower everywhere. Since the placing pass
   *  queues the other runs' searches (CountPrecedingPairsKernel), p
   *  against p --largest-subtracted always, per image, p a a p
   *  (benchmark/results/h200-queued-placing-searches calls 2 and 3):
   *  512^3 6-conn. g = 1 d = 0.4 (0.103 components a run) 5.21 -> 4.60
   *  ms, d = 0.5 (0.036) 5.07 -> 3.86, d = 0.6 (0.011) 4.93 -> 3.61,
   *  d = 0.3 (0.274) 5.57 -> 7.52; 26-conn. d = 0.1 (0.140) 3.13 -> 3.31:
   *  the bound now lies between 0.103 and 0.140. */
  static constexpr double LargestSubtractedLeastUnitsPerPixel = 0.08;
  static constexpr double LargestSubtractedMostComponentsPerUnit = 0.12;
  /** The same in planes, where the pairs' pass also places the largest
   *  component's runs (PlacedLargest.cuh; before, planes did not gain from
   *  the subtraction alone). H200, full table, 8192^2, always against
   *  never, v a e e a v (benchmark/results/h200-planes-placed call 1), per
   *  image: 8-conn. g = 1 d = 0.5 (0.013 components a run) 0.25 ms
   *  faster, d = 0.6 ... 0.9 (at most 0.002) 0.11-0.29 faster, d = 0.4
   *  (0.066) 0.4 slower; 4-conn. d = 0.8 and 0.9 (at most 0.009)
   *  0.04-0.06 faster, d = 0.7 (0.035) within 0.03 ms (left out: the
   *  losses begin at 0.066), d = 0.6 (0.106) and below 0.2-0.8 slower;
   *  g = 4 (fewer than 0.08 runs a pixel) and the all-on image slower
   *  everywhere. With the placing pass's searches queued (as above, calls
   *  2 and 3): 4-conn. d = 0.7 (0.035) 1.66 -> 1.45 ms, d = 0.6 (0.106)
   *  1.94 -> 1.98; 8-conn. d = 0.4 (0.066) 2.21 -> 2.67, d = 0.3 (0.225)
   *  1.91 -> 2.12: the bound now lies between 0.035 and 0.066. */
  static constexpr double LargestSubtractedMostComponentsPerUnitInPlanes = 0.05;
  /** A volume takes the tubes when its runs are shorter on average than
   *  TubePixelsPerRun pixels of a row: at g = 1, d = 0.1 ... 0.9 (11 and
   *  fewer pixels a run) and at g = 4, d = 0.2 ... 0.8 (16 to 25), not at
   *  g = 4, d = 0.1 and 0.9 (44), g >= 16 (64 and more) nor on the
   *  all-foreground image. On the H200 (512^3, 26-connectivity, labels
   *  only, per image, benchmark/results/h200-tube-labeling/) the tubes took
   *  1.84 / 2.30 / 2.29 / 2.06 / 1.82 / 1.53 / 1.31 / 1.14 / 0.99 ms at
   *  g = 1, d = 0.1 ... 0.9 where the rows and blocks took 2.13 / 3.80 /
   *  4.25 / 4.03 / 3.73 / 3.35 / 2.99 / 2.61 / 2.10, and 1.11 / 1.22 /
   *  1.30 / 1.36 / 1.34 / 1.30 / 1.23 ms at g = 4, d = 0.2 ... 0.8 where
   *  the rows took 1.13 / 1.39 / 1.52 / 1.57 / 1.55 / 1.55 / 1.38; at
   *  g = 4, d = 0.1, at g = 16 and on the all-foreground image the rows
   *  won by 0.05-0.38 ms (the strip image, the first pixels' bitmap and
   *  four rows a warp cost more than fewer runs save). */
  static constexpr std::int64_t TubePixelsPerRun = 32;

private:
  bool                 m_ForceWideIndex = false;
  BlockLabelingUse     m_BlockLabeling = BlockLabelingUse::Automatic;
  StripLabelingUse     m_StripLabeling = StripLabelingUse::Automatic;
  VoteOrderUse         m_VoteOrder = VoteOrderUse::Automatic;
  WholeComponentsUse   m_WholeComponents = WholeComponentsUse::Automatic;
  NarrowTableUse       m_NarrowTable = NarrowTableUse::Automatic;
  PlanarTableUse       m_PlanarTable = PlanarTableUse::Automatic;
  LargestApartUse      m_LargestApart = LargestApartUse::Automatic;
  LargestSubtractedUse m_LargestSubtracted = LargestSubtractedUse::Automatic;
};

} // namespace cuda
} // namespace cca

#endif
