// The CPU backend: rows into runs, union-find over runs of neighbouring rows,
// features accumulated once per run and once per pair of touching runs.
//
// Threads own contiguous chunks of rows. Labels are numbered in raster order of
// each component's first run, so the components whose first run lies in a chunk
// form a contiguous label range that the chunk's thread owns: it writes their
// table entries without locks, and keeps the few components that started in an
// earlier chunk in a small side table merged at the end.
#include "BackendImplementation.h"
#include "DensePixels.h"
#include "ForegroundTest.h"
#include "IntensityRecord.h"
#include "IntensityStatistics.h"
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

/** The minimum and maximum of a whole image, as doubles, as ITK's
 *  MinimumMaximumImageCalculator finds them: from max() and
 *  NonpositiveMin(), NaN passed over (detail::IsNan). */
template <class T>
void
ImageRange(const ImageView & image, int threads, double & minimum, double & maximum)
{
  const PixelStrides stride = StridesOf(image);
  const std::int64_t rows = image.size[1] * image.size[2];
  const auto *       pixels = static_cast<const T *>(image.data);
  threads = static_cast<int>(std::min<std::int64_t>(threads, rows));
  std::vector<T> low(threads, std::numeric_limits<T>::max());
  std::vector<T> high(threads, detail::NonpositiveMinimum<T>());
  ParallelForChunks(threads, [&](int c) {
    for (std::int64_t r = rows * c / threads; r < rows * (c + 1) / threads; ++r)
    {
      const T * row = pixels + (r % image.size[1]) * stride.y + (r / image.size[1]) * stride.z;
      for (std::int64_t x = 0; x < image.size[0]; ++x)
      {
        const T v = row[x * stride.x];
        low[c] = v < low[c] ? v : low[c]; // false for a NaN, as ITK's test
        high[c] = high[c] < v ? v : high[c];
      }
    }
  });
  minimum = static_cast<double>(*std::min_element(low.begin(), low.end()));
  maximum = static_cast<double>(*std::max_element(high.begin(), high.end()));
}

/** The histogram of one object's pixels (or of a piece of them) as sorted
 *  non-empty (bin, count) entries appended to bins/counts: counted straight
 *  into a dense array for large pieces, sorted for small ones. */
class ObjectHistogram
{
public:
  /** Starts a piece of at most `pixels` pixels over binCount bins. */
  void
  Begin(std::int64_t pixels, std::uint32_t binCount)
  {
    m_BinCount = binCount;
    m_Dense = pixels > binCount / 4 && binCount <= (1u << 24);
    if (m_Dense)
    {
      m_Counts.resize(binCount, 0);
      m_Low = binCount;
      m_High = 0;
    }
  }

  void
  Add(std::int64_t bin)
  {
    const auto b = static_cast<std::uint32_t>(bin);
    if (m_Dense)
    {
      ++m_Counts[b];
      m_Low = std::min(m_Low, b);
      m_High = std::max(m_High, b);
    }
    else
    {
      m_Bins.push_back(b);
    }
  }

  void
  Finish(std::vector<std::uint32_t> & bins, std::vector<std::int64_t> & counts)
  {
    if (m_Dense)
    {
      for (std::uint32_t b = m_Low; b <= m_High && m_Low < m_BinCount; ++b)
      {
        if (m_Counts[b] != 0)
        {
          bins.push_back(b);
          counts.push_back(m_Counts[b]);
          m_Counts[b] = 0;
        }
      }
      return;
    }
    std::sort(m_Bins.begin(), m_Bins.end());
    for (std::size_t i = 0; i < m_Bins.size(); ++i)
    {
      if (i == 0 || m_Bins[i] != m_Bins[i - 1])
      {
        bins.push_back(m_Bins[i]);
        counts.push_back(0);
      }
      ++counts.back();
    }
    m_Bins.clear();
  }

private:
  std::vector<std::uint32_t> m_Bins;
  std::vector<std::int64_t>  m_Counts;
  std::uint32_t              m_BinCount = 0;
  std::uint32_t              m_Low = 0;
  std::uint32_t              m_High = 0;
  bool                       m_Dense = false;
};

