// The intensity group of the host sequence (HostSequence.cuh): a table of
// one IntensityRecord per object (IntensityRecord.h), cleared, voted into by
// the full runs (IntensityVotes.cuh), copied to the host and turned into
// ObjectIntensity there once (IntensityStatistics.h), on host threads.
#ifndef cca_cuda_IntensityStage_cuh
#define cca_cuda_IntensityStage_cuh

#include "DeviceGeometry.cuh"
#include "Frame.cuh"
#include "IntensityRecord.h"
#include "IntensityStatistics.h"
#include "IntensityVotes.cuh"
#include "ParallelFor.h"
#include "PixelTypeDispatch.h"

#include "cca/Types.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace cca
{
namespace cuda
{

template <class Device>
class IntensityStage
{
public:
  /** The records of objects objects from the full runs (runLabel per run,
   *  removed for runs of objects a selection left out), the feature image
   *  on the device (dense, x fastest) and the objects' features (their
   *  sizes and extents bound the sums). */
  template <class Index>
  void
  Vote(Device &                  device,
       const Frame &             frame,
       const void *              feature,
       const RunArrays<Index> &  runs,
       const Index *             runLabel,
       Index                     objects,
       Index                     removed,
       const ComponentFeatures * features)
  {
    m_Objects = static_cast<std::size_t>(objects);
    m_Type = frame.options.intensity.featureImage.pixelType;
    // Only the sums the image can make nonzero are voted and kept on the
    // device: a plane has no z.
    m_Sums = !frame.options.intensity.weightedMoments ? detail::FirstWeightedSum
             : frame.geometry.depth == 1              ? detail::PlanarIntensitySums
                                                      : detail::NumberOfIntensitySums;
    DispatchFeaturePixelType(m_Type, [&](auto zero) {
      using T = decltype(zero);
      WithSums([&](auto sums) {
        constexpr int Sums = decltype(sums)::value;
        using Record = DeviceIntensityRecord<detail::IntensitySum_t<T>, Sums>;
        m_RecordBytes = sizeof(Record);
        m_Packed = detail::PackedExtremes<T>(frame.pixels);
        auto * table = Reserve<Record>(m_Table, m_Objects, "the intensity table");
        m_Device = table;
        if (objects == 0)
        {
          return;
        }
        // All zeros is the neutral record on the device (DeviceIntensityRecord).
        device.Fill(table, 0, m_Objects * sizeof(Record), "the intensity table");
        // Sums in double have no narrow form: the votes kernel reads no mask.
        std::uint16_t * narrow = nullptr;
        if constexpr (detail::ExactIntensitySums<T>)
        {
          narrow = Reserve<std::uint16_t>(m_NarrowSums, m_Objects, "the intensity table's narrow sums");
          device.Launch("narrow sums kernel",
                        BlocksFor(static_cast<std::int64_t>(objects), BlockThreads),
                        BlockThreads,
                        NarrowSumsKernel<T>,
                        static_cast<std::int64_t>(objects),
                        features,
                        narrow);
        }
        const auto *   pixels = static_cast<const T *>(feature);
        const unsigned blocks = BlocksFor(static_cast<std::int64_t>(runs.count), BlockThreads);
        auto           kernel = IntensityVotesKernel<T, Index, Sums>;
        device.LaunchAllBlocksTogether("intensity vote kernel",
                                       std::min(blocks, device.ResidentBlocks(kernel, BlockThreads)),
                                       BlockThreads,
                                       kernel,
                                       runs,
                                       runLabel,
                                       removed,
                                       pixels,
                                       frame.geometry,
                                       m_Packed,
                                       narrow,
                                       table);
        if (!m_Packed)
        {
          device.Launch("extreme index kernel",
                        blocks,
                        BlockThreads,
                        ExtremeIndicesKernel<T, Index, Sums>,
                        runs,
                        runLabel,
                        removed,
                        pixels,
                        frame.geometry,
                        table);
        }
      });
    });
  }

  /** The records to the host, there once device.FinishDownloads() returns. */
  void
  Download(Device & device)
  {
    m_Host.resize(m_Objects * m_RecordBytes / sizeof(std::uint64_t));
    device.DownloadLater(m_Host.data(), m_Device, m_Objects * m_RecordBytes);
  }

  /** result.intensity from the records, the medians and result.features. */
  void
  Finish(const Frame & frame, const std::vector<double> & medians, Result & result) const
  {
    result.intensity.resize(m_Objects);
    const std::int64_t objects = static_cast<std::int64_t>(m_Objects);
    const int          threads = static_cast<int>(
      std::max<std::int64_t>(1, std::min<std::int64_t>(HostThreads(frame.options.numberOfThreads), objects / 1024)));
    DispatchFeaturePixelType(m_Type, [&](auto zero) {
      using T = decltype(zero);
      WithSums([&](auto sums) {
        using DeviceRecord = DeviceIntensityRecord<detail::IntensitySum_t<T>, decltype(sums)::value>;
        const auto * records = reinterpret_cast<const DeviceRecord *>(m_Host.data());
        ParallelForChunks(threads, [&](int c) {
          for (std::int64_t k = objects * c / threads; k < objects * (c + 1) / threads; ++k)
          {
            ObjectIntensity &         out = result.intensity[static_cast<std::size_t>(k)];
            const ComponentFeatures & f = result.features[static_cast<std::size_t>(k)];
            auto                      record = HostRecord(records[k]);
            if constexpr (detail::ExactIntensitySums<T>)
            {
              // The same bound as the device's (NarrowSumsKernel), from
              // the same features: the narrow sums hold only their low words.
              detail::NarrowSumsExtended(record, detail::NarrowIntensitySums<T>(f.pixelCount, f.boundingBoxMax));
            }
            detail::FinishIntensity<T>(record,
                                       f.pixelCount,
                                       m_Packed,
                                       frame.geometry.width,
                                       frame.geometry.height,
                                       frame.options.intensity.weightedMoments,
                                       out);
            out.median = medians[static_cast<std::size_t>(k)];
          }
        });
      });
    });
  }

private:
  /** f(std::integral_constant<int, m_Sums>). */
  template <class F>
  void
  WithSums(F && f) const
  {
    switch (m_Sums)
    {
      case detail::FirstWeightedSum:
        f(std::integral_constant<int, detail::FirstWeightedSum>{});
        break;
      case detail::PlanarIntensitySums:
        f(std::integral_constant<int, detail::PlanarIntensitySums>{});
        break;
      default:
        f(std::integral_constant<int, detail::NumberOfIntensitySums>{});
        break;
    }
  }

  typename Device::Buffer    m_Table;
  typename Device::Buffer    m_NarrowSums; ///< per object: NarrowIntensitySums
  void *                     m_Device = nullptr;
  std::vector<std::uint64_t> m_Host; ///< the records, 8-byte aligned
  std::size_t                m_Objects = 0;
  std::size_t                m_RecordBytes = 0;
  PixelType                  m_Type = PixelType::UInt8;
  bool                       m_Packed = true;
  int                        m_Sums = detail::NumberOfIntensitySums; ///< sums per device record
};

} // namespace cuda
} // namespace cca

#endif
