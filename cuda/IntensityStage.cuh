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
   *  removed for runs of objects a selection left out) and the feature image
   *  on the device (dense, x fastest). */
  template <class Index>
  void
  Vote(Device &                 device,
       const Frame &            frame,
       const void *             feature,
       const RunArrays<Index> & runs,
       const Index *            runLabel,
       Index                    objects,
       Index                    removed)
  {
    m_Objects = static_cast<std::size_t>(objects);
    m_Type = frame.options.intensity.featureImage.pixelType;
    DispatchFeaturePixelType(m_Type, [&](auto zero) {
      using T = decltype(zero);
      using Record = detail::IntensityRecord<detail::IntensitySum_t<T>>;
      m_RecordBytes = sizeof(Record);
      m_Packed = detail::PackedExtremes<T>(frame.pixels);
      auto * table = Reserve<Record>(m_Table, m_Objects, "the intensity table");
      m_Device = table;
      if (objects == 0)
      {
        return;
      }
      constexpr std::int64_t words = sizeof(Record) / 8;
      device.Launch("intensity table kernel",
                    BlocksFor(static_cast<std::int64_t>(objects) * words, BlockThreads),
                    BlockThreads,
                    ClearIntensityKernel<detail::IntensitySum_t<T>>,
                    static_cast<std::int64_t>(objects),
                    table);
      const auto *   pixels = static_cast<const T *>(feature);
      const unsigned blocks = BlocksFor(static_cast<std::int64_t>(runs.count), BlockThreads);
      auto           launch = [&](auto kernel) {
        device.Launch("intensity vote kernel",
                      std::min(blocks, device.ResidentBlocks(kernel, BlockThreads)),
                      BlockThreads,
                      kernel,
                      runs,
                      runLabel,
                      removed,
                      pixels,
                      frame.geometry,
                      m_Packed,
                      table);
      };
      // Only the sums the image can make nonzero are voted: a plane has no z.
      if (!frame.options.intensity.weightedMoments)
      {
        launch(IntensityVotesKernel<T, Index, detail::FirstWeightedSum>);
      }
      else if (frame.geometry.depth == 1)
      {
        launch(IntensityVotesKernel<T, Index, detail::PlanarIntensitySums>);
      }
      else
      {
        launch(IntensityVotesKernel<T, Index, detail::NumberOfIntensitySums>);
      }
      if (!m_Packed)
      {
        device.Launch("extreme index kernel",
                      blocks,
                      BlockThreads,
                      ExtremeIndicesKernel<T, Index>,
                      runs,
                      runLabel,
                      removed,
                      pixels,
                      frame.geometry,
                      table);
      }
    });
  }

  void
  Download(Device & device)
  {
    m_Host.resize(m_Objects * m_RecordBytes / sizeof(std::uint64_t));
    device.Download(m_Host.data(), m_Device, m_Objects * m_RecordBytes);
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
      using Record = detail::IntensityRecord<detail::IntensitySum_t<T>>;
      const auto * records = reinterpret_cast<const Record *>(m_Host.data());
      ParallelForChunks(threads, [&](int c) {
        for (std::int64_t k = objects * c / threads; k < objects * (c + 1) / threads; ++k)
        {
          ObjectIntensity & out = result.intensity[static_cast<std::size_t>(k)];
          detail::FinishIntensity<T>(records[k],
                                     result.features[static_cast<std::size_t>(k)].pixelCount,
                                     m_Packed,
                                     frame.geometry.width,
                                     frame.geometry.height,
                                     frame.options.intensity.weightedMoments,
                                     out);
          out.median = medians[static_cast<std::size_t>(k)];
        }
      });
    });
  }

private:
  typename Device::Buffer    m_Table;
  void *                     m_Device = nullptr;
  std::vector<std::uint64_t> m_Host; ///< the records, 8-byte aligned
  std::size_t                m_Objects = 0;
  std::size_t                m_RecordBytes = 0;
  PixelType                  m_Type = PixelType::UInt8;
  bool                       m_Packed = true;
};

} // namespace cuda
} // namespace cca

#endif
