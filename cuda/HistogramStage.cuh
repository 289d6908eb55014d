// The histograms of the intensity group (HistogramOptions), sparse: every
// object pixel becomes a key (object << bin bits | bin, ITK's binning of
// IntensityRecord.h), a radix sort groups the keys by object and bin, and
// the places where the key changes are the non-empty bins, whose counts are
// distances between them. Positions in the sorted keys are cumulative
// counts, so each object's median (StatisticsLabelMapFilter's rule) is a
// binary search over its bins. No dense per-object array anywhere: the
// cost is a sort of the object pixels, paid only when a histogram or a
// median is asked for.
#ifndef cca_cuda_HistogramStage_cuh
#define cca_cuda_HistogramStage_cuh

#include "DeviceGeometry.cuh"
#include "Frame.cuh"
#include "IntensityRecord.h"
#include "OutputStage.cuh"
#include "PixelTypeDispatch.h"

#include "cca/Types.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace cca
{
namespace cuda
{

/** range[0] = min, range[1] = max of the value keys of a whole image
 *  (start: ~0 and 0), as ITK's MinimumMaximumImageCalculator finds them:
 *  from the keys of max() and NonpositiveMin() (every thread starts there),
 *  NaN passed over (its key would order past the infinities). */
template <class T>
__global__ void
FeatureRangeKernel(const T * __restrict__ feature, std::int64_t pixels, unsigned long long * range)
{
  AwaitPrecedingKernel();
  unsigned long long low = detail::ValueKey(std::numeric_limits<T>::max());
  unsigned long long high = detail::ValueKey(detail::NonpositiveMinimum<T>());
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < pixels; i += stride)
  {
    const T v = feature[i];
    if (detail::IsNan(v))
    {
      continue;
    }
    const unsigned long long key = detail::ValueKey(v);
    low = key < low ? key : low;
    high = key > high ? key : high;
  }
  for (int offset = WarpSize / 2; offset > 0; offset /= 2)
  {
    const unsigned long long otherLow = __shfl_xor_sync(FullWarp, low, offset);
    const unsigned long long otherHigh = __shfl_xor_sync(FullWarp, high, offset);
    low = otherLow < low ? otherLow : low;
    high = otherHigh > high ? otherHigh : high;
  }
  if (LaneId() == 0)
  {
    atomicMin(range, low);
    atomicMax(range + 1, high);
  }
}

/** The number of pixels of run i (0 past the last run): their exclusive sum
 *  places each run's keys. */
template <class Index>
struct RunPixels
{
  RunArrays<Index>    runs;
  __host__ __device__ std::int64_t
                      operator()(std::int64_t i) const
  {
    return i < static_cast<std::int64_t>(runs.count) ? runs.end[i] - runs.x[i] : 0;
  }
};

/** One thread per run: a key per pixel, the sentinel for pixels of removed
 *  objects and values the clipped binning leaves out. */
template <class T, class Index>
__global__ void
HistogramKeysKernel(RunArrays<Index> runs,
                    const Index * __restrict__ label,
                    Index removed,
                    const T * __restrict__ feature,
                    Geometry                 geometry,
                    detail::HistogramBinning binning,
                    int                      binBits,
                    const std::int64_t * __restrict__ start,
                    std::uint64_t sentinel,
                    std::uint64_t * __restrict__ keys)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index a = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; a < runs.count; a += stride)
  {
    const Index         object = label[a];
    const std::uint64_t prefix = static_cast<std::uint64_t>(object) << binBits;
    const std::int64_t  row = static_cast<std::int64_t>(runs.row[a]) * geometry.width;
    std::uint64_t *     out = keys + start[a] - runs.x[a];
    for (std::int32_t x = runs.x[a]; x < runs.end[a]; ++x)
    {
      const std::int64_t bin = object == removed ? -1 : binning.Find(static_cast<double>(feature[row + x]));
      out[x] = bin < 0 ? sentinel : prefix | static_cast<std::uint64_t>(bin);
    }
  }
}

/** 1 where a sorted key starts a non-empty bin (keys below the sentinel). */
struct BinStarts
{
  const std::uint64_t * keys;
  std::int64_t          count;
  std::uint64_t         sentinel;
  __host__ __device__   std::int64_t
                        operator()(std::int64_t k) const
  {
    return k < count && keys[k] < sentinel && (k == 0 || keys[k] != keys[k - 1]) ? 1 : 0;
  }
};

