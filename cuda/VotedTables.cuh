// Stage 4 of the host sequence (HostSequence.cuh), the feature table, for
// the two compactions whose units vote into a table (FeatureUpdate.cuh):
//   FeatureCompaction::Scan: a dense table, entry c for component c
//     (rootOf[c] its root unit), votes keyed by label;
//   FeatureCompaction::None (Windisch 2023's HA4 baseline): a sparse table,
//     entry i for unit i (the identity as rootOf), votes keyed by the root
//     units (the flattened parents); entries of non-roots keep no pixels,
//     and the whole table is copied, then compacted on the host.
// A table stage has Build (device work, before Milestone::OutputsComputed),
// Download (between it and ObjectsDownloaded) and Finish (host work after).
#ifndef cca_cuda_VotedTables_cuh
#define cca_cuda_VotedTables_cuh

#include "Compaction.cuh"
#include "ComponentOrder.cuh"
#include "FeatureUpdate.cuh"
#include "Frame.cuh"
#include "LargestBySubtraction.cuh"
#include "LabelStage.cuh"
#include "NarrowFeatures.h"
#include "NumberingStage.cuh"
#include "OnTheFlyMerge.cuh"
#include "Strategies.cuh"
#include "UpdateCounts.cuh"

#include "ResizeForOverwrite.h"
#include "cca/Types.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cca
{
namespace cuda
{

/** AccumulateFeaturesKernel with the vote policy Votes on a resident grid:
 *  each block folds many tiles' votes for its hot component before
 *  touching memory. order: the units in component order with their
 *  labels, or empty (raster order). Counting runs a separate
 *  instantiation: the production kernel carries no counting code. Table:
 *  ComponentFeatures, or NarrowFeatures or PlanarFeatures (the default
 *  algorithm only). skip: the places of order the votes leave out (a
 *  component the pairs' pass placed, PlacedLargest.cuh). */
template <class Index, class Votes, class Table, class Device>
void
LaunchVotes(Device &                      device,
            const Frame &                 frame,
            const LabeledUnits<Index> &   l,
            const Index *                 voteKey,
            Table *                       table,
            UpdateCounter                 counter,
            const ComponentOrder<Index> & order,
            const RunGroups &             groups = {},
            bool                          wholeInChunks = false,
            Index                         subtracted = NoLabel<Index>,
            PlacedRange<Index>            skip = {})
{
  constexpr int      threads = VoteBlockThreads<Table>;
  const std::int64_t visited = static_cast<std::int64_t>(l.units.count) - static_cast<std::int64_t>(skip.units);
  if (visited == 0)
  {
    return; // every unit is the placed component's (PlacedLargest.cuh)
  }
  const unsigned blocks = BlocksFor(visited, threads);
  auto           launch = [&](auto kernel) {
    device.LaunchAllBlocksTogether("feature vote kernel",
                                   std::min(blocks, device.ResidentBlocks(kernel, threads)),
                                   threads,
                                   kernel,
                                   l.units,
                                   l.linked,
                                   voteKey,
                                   frame.geometry,
                                   frame.faces,
                                   table,
                                   counter,
                                   frame.fullMask,
                                   l.pairPixels,
                                   order.index,
                                   l.precedingPairs,
                                   order.label,
                                   groups,
                                   subtracted,
                                   skip);
  };
  // The papers' strategies fold as reproduced; the default algorithm
  // without shared-memory atomics (FeatureUpdate.cuh, HotFolding).
  const bool slots = frame.options.algorithm == Algorithm::Default;
  if constexpr (PolicyStoresWhole<Votes>())
  {
    if (wholeInChunks && skip.units > 0)
    {
      // The placed component's runs left out (no update counting: the
      // host sequence places none then), in a variant of its own as below.
      launch(AccumulateFeaturesKernel<Index,
                                      Votes,
                                      UpdateCounting::Off,
                                      HotFolding::WarpSlots,
                                      VoteStores::WholeInChunks,
                                      Table,
                                      true>);
      return;
    }
    if (wholeInChunks)
    {
      frame.options.countAtomicUpdates ? launch(AccumulateFeaturesKernel<Index,
                                                                         Votes,
                                                                         UpdateCounting::On,
                                                                         HotFolding::WarpSlots,
                                                                         VoteStores::WholeInChunks,
                                                                         Table>)
                                       : launch(AccumulateFeaturesKernel<Index,
                                                                         Votes,
                                                                         UpdateCounting::Off,
                                                                         HotFolding::WarpSlots,
                                                                         VoteStores::WholeInChunks,
                                                                         Table>);
      return;
    }
  }
  constexpr auto Merged = VoteStores::Merged;
  if constexpr (std::is_same_v<Votes, DefaultVotes>)
  {
    if (skip.units > 0)
    {
      // The placed component (HostSequence's placing: the default
      // algorithm, no update counting, votes merged): a variant of its own,
      // so that the others keep their code (the skip cost them 5 %).
      launch(AccumulateFeaturesKernel<Index, Votes, UpdateCounting::Off, HotFolding::WarpSlots, Merged, Table, true>);
      return;
    }
  }
  if constexpr (IsNarrowEntry<Table>)
  {
    // Only the default algorithm, which folds by slots, takes narrow entries.
    frame.options.countAtomicUpdates
      ? launch(AccumulateFeaturesKernel<Index, Votes, UpdateCounting::On, HotFolding::WarpSlots, Merged, Table>)
      : launch(AccumulateFeaturesKernel<Index, Votes, UpdateCounting::Off, HotFolding::WarpSlots, Merged, Table>);
  }
  else if (frame.options.countAtomicUpdates)
  {
    slots ? launch(AccumulateFeaturesKernel<Index, Votes, UpdateCounting::On, HotFolding::WarpSlots>)
          : launch(AccumulateFeaturesKernel<Index, Votes, UpdateCounting::On>);
  }
  else
  {
    slots ? launch(AccumulateFeaturesKernel<Index, Votes, UpdateCounting::Off, HotFolding::WarpSlots>)
          : launch(AccumulateFeaturesKernel<Index, Votes, UpdateCounting::Off>);
  }
}

/** Where the union-find could not count them (LabeledUnits::
 *  pairsAfterLabels), each run's pairs with the runs of its component in
 *  its preceding rows, once the labels exist (CountPrecedingPairsKernel,
 *  PrecedingPairs.cuh): before VoteTable, whose votes add them, with the
 *  same voteKey. They read only the runs and the keys, so the host
 *  sequence queues them as side work, beside the sort into component
 *  order (HostSequence::LabelAndMeasureUnits). subtracted: the component
 *  whose pairs no vote adds (LargestBySubtraction.cuh), if any; under face
 *  connectivity the pairs between different components are then counted
 *  into its words too. placed: where active, that component's runs are put
 *  in their places among the grouped runs (PlacedLargest.cuh). */
template <class Index, class S, class Device>
void
CountPairsAfterLabels(Device &                         device,
                      const Frame &                    frame,
                      const LabeledUnits<Index> &      l,
                      const Index *                    voteKey,
                      const SubtractedLargest<Index> & subtracted = {},
                      const PlacedLargest<Index> &     placed = {})
{
  if constexpr (S::Merge != FeatureMerge::OnTheFly)
  {
    if (!l.pairsAfterLabels || l.units.count == 0)
    {
      return;
    }
    using Votes = typename S::Votes;
    // Under full connectivity on a mask every touching run shares the
    // run's component: no label is compared. Under face connectivity with
    // the largest component subtracted, the pairs between components are
    // counted too (Straddling).
    // The placing variants take PlacingTileRuns runs a block.
    const unsigned blocks =
      BlocksFor(static_cast<std::int64_t>(l.units.count), placed.Active() ? PlacingTileRuns : BlockThreads);
    const auto launch = [&](auto kernel) {
      device.Launch("pair count kernel",
                    blocks,
                    BlockThreads,
                    kernel,
                    l.units,
                    l.linked,
                    voteKey,
                    frame.geometry,
                    l.precedingPairs,
                    subtracted.label,
                    subtracted.Straddling(),
                    placed);
    };
    // A plane's pass leaves out the volumes' four-row search, whose
    // registers bounded its occupancy.
    constexpr bool Singles = !Votes::WholeSingleUnits;
    const auto     launchFor = [&](auto small, auto volume) {
      constexpr bool Small = decltype(small)::value;
      constexpr bool Volume = decltype(volume)::value;
      // Runs placed by the pass (HostSequence's placing).
      const bool placing = placed.Active();
      if (frame.fullMask)
      {
        placing ? launch(CountPrecedingPairsKernel<Index, Singles, true, false, Volume, Small, true>)
                    : launch(CountPrecedingPairsKernel<Index, Singles, true, false, Volume, Small>);
      }
      else if (subtracted.Active())
      {
        placing ? launch(CountPrecedingPairsKernel<Index, Singles, false, true, Volume, Small, true>)
                    : launch(CountPrecedingPairsKernel<Index, Singles, false, true, Volume, Small>);
      }
      else
      {
        launch(CountPrecedingPairsKernel<Index, Singles, false, false, Volume, Small>);
      }
    };
    const auto launchDepth = [&](auto small) {
      frame.geometry.depth > 1 ? launchFor(small, std::true_type{}) : launchFor(small, std::false_type{});
    };
    l.smallRows ? launchDepth(std::true_type{}) : launchDepth(std::false_type{});
  }
}

/** Fills table (entries entries, entryRoot[e] the root unit of entry e)
 *  with the features of strategy S, votes keyed by voteKey (where the
 *  pairs wait for the labels, CountPairsAfterLabels counted them before),
 *  the units taken in order (empty: raster order); wholeInChunks:
 *  DenseTable::Build's, decided once by
 *  PathChoices::VotesStoreWholeComponents. */
template <class Index, class S, class Table, class Device>
void
VoteTable(Device &                         device,
          const Frame &                    frame,
          const LabeledUnits<Index> &      l,
          Index                            entries,
          const Index *                    entryRoot,
          const Index *                    voteKey,
          Table *                          table,
          UpdateCounter                    votes,
          const ComponentOrder<Index> &    order,
          const RunGroups &                groups = {},
          bool                             wholeInChunks = false,
          const SubtractedLargest<Index> & subtracted = {})
{
  const unsigned tableBlocks = BlocksFor(static_cast<std::int64_t>(entries), BlockThreads);
  if constexpr (S::Merge == FeatureMerge::OnTheFly)
  {
    device.Launch("root feature kernel",
                  tableBlocks,
                  BlockThreads,
                  GatherRootFeaturesKernel<Index>,
                  entries,
                  entryRoot,
                  l.unitFeatures,
                  table);
    if (!frame.full)
    {
      // Face connectivity: units that only touch diagonally may or may not
      // share a component; their pairs are voted now that labels exist.
      using Conditional =
        VotePolicy<VoteFolding::None, SingleUnitComponents::Voted, S::Units::Span, PairVotes::Conditional>;
      LaunchVotes<Index, Conditional>(device, frame, l, voteKey, table, votes, order);
    }
    device.Launch("feature finalizing kernel",
                  tableBlocks,
                  BlockThreads,
                  FinalizeTableKernel<Index, SingleUnitComponents::Voted, ComponentFeatures>,
                  entries,
                  entryRoot,
                  l.linked,
                  table);
  }
  else
  {
    using Votes = typename S::Votes;
    if constexpr (PolicyStoresWhole<Votes>())
    {
      if (wholeInChunks)
      {
        // Only the components crossing a chunk boundary are merged; the
        // votes store the others whole (WholeComponents.cuh). Where the
        // pairs' pass placed the subtracted component's runs, the votes
        // and the chunks leave them out, and FinishSubtractedLargest
        // writes that entry.
        const PlacedRange<Index> skip = subtracted.placed;
        const unsigned           boundaryBlocks =
          BlocksFor(static_cast<std::int64_t>(l.units.count - skip.units) / WarpSize + 1, BlockThreads);
        device.Launch("crossing entries kernel",
                      boundaryBlocks,
                      BlockThreads,
                      PrepareCrossingEntriesKernel<Index, Table>,
                      l.units,
                      order.label,
                      entryRoot,
                      frame.geometry,
                      skip,
                      table);
        LaunchVotes<Index, Votes>(device, frame, l, voteKey, table, votes, order, groups, true, subtracted.label, skip);
        device.Launch("crossing entries finalizing kernel",
                      boundaryBlocks,
                      BlockThreads,
                      FinalizeCrossingEntriesKernel<Index, Table>,
                      l.units.count,
                      order.label,
                      skip,
                      table);
        if (subtracted.Active())
        {
          FinishSubtractedLargest(device, entries, subtracted, table);
        }
        return;
      }
    }
    device.Launch("feature table kernel",
                  BlocksFor(static_cast<std::int64_t>(entries), PrepareThreads),
                  PrepareThreads,
                  PrepareTableKernel<Index, Votes::Singles, Table>,
                  l.units,
                  entries,
                  entryRoot,
                  l.linked,
                  frame.geometry,
                  frame.faces,
                  table);
    LaunchVotes<Index, Votes>(
      device, frame, l, voteKey, table, votes, order, groups, false, subtracted.label, subtracted.placed);
    device.Launch("feature finalizing kernel",
                  tableBlocks,
                  BlockThreads,
                  FinalizeTableKernel<Index, Votes::Singles, Table>,
                  entries,
                  entryRoot,
                  l.linked,
                  table);
    if (subtracted.Active())
    {
      FinishSubtractedLargest(device, entries, subtracted, table);
    }
  }
}

/** The dense table's entries: ComponentFeatures, or narrow ones
 *  (NarrowFeatures; PlanarFeatures in 2D images) widened on the device
 *  once the votes are in (the table then reads as a wide one) or on the
 *  host as they arrive (DownloadWidenedFeaturesLater). */
enum class TableEntries
{
  Wide,
  NarrowWidenedOnDevice,
  NarrowWidenedOnHost
};

/** Whether strategy S with Index can take NarrowFeatures entries: the
 *  default algorithm's (its votes fold by slots, LaunchVotes above)
 *  with 32-bit indices (an image that fits NarrowFeatures has fewer units
 *  than 2^32). */
template <class Index, class S>
constexpr bool NarrowEntriesFit = sizeof(Index) == 4 && std::is_same_v<S, StrategyOf<Algorithm::Default>>;

/** WidenTableKernel's blocks: 4 warps, 27 KiB of staged entries. */
constexpr int WidenBlockThreads = 128;

/** The narrow table's entries (NarrowFeatures, PlanarFeatures) as
 *  ComponentFeatures (few entries: PathChoices::NarrowTableLeastComponents).
 *  A warp takes 32 entries at a time: it loads their narrow words side by
 *  side into shared memory, each lane widens its entry there, and the warp
 *  stores the wide words side by side, so that every load and store of the
 *  warp is one contiguous stretch. A thread an entry, each reading and
 *  writing its own 160- and 216-byte stretch, took 55 us for the 53,640
 *  entries of 60000 small balls (H200: 0.36 TB/s for their 20 MB); this
 *  way 14 us. */
template <class Index, class Narrow>
__global__ void
__launch_bounds__(WidenBlockThreads)
  WidenTableKernel(Index count, const Narrow * __restrict__ narrow, ComponentFeatures * __restrict__ wide)
{
  AwaitPrecedingKernel();
  constexpr int NarrowWords = static_cast<int>(sizeof(Narrow) / 8);
  constexpr int WideWords = static_cast<int>(sizeof(ComponentFeatures) / 8);
  static_assert(sizeof(Narrow) % 8 == 0 && sizeof(ComponentFeatures) % 8 == 0, "entries are moved as 64-bit words");
  __shared__ std::uint64_t staged[WidenBlockThreads / WarpSize][WarpSize * WideWords];
  std::uint64_t *          words = staged[threadIdx.x / WarpSize];
  const int                lane = static_cast<int>(LaneId());
  const auto *             from = reinterpret_cast<const std::uint64_t *>(narrow);
  auto *                   to = reinterpret_cast<std::uint64_t *>(wide);
  const std::int64_t       entries = static_cast<std::int64_t>(count);
  for (std::int64_t first = GlobalWarp() * WarpSize; first < entries; first += WarpCount() * WarpSize)
  {
    const int n = entries - first < WarpSize ? static_cast<int>(entries - first) : WarpSize;
    for (int w = lane; w < n * NarrowWords; w += WarpSize)
    {
      words[w] = from[first * NarrowWords + w];
    }
    __syncwarp();
    ComponentFeatures f;
    if (lane < n)
    {
      Narrow entry; // copied out, not read through a cast of the words
      std::memcpy(&entry, words + lane * NarrowWords, sizeof(Narrow));
      WidenFeatures(entry, f);
    }
    __syncwarp(); // every lane has read its narrow entry before the wide ones overwrite them
    if (lane < n)
    {
      std::memcpy(words + lane * WideWords, &f, sizeof(ComponentFeatures));
    }
    __syncwarp();
    for (int w = lane; w < n * WideWords; w += WarpSize)
    {
      to[first * WideWords + w] = words[w];
    }
    __syncwarp(); // the stores have read the words before the next entries' loads
  }
}

/** FeatureCompaction::Scan. */
template <class Device>
class DenseTable
{
public:
  static constexpr FeatureCompaction Compaction = FeatureCompaction::Scan;

  /** The caller counts the pairs that wait for the labels first
   *  (CountPairsAfterLabels with c.label). order: the units in component
   *  order (ComponentOrder.cuh), or null; groups: where the votes write the runs grouped by component
   *  (OutputStage::GroupRunsInVotes), or empty; wholeInChunks: with
   *  order's labels, the votes store the components of a chunk whole
   *  where the strategy's votes can (WholeComponents.cuh); entries:
   *  PathChoices::TableEntriesFor's choice (narrow only where
   *  NarrowEntriesFit); planar: narrow entries are PlanarFeatures (a 2D
   *  image's: its z fields are constants), else NarrowFeatures. */
  template <class Index, class S>
  void
  Build(Device &                         device,
        const Frame &                    frame,
        const LabeledUnits<Index> &      l,
        const Components<Index> &        c,
        const UpdateCounts<Device> &     counts,
        const ComponentOrder<Index> &    order,
        const RunGroups &                groups = {},
        bool                             wholeInChunks = false,
        TableEntries                     entries = TableEntries::Wide,
        bool                             planar = false,
        const SubtractedLargest<Index> & subtracted = {})
  {
    m_Entries = static_cast<std::size_t>(c.count);
    m_Device = nullptr;
    m_Narrow = nullptr;
    m_Planar = nullptr;
    if (l.units.count == 0)
    {
      return;
    }
    if constexpr (NarrowEntriesFit<Index, S>)
    {
      if (entries != TableEntries::Wide)
      {
        planar ? BuildNarrow<Index, S, PlanarFeatures>(
                   device, frame, l, c, counts, order, groups, wholeInChunks, entries, subtracted, m_Planar)
               : BuildNarrow<Index, S, NarrowFeatures>(
                   device, frame, l, c, counts, order, groups, wholeInChunks, entries, subtracted, m_Narrow);
        return;
      }
    }
    m_Device = Reserve<ComponentFeatures>(m_Table, c.count, "the feature table");
    VoteTable<Index, S>(
      device, frame, l, c.count, c.rootOf, c.label, m_Device, counts.Votes(), order, groups, wholeInChunks, subtracted);
  }

  void
  Download(Device & device, Result & result, int hostThreads)
  {
    ResizeForOverwrite(result.features, m_Entries, hostThreads);
    if (m_Narrow != nullptr)
    {
      device.DownloadWidenedFeaturesLater(result.features.data(), m_Narrow, m_Entries);
      return;
    }
    if (m_Planar != nullptr)
    {
      device.DownloadWidenedFeaturesLater(result.features.data(), m_Planar, m_Entries);
      return;
    }
    device.DownloadLater(result.features.data(), m_Device, m_Entries * sizeof(ComponentFeatures));
  }

  void
  Finish(Result &)
  {}

  /** The table on the device (Options::selection reads the sizes), never
   *  one the host widens (PathChoices::TableEntriesFor leaves those out). */
  const ComponentFeatures *
  Table() const
  {
    if (m_Narrow != nullptr || m_Planar != nullptr)
    {
      throw std::logic_error("the device's feature table was read where its entries are narrow");
    }
    return m_Device;
  }

  /** Keeps the rows of a selection (SelectionStage.cuh), in its order. */
  template <class Index>
  void
  Select(Device & device, const Index * newToOld, Index kept)
  {
    if (m_Entries == 0)
    {
      return;
    }
    const ComponentFeatures * table = Table(); // wide entries: the host widens none here
    auto *                    selected = Reserve<ComponentFeatures>(m_Selected, kept, "the selected feature table");
    if (kept > 0)
    {
      device.Launch("table gathering kernel",
                    BlocksFor(static_cast<std::int64_t>(kept), BlockThreads),
                    BlockThreads,
                    GatherKernel<ComponentFeatures, Index>,
                    kept,
                    newToOld,
                    table,
                    selected);
    }
    m_Device = selected;
    m_Entries = static_cast<std::size_t>(kept);
  }

private:
  /** Votes narrow entries of type Narrow (entries: not Wide), widened on
   *  the device into m_Device, or left in hostWidened for the download. */
  template <class Index, class S, class Narrow>
  void
  BuildNarrow(Device &                         device,
              const Frame &                    frame,
              const LabeledUnits<Index> &      l,
              const Components<Index> &        c,
              const UpdateCounts<Device> &     counts,
              const ComponentOrder<Index> &    order,
              const RunGroups &                groups,
              bool                             wholeInChunks,
              TableEntries                     entries,
              const SubtractedLargest<Index> & subtracted,
              Narrow *&                        hostWidened)
  {
    Narrow * narrow = Reserve<Narrow>(m_Table, c.count, "the feature table");
    VoteTable<Index, S>(
      device, frame, l, c.count, c.rootOf, c.label, narrow, counts.Votes(), order, groups, wholeInChunks, subtracted);
    if (entries == TableEntries::NarrowWidenedOnHost)
    {
      hostWidened = narrow;
      return;
    }
    m_Device = Reserve<ComponentFeatures>(m_Widened, c.count, "the widened feature table");
    device.Launch("table widening kernel",
                  BlocksFor(static_cast<std::int64_t>(c.count), WidenBlockThreads),
                  WidenBlockThreads,
                  WidenTableKernel<Index, Narrow>,
                  c.count,
                  narrow,
                  m_Device);
  }

  typename Device::Buffer m_Selected;
  typename Device::Buffer m_Table;
  typename Device::Buffer m_Widened;
  ComponentFeatures *     m_Device = nullptr;
  NarrowFeatures *        m_Narrow = nullptr; ///< instead of m_Device where the host widens the entries
  PlanarFeatures *        m_Planar = nullptr; ///< the same for a 2D image's entries
  std::size_t             m_Entries = 0;
};

/** FeatureCompaction::None. */
template <class Device>
class SparseTable
{
public:
  static constexpr FeatureCompaction Compaction = FeatureCompaction::None;

  /** order: ignored (keyed by root units, the votes go in raster order). */
  template <class Index, class S>
  void
  Build(Device &                     device,
        const Frame &                frame,
        const LabeledUnits<Index> &  l,
        const Components<Index> &    c,
        const UpdateCounts<Device> & counts,
        const ComponentOrder<Index> &)
  {
    const Index units = l.units.count;
    m_Entries = static_cast<std::size_t>(units);
    m_Components = static_cast<std::size_t>(c.count);
    m_Device = nullptr;
    if (units == 0)
    {
      return;
    }
    auto * identity = Reserve<Index>(m_RootIndex, units, "sparse table roots");
    LaunchIota(device, "iota kernel", units, identity);
    m_Device = Reserve<ComponentFeatures>(m_Table, units, "the feature table");
    CountPairsAfterLabels<Index, S>(device, frame, l, l.parent);
    VoteTable<Index, S>(device, frame, l, units, identity, l.parent, m_Device, counts.Votes(), {});
  }

  void
  Download(Device & device, Result &, int)
  {
    m_Host.resize(m_Entries);
    device.Download(m_Host.data(), m_Device, m_Host.size() * sizeof(ComponentFeatures));
  }

  /** Entries of roots hold pixels, the others none; root order is the scan's numbering. */
  void
  Finish(Result & result)
  {
    result.features.clear();
    result.features.reserve(m_Components);
    for (const ComponentFeatures & entry : m_Host)
    {
      if (entry.pixelCount > 0)
      {
        result.features.push_back(entry);
      }
    }
    if (result.features.size() != m_Components)
    {
      throw Error(Error::Kind::Cuda,
                  "the sparse feature table holds " + std::to_string(result.features.size()) +
                    " components instead of " + std::to_string(m_Components));
    }
  }

private:
  typename Device::Buffer        m_RootIndex; ///< entry i belongs to root unit i
  typename Device::Buffer        m_Table;
  ComponentFeatures *            m_Device = nullptr;
  std::size_t                    m_Entries = 0;
  std::size_t                    m_Components = 0;
  std::vector<ComponentFeatures> m_Host; ///< the whole sparse table
};

} // namespace cuda
} // namespace cca

#endif