/** The histogram bin of a feature value (-1: clipped): for 8- and 16-bit
 *  integers looked up in a table of every value's bin (HistogramBinning::Find
 *  of each, made once when the pixels outnumber the values), else searched. */
template <class T>
class BinLookup
{
public:
  BinLookup(const detail::HistogramBinning & binning, std::int64_t pixels, int threads)
    : m_Binning(binning)
  {
    if constexpr (std::is_integral<T>::value && sizeof(T) <= 2)
    {
      using U = std::make_unsigned_t<T>;
      constexpr std::int64_t values = std::int64_t{ 1 } << (8 * sizeof(T));
      if (pixels >= values)
      {
        m_Table.resize(static_cast<std::size_t>(values));
        ParallelForChunks(threads, [&](int c) {
          for (std::int64_t u = values * c / threads; u < values * (c + 1) / threads; ++u)
          {
            m_Table[u] =
              static_cast<std::int32_t>(m_Binning.Find(static_cast<double>(static_cast<T>(static_cast<U>(u)))));
          }
        });
      }
    }
  }

  std::int64_t
  operator()(T v) const
  {
    if constexpr (std::is_integral<T>::value && sizeof(T) <= 2)
    {
      if (!m_Table.empty())
      {
        return m_Table[static_cast<std::make_unsigned_t<T>>(v)];
      }
    }
    return m_Binning.Find(static_cast<double>(v));
  }

private:
  const detail::HistogramBinning & m_Binning;
  std::vector<std::int32_t>        m_Table;
};

/** The runs [begin, end) of each chunk of the intensity pass: about equal
 *  numbers of pixels, so that one large object (the background of a label
 *  image) is shared by every thread. With double sums a chunk starts at an
 *  object's first run: merged partial sums would round differently. */
std::vector<std::int64_t>
IntensityChunks(const std::vector<cca::Run> &          grouped,
                const std::vector<std::int64_t> &      offsets,
                const std::vector<ComponentFeatures> & table,
                int                                    chunks,
                bool                                   splitObjects)
{
  const std::int64_t        objects = static_cast<std::int64_t>(offsets.size()) - 1;
  std::vector<std::int64_t> pixelsBefore(static_cast<std::size_t>(objects) + 1, 0);
  for (std::int64_t k = 0; k < objects; ++k)
  {
    pixelsBefore[k + 1] = pixelsBefore[k] + table[k].pixelCount;
  }
  std::vector<std::int64_t> start(static_cast<std::size_t>(chunks) + 1, offsets[objects]);
  start[0] = 0;
  for (int c = 1; c < chunks; ++c)
  {
    const std::int64_t target = pixelsBefore[objects] / chunks * c;
    const std::int64_t k =
      (std::upper_bound(pixelsBefore.begin(), pixelsBefore.end(), target) - pixelsBefore.begin()) - 1;
    std::int64_t run = offsets[std::min(k, objects)];
    if (splitObjects && k < objects)
    {
      for (std::int64_t pixels = pixelsBefore[k]; run < offsets[k + 1] && pixels + grouped[run].length <= target; ++run)
      {
        pixels += grouped[run].length;
      }
    }
    start[c] = std::max(start[c - 1], run);
  }
  return start;
}

/** The part of an object that one chunk saw, when its runs span chunks. */
template <class Sum>
struct IntensityPiece
{
  std::int64_t                 object;
  std::int64_t                 pixelCount;
  detail::IntensityRecord<Sum> record;
  std::vector<std::uint32_t>   bins;
  std::vector<std::int64_t>    counts;
};

/** Adds the sorted entries b to the sorted entries a. */
void
MergeSparseHistogram(std::vector<std::uint32_t> &       aBins,
                     std::vector<std::int64_t> &        aCounts,
                     const std::vector<std::uint32_t> & bBins,
                     const std::vector<std::int64_t> &  bCounts)
{
  std::vector<std::uint32_t> bins;
  std::vector<std::int64_t>  counts;
  std::size_t                i = 0;
  std::size_t                j = 0;
  while (i < aBins.size() || j < bBins.size())
  {
    if (j == bBins.size() || (i < aBins.size() && aBins[i] < bBins[j]))
    {
      bins.push_back(aBins[i]);
      counts.push_back(aCounts[i++]);
    }
    else if (i == aBins.size() || bBins[j] < aBins[i])
    {
      bins.push_back(bBins[j]);
      counts.push_back(bCounts[j++]);
    }
    else
    {
      bins.push_back(aBins[i]);
      counts.push_back(aCounts[i++] + bCounts[j++]);
    }
  }
  aBins.swap(bins);
  aCounts.swap(counts);
}

