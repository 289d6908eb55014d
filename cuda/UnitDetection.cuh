// The first half of stage 2 of the host sequence (LabelStage.cuh): the
// strategy's units detected. Their rows are counted slab by slab while the
// image arrives (CountUnits, with a sample of the foreground), the counts
// scanned once into row offsets (CountedUnits: one wait for the count and
// the sample), then the units written in raster order with every unit its
// own union-find root (Detect; RunDetection.cuh's kernels: the byte row
// scan for masks in rows of whole 16-byte loads, a row a warp otherwise).
// Strategies whose units are pieces of runs detect the full runs apart
// (DetectFullRuns). LabelStage joins what this detects.
#ifndef cca_cuda_UnitDetection_cuh
#define cca_cuda_UnitDetection_cuh

#include "ByteRowBlocksInShared.cuh"
#include "Compaction.cuh"
#include "Frame.cuh"
#include "PathUses.h"
#include "RunDetection.cuh"
#include "Strategies.cuh"

#include "PixelTypeDispatch.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** Where RunEndIndexUse::Automatic writes the runs' end index: its 4
 *  bytes for 16 pixels pay only where the searches it saves are many and
 *  long. A volume's union-find searches each run's neighbour rows, so
 *  there it pays from VolumeRunEndIndexRunsPerRow runs a row; a plane's
 *  joins its rows from their bits and leaves the index to the pairs and
 *  the votes, so there it pays only from a run in every
 *  PlaneRunEndIndexPixelsPerRun pixels. H100, full table, summed, index
 *  against none (benchmark/results/h100-run-end-index calls 1-2): 512^3,
 *  6- and 26-conn. together, g = 1 48.3 / 46.4 Gvox/s, g = 4 92.8 / 91.4
 *  (its d = 0.1 and 0.9, 11-12 runs a row, even), all foreground 300.6 /
 *  316.3; 6-conn. g = 16 (at most 8 runs a row) 174.5 / 180.2; 8192^2,
 *  4- and 8-conn. together, g = 1 (0.09-0.25 runs a pixel) 48.7 / 48.1,
 *  g = 4 (at most 0.0625) 111.0 / 112.9; 4-conn. g = 16 174.6 / 181.8. */
constexpr std::int64_t VolumeRunEndIndexRunsPerRow = 16;
constexpr std::int64_t PlaneRunEndIndexPixelsPerRun = 12;

/** Whether the writer of a byte mask's runs leaves their end index, for
 *  an image of geometry g holding runs runs. */
inline bool
WritesRunEndIndex(RunEndIndexUse use, const Geometry & g, std::int64_t runs)
{
  if (use == RunEndIndexUse::Never || g.width > RunEndIndexMostWidth)
  {
    return false;
  }
  return use == RunEndIndexUse::Always || (g.depth > 1 ? runs >= VolumeRunEndIndexRunsPerRow * g.rows
                                                       : runs * PlaneRunEndIndexPixelsPerRun >= g.width * g.rows);
}

template <class Device>
class UnitDetection
{
public:
  /** The first pass of the unit detection on rows [firstRow, endRow) of
   *  image: the units of each row counted. Called for consecutive ranges
   *  from row 0; Detect needs every row counted. */
  template <class Index, class Units>
  void
  CountUnits(Device & device, const Frame & frame, const void * image, std::int64_t firstRow, std::int64_t endRow)
  {
    if (firstRow == 0) // contents are undefined after each Reserve: once per run
    {
      // The row counts, the scan's zero after them and, 8-byte aligned,
      // the foreground sample: one memset clears both.
      const std::size_t rows = static_cast<std::size_t>(frame.geometry.rows);
      const std::size_t sampleAt = ((rows + 1) * sizeof(Index) + 7) & ~std::size_t{ 7 };
      auto * const      bytes = static_cast<unsigned char *>(
        m_Units.counts.Reserve(sampleAt + sizeof(unsigned long long), "run counts and a foreground sample"));
      m_UnitCounts = bytes;
      m_UnitOffsets = nullptr;
      m_SampledForeground = reinterpret_cast<unsigned long long *>(bytes + sampleAt);
      device.Fill(bytes + rows * sizeof(Index),
                  0,
                  sampleAt + sizeof(unsigned long long) - rows * sizeof(Index),
                  "clearing a count and a foreground sample");
      m_ForegroundFraction = -1.0;
      // Only the byte row scan keeps the spans of rows of one run.
      m_RowSpansKept = ByteScansRows<Units>(frame, image);
      m_RowSpans = m_RowSpansKept ? Reserve<RowSpan>(m_Units.spans, rows, "row spans") : nullptr;
    }
    m_RowSpansKept &= CountRows<Index, Units>(
      device,
      frame,
      image,
      static_cast<Index *>(m_UnitCounts),
      firstRow,
      endRow,
      ForegroundSample{ m_SampledForeground, firstRow, ForegroundSample::ShiftFor(frame.geometry.rows) },
      m_RowSpans);
  }

