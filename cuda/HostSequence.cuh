// The CUDA backend's host sequence, written once against a device and run
// by the backend on the GPU (StreamDevice.cuh) and by the emulation tests on
// CPU threads (test/gpu/emulation/EmulatedDevice.h). One run, stage by stage:
//   1. upload the image (this file);
//   2. label the units: detect them, join them into components (LabelStage.cuh);
//   3. number the components in raster order (NumberingStage.cuh);
//   4. build the feature table, one stage per FeatureCompaction
//      (VotedTables.cuh: Scan and None; TreeMergeTable.cuh: TreeMerge);
//   5. write the per-run and per-pixel outputs (OutputStage.cuh);
//   6. download the table and the outputs, then finish the table on the
//      host where the compaction needs it.
// Each stage owns its device buffers, kept across runs (they only grow).
// The strategy (Strategies.cuh) is a template argument of every stage: a
// new strategy or compaction is written once, and emulated for free.
//
// A Device has (all work in order, as on one CUDA stream):
//   using Buffer;                          device memory kept across runs: void * Reserve(bytes, what),
//                                          contents undefined after each Reserve
//   Begin()                                before a run: earlier work done, BytesToHost() cleared
//   Launch(what, blocks, threads, kernel, args...)
//   ResidentBlocks(kernel, threads)        blocks of kernel that fit on the device at once
//   Fill(destination, byte, bytes, what)
//   Read(const T * source, what) -> T      waits for the work so far
//   Scratch<T>(slot, count, what)          per-call scratch of the pixel labelings (PixelLabeling.cuh)
//   ExclusiveSum(what, in, out, count)     out[i] = in[0] + ... + in[i - 1]
//   ExclusiveSumOf(what, f, out, count)    out[i] = f(0) + ... + f(i - 1)
//   SortPairs(what, keysIn, keysOut, valuesIn, valuesOut, count, endBit)   stable by key, keys < 2^endBit
//   Upload(destination, bytes, producer)   host bytes (DensePixels.h) to device memory
//   Download(host, source, bytes)          device memory to the host; returns when it is there
//   Record(Milestone), Wait(), Milliseconds(from, to), BytesToHost()
#ifndef cca_cuda_HostSequence_cuh
#define cca_cuda_HostSequence_cuh

#include "Frame.cuh"
#include "LabelStage.cuh"
#include "Milestones.h"
#include "NumberingStage.cuh"
#include "OutputStage.cuh"
#include "Strategies.cuh"
#include "TreeMergeTable.cuh"
#include "UpdateCounts.cuh"
#include "VotedTables.cuh"

#include "DensePixels.h"

#include "cca/Types.h"

#include <cstdint>
#include <string>
#include <tuple>

namespace cca
{
namespace cuda
{

/** Stage 1: the image, dense and x fastest, in device memory. */
template <class Device>
class UploadStage
{
public:
  const void *
  Run(Device & device, const Frame & frame)
  {
    const std::size_t bytes =
      static_cast<std::size_t>(frame.pixels) * static_cast<std::size_t>(PixelTypeSize(frame.image.pixelType));
    void * image = m_Image.Reserve(bytes, "the image");
    device.Upload(image, bytes, DensePixelProducer(frame.image));
    return image;
  }

private:
  typename Device::Buffer m_Image;
};

/** Stage 4, one table stage per cca::FeatureCompaction. */
template <class Device>
using FeatureTables = std::tuple<DenseTable<Device>, SparseTable<Device>, TreeMergeTable<Device>>;

/** Calls f(table) with the table stage of compaction. */
template <class Tables, class F>
void
WithFeatureTable(Tables & tables, FeatureCompaction compaction, F && f)
{
  const bool found = std::apply(
    [&](auto &... table) { return ((table.Compaction == compaction ? (f(table), true) : false) || ...); }, tables);
  if (!found)
  {
    throw Error(Error::Kind::InvalidInput, "unknown feature compaction");
  }
}

template <class Device>
class HostSequence
{
public:
  /** Labels image with the strategy of options.algorithm (Strategies.cuh)
   *  and fills result (all but backendUsed and times.totalMs). */
  void
  Run(Device & device, const ImageView & image, const Options & options, Result & result)
  {
    if (options.objects != Objects::ForegroundComponents || options.intensity.Requested() ||
        options.selection.Active() || options.foregroundRule == ForegroundRule::All)
    {
      throw Error(Error::Kind::InvalidInput, "label images, feature images and the selection are not available in "
                                             "the CUDA backend yet: use the CPU backend");
    }
    WithStrategy(options.algorithm, [&](auto entry) {
      using S = typename decltype(entry)::Strategy;
      if (NeedsWideIndex<S>(image))
      {
        RunStrategy<unsigned long long, S>(device, image, options, result);
      }
      else
      {
        RunStrategy<std::uint32_t, S>(device, image, options, result);
      }
    });
  }

