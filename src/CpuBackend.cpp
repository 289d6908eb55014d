// The CPU backend: rows into runs, union-find over runs of neighbouring rows,
// features accumulated once per run and once per pair of touching runs.
//
// Threads own contiguous chunks of rows. Labels are numbered in raster order of
// each component's first run, so the components whose first run lies in a chunk
// form a contiguous label range that the chunk's thread owns: it writes their
// table entries without locks, and keeps the few components that started in an
// earlier chunk in a small side table merged at the end. A feature image's
// intensity group is computed from the runs grouped by object
// (CpuIntensity.cpp).
#include "BackendImplementation.h"
#include "CpuIntensity.h"
#include "DensePixels.h"
#include "ForegroundTest.h"
#include "IntensityRecord.h"
#include "ObjectOrder.h"
#include "ParallelFor.h"
#include "PixelTypeDispatch.h"
#include "ResizeForOverwrite.h"
#include "RowNeighbourhood.h"
#include "RunFeatures.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <limits>
#include <numeric>
#include <thread>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace cca
{
namespace
{

using Clock = std::chrono::steady_clock;

double
MillisecondsSince(Clock::time_point start)
{
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

/** All runs of the image in raster order, with the first run of each row. */
struct RunTable
{
  std::vector<std::int32_t>  x;
  std::vector<std::int32_t>  length;
  std::vector<std::int64_t>  rowStart; ///< rows + 1 entries
  std::vector<std::uint64_t> key;      ///< label modes: the value key (detail::ValueKey) of each run
};

/** Appends the runs of one row to x/length; with splitAtValues a run also
 *  ends where the value changes (label images), and its key is appended. */
template <typename TPixel>
void
DetectRowRuns(const TPixel *                 row,
              std::int64_t                   width,
              std::int64_t                   stride,
              const ForegroundTest<TPixel> & isForeground,
              bool                           splitAtValues,
              std::vector<std::int32_t> &    x,
              std::vector<std::int32_t> &    length,
              std::vector<std::uint64_t> &   key)
{
  std::int64_t i = 0;
  while (i < width)
  {
    while (i < width && !isForeground(row[i * stride]))
    {
      ++i;
    }
    if (i == width)
    {
      break;
    }
    const std::int64_t start = i;
    const TPixel       value = row[i * stride];
    if (splitAtValues)
    {
      while (i < width && row[i * stride] == value)
      {
        ++i;
      }
      key.push_back(detail::ValueKey(value));
    }
    else
    {
      while (i < width && isForeground(row[i * stride]))
      {
        ++i;
      }
    }
    x.push_back(static_cast<std::int32_t>(start));
    length.push_back(static_cast<std::int32_t>(i - start));
  }
}

/** Per-chunk run lists, kept by the backend so repeated runs reuse their memory. */
using ChunkRuns = std::vector<std::vector<std::int32_t>>;
using ChunkKeys = std::vector<std::vector<std::uint64_t>>;

template <typename TPixel>
void
DetectRuns(const ImageView &                 image,
           const Options &                   options,
           const std::vector<std::int64_t> & chunkRows,
           ChunkRuns &                       chunkX,
           ChunkRuns &                       chunkLength,
           ChunkKeys &                       chunkKey,
           RunTable &                        runs)
{
  const std::int64_t           width = image.size[0];
  const std::int64_t           height = image.size[1];
  const std::int64_t           rows = height * image.size[2];
  const PixelStrides           stride = StridesOf(image);
  const ForegroundTest<TPixel> isForeground = ForegroundOf<TPixel>(options);
  const bool                   splitAtValues = options.objects != Objects::ForegroundComponents;
  const auto *                 pixels = static_cast<const TPixel *>(image.data);

  const int chunks = static_cast<int>(chunkRows.size()) - 1;
  chunkX.resize(chunks);
  chunkLength.resize(chunks);
  chunkKey.resize(chunks);
  runs.rowStart.assign(rows + 1, 0);
  ParallelForChunks(chunks, [&](int c) {
    chunkX[c].clear();
    chunkLength[c].clear();
    chunkKey[c].clear();
    for (std::int64_t r = chunkRows[c]; r < chunkRows[c + 1]; ++r)
    {
      const std::int64_t y = r % height;
      const std::int64_t z = r / height;
      const std::size_t  before = chunkX[c].size();
      DetectRowRuns(pixels + y * stride.y + z * stride.z,
                    width,
                    stride.x,
                    isForeground,
                    splitAtValues,
                    chunkX[c],
                    chunkLength[c],
                    chunkKey[c]);
      runs.rowStart[r + 1] = static_cast<std::int64_t>(chunkX[c].size() - before); // a count for now
    }
  });
  for (std::int64_t r = 0; r < rows; ++r)
  {
    runs.rowStart[r + 1] += runs.rowStart[r];
  }
  const std::int64_t total = runs.rowStart[rows];
  runs.x.resize(total);
  runs.length.resize(total);
  runs.key.resize(splitAtValues ? total : 0);
  ParallelForChunks(chunks, [&](int c) {
    const std::int64_t first = runs.rowStart[chunkRows[c]];
    std::copy(chunkX[c].begin(), chunkX[c].end(), runs.x.begin() + first);
    std::copy(chunkLength[c].begin(), chunkLength[c].end(), runs.length.begin() + first);
    std::copy(chunkKey[c].begin(), chunkKey[c].end(), runs.key.begin() + first);
  });
}

/** Union-find over runs whose root is always the smallest run index of its set. */
class RunUnionFind
{
public:
  explicit RunUnionFind(std::vector<std::int64_t> & parent)
    : m_Parent(parent)
  {}

  std::int64_t
  Find(std::int64_t i) const
  {
    while (m_Parent[i] != i)
    {
      m_Parent[i] = m_Parent[m_Parent[i]]; // path halving keeps parent[i] <= i
      i = m_Parent[i];
    }
    return i;
  }

  void
  Unite(std::int64_t a, std::int64_t b) const
  {
    a = Find(a);
    b = Find(b);
    if (a < b)
    {
      m_Parent[b] = a;
    }
    else if (b < a)
    {
      m_Parent[a] = b;
    }
  }

private:
  std::vector<std::int64_t> & m_Parent;
};

/** Calls visit(i, j) for each run i of row ra and run j of row rb whose x ranges
 *  overlap after widening by `reach` pixels (0: same x, 1: also diagonal).
 *  Runs of a row may touch each other (label images), so a run of rb can
 *  meet several runs of ra and the other way round: for each run of ra the
 *  candidates of rb start where the previous run's did. */
template <typename Visit>
void
ForEachTouchingPair(const RunTable & runs, std::int64_t ra, std::int64_t rb, int reach, Visit && visit)
{
  std::int64_t       first = runs.rowStart[rb];
  const std::int64_t jEnd = runs.rowStart[rb + 1];
  for (std::int64_t i = runs.rowStart[ra]; i < runs.rowStart[ra + 1] && first < jEnd; ++i)
  {
    const std::int64_t aStart = runs.x[i];
    const std::int64_t aEnd = aStart + runs.length[i] - 1;
    while (first < jEnd && std::int64_t{ runs.x[first] } + runs.length[first] - 1 + reach < aStart)
    {
      ++first;
    }
    for (std::int64_t j = first; j < jEnd && runs.x[j] <= aEnd + reach; ++j)
    {
      visit(i, j);
    }
  }
}

/** Labels by value (Objects::LabelValues): each run's parent is the first run
 *  of its value, so the numbering below sees one object per value. */
void
ParentsByValue(const RunTable & runs, std::vector<std::int64_t> & parent)
{
  std::unordered_map<std::uint64_t, std::int64_t> first;
  for (std::size_t i = 0; i < runs.key.size(); ++i)
  {
    parent[i] = first.try_emplace(runs.key[i], static_cast<std::int64_t>(i)).first->second;
  }
}

/** The feature table of the numbered runs: each chunk of rows votes its
 *  runs and adjacent pairs into the entries of the components first met
 *  in it, and into a side table for components of earlier chunks, merged after. */
void
ComputeFeatures(const RunTable &                  runs,
                const std::vector<std::int64_t> & runLabel,
                const std::vector<std::int64_t> & chunkRows,
                const std::vector<std::int64_t> & labelsBeforeChunk,
                const detail::ImageFaces &        faces,
                const RowNeighbourhood &          neighbourhood,
                std::int64_t                      height,
                int                               threads,
                std::vector<ComponentFeatures> &  table)
{
  const auto componentCount = static_cast<std::int64_t>(table.size());
  using ForeignTable = std::unordered_map<std::int64_t, ComponentFeatures>;
  std::vector<ForeignTable> foreign(threads);
  ParallelForChunks(threads, [&](int c) {
    const std::int64_t firstOwned = labelsBeforeChunk[c] + 1;
    for (std::int64_t label = firstOwned; label <= labelsBeforeChunk[c + 1]; ++label)
    {
      detail::ClearFeatures(table[label - 1]);
    }
    auto featuresOf = [&](std::int64_t label) -> ComponentFeatures & {
      if (label >= firstOwned)
      {
        return table[label - 1];
      }
      auto inserted = foreign[c].try_emplace(label);
      if (inserted.second)
      {
        detail::ClearFeatures(inserted.first->second);
      }
      return inserted.first->second;
    };
    ComponentFeatures contribution;
    for (std::int64_t r = chunkRows[c]; r < chunkRows[c + 1]; ++r)
    {
      const auto y = static_cast<std::int32_t>(r % height);
      const auto z = static_cast<std::int32_t>(r / height);
      for (std::int64_t i = runs.rowStart[r]; i < runs.rowStart[r + 1]; ++i)
      {
        detail::RunContribution(runs.x[i], y, z, runs.length[i], faces, contribution);
        detail::MergeFeatures(featuresOf(runLabel[i]), contribution);
      }
      neighbourhood.ForEachFollowingRow(r, [&](std::int64_t rb, bool yStep, bool zStep) {
        ForEachTouchingPair(runs, r, rb, 1, [&](std::int64_t i, std::int64_t j) {
          if (runLabel[i] == runLabel[j])
          {
            detail::AddAdjacentPairs(runs.x[i],
                                     runs.length[i],
                                     runs.x[j],
                                     runs.length[j],
                                     yStep,
                                     zStep,
                                     featuresOf(runLabel[i]).interceptCounts);
          }
        });
      });
    }
  });
  for (const ForeignTable & side : foreign)
  {
    for (const auto & entry : side)
    {
      detail::MergeFeatures(table[entry.first - 1], entry.second);
    }
  }
  ParallelForChunks(threads, [&](int c) {
    const std::int64_t begin = componentCount * c / threads;
    const std::int64_t end = componentCount * (c + 1) / threads;
    for (std::int64_t i = begin; i < end; ++i)
    {
      detail::FinalizeIntercepts(table[i]);
    }
  });
}

class CpuBackend final : public BackendImplementation
{
public:
  void
  Run(const ImageView & image, const Options & options, Result & result) override;

private:
  // Working memory kept across runs: fresh pages cost more than the work.
  ChunkRuns                 m_ChunkX;
  ChunkRuns                 m_ChunkLength;
  ChunkKeys                 m_ChunkKey;
  RunTable                  m_Runs;
  std::vector<std::int64_t> m_ParentOrLabel;
  std::vector<cca::Run>     m_Grouped; ///< runs grouped by object when the result does not keep them
  std::vector<std::int64_t> m_GroupOffsets;
};

void
CpuBackend::Run(const ImageView & image, const Options & options, Result & result)
{
  // Engine::Run sends device memory to the CUDA backend; this guards other callers.
  if (image.memory != MemorySpace::Host ||
      (options.labelImageType != LabelImageType::None && options.labelImageMemory != MemorySpace::Host))
  {
    throw Error(Error::Kind::InvalidInput, "the CPU backend cannot access CUDA device memory");
  }
  const auto             labelStart = Clock::now();
  const std::int64_t     width = image.size[0];
  const std::int64_t     height = image.size[1];
  const std::int64_t     depth = image.size[2];
  const std::int64_t     rows = height * depth;
  const RowNeighbourhood neighbourhood(height, depth);
  const bool             labelModes = options.objects != Objects::ForegroundComponents;

  int       threads = HostThreads(options.numberOfThreads);
  const int allThreads = threads;
  threads = static_cast<int>(std::min<std::int64_t>(threads, rows));
  std::vector<std::int64_t> chunkRows(threads + 1);
  for (int c = 0; c <= threads; ++c)
  {
    chunkRows[c] = rows * c / threads;
  }

  RunTable & runs = m_Runs;
  DispatchPixelType(image.pixelType, [&](auto pixel) {
    DetectRuns<decltype(pixel)>(image, options, chunkRows, m_ChunkX, m_ChunkLength, m_ChunkKey, runs);
  });
  const std::int64_t runCount = runs.rowStart[rows];

  std::vector<std::int64_t> & parentOrLabel = m_ParentOrLabel;
  parentOrLabel.resize(runCount);
  if (options.objects == Objects::LabelValues)
  {
    ParentsByValue(runs, parentOrLabel);
  }
  else
  {
    // Union-find: first within each chunk in parallel, then across chunk
    // borders. Components of a label image join runs of one value only.
    for (std::int64_t i = 0; i < runCount; ++i)
    {
      parentOrLabel[i] = i;
    }
    const RunUnionFind unionFind(parentOrLabel);
    const int          reach = options.connectivity == Connectivity::Full ? 1 : 0;
    const bool         sameValueOnly = options.objects == Objects::LabelValueComponents;
    auto               unite = [&](std::int64_t i, std::int64_t j) {
      if (!sameValueOnly || runs.key[i] == runs.key[j])
      {
        unionFind.Unite(i, j);
      }
    };
    ParallelForChunks(threads, [&](int c) {
      for (std::int64_t r = chunkRows[c]; r < chunkRows[c + 1]; ++r)
      {
        neighbourhood.ForEachPrecedingRow(r, options.connectivity, [&](std::int64_t rb) {
          if (rb >= chunkRows[c])
          {
            ForEachTouchingPair(runs, r, rb, reach, unite);
          }
        });
      }
    });
    for (int c = 1; c < threads; ++c)
    {
      // Rows whose preceding neighbours may lie in an earlier chunk.
      const std::int64_t last = std::min(chunkRows[c + 1], chunkRows[c] + height + 1);
      for (std::int64_t r = chunkRows[c]; r < last; ++r)
      {
        neighbourhood.ForEachPrecedingRow(r, options.connectivity, [&](std::int64_t rb) {
          if (rb < chunkRows[c])
          {
            ForEachTouchingPair(runs, r, rb, reach, unite);
          }
        });
      }
    }
  }

  // Dense labels in raster order of each object's first run. parent[i] <= i,
  // so when run i is reached, slot parent[i] already holds that object's label.
  std::vector<std::int64_t>  labelsBeforeChunk(threads + 1, 0);
  std::vector<std::uint64_t> objectKey; // label modes: the value key of each object
  std::int64_t               componentCount = 0;
  {
    int chunk = 0;
    for (std::int64_t i = 0; i < runCount; ++i)
    {
      while (chunk < threads && i >= runs.rowStart[chunkRows[chunk + 1]])
      {
        labelsBeforeChunk[++chunk] = componentCount;
      }
      const std::int64_t parent = parentOrLabel[i];
      if (parent == i && labelModes)
      {
        objectKey.push_back(runs.key[i]);
      }
      parentOrLabel[i] = parent == i ? ++componentCount : parentOrLabel[parent];
    }
    while (chunk < threads)
    {
      labelsBeforeChunk[++chunk] = componentCount;
    }
  }
  std::vector<std::int64_t> & runLabel = parentOrLabel;
  result.times.labelMs = MillisecondsSince(labelStart);

  // Features.
  const auto                       featuresStart = Clock::now();
  const detail::ImageFaces         faces{ static_cast<std::int32_t>(width),
                                  static_cast<std::int32_t>(height),
                                  static_cast<std::int32_t>(depth),
                                  image.dimension == 3 };
  std::vector<ComponentFeatures> & table = result.features;
  table.resize(options.computeFeatures ? componentCount : 0);
  if (options.computeFeatures)
  {
    ComputeFeatures(runs, runLabel, chunkRows, labelsBeforeChunk, faces, neighbourhood, height, threads, table);
  }

  // The objects' order (label values: by value) and the selection: object k
  // of the result is object order[k] of the raster numbering.
  result.objectsFound = componentCount;
  const bool                reordered = options.objects == Objects::LabelValues || options.selection.Active();
  std::vector<std::int64_t> order;
  if (options.objects == Objects::LabelValues)
  {
    order.resize(static_cast<std::size_t>(componentCount));
    std::iota(order.begin(), order.end(), std::int64_t{ 0 });
    std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return objectKey[a] < objectKey[b]; });
  }
  if (options.selection.Active())
  {
    auto                            base = [&](std::int64_t k) { return order.empty() ? k : order[k]; };
    const std::vector<std::int64_t> kept = detail::SelectObjects(
      componentCount, options.selection, [&](std::int64_t k) { return table[base(k)].pixelCount; });
    std::vector<std::int64_t> selected(kept.size());
    result.sourceNumbers.resize(kept.size());
    for (std::size_t k = 0; k < kept.size(); ++k)
    {
      selected[k] = base(kept[k]);
      result.sourceNumbers[k] = kept[k] + 1;
    }
    order.swap(selected);
  }
  if (reordered)
  {
    std::vector<ComponentFeatures> ordered(table.empty() ? 0 : order.size());
    std::vector<std::int64_t>      newLabel(static_cast<std::size_t>(componentCount), 0);
    for (std::size_t k = 0; k < order.size(); ++k)
    {
      if (!table.empty())
      {
        ordered[k] = table[order[k]];
      }
      newLabel[order[k]] = static_cast<std::int64_t>(k) + 1;
    }
    table.swap(ordered);
    for (std::int64_t i = 0; i < runCount; ++i)
    {
      runLabel[i] = newLabel[runLabel[i] - 1];
    }
    componentCount = static_cast<std::int64_t>(order.size());
  }
  if (labelModes)
  {
    result.labelValues.resize(static_cast<std::size_t>(componentCount));
    DispatchPixelType(image.pixelType, [&](auto pixel) {
      using T = decltype(pixel);
      for (std::int64_t k = 0; k < componentCount; ++k)
      {
        result.labelValues[k] = detail::IntegerOfKey<T>(objectKey[reordered ? order[k] : k]);
      }
    });
  }
  if (options.labelImageType == LabelImageType::UInt32 &&
      componentCount > std::int64_t{ std::numeric_limits<std::uint32_t>::max() })
  {
    throw Error(Error::Kind::Overflow,
                "number of components (" + std::to_string(componentCount) + ") exceeds the 32-bit label image");
  }

  // Run-length lines grouped by object (label 0: a removed object's run),
  // raster order within each: the result's, or the intensity group's own.
  const bool intensity = options.intensity.Requested();
  if (!options.computeRuns)
  {
    result.runs.clear();
    result.runOffsets.clear();
  }
  if (options.computeRuns || intensity)
  {
    std::vector<cca::Run> &     grouped = options.computeRuns ? result.runs : m_Grouped;
    std::vector<std::int64_t> & offsets = options.computeRuns ? result.runOffsets : m_GroupOffsets;
    offsets.assign(componentCount + 1, 0);
    for (std::int64_t i = 0; i < runCount; ++i)
    {
      if (runLabel[i] != 0)
      {
        ++offsets[runLabel[i]];
      }
    }
    for (std::int64_t l = 0; l < componentCount; ++l)
    {
      offsets[l + 1] += offsets[l];
    }
    ResizeForOverwrite(grouped, static_cast<std::size_t>(offsets[componentCount]), options.numberOfThreads);
    std::vector<std::int64_t> next(offsets.begin(), offsets.end() - 1);
    for (std::int64_t r = 0; r < rows; ++r)
    {
      const auto y = static_cast<std::int32_t>(r % height);
      const auto z = static_cast<std::int32_t>(r / height);
      for (std::int64_t i = runs.rowStart[r]; i < runs.rowStart[r + 1]; ++i)
      {
        if (runLabel[i] != 0)
        {
          grouped[next[runLabel[i] - 1]++] = cca::Run{ runs.x[i], y, z, runs.length[i] };
        }
      }
    }
    if (intensity)
    {
      IntensityStatisticsOnCpu(options, grouped, offsets, allThreads, result);
    }
  }

  result.componentCount = componentCount;
  if (options.objectsReady)
  {
    options.objectsReady();
  }
  if (options.labelImageType != LabelImageType::None)
  {
    const bool wide = options.labelImageType == LabelImageType::UInt64;
    ParallelForChunks(threads, [&](int c) {
      for (std::int64_t r = chunkRows[c]; r < chunkRows[c + 1]; ++r)
      {
        const std::int64_t rowOffset = r * width;
        if (wide)
        {
          auto * row = static_cast<std::uint64_t *>(options.labelImage) + rowOffset;
          std::fill(row, row + width, std::uint64_t{ 0 });
          for (std::int64_t i = runs.rowStart[r]; i < runs.rowStart[r + 1]; ++i)
          {
            std::fill(row + runs.x[i], row + runs.x[i] + runs.length[i], static_cast<std::uint64_t>(runLabel[i]));
          }
        }
        else
        {
          auto * row = static_cast<std::uint32_t *>(options.labelImage) + rowOffset;
          std::fill(row, row + width, std::uint32_t{ 0 });
          for (std::int64_t i = runs.rowStart[r]; i < runs.rowStart[r + 1]; ++i)
          {
            std::fill(row + runs.x[i], row + runs.x[i] + runs.length[i], static_cast<std::uint32_t>(runLabel[i]));
          }
        }
      }
    });
  }
  result.times.featuresMs = MillisecondsSince(featuresStart);
}

} // namespace

std::unique_ptr<BackendImplementation>
MakeCpuBackend()
{
  return std::make_unique<CpuBackend>();
}

} // namespace cca