  /** How many units CountUnits counted in all rows (their row offsets are
   *  kept for Run); also reads the foreground sample
   *  (CountedForegroundFraction) in the same wait. The scan and the wait
   *  happen once a run: later calls (the host sequence's choices of a
   *  labeling, then LinksByRowBits) return what the first one read. */
  template <class Index>
  Index
  CountedUnits(Device & device, const Frame & frame)
  {
    if (m_UnitOffsets != nullptr)
    {
      return static_cast<Index>(m_UnitTotal);
    }
    const Geometry & g = frame.geometry;
    const auto scanned = ScanRowCounts(device, g, static_cast<Index *>(m_UnitCounts), m_Units, m_SampledForeground);
    m_UnitOffsets = scanned.offsets;
    m_UnitTotal = static_cast<std::uint64_t>(scanned.count);
    const std::int64_t sampledPixels = ForegroundSample::SampledRows(g.rows) * g.width;
    m_ForegroundFraction =
      sampledPixels > 0 ? static_cast<double>(scanned.sampledForeground) / static_cast<double>(sampledPixels) : 0.0;
    return scanned.count;
  }

  /** The foreground fraction of the rows that CountUnits sampled
   *  (ForegroundSample: one row in 64, at most about 512 rows), known once CountedUnits ran this
   *  run, else -1. */
  double
  CountedForegroundFraction() const
  {
    return m_ForegroundFraction;
  }

  /** The units (Units: how rows are cut) of the image whose rows
   *  CountUnits counted, in raster order (DetectUnits with the counts
   *  kept); parent receives the union-find initialisation. */
  template <class Index, class Units>
  RunArrays<Index>
  Detect(Device &      device,
         const Frame & frame,
         const void *  image,
         Index *&      parent,
         bool          writeRuns,
         bool          endIndexForBlocks,
         bool          rootParents,
         std::int32_t  sharedLinkCapacity)
  {
    return DetectUnits<Index, Units>(
      device, frame, image, m_Units, parent, true, writeRuns, endIndexForBlocks, rootParents, sharedLinkCapacity);
  }

  /** The full runs of the image, counted anew (the units of strategies
   *  that cut runs into pieces were counted instead); their parents unused. */
  template <class Index>
  RunArrays<Index>
  DetectFullRuns(Device & device, const Frame & frame, const void * image)
  {
    Index * unusedParent = nullptr;
    return DetectUnits<Index, FullRuns>(device, frame, image, m_FullRuns, unusedParent, false);
  }

  /** Tests and benchmarks: whether the runs of byte masks that fit get
   *  their end index (Always; Automatic: where the rows hold enough runs)
   *  or not (RunNeighbours.cuh, WritesRunEndIndex). */
  void
  SetRunEndIndex(RunEndIndexUse use)
  {
    m_RunEndIndex = use;
  }

  /** SetRunEndIndex's use. */
  RunEndIndexUse
  RunEndIndex() const
  {
    return m_RunEndIndex;
  }

private:
  /** The buffers of one unit table. */
  struct UnitBuffers
  {
    typename Device::Buffer counts;
    typename Device::Buffer offsets;
    typename Device::Buffer x;
    typename Device::Buffer end;
    typename Device::Buffer row;
    typename Device::Buffer parent;
    typename Device::Buffer spans;    ///< RowSpan per row, for rows of one run
    typename Device::Buffer endWords; ///< the runs' end index (RunNeighbours.cuh)
  };

