// The CPU backend: rows into runs, union-find over runs of neighbouring rows,
// features accumulated once per run and once per pair of touching runs.
//
// Threads own contiguous chunks of rows. Labels are numbered in raster order of
// each component's first run, so the components whose first run lies in a chunk
// form a contiguous label range that the chunk's thread owns: it writes their
// table entries without locks, and keeps the few components that started in an
// earlier chunk in a small side table merged at the end.
#include "BackendImplementation.h"
#include "PixelTypeDispatch.h"
#include "RowNeighbourhood.h"
#include "RunFeatures.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <limits>
#include <system_error>
#include <thread>
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

/** Runs fn(chunk) for chunk in [0, chunks) on one thread each. An exception
 *  of a chunk (std::bad_alloc when memory runs out) is rethrown here after
 *  every thread has joined, instead of ending the process; a chunk whose
 *  thread cannot be started runs on the calling thread. */
template <typename Function>
void
ParallelForChunks(int chunks, Function && fn)
{
  if (chunks == 1)
  {
    fn(0);
    return;
  }
  std::vector<std::exception_ptr> errors(chunks);
  auto                            guarded = [&fn, &errors](int c) {
    try
    {
      fn(c);
    }
    catch (...)
    {
      errors[c] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(chunks);
  for (int c = 0; c < chunks; ++c)
  {
    try
    {
      threads.emplace_back(guarded, c);
    }
    catch (const std::system_error &)
    {
      guarded(c);
    }
  }
  for (auto & t : threads)
  {
    t.join();
  }
  for (const auto & error : errors)
  {
    if (error)
    {
      std::rethrow_exception(error);
    }
  }
}

/** All runs of the image in raster order, with the first run of each row. */
struct RunTable
{
  std::vector<std::int32_t> x;
  std::vector<std::int32_t> length;
  std::vector<std::int64_t> rowStart; ///< rows + 1 entries
};

template <typename TPixel>
struct ForegroundTest
{
  TPixel value;
  bool   equal;
  bool
  operator()(TPixel p) const
  {
    return (p == value) == equal;
  }
};

/** Appends the runs of one row to x/length. */
template <typename TPixel>
void
DetectRowRuns(const TPixel * row, std::int64_t width, std::int64_t stride, const ForegroundTest<TPixel> & isForeground,
              std::vector<std::int32_t> & x, std::vector<std::int32_t> & length)
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
    while (i < width && isForeground(row[i * stride]))
    {
      ++i;
    }
    x.push_back(static_cast<std::int32_t>(start));
    length.push_back(static_cast<std::int32_t>(i - start));
  }
}

/** Per-chunk run lists, kept by the backend so repeated runs reuse their memory. */
using ChunkRuns = std::vector<std::vector<std::int32_t>>;