/** The intensity group of every object, from its runs (grouped by object). */
template <class T>
void
IntensityOnCpu(const Options &                   options,
               const std::vector<cca::Run> &     grouped,
               const std::vector<std::int64_t> & offsets,
               int                               threads,
               Result &                          result)
{
  using Sum = detail::IntensitySum_t<T>;
  using Piece = IntensityPiece<Sum>;
  const ImageView &        feature = options.intensity.featureImage;
  const HistogramOptions & h = options.intensity.histogram;
  const std::int64_t       width = feature.size[0];
  const std::int64_t       height = feature.size[1];
  const PixelStrides       stride = StridesOf(feature);
  const auto *             pixels = static_cast<const T *>(feature.data);
  const bool               packed = detail::PackedExtremes<T>(feature.NumberOfPixels());
  const bool               weighted = options.intensity.weightedMoments;
  const std::int64_t       objects = static_cast<std::int64_t>(offsets.size()) - 1;
  const std::int64_t       runCount = offsets[objects];

  detail::HistogramBinning binning{};
  if (h.bins > 0)
  {
    double lower = h.lower;
    double upper = h.upper;
    if (h.rangeOfFeatureImage)
    {
      ImageRange<T>(feature, threads, lower, upper);
    }
    binning = detail::HistogramBinning::Make(h.bins, lower, upper, h.clipBinsAtEnds);
    result.histogramLower = lower;
    result.histogramUpper = upper;
  }

  result.intensity.resize(static_cast<std::size_t>(objects));
  threads = static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, runCount)));
  const std::vector<std::int64_t> chunkStart =
    IntensityChunks(grouped, offsets, result.features, threads, detail::ExactIntensitySums<T>);
  std::int64_t objectPixels = 0;
  for (std::int64_t k = 0; k < objects; ++k)
  {
    objectPixels += result.features[k].pixelCount;
  }
  const BinLookup<T> binOf(binning, h.bins > 0 ? objectPixels : 0, threads);

  std::vector<std::vector<std::uint32_t>> chunkBins(threads);
  std::vector<std::vector<std::int64_t>>  chunkCounts(threads);
  std::vector<std::vector<Piece>>         chunkPieces(threads);
  std::vector<std::int64_t>               firstWhole(threads, objects); // the chunk's first whole object
  std::vector<std::int64_t>               entriesOf(static_cast<std::size_t>(objects), 0);
  auto                                    median = [&](const std::uint32_t * bins,
                    const std::int64_t *  counts,
                    std::int64_t          entries,
                    std::int64_t          pixelCount,
                    std::int64_t          k) {
    result.intensity[k].median = detail::HistogramMedian(bins, counts, entries, pixelCount, binning);
  };
  ParallelForChunks(threads, [&](int c) {
    const std::int64_t begin = chunkStart[c];
    const std::int64_t end = chunkStart[c + 1];
    if (begin == end)
    {
      return;
    }
    ObjectHistogram histogram;
    std::int64_t    k = (std::upper_bound(offsets.begin(), offsets.end(), begin) - offsets.begin()) - 1;
    for (; k < objects && offsets[k] < end; ++k)
    {
      const std::int64_t first = std::max(offsets[k], begin);
      const std::int64_t last = std::min(offsets[k + 1], end);
      const bool         whole = first == offsets[k] && last == offsets[k + 1];
      std::int64_t       pixelCount = 0;
      for (std::int64_t i = first; i < last; ++i)
      {
        pixelCount += grouped[i].length;
      }
      detail::IntensityRecord<Sum> total;
      detail::IntensityRecord<Sum> run;
      detail::ClearIntensity(total);
      if (h.bins > 0)
      {
        histogram.Begin(pixelCount, h.bins);
      }
      for (std::int64_t i = first; i < last; ++i)
      {
        const cca::Run &   line = grouped[i];
        const T *          row = pixels + line.y * stride.y + std::int64_t{ line.z } * stride.z;
        const std::int64_t rowIndex = (std::int64_t{ line.z } * height + line.y) * width;
        detail::RunIntensity(row, stride.x, line.x, line.length, line.y, line.z, rowIndex, packed, weighted, run);
        detail::MergeIntensity(total, run, weighted);
        if (h.bins > 0)
        {
          for (std::int32_t x = line.x; x < line.x + line.length; ++x)
          {
            const std::int64_t bin = binOf(row[x * stride.x]);
            if (bin >= 0)
            {
              histogram.Add(bin);
            }
          }
        }
      }
      if (!whole)
      {
        Piece piece{ k, pixelCount, total, {}, {} };
        if (h.bins > 0)
        {
          histogram.Finish(piece.bins, piece.counts);
        }
        chunkPieces[c].push_back(std::move(piece));
        continue;
      }
      firstWhole[c] = std::min(firstWhole[c], k);
      detail::FinishIntensity<T>(total, pixelCount, packed, width, height, weighted, result.intensity[k]);
      if (h.bins > 0)
      {
        const std::size_t entry = chunkBins[c].size();
        histogram.Finish(chunkBins[c], chunkCounts[c]);
        entriesOf[k] = static_cast<std::int64_t>(chunkBins[c].size() - entry);
        if (h.median)
        {
          median(chunkBins[c].data() + entry, chunkCounts[c].data() + entry, entriesOf[k], pixelCount, k);
        }
        if (!h.keep)
        {
          chunkBins[c].resize(entry);
          chunkCounts[c].resize(entry);
        }
      }
    }
  });

  // The objects whose runs span chunks: their pieces, in chunk order, merged.
  std::vector<Piece> split;
  for (auto & pieces : chunkPieces)
  {
    for (Piece & piece : pieces)
    {
      if (split.empty() || split.back().object != piece.object)
      {
        split.push_back(std::move(piece));
        continue;
      }
      Piece & merged = split.back();
      merged.pixelCount += piece.pixelCount;
      detail::MergeIntensity(merged.record, piece.record, weighted);
      MergeSparseHistogram(merged.bins, merged.counts, piece.bins, piece.counts);
    }
  }
  for (const Piece & piece : split)
  {
    const std::int64_t k = piece.object;
    detail::FinishIntensity<T>(piece.record, piece.pixelCount, packed, width, height, weighted, result.intensity[k]);
    entriesOf[k] = static_cast<std::int64_t>(piece.bins.size());
    if (h.bins > 0 && h.median)
    {
      median(piece.bins.data(), piece.counts.data(), entriesOf[k], piece.pixelCount, k);
    }
  }

  if (h.bins > 0 && h.keep)
  {
    result.histogramOffsets.assign(static_cast<std::size_t>(objects) + 1, 0);
    for (std::int64_t k = 0; k < objects; ++k)
    {
      result.histogramOffsets[k + 1] = result.histogramOffsets[k] + entriesOf[k];
    }
    result.histogramBins.resize(static_cast<std::size_t>(result.histogramOffsets[objects]));
    result.histogramCounts.resize(result.histogramBins.size());
    ParallelForChunks(threads, [&](int c) {
      if (firstWhole[c] < objects)
      {
        // The chunk's whole objects are consecutive, their entries too.
        const std::int64_t at = result.histogramOffsets[firstWhole[c]];
        std::copy(chunkBins[c].begin(), chunkBins[c].end(), result.histogramBins.begin() + at);
        std::copy(chunkCounts[c].begin(), chunkCounts[c].end(), result.histogramCounts.begin() + at);
      }
    });
    for (const Piece & piece : split)
    {
      const std::int64_t at = result.histogramOffsets[piece.object];
      std::copy(piece.bins.begin(), piece.bins.end(), result.histogramBins.begin() + at);
      std::copy(piece.counts.begin(), piece.counts.end(), result.histogramCounts.begin() + at);
    }
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
      DispatchFeaturePixelType(options.intensity.featureImage.pixelType, [&](auto pixel) {
        IntensityOnCpu<decltype(pixel)>(options, grouped, offsets, allThreads, result);
      });
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