/** The non-empty bins: their keys and where they start in the sorted keys;
 *  entryStart[entries] = the number of valid keys. */
template <class Count>
__global__ void
BinEntriesKernel(Count count,
                 const std::uint64_t * __restrict__ keys,
                 const std::int64_t * __restrict__ index,
                 std::uint64_t sentinel,
                 std::uint64_t * __restrict__ entryKey,
                 std::int64_t * __restrict__ entryStart)
{
  AwaitPrecedingKernel();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < count; k += stride)
  {
    const std::uint64_t key = keys[k];
    if (key >= sentinel)
    {
      continue;
    }
    if (k == 0 || keys[k - 1] != key)
    {
      entryKey[index[k]] = key;
      entryStart[index[k]] = k;
    }
    if (k == count - 1 || keys[k + 1] >= sentinel)
    {
      // The last binned key: index[k] counts the bins started before k,
      // its own included only when it starts one.
      const bool starts = k == 0 || keys[k - 1] != key;
      entryStart[(starts ? index[k] : index[k] - 1) + 1] = k + 1;
    }
  }
}

/** offsets[c] = the first entry of object c (c <= objects): a lower bound. */
template <class Count>
__global__ void
ObjectEntriesKernel(Count objects,
                    const std::uint64_t * __restrict__ entryKey,
                    std::int64_t entries,
                    int          binBits,
                    std::int64_t * __restrict__ offsets)
{
  AwaitPrecedingKernel();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; c <= objects; c += stride)
  {
    std::int64_t low = 0;
    std::int64_t high = entries;
    while (low < high)
    {
      const std::int64_t middle = low + (high - low) / 2;
      if (static_cast<std::int64_t>(entryKey[middle] >> binBits) < c)
      {
        low = middle + 1;
      }
      else
      {
        high = middle;
      }
    }
    offsets[c] = low;
  }
}

/** StatisticsLabelMapFilter's median of each object: the first bin where the
 *  cumulative count reaches (total + 1) / 2, averaged with the next one when
 *  an even object ends exactly at half there. */
template <class Count>
__global__ void
MediansKernel(Count objects,
              const std::int64_t * __restrict__ offsets,
              const std::uint64_t * __restrict__ entryKey,
              const std::int64_t * __restrict__ entryStart,
              const ComponentFeatures * __restrict__ table,
              detail::HistogramBinning binning,
              int                      binBits,
              double * __restrict__ medians)
{
  AwaitPrecedingKernel();
  const std::uint64_t binMask = (std::uint64_t{ 1 } << binBits) - 1;
  const std::int64_t  stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t c = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; c < objects; c += stride)
  {
    const std::int64_t first = offsets[c];
    const std::int64_t last = offsets[c + 1];
    double             median = 0;
    if (first < last)
    {
      const std::int64_t base = entryStart[first];
      const std::int64_t total = entryStart[last] - base;
      const std::int64_t half = (total + 1) / 2;
      std::int64_t       low = first;
      std::int64_t       high = last - 1;
      while (low < high) // the first entry whose cumulative count reaches half
      {
        const std::int64_t middle = low + (high - low) / 2;
        if (entryStart[middle + 1] - base >= half)
        {
          high = middle;
        }
        else
        {
          low = middle + 1;
        }
      }
      median = binning.Center(static_cast<std::int64_t>(entryKey[low] & binMask));
      if (table[c].pixelCount % 2 == 0 && entryStart[low + 1] - base == total / 2 && low + 1 < last)
      {
        median += binning.Center(static_cast<std::int64_t>(entryKey[low + 1] & binMask));
        median *= 0.5;
      }
    }
    medians[c] = median;
  }
}

/** The entries as the result holds them: bin and count. */
template <class Count>
__global__ void
HistogramEntriesKernel(Count entries,
                       const std::uint64_t * __restrict__ entryKey,
                       const std::int64_t * __restrict__ entryStart,
                       int binBits,
                       std::uint32_t * __restrict__ bins,
                       std::int64_t * __restrict__ counts)
{
  AwaitPrecedingKernel();
  const std::uint64_t binMask = (std::uint64_t{ 1 } << binBits) - 1;
  const std::int64_t  stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < entries; e += stride)
  {
    bins[e] = static_cast<std::uint32_t>(entryKey[e] & binMask);
    counts[e] = entryStart[e + 1] - entryStart[e];
  }
}

