#include "cca/Engine.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace cca
{

namespace
{
[[noreturn]] void
Fail(const std::string & message)
{
  throw Error(Error::Kind::InvalidInput, message);
}

std::string
SizeText(const ImageView & image)
{
  return std::to_string(image.size[0]) + " x " + std::to_string(image.size[1]) + " x " + std::to_string(image.size[2]);
}

// product = a * b; false when the product does not fit in 64 bits.
bool
MultiplyChecked(std::int64_t a, std::int64_t b, std::int64_t & product)
{
  return !__builtin_mul_overflow(a, b, &product);
}

/** A view in host or device memory; device memory needs the CUDA backend, a
 *  device ordinal and the device that cudaDevice asks for. `what` names it. */
void
ValidateViewMemory(const ImageView & view, const std::string & what, const Options & options)
{
  if (view.memory != MemorySpace::Host && view.memory != MemorySpace::CudaDevice)
  {
    Fail("unknown memory space of the " + what);
  }
  if (view.memory != MemorySpace::CudaDevice)
  {
    return;
  }
  if (options.backend == Backend::Cpu)
  {
    Fail("the CPU backend cannot access CUDA device memory (the " + what +
         " is on a CUDA device): use Backend::Cuda or Backend::Auto, or copy it to host memory");
  }
  if (view.deviceOrdinal < 0)
  {
    Fail("the " + what + " is in CUDA device memory but its device ordinal is negative");
  }
  if (options.cudaDevice >= 0 && options.cudaDevice != view.deviceOrdinal)
  {
    Fail("the " + what + " is on CUDA device " + std::to_string(view.deviceOrdinal) +
         " but cudaDevice asks for device " + std::to_string(options.cudaDevice));
  }
}

/** Device memory needs the CUDA backend; the caller's device and stream must agree with it. */
void
ValidateMemory(const ImageView & image, const Options & options)
{
  ValidateViewMemory(image, "image", options);
  const ImageView & feature = options.intensity.featureImage;
  if (options.intensity.Requested())
  {
    ValidateViewMemory(feature, "feature image", options);
    if (feature.memory == MemorySpace::CudaDevice && image.memory == MemorySpace::CudaDevice &&
        feature.deviceOrdinal != image.deviceOrdinal)
    {
      Fail("the feature image is on CUDA device " + std::to_string(feature.deviceOrdinal) + " and the image on " +
           std::to_string(image.deviceOrdinal) + ": both must be on the device that runs");
    }
  }
  if (options.labelImageMemory != MemorySpace::Host && options.labelImageMemory != MemorySpace::CudaDevice)
  {
    Fail("unknown memory space of the label image");
  }
  if (options.backend == Backend::Cpu && options.labelImageType != LabelImageType::None &&
      options.labelImageMemory == MemorySpace::CudaDevice)
  {
    Fail("the CPU backend cannot access CUDA device memory (the label image destination is on a CUDA device): use "
         "Backend::Cuda or Backend::Auto, or copy it to host memory");
  }
}
/** Strides: all zero (dense), or non-zero along every axis longer than 1. */
void
ValidateStrides(const ImageView & image, const char * what)
{
  const bool dense = image.stride[0] == 0 && image.stride[1] == 0 && image.stride[2] == 0;
  for (int i = 0; i < 3 && !dense; ++i)
  {
    if (image.size[i] > 1 && image.stride[i] == 0)
    {
      Fail(std::string(what) + " strides must be non-zero along every axis longer than 1 (a broadcast view), or "
                               "all zero for a dense buffer");
    }
  }
}

/** Label modes, the selection and the feature image. */
void
ValidateGroups(const ImageView & image, const Options & options)
{
  if (options.objects != Objects::ForegroundComponents && options.objects != Objects::LabelValues &&
      options.objects != Objects::LabelValueComponents)
  {
    Fail("unknown Objects value");
  }
  if (options.foregroundRule != ForegroundRule::EqualTo && options.foregroundRule != ForegroundRule::NotEqualTo &&
      options.foregroundRule != ForegroundRule::All)
  {
    Fail("unknown foreground rule");
  }
  const bool labels = options.objects != Objects::ForegroundComponents;
  if (labels && options.algorithm != Algorithm::Default && options.algorithm != Algorithm::FLSL &&
      options.algorithm != Algorithm::FLSL_CD)
  {
    Fail(std::string("label images (Objects::") + ObjectsName(options.objects) +
         ") are labeled by the full-run "
         "algorithms only (Default, FLSL, FLSL_CD), not " +
         AlgorithmName(options.algorithm));
  }
  if ((labels || options.selection.Active() || options.intensity.Requested()) &&
      options.featureCompaction != FeatureCompaction::Scan)
  {
    Fail(std::string("label images, a feature image and a selection need FeatureCompaction::Scan, not ") +
         FeatureCompactionName(options.featureCompaction));
  }
  if (!options.computeFeatures && (options.selection.Active() || options.intensity.Requested()))
  {
    Fail("a selection and a feature image need the feature table: Options::computeFeatures must be true");
  }
  const Selection & s = options.selection;
  if (s.minimumPixels < 0 || s.keepLargest < 0)
  {
    Fail("the selection's minimumPixels and keepLargest must be >= 0");
  }
  if (s.maximumPixels < s.minimumPixels)
  {
    Fail("the selection's maximumPixels (" + std::to_string(s.maximumPixels) + ") is below its minimumPixels (" +
         std::to_string(s.minimumPixels) + "): no object could stay");
  }

  const IntensityOptions & intensity = options.intensity;
  if (!intensity.Requested())
  {
    return;
  }
  const ImageView & f = intensity.featureImage;
  if (PixelTypeSize(f.pixelType) == 0)
  {
    Fail("unknown pixel type of the feature image");
  }
  if (f.dimension != image.dimension || f.size[0] != image.size[0] || f.size[1] != image.size[1] ||
      f.size[2] != image.size[2])
  {
    Fail("the feature image (" + std::to_string(f.dimension) + "D, " + std::to_string(f.size[0]) + " x " +
         std::to_string(f.size[1]) + " x " + std::to_string(f.size[2]) + ") differs in size from the image (" +
         std::to_string(image.dimension) + "D, " + std::to_string(image.size[0]) + " x " +
         std::to_string(image.size[1]) + " x " + std::to_string(image.size[2]) + ")");
  }
  ValidateStrides(f, "feature image");
  const HistogramOptions & h = intensity.histogram;
  if (h.bins == 0 && h.keep)
  {
    Fail("a histogram was asked for (HistogramOptions::keep) with 0 bins");
  }
  if (h.bins > 0 && !h.rangeOfFeatureImage && !(std::isfinite(h.lower) && std::isfinite(h.upper) && h.lower <= h.upper))
  {
    Fail("the histogram bounds must be finite with lower <= upper");
  }
}
} // namespace

std::int64_t
ImageView::NumberOfPixels() const
{
  std::int64_t xy = 0;
  std::int64_t xyz = 0;
  if (!MultiplyChecked(size[0], size[1], xy) || !MultiplyChecked(xy, size[2], xyz))
  {
    throw Error(Error::Kind::Overflow, "the image size " + SizeText(*this) + " has more pixels than 64 bits can count");
  }
  return xyz;
}

void
ValidateInput(const ImageView & image, const Options & options)
{
  if (image.dimension != 2 && image.dimension != 3)
  {
    Fail("the image dimension must be 2 or 3, not " + std::to_string(image.dimension));
  }
  if (image.data == nullptr)
  {
    Fail("the image has no pixel buffer");
  }
  if (PixelTypeSize(image.pixelType) == 0)
  {
    Fail("unknown pixel type");
  }
  if (IsRealPixelType(image.pixelType))
  {
    Fail(std::string("the labeled image needs an integer pixel type, not ") + PixelTypeName(image.pixelType) +
         " (a real image can be the feature image)");
  }
  if (image.dimension == 2 && image.size[2] != 1)
  {
    Fail("a 2D image must have size[2] == 1");
  }
  // Coordinates are stored in 32 bits; run ends (x + length) must fit too.
  constexpr std::int64_t maxExtent = std::numeric_limits<std::int32_t>::max() - 1;
  for (int i = 0; i < 3; ++i)
  {
    if (image.size[i] <= 0)
    {
      Fail("the image region is empty (size " + SizeText(image) + ")");
    }
    if (image.size[i] > maxExtent)
    {
      Fail("image size along axis " + std::to_string(i) + " exceeds " + std::to_string(maxExtent));
    }
  }
  const bool dense = image.stride[0] == 0 && image.stride[1] == 0 && image.stride[2] == 0;
  ValidateStrides(image, "image");
  // Counts and byte sizes are checked before any allocation is sized from
  // them: a wrapped product would allocate a small buffer and index past it.
  const std::int64_t pixels = image.NumberOfPixels();
  std::int64_t       spanPixels = pixels;
  if (!dense)
  {
    spanPixels = 1;
    for (int i = 0; i < 3; ++i)
    {
      std::int64_t step = 0;
      if (image.stride[i] == std::numeric_limits<std::int64_t>::min() ||
          !MultiplyChecked(image.size[i] - 1, image.stride[i] < 0 ? -image.stride[i] : image.stride[i], step) ||
          __builtin_add_overflow(spanPixels, step, &spanPixels))
      {
        throw Error(Error::Kind::Overflow, "the strides of the " + SizeText(image) + " image span more than 64 bits");
      }
    }
  }
  // The largest per-pixel buffer is a 64-bit label image or an 8-byte input:
  // its byte size must be addressable.
  std::int64_t bytes = 0;
  if (!MultiplyChecked(std::max(spanPixels, pixels), 8, bytes))
  {
    throw Error(Error::Kind::Overflow,
                "the image size " + SizeText(image) + " needs more bytes than this machine can address");
  }
  // The second-order sums are exact in unsigned 64 bits only while
  // (largest coordinate)^2 * (number of pixels) < 2^64. The largest
  // coordinate is below 2^31 (checked above), so its square fits in 64 bits,
  // and the product exceeds the maximum exactly when the square exceeds the
  // maximum divided by the pixel count (rounded down).
  const auto largest = static_cast<std::uint64_t>(std::max(image.size[0], std::max(image.size[1], image.size[2])) - 1);
  const auto count = static_cast<std::uint64_t>(pixels);
  if (count > 0 && largest * largest > std::numeric_limits<std::uint64_t>::max() / count)
  {
    throw Error(Error::Kind::Overflow,
                "the image is too large for exact 64-bit second-order sums (largest coordinate^2 x pixels >= 2^64)");
  }
  if (options.labelImageType != LabelImageType::None && options.labelImage == nullptr)
  {
    Fail("a label image was requested but no destination buffer was given");
  }
  ValidateMemory(image, options);
  ValidateGroups(image, options);
  if (options.numberOfThreads < 0)
  {
    Fail("numberOfThreads must be >= 0");
  }
}

} // namespace cca