  /** Masks (bytes, and every host mask that crossed the bus as bits) cut
   *  into maximal runs, in rows of whole 16-byte loads: the byte row scan
   *  (RunDetection.cuh) counts and writes their runs. */
  template <class T, class Units>
  static constexpr bool ByteRowScanTypes = std::is_same_v<T, std::uint8_t> && std::is_same_v<Units, FullRuns>;

  /** Whether CountRows takes the byte row scan for image's rows from the
   *  first on (FitsByteRowScan checks the pixel type). */
  template <class Units>
  static bool
  ByteScansRows(const Frame & frame, const void * image)
  {
    return std::is_same_v<Units, FullRuns> && FitsByteRowScan(frame, image);
  }

  /** WriteByteRunsKernel's grid: where rows hold at most
   *  ByteRunsFewPerRow runs on average (a volume's solid objects: rows of
   *  one run or none), resident blocks, so that each warp's lanes read the
   *  offsets of its next 32 rows together (all-on 512^3 full table, H200:
   *  the kernel 63 -> 40 us a run, 6-conn. 309.8-318.3 -> 322.4-331.4
   *  Gvox/s, 26-conn. 308.3-322.3 -> 320.2-338.9); else a warp a row, which
   *  the device schedules as warps finish: fixed shares of rows of many
   *  runs made 512^3 6-conn. g = 1 1.2 % slower
   *  (benchmark/results/h200-sparse-and-all-on, calls 2 and 3). */
  template <class Index>
  static unsigned
  ByteRunWritingBlocks(Device & device, const Geometry & g, Index runs, unsigned rowBlocks)
  {
    if (static_cast<std::int64_t>(runs) > ByteRunsFewPerRow * g.rows)
    {
      return rowBlocks;
    }
    return std::min(rowBlocks, device.ResidentBlocks(WriteByteRunsKernel<Index>, BlockThreads));
  }

  /** Calls f(breaks) with where the runs of Units end in this frame: also
   *  where the value changes in a label image (full runs only). */
  template <class Units, class F>
  static void
  WithRunBreaks(const Frame & frame, F && f)
  {
    if constexpr (std::is_same_v<Units, FullRuns>)
    {
      if (frame.options.objects != Objects::ForegroundComponents)
      {
        f(std::integral_constant<RunBreaks, RunBreaks::ValueChanges>{});
        return;
      }
    }
    f(std::integral_constant<RunBreaks, RunBreaks::Foreground>{});
  }

  /** Counts the units (Units: how rows are cut) of rows [firstRow, endRow)
   *  into rowCounts; whether the byte row scan counted them, and so kept
   *  the spans of the rows of one run in spans (indexed by row, as
   *  rowCounts; null: not kept). */
  template <class Index, class Units>
  bool
  CountRows(Device &         device,
            const Frame &    frame,
            const void *     image,
            Index *          rowCounts,
            std::int64_t     firstRow,
            std::int64_t     endRow,
            ForegroundSample sample = {},
            RowSpan *        spans = nullptr)
  {
    const Geometry & g = frame.geometry;
    Geometry         slab = g;
    slab.rows = endRow - firstRow;
    bool byteScan = false;
    DispatchPixelType(frame.image.pixelType, [&](auto zero) {
      using T = decltype(zero);
      const T * rows = static_cast<const T *>(image) + firstRow * g.width;
      if constexpr (ByteRowScanTypes<T, Units>)
      {
        if (FitsByteRowScan(frame, rows))
        {
          device.Launch("run counting kernel",
                        BlocksFor(slab.rows, WarpsPerBlock * ByteRowsPerWarp(g.width)),
                        BlockThreads,
                        CountByteRunsKernel<Index>,
                        rows,
                        slab,
                        ForegroundOf<T>(frame.options),
                        rowCounts + firstRow,
                        sample,
                        spans == nullptr ? nullptr : spans + firstRow);
          byteScan = true;
          return;
        }
      }
      WithRunBreaks<Units>(frame, [&](auto breaks) {
        device.Launch("run counting kernel",
                      BlocksFor(slab.rows, WarpsPerBlock),
                      BlockThreads,
                      CountRunsKernel<T, Index, Units, decltype(breaks)::value>,
                      rows,
                      slab,
                      ForegroundOf<T>(frame.options),
                      rowCounts + firstRow,
                      sample);
      });
    });
    return byteScan;
  }