template <class Device>
class HistogramStage
{
public:
  /** The histograms and medians of the objects (labels per full run, removed
   *  for runs of removed objects) of the feature image on the device. */
  template <class Index>
  void
  Build(Device &                  device,
        const Frame &             frame,
        const void *              feature,
        const RunArrays<Index> &  runs,
        const Index *             runLabel,
        Index                     objects,
        Index                     removed,
        const ComponentFeatures * table)
  {
    const HistogramOptions & h = frame.options.intensity.histogram;
    const PixelType          type = frame.options.intensity.featureImage.pixelType;
    m_Objects = static_cast<std::int64_t>(objects);
    m_Entries = 0;
    m_Built = h.bins > 0;
    if (!m_Built)
    {
      return;
    }
    double lower = h.lower;
    double upper = h.upper;
    if (h.rangeOfFeatureImage)
    {
      auto * range = Reserve<unsigned long long>(m_Range, 2, "the feature image's range");
      device.Fill(range, 0xff, sizeof(unsigned long long), "clearing a minimum");
      device.Fill(range + 1, 0, sizeof(unsigned long long), "clearing a maximum");
      DispatchFeaturePixelType(type, [&](auto zero) {
        using T = decltype(zero);
        device.Launch("feature range kernel",
                      BlocksFor(frame.pixels, BlockThreads * 8),
                      BlockThreads,
                      FeatureRangeKernel<T>,
                      static_cast<const T *>(feature),
                      frame.pixels,
                      range);
        lower = detail::ValueOfKey<T>(device.Read(range, "reading the feature image's minimum"));
        upper = detail::ValueOfKey<T>(device.Read(range + 1, "reading the feature image's maximum"));
      });
    }
    m_Lower = lower;
    m_Upper = upper;
    m_Binning = detail::HistogramBinning::Make(h.bins, lower, upper, h.clipBinsAtEnds);
    m_BinBits = BitsFor(h.bins);
    if (objects == 0)
    {
      return;
    }
    const std::uint64_t sentinel = static_cast<std::uint64_t>(objects) << m_BinBits;
    const int           keyBits = BitsFor(static_cast<std::uint64_t>(objects) + 1) + m_BinBits;

    // Each run's first key, then every key.
    const std::int64_t runCount = static_cast<std::int64_t>(runs.count);
    auto * start = Reserve<std::int64_t>(m_Start, static_cast<std::size_t>(runCount) + 1, "histogram key positions");
    device.ExclusiveSumOf("scan", RunPixels<Index>{ runs }, start, runCount + 1);
    const std::int64_t pixels = device.Read(start + runCount, "reading a count from the device");
    auto *             keys = Reserve<std::uint64_t>(m_Keys, static_cast<std::size_t>(pixels), "histogram keys");
    auto * sorted = Reserve<std::uint64_t>(m_Sorted, static_cast<std::size_t>(pixels), "sorted histogram keys");
    DispatchFeaturePixelType(type, [&](auto zero) {
      using T = decltype(zero);
      device.Launch("histogram key kernel",
                    BlocksFor(runCount, BlockThreads),
                    BlockThreads,
                    HistogramKeysKernel<T, Index>,
                    runs,
                    runLabel,
                    removed,
                    static_cast<const T *>(feature),
                    frame.geometry,
                    m_Binning,
                    m_BinBits,
                    start,
                    sentinel,
                    keys);
    });
    device.SortKeys("sorting histogram keys", keys, sorted, pixels, keyBits);

    // The non-empty bins and where each object's begin.
    auto * index = Reserve<std::int64_t>(m_Index, static_cast<std::size_t>(pixels) + 1, "bin numbers");
    device.ExclusiveSumOf("scan", BinStarts{ sorted, pixels, sentinel }, index, pixels + 1);
    m_Entries = device.Read(index + pixels, "reading a count from the device");
    m_EntryKey = Reserve<std::uint64_t>(m_EntryKeys, static_cast<std::size_t>(m_Entries), "bin keys");
    m_EntryStart = Reserve<std::int64_t>(m_EntryStarts, static_cast<std::size_t>(m_Entries) + 1, "bin starts");
    m_Offsets = Reserve<std::int64_t>(m_ObjectOffsets, static_cast<std::size_t>(objects) + 1, "object bins");
    device.Fill(m_EntryStart, 0, sizeof(std::int64_t), "clearing a count"); // when no pixel is binned
    if (pixels > 0)
    {
      device.Launch("bin entry kernel",
                    BlocksFor(pixels, BlockThreads),
                    BlockThreads,
                    BinEntriesKernel<std::int64_t>,
                    pixels,
                    sorted,
                    index,
                    sentinel,
                    m_EntryKey,
                    m_EntryStart);
    }
    device.Launch("object bin kernel",
                  BlocksFor(m_Objects + 1, BlockThreads),
                  BlockThreads,
                  ObjectEntriesKernel<std::int64_t>,
                  m_Objects,
                  m_EntryKey,
                  m_Entries,
                  m_BinBits,
                  m_Offsets);
    if (h.median)
    {
      m_Medians = Reserve<double>(m_MedianBuffer, static_cast<std::size_t>(objects), "medians");
      device.Launch("median kernel",
                    BlocksFor(m_Objects, BlockThreads),
                    BlockThreads,
                    MediansKernel<std::int64_t>,
                    m_Objects,
                    m_Offsets,
                    m_EntryKey,
                    m_EntryStart,
                    table,
                    m_Binning,
                    m_BinBits,
                    m_Medians);
    }
    if (h.keep && m_Entries > 0)
    {
      m_Bins = Reserve<std::uint32_t>(m_BinBuffer, static_cast<std::size_t>(m_Entries), "histogram bins");
      m_Counts = Reserve<std::int64_t>(m_CountBuffer, static_cast<std::size_t>(m_Entries), "histogram counts");
      device.Launch("histogram entry kernel",
                    BlocksFor(m_Entries, BlockThreads),
                    BlockThreads,
                    HistogramEntriesKernel<std::int64_t>,
                    m_Entries,
                    m_EntryKey,
                    m_EntryStart,
                    m_BinBits,
                    m_Bins,
                    m_Counts);
    }
  }

