// The CPU backend's intensity group (CpuIntensity.h). The objects' runs
// are cut into chunks of about equal numbers of pixels, one a thread, so
// that one large object (a label image's background) is shared by every
// thread. A chunk sums its whole objects' values straight into their
// records and keeps the pieces of objects it shares with other chunks
// apart, merged after; with double sums a chunk starts at an object's
// first run instead, as merged partial sums would round differently.
// Histograms go the same way.
#include "CpuIntensity.h"
#include "DensePixels.h"
#include "IntensityRecord.h"
#include "IntensityStatistics.h"
#include "ParallelFor.h"
#include "PixelTypeDispatch.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace cca
{
namespace
{

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

} // namespace

void
IntensityStatisticsOnCpu(const Options &                   options,
                         const std::vector<cca::Run> &     grouped,
                         const std::vector<std::int64_t> & offsets,
                         int                               threads,
                         Result &                          result)
{
  DispatchFeaturePixelType(options.intensity.featureImage.pixelType, [&](auto pixel) {
    IntensityOnCpu<decltype(pixel)>(options, grouped, offsets, threads, result);
  });
}

} // namespace cca