  /** Row offsets of units (an exclusive scan of the row counts) and their
   *  total; with a foreground sample, its sum, read in the same wait. */
  template <class Index>
  struct ScannedCounts
  {
    Index *            offsets;
    Index              count;
    unsigned long long sampledForeground = 0;
  };
  template <class Index>
  ScannedCounts<Index>
  ScanRowCounts(Device &                   device,
                const Geometry &           g,
                Index *                    rowCounts,
                UnitBuffers &              buffers,
                const unsigned long long * sampledForeground = nullptr)
  {
    auto * rowOffsets = Reserve<Index>(buffers.offsets, static_cast<std::size_t>(g.rows) + 1, "row offsets");
    if (sampledForeground == nullptr) // else CountUnits cleared the count after the rows with the sample
    {
      device.Fill(rowCounts + g.rows, 0, sizeof(Index), "clearing a count");
    }
    device.ExclusiveSum("scan", rowCounts, rowOffsets, g.rows + 1);
    if (sampledForeground == nullptr)
    {
      return ScannedCounts<Index>{ rowOffsets, device.Read(rowOffsets + g.rows, "reading a count from the device") };
    }
    const auto read = device.Read(rowOffsets + g.rows, sampledForeground, "reading two counts from the device");
    return ScannedCounts<Index>{ rowOffsets, read.first, read.second };
  }