  /** The same with strategy S and unit index type Index (tests run
   *  strategies outside the table this way). */
  template <class Index, class S>
  void
  RunStrategy(Device & device, const ImageView & image, const Options & options, Result & result)
  {
    if constexpr (S::LabelsPixels)
    {
      if (image.dimension == 3 && !S::Labeling::Supports3D)
      {
        throw Error(Error::Kind::InvalidInput, std::string("the algorithm ") + AlgorithmName(options.algorithm) +
                                                 " labels 2D images only");
      }
    }
    const Frame frame = MakeFrame(image, options);
    device.Begin();

    device.Record(Milestone::Start);
    const void * deviceImage = m_Upload.Run(device, frame);
    device.Record(Milestone::ImageUploaded);
    const LabeledUnits<Index> labeled = m_Labeling.template Run<Index, S>(device, frame, deviceImage, m_Counts);
    device.Record(Milestone::UnitsLabeled);
    const Components<Index> components = m_Numbering.Run(device, frame, labeled);
    WithFeatureTable(m_Tables, options.featureCompaction,
                     [&](auto & table) { table.template Build<Index, S>(device, frame, labeled, components, m_Counts); });
    m_Outputs.template Write<Index, S>(device, frame, deviceImage, labeled, components);
    device.Record(Milestone::OutputsComputed);

    result.componentCount = static_cast<std::int64_t>(components.count);
    WithFeatureTable(m_Tables, options.featureCompaction, [&](auto & table) { table.Download(device, result); });
    m_Outputs.Download(device, frame, result);
    device.Record(Milestone::OutputsDownloaded);
    device.Wait();

    result.times.uploadMs = device.Milliseconds(Milestone::Start, Milestone::ImageUploaded);
    result.times.labelMs = device.Milliseconds(Milestone::ImageUploaded, Milestone::UnitsLabeled);
    result.times.featuresMs = device.Milliseconds(Milestone::UnitsLabeled, Milestone::OutputsComputed);
    result.times.downloadMs = device.Milliseconds(Milestone::OutputsComputed, Milestone::OutputsDownloaded);
    WithFeatureTable(m_Tables, options.featureCompaction, [&](auto & table) { table.Finish(result); });
    if (options.countAtomicUpdates)
    {
      m_Counts.Total(device, result);
    }
    result.bytesCopiedToHost = device.BytesToHost();
  }

  /** Tests: 64-bit unit indices even for small images (the path of large ones). */
  void
  SetForceWideIndex(bool force)
  {
    m_ForceWideIndex = force;
  }

  /** Copies of the tree merge compaction that needed a second one, over all runs. */
  std::int64_t
  TreeMergeSecondCopies() const
  {
    return std::get<TreeMergeTable<Device>>(m_Tables).SecondCopies();
  }

  /** The stages, for tests that inspect the device arrays of the last run. */
  const LabelStage<Device> &
  Labeling() const
  {
    return m_Labeling;
  }
  const TreeMergeTable<Device> &
  TreeMerge() const
  {
    return std::get<TreeMergeTable<Device>>(m_Tables);
  }

private:
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

  UploadStage<Device>    m_Upload;
  LabelStage<Device>     m_Labeling;
  NumberingStage<Device> m_Numbering;
  FeatureTables<Device>  m_Tables;
  OutputStage<Device>    m_Outputs;
  UpdateCounts<Device>   m_Counts;
  bool                   m_ForceWideIndex = false;
};

} // namespace cuda
} // namespace cca

#endif