  /** Medians into medians (host, objects entries), histograms into result:
   *  there once device.FinishDownloads() returns. */
  void
  Download(Device & device, const Frame & frame, std::vector<double> & medians, Result & result)
  {
    const HistogramOptions & h = frame.options.intensity.histogram;
    medians.assign(static_cast<std::size_t>(m_Objects), 0.0);
    if (!m_Built)
    {
      return;
    }
    result.histogramLower = m_Lower;
    result.histogramUpper = m_Upper;
    if (m_Objects == 0)
    {
      if (h.keep)
      {
        result.histogramOffsets.assign(1, 0);
      }
      return;
    }
    if (h.median)
    {
      device.DownloadLater(medians.data(), m_Medians, medians.size() * sizeof(double));
    }
    if (h.keep)
    {
      result.histogramOffsets.resize(static_cast<std::size_t>(m_Objects) + 1);
      device.DownloadLater(
        result.histogramOffsets.data(), m_Offsets, result.histogramOffsets.size() * sizeof(std::int64_t));
      result.histogramBins.resize(static_cast<std::size_t>(m_Entries));
      result.histogramCounts.resize(static_cast<std::size_t>(m_Entries));
      if (m_Entries > 0)
      {
        device.DownloadLater(result.histogramBins.data(), m_Bins, result.histogramBins.size() * sizeof(std::uint32_t));
        device.DownloadLater(
          result.histogramCounts.data(), m_Counts, result.histogramCounts.size() * sizeof(std::int64_t));
      }
    }
  }

private:
  typename Device::Buffer  m_Range;
  typename Device::Buffer  m_Start;
  typename Device::Buffer  m_Keys;
  typename Device::Buffer  m_Sorted;
  typename Device::Buffer  m_Index;
  typename Device::Buffer  m_EntryKeys;
  typename Device::Buffer  m_EntryStarts;
  typename Device::Buffer  m_ObjectOffsets;
  typename Device::Buffer  m_MedianBuffer;
  typename Device::Buffer  m_BinBuffer;
  typename Device::Buffer  m_CountBuffer;
  detail::HistogramBinning m_Binning{};
  double                   m_Lower = 0;
  double                   m_Upper = 0;
  int                      m_BinBits = 1;
  bool                     m_Built = false;
  std::int64_t             m_Objects = 0;
  std::int64_t             m_Entries = 0;
  std::uint64_t *          m_EntryKey = nullptr;
  std::int64_t *           m_EntryStart = nullptr;
  std::int64_t *           m_Offsets = nullptr;
  double *                 m_Medians = nullptr;
  std::uint32_t *          m_Bins = nullptr;
  std::int64_t *           m_Counts = nullptr;
};

} // namespace cuda
} // namespace cca

#endif
