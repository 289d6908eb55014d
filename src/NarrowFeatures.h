// The CUDA backend's dense feature table entries with their counts in 32
// bits: 160 bytes a component instead of ComponentFeatures' 216
// (NarrowFeatures), and in 2D images 96 (PlanarFeatures: without the z
// axis's fields, which are constants there). Where components are many the
// votes write one entry each, and they fold fewer words; the host widens
// the entries as they arrive (StreamDevice::DownloadWidenedFeaturesLater;
// benchmark/results/h200-narrow-counts, h200-planar-entries).
// No CUDA here: the emulated device, whose kernels live in another
// namespace than cca::cuda, widens them too.
#ifndef cca_NarrowFeatures_h
#define cca_NarrowFeatures_h

#include "HostDevice.h"
#include "StreamingStores.h"

#include "cca/Types.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

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

/** NarrowFeatures' fields for a 2D image, where z is 0 and there are no z
 *  faces: two axes, the products xx, yy, xy (ComponentFeatures' 0, 1, 3),
 *  the four x and y faces, the intercept classes x, y, xy (slots 0-2; the
 *  z classes of a 2D entry follow from its pixel count, WidenFeatures). */
struct PlanarFeatures
{
  std::uint32_t pixelCount;
  std::int32_t  boundingBoxMin[2];
  std::int32_t  boundingBoxMax[2];
  std::uint32_t pixelsOnBorder;
  std::int64_t  coordinateSum[2];
  std::uint64_t coordinateProductSum[3];
  std::uint32_t pixelsOnFace[4];
  std::uint32_t interceptCounts[3];
};
static_assert(sizeof(PlanarFeatures) == 96, "three 32-byte sectors an entry (4 bytes of alignment padding)");

/** Whether Table is one of the CUDA backend's 32-bit-count entries. */
template <class Table>
constexpr bool IsNarrowEntry = false;
template <>
constexpr bool IsNarrowEntry<NarrowFeatures> = true;
template <>
constexpr bool IsNarrowEntry<PlanarFeatures> = true;

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

/** A 2D image's planar entry as the engine returns it: the z fields 0,
 *  the z intercept classes what FinalizeIntercepts gives a component
 *  without z pairs (every step of such a class leaves the component), as
 *  the wide and narrow entries hold them. */
CCA_HOST_DEVICE void
WidenFeatures(const PlanarFeatures & n, ComponentFeatures & f)
{
  f.pixelCount = n.pixelCount;
  for (int i = 0; i < 2; ++i)
  {
    f.boundingBoxMin[i] = n.boundingBoxMin[i];
    f.boundingBoxMax[i] = n.boundingBoxMax[i];
    f.coordinateSum[i] = n.coordinateSum[i];
  }
  f.boundingBoxMin[2] = 0;
  f.boundingBoxMax[2] = 0;
  f.coordinateSum[2] = 0;
  f.coordinateProductSum[0] = n.coordinateProductSum[0];
  f.coordinateProductSum[1] = n.coordinateProductSum[1];
  f.coordinateProductSum[2] = 0;
  f.coordinateProductSum[3] = n.coordinateProductSum[2];
  f.coordinateProductSum[4] = 0;
  f.coordinateProductSum[5] = 0;
  for (int i = 0; i < 4; ++i)
  {
    f.pixelsOnFace[i] = n.pixelsOnFace[i];
  }
  f.pixelsOnFace[4] = 0;
  f.pixelsOnFace[5] = 0;
  f.pixelsOnBorder = n.pixelsOnBorder;
  for (int i = 0; i < 3; ++i)
  {
    f.interceptCounts[i] = n.interceptCounts[i];
  }
  // FinalizedIntercept(slot, count, 0): 2^(bits of the class) a pixel.
  f.interceptCounts[InterceptSlot(false, false, true)] = 2 * f.pixelCount;
  f.interceptCounts[InterceptSlot(true, false, true)] = 4 * f.pixelCount;
  f.interceptCounts[InterceptSlot(false, true, true)] = 4 * f.pixelCount;
  f.interceptCounts[InterceptSlot(true, true, true)] = 8 * f.pixelCount;
}

/** WidenFeatures over count entries stored back to back from narrow
 *  (any alignment, as a staging buffer holds them): with AVX2 a few vector
 *  moves an entry, so that the host writes them as fast as it would copy
 *  wide entries (H200 host, 16 threads: field by field took 1.4-1.5 times
 *  a memcpy's time). stores: HostStores::Streaming for a large table
 *  (StreamingStores.h). */
void
WidenFeatureEntries(const void *        narrow,
                    ComponentFeatures * wide,
                    std::size_t         count,
                    HostStores          stores = HostStores::Cached);

/** The same for PlanarFeatures entries. */
void
WidenPlanarFeatureEntries(const void *        planar,
                          ComponentFeatures * wide,
                          std::size_t         count,
                          HostStores          stores = HostStores::Cached);

/** WidenFeatureEntries or WidenPlanarFeatureEntries, by the entries' type
 *  Narrow (NarrowFeatures, PlanarFeatures): what a device's download of a
 *  narrow table calls on its staged pieces. */
template <class Narrow>
void
WidenNarrowEntries(const void *        narrow,
                   ComponentFeatures * wide,
                   std::size_t         count,
                   HostStores          stores = HostStores::Cached)
{
  static_assert(IsNarrowEntry<Narrow>, "a narrow table's entries");
  if constexpr (std::is_same_v<Narrow, PlanarFeatures>)
  {
    WidenPlanarFeatureEntries(narrow, wide, count, stores);
  }
  else
  {
    WidenFeatureEntries(narrow, wide, count, stores);
  }
}

} // namespace cca

#endif
