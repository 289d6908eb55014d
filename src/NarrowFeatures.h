// The CUDA backend's dense feature table entry with its fifteen counts in
// 32 bits: 160 bytes a component instead of ComponentFeatures' 216. Where
// components are many the votes write one entry each, and they fold fewer
// words; the host widens the entries as they arrive
// (StreamDevice::DownloadWidenedFeatures; benchmark/results/h200-narrow-counts).
// No CUDA here: the emulated device, whose kernels live in another
// namespace than cca::cuda, widens them too.
#ifndef cca_NarrowFeatures_h
#define cca_NarrowFeatures_h

#include "HostDevice.h"

#include "cca/Types.h"

#include <cstddef>
#include <cstdint>

namespace cca
{

/** ComponentFeatures' fields, the same names and meaning, the counts
 *  (pixelCount, pixelsOnBorder, pixelsOnFace, interceptCounts) unsigned
 *  32-bit. */
struct NarrowFeatures
{
  std::uint32_t pixelCount;
  std::int32_t  boundingBoxMin[3];
  std::int32_t  boundingBoxMax[3];
  std::int64_t  coordinateSum[3];
  std::uint64_t coordinateProductSum[6];
  std::uint32_t pixelsOnBorder;
  std::uint32_t pixelsOnFace[6];
  std::uint32_t interceptCounts[NumberOfInterceptSlots];
};
static_assert(sizeof(NarrowFeatures) == 160, "five 32-byte sectors an entry");

/** Images of fewer pixels than this fit NarrowFeatures: a count is at
 *  most 8 times its component's pixels (ITK's intercepts of the (1,1,1)
 *  class: 8 steps a pixel; raw pair counts at most half that), and the
 *  partial sums the votes add up along the way are at most the total, so
 *  every one stays below 2^32. */
constexpr std::int64_t NarrowFeaturesMostPixels = (std::int64_t{ 1 } << 29) - 1;

/** The table's entry as the engine returns it, field by field. */
CCA_HOST_DEVICE void
WidenFeatures(const NarrowFeatures & n, ComponentFeatures & f)
{
  f.pixelCount = n.pixelCount;
  for (int i = 0; i < 3; ++i)
  {
    f.boundingBoxMin[i] = n.boundingBoxMin[i];
    f.boundingBoxMax[i] = n.boundingBoxMax[i];
    f.coordinateSum[i] = n.coordinateSum[i];
  }
  for (int i = 0; i < 6; ++i)
  {
    f.coordinateProductSum[i] = n.coordinateProductSum[i];
    f.pixelsOnFace[i] = n.pixelsOnFace[i];
  }
  f.pixelsOnBorder = n.pixelsOnBorder;
  for (int i = 0; i < NumberOfInterceptSlots; ++i)
  {
    f.interceptCounts[i] = n.interceptCounts[i];
  }
}

/** WidenFeatures over count entries stored back to back from narrow
 *  (any alignment, as a staging buffer holds them): with AVX2 a few vector
 *  moves an entry, so that the host writes them as fast as it would copy
 *  wide entries (H200 host, 16 threads: field by field took 1.4-1.5 times
 *  a memcpy's time). */
void
WidenFeatureEntries(const void * narrow, ComponentFeatures * wide, std::size_t count);

} // namespace cca

#endif