template <typename TPixel>
void
DetectRuns(const ImageView & image, const Options & options, const std::vector<std::int64_t> & chunkRows,
           ChunkRuns & chunkX, ChunkRuns & chunkLength, RunTable & runs)
{
  const std::int64_t width = image.size[0];
  const std::int64_t height = image.size[1];
  const std::int64_t rows = height * image.size[2];
  const bool         dense = image.stride[0] == 0 && image.stride[1] == 0 && image.stride[2] == 0;
  const std::int64_t sx = dense ? 1 : image.stride[0];
  const std::int64_t sy = dense ? width : image.stride[1];
  const std::int64_t sz = dense ? width * height : image.stride[2];
  const ForegroundTest<TPixel> isForeground{ static_cast<TPixel>(options.foregroundValue),
                                             options.foregroundRule == ForegroundRule::EqualTo };
  const auto * pixels = static_cast<const TPixel *>(image.data);

  const int chunks = static_cast<int>(chunkRows.size()) - 1;
  chunkX.resize(chunks);
  chunkLength.resize(chunks);
  runs.rowStart.assign(rows + 1, 0);
  ParallelForChunks(chunks, [&](int c) {
    chunkX[c].clear();
    chunkLength[c].clear();
    for (std::int64_t r = chunkRows[c]; r < chunkRows[c + 1]; ++r)
    {
      const std::int64_t y = r % height;
      const std::int64_t z = r / height;
      const std::size_t  before = chunkX[c].size();
      DetectRowRuns(pixels + y * sy + z * sz, width, sx, isForeground, chunkX[c], chunkLength[c]);
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
  ParallelForChunks(chunks, [&](int c) {
    const std::int64_t first = runs.rowStart[chunkRows[c]];
    std::copy(chunkX[c].begin(), chunkX[c].end(), runs.x.begin() + first);
    std::copy(chunkLength[c].begin(), chunkLength[c].end(), runs.length.begin() + first);
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
 *  overlap after widening by `reach` pixels (0: same x, 1: also diagonal). */
template <typename Visit>
void
ForEachTouchingPair(const RunTable & runs, std::int64_t ra, std::int64_t rb, int reach, Visit && visit)
{
  std::int64_t       i = runs.rowStart[ra];
  const std::int64_t iEnd = runs.rowStart[ra + 1];
  std::int64_t       j = runs.rowStart[rb];
  const std::int64_t jEnd = runs.rowStart[rb + 1];
  while (i < iEnd && j < jEnd)
  {
    const std::int64_t aEnd = std::int64_t{ runs.x[i] } + runs.length[i] - 1;
    const std::int64_t bEnd = std::int64_t{ runs.x[j] } + runs.length[j] - 1;
    if (runs.x[i] <= bEnd + reach && runs.x[j] <= aEnd + reach)
    {
      visit(i, j);
    }
    if (aEnd < bEnd)
    {
      ++i;
    }
    else
    {
      ++j;
    }
  }
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
  RunTable                  m_Runs;
  std::vector<std::int64_t> m_ParentOrLabel;
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
  const auto         labelStart = Clock::now();
  const std::int64_t width = image.size[0];
  const std::int64_t height = image.size[1];
  const std::int64_t depth = image.size[2];
  const std::int64_t rows = height * depth;
  const RowNeighbourhood neighbourhood(height, depth);

  int threads = options.numberOfThreads > 0 ? options.numberOfThreads
                                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = static_cast<int>(std::min<std::int64_t>(threads, rows));
  std::vector<std::int64_t> chunkRows(threads + 1);
  for (int c = 0; c <= threads; ++c)
  {
    chunkRows[c] = rows * c / threads;
  }

  RunTable & runs = m_Runs;
  DispatchPixelType(image.pixelType, [&](auto pixel) {
    DetectRuns<decltype(pixel)>(image, options, chunkRows, m_ChunkX, m_ChunkLength, runs);
  });
  const std::int64_t runCount = runs.rowStart[rows];

  // Union-find: first within each chunk in parallel, then across chunk borders.
  std::vector<std::int64_t> & parentOrLabel = m_ParentOrLabel;
  parentOrLabel.resize(runCount);
  for (std::int64_t i = 0; i < runCount; ++i)
  {
    parentOrLabel[i] = i;
  }
  const RunUnionFind unionFind(parentOrLabel);
  const int          reach = options.connectivity == Connectivity::Full ? 1 : 0;
  auto               uniteRow = [&](std::int64_t r, std::int64_t firstAllowedRow) {
    neighbourhood.ForEachPrecedingRow(r, options.connectivity, [&](std::int64_t rb) {
      if (rb >= firstAllowedRow)
      {
        ForEachTouchingPair(runs, r, rb, reach, [&](std::int64_t i, std::int64_t j) { unionFind.Unite(i, j); });
      }
    });
  };
  ParallelForChunks(threads, [&](int c) {
    for (std::int64_t r = chunkRows[c]; r < chunkRows[c + 1]; ++r)
    {
      uniteRow(r, chunkRows[c]);
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
          ForEachTouchingPair(runs, r, rb, reach, [&](std::int64_t i, std::int64_t j) { unionFind.Unite(i, j); });
        }
      });
    }
  }

  // Dense labels in raster order of each component's first run. parent[i] <= i,
  // so when run i is reached, slot parent[i] already holds that component's label.
  std::vector<std::int64_t> labelsBeforeChunk(threads + 1, 0);
  std::int64_t              componentCount = 0;
  {
    int chunk = 0;
    for (std::int64_t i = 0; i < runCount; ++i)
    {
      while (chunk < threads && i >= runs.rowStart[chunkRows[chunk + 1]])
      {
        labelsBeforeChunk[++chunk] = componentCount;
      }
      const std::int64_t parent = parentOrLabel[i];
      parentOrLabel[i] = parent == i ? ++componentCount : parentOrLabel[parent];
    }
    while (chunk < threads)
    {
      labelsBeforeChunk[++chunk] = componentCount;
    }
  }
  const std::vector<std::int64_t> & runLabel = parentOrLabel;
  if (options.labelImageType == LabelImageType::UInt32 &&
      componentCount > std::int64_t{ std::numeric_limits<std::uint32_t>::max() })
  {
    throw Error(Error::Kind::Overflow, "number of components (" + std::to_string(componentCount) +
                                         ") exceeds the 32-bit label image");
  }
  result.times.labelMs = MillisecondsSince(labelStart);

  // Features.
  const auto               featuresStart = Clock::now();
  const detail::ImageFaces faces{ static_cast<std::int32_t>(width), static_cast<std::int32_t>(height),
                                  static_cast<std::int32_t>(depth), image.dimension == 3 };
  std::vector<ComponentFeatures> & table = result.features;
  table.resize(componentCount);
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
            detail::AddAdjacentPairs(runs.x[i], runs.length[i], runs.x[j], runs.length[j], yStep, zStep,
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

  // Run-length lines grouped by component, raster order within each.
  if (!options.computeRuns)
  {
    result.runs.clear();
    result.runOffsets.clear();
  }
  else
  {
    result.runOffsets.assign(componentCount + 1, 0);
    for (std::int64_t i = 0; i < runCount; ++i)
    {
      ++result.runOffsets[runLabel[i]];
    }
    for (std::int64_t l = 0; l < componentCount; ++l)
    {
      result.runOffsets[l + 1] += result.runOffsets[l];
    }
    result.runs.resize(runCount);
    std::vector<std::int64_t> next(result.runOffsets.begin(), result.runOffsets.end() - 1);
    for (std::int64_t r = 0; r < rows; ++r)
    {
      const auto y = static_cast<std::int32_t>(r % height);
      const auto z = static_cast<std::int32_t>(r / height);
      for (std::int64_t i = runs.rowStart[r]; i < runs.rowStart[r + 1]; ++i)
      {
        result.runs[next[runLabel[i] - 1]++] = cca::Run{ runs.x[i], y, z, runs.length[i] };
      }
    }
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
  result.componentCount = componentCount;
  result.times.featuresMs = MillisecondsSince(featuresStart);
}

} // namespace

std::unique_ptr<BackendImplementation>
MakeCpuBackend()
{
  return std::make_unique<CpuBackend>();
}

} // namespace cca
