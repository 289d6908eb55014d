// What the stages of the host sequence (HostSequence.cuh) share: the frame
// of one run (the image's layout and the options), the foreground test of a
// pixel type, and typed reservations in a device's buffers.
#ifndef cca_cuda_Frame_cuh
#define cca_cuda_Frame_cuh

#include "DeviceGeometry.cuh"
#include "RunDetection.cuh"
#include "RunFeatures.h"

#include "cca/Types.h"

#include <cstddef>
#include <cstdint>

namespace cca
{
namespace cuda
{

/** One run of the sequence: its input and how the kernels see it. */
struct Frame
{
  const ImageView &  image;
  const Options &    options;
  Geometry           geometry; ///< the row layout the kernels walk
  detail::ImageFaces faces;    ///< where the faces lie, for the features
  std::int64_t       pixels;
  bool               full;   ///< Connectivity::Full
  bool               volume; ///< a 3D image (its depth may still be 1)
  /** Full connectivity on a mask's components: units that touch always
   *  share a component (not so for the objects of a label image). */
  bool fullMask;
};

inline Frame
MakeFrame(const ImageView & image, const Options & options)
{
  Geometry geometry;
  geometry.width = image.size[0];
  geometry.height = image.size[1];
  geometry.depth = image.size[2];
  geometry.rows = geometry.height * geometry.depth;
  const detail::ImageFaces faces{ static_cast<std::int32_t>(geometry.width),
                                  static_cast<std::int32_t>(geometry.height),
                                  static_cast<std::int32_t>(geometry.depth),
                                  image.dimension == 3 };
  return Frame{ image,
                options,
                geometry,
                faces,
                geometry.rows * geometry.width,
                options.connectivity == Connectivity::Full,
                image.dimension == 3,
                options.connectivity == Connectivity::Full && options.objects == Objects::ForegroundComponents };
}

/** Whether options ask for no more than the label image and the count of
 *  a mask's components: no feature table, no runs, no label image input. */
inline bool
LabelsOnlyOfMask(const Options & o)
{
  return !o.computeFeatures && !o.computeRuns && o.objects == Objects::ForegroundComponents;
}

/** Whether the byte row scan (RunDetection.cuh) takes this frame's image:
 *  a mask's maximal runs (not a label image's values) of byte pixels in
 *  rows of whole 16-byte loads, of output too when given. */
inline bool
FitsByteRowScan(const Frame & frame, const void * image, const void * output = nullptr)
{
  return frame.options.objects == Objects::ForegroundComponents && frame.image.pixelType == PixelType::UInt8 &&
         FitsByteRowScan(frame.geometry, image, output);
}

using cca::ForegroundOf; // the foreground rule of options (src/ForegroundTest.h)

/** count elements of T in buffer (a device's Buffer: contents undefined). */
template <class T, class Buffer>
T *
Reserve(Buffer & buffer, std::size_t count, const char * what)
{
  return static_cast<T *>(buffer.Reserve(count * sizeof(T), what));
}

} // namespace cuda
} // namespace cca

#endif