  /** Units (Units: how rows are cut) in raster order; parent receives the
   *  union-find initialisation (every unit its own root). Counts them first
   *  unless CountRows counted every row already (counted). Without
   *  writeRuns only the row offsets and parents: x, end and row stay null;
   *  with endIndexForBlocks (a plane of a byte mask whose rows' bits join
   *  its runs), also the runs' end index where the rows will be joined in
   *  blocks in shared memory (ByteRowBlockRows). Without rootParents the
   *  byte row scan leaves the parents unset (the caller sets them).
   *  sharedLinkCapacity: LabelStage::SetSharedLinkCapacity's, for
   *  ByteRowBlockRows. */
  template <class Index, class Units>
  RunArrays<Index>
  DetectUnits(Device &      device,
              const Frame & frame,
              const void *  image,
              UnitBuffers & buffers,
              Index *&      parent,
              bool          counted,
              bool          writeRuns = true,
              bool          endIndexForBlocks = false,
              bool          rootParents = true,
              std::int32_t  sharedLinkCapacity = 0)
  {
    const Geometry & g = frame.geometry;
    Index *          rowCounts = static_cast<Index *>(m_UnitCounts);
    const RowSpan *  spans = m_RowSpansKept ? m_RowSpans : nullptr;
    if (!counted)
    {
      rowCounts = Reserve<Index>(buffers.counts, static_cast<std::size_t>(g.rows) + 1, "run counts");
      RowSpan * kept = ByteScansRows<Units>(frame, image)
                         ? Reserve<RowSpan>(buffers.spans, static_cast<std::size_t>(g.rows), "row spans")
                         : nullptr;
      spans = CountRows<Index, Units>(device, frame, image, rowCounts, 0, g.rows, {}, kept) ? kept : nullptr;
    }
    ScannedCounts<Index> scanned{ static_cast<Index *>(m_UnitOffsets), static_cast<Index>(m_UnitTotal) };
    if (!counted || m_UnitOffsets == nullptr) // else CountedUnits scanned them
    {
      scanned = ScanRowCounts(device, g, rowCounts, buffers);
    }
    Index * const  rowOffsets = scanned.offsets;
    const Index    count = scanned.count;
    const unsigned rowBlocks = BlocksFor(g.rows, WarpsPerBlock);

    RunArrays<Index> runs;
    runs.count = count;
    runs.rowOffsets = rowOffsets;
    parent = Reserve<Index>(buffers.parent, count, "union-find parents");
    if (!writeRuns)
    {
      runs.x = runs.end = nullptr;
      runs.row = nullptr;
      if (count > 0 && endIndexForBlocks && g.width % RunEndWordPixels == 0 && g.width <= RunEndIndexMostWidth &&
          ByteRowBlockRows(g, static_cast<std::int64_t>(count), true, sharedLinkCapacity) > 0)
      {
        runs.endWordsPerRow = g.width / RunEndWordPixels;
        auto * endWords = Reserve<std::uint32_t>(
          buffers.endWords, static_cast<std::size_t>(g.rows * runs.endWordsPerRow), "run end index");
        runs.endWords = endWords;
        device.Launch("union-find initialisation kernel (with the run end index)",
                      rowBlocks,
                      BlockThreads,
                      WriteByteRunEndIndexKernel<Index>,
                      static_cast<const std::uint8_t *>(image),
                      g,
                      ForegroundOf<std::uint8_t>(frame.options),
                      rowOffsets,
                      parent,
                      endWords,
                      runs.endWordsPerRow);
      }
      else if (count > 0)
      {
        LaunchIota(device, "union-find initialisation kernel", count, parent);
      }
      return runs;
    }
    runs.x = Reserve<std::int32_t>(buffers.x, count, "run starts");
    runs.end = Reserve<std::int32_t>(buffers.end, count, "run ends");
    runs.row = Reserve<Index>(buffers.row, count, "run rows");
    if (count > 0)
    {
      DispatchPixelType(frame.image.pixelType, [&](auto zero) {
        using T = decltype(zero);
        if constexpr (ByteRowScanTypes<T, Units>)
        {
          if (FitsByteRowScan(frame, static_cast<const T *>(image)))
          {
            std::uint32_t * endWords = nullptr;
            if (WritesRunEndIndex(m_RunEndIndex, g, static_cast<std::int64_t>(count)))
            {
              runs.endWordsPerRow = g.width / RunEndWordPixels;
              endWords = Reserve<std::uint32_t>(
                buffers.endWords, static_cast<std::size_t>(g.rows * runs.endWordsPerRow), "run end index");
              runs.endWords = endWords;
            }
            device.Launch("run writing kernel",
                          ByteRunWritingBlocks(device, g, count, rowBlocks),
                          BlockThreads,
                          WriteByteRunsKernel<Index>,
                          static_cast<const T *>(image),
                          g,
                          ForegroundOf<T>(frame.options),
                          runs,
                          rootParents ? parent : nullptr,
                          spans,
                          endWords);
            return;
          }
        }
        WithRunBreaks<Units>(frame, [&](auto breaks) {
          device.Launch("run writing kernel",
                        rowBlocks,
                        BlockThreads,
                        WriteRunsKernel<T, Index, Units, decltype(breaks)::value>,
                        static_cast<const T *>(image),
                        g,
                        ForegroundOf<T>(frame.options),
                        runs,
                        parent);
        });
      });
    }
    return runs;
  }

  UnitBuffers          m_Units;                       ///< the labeling units (the runs, for FLSL)
  void *               m_UnitCounts = nullptr;        ///< m_Units.counts as CountUnits reserved it this run
  void *               m_UnitOffsets = nullptr;       ///< m_Units.offsets once CountedUnits scanned this run's counts
  std::uint64_t        m_UnitTotal = 0;               ///< the units CountedUnits found
  unsigned long long * m_SampledForeground = nullptr; ///< after the counts in m_Units.counts, as CountUnits reserved it
  double               m_ForegroundFraction = -1.0;   ///< CountedForegroundFraction
  RowSpan *            m_RowSpans = nullptr;          ///< m_Units.spans as CountUnits reserved it this run
  bool                 m_RowSpansKept = false;        ///< whether CountUnits kept them for every row this run
  UnitBuffers          m_FullRuns;                    ///< the runs, for strategies whose units are smaller
  RunEndIndexUse       m_RunEndIndex = RunEndIndexUse::Automatic; ///< SetRunEndIndex
  /** ByteRunWritingBlocks: the most runs a row, on average, of images
   *  whose runs are written by resident blocks. */
  static constexpr std::int64_t ByteRunsFewPerRow = 2;
};

} // namespace cuda
} // namespace cca

#endif
