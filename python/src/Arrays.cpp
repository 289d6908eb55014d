// DLPack/buffer arrays as engine views and label image destinations
// (Arrays.h): the dtype and device checks, with messages that name what the
// caller passed.
#include "Arrays.h"

#include "Errors.h"

#include <nanobind/stl/string.h>

#include <cstddef>
#include <limits>
#include <string>
#include <utility>

namespace nb = nanobind;

namespace ccapython
{
namespace
{

std::string
DtypeName(nb::dlpack::dtype dtype)
{
  const auto   code = static_cast<nb::dlpack::dtype_code>(dtype.code);
  const char * kind = code == nb::dlpack::dtype_code::Int       ? "int"
                      : code == nb::dlpack::dtype_code::UInt    ? "uint"
                      : code == nb::dlpack::dtype_code::Float   ? "float"
                      : code == nb::dlpack::dtype_code::Bool    ? "bool"
                      : code == nb::dlpack::dtype_code::Complex ? "complex"
                                                                : "dtype-code-";
  return std::string(kind) + std::to_string(dtype.bits);
}

/** The engine's pixel type of an integer or boolean dtype, or of a 32 or
 *  64-bit real dtype when `real` (feature images); TypeError otherwise. */
cca::PixelType
PixelTypeOf(nb::dlpack::dtype dtype, bool real)
{
  const auto code = static_cast<nb::dlpack::dtype_code>(dtype.code);
  if (dtype.lanes == 1)
  {
    if (code == nb::dlpack::dtype_code::Bool && dtype.bits == 8)
    {
      return cca::PixelType::UInt8;
    }
    const bool isSigned = code == nb::dlpack::dtype_code::Int;
    if (isSigned || code == nb::dlpack::dtype_code::UInt)
    {
      switch (dtype.bits)
      {
        case 8:
          return isSigned ? cca::PixelType::Int8 : cca::PixelType::UInt8;
        case 16:
          return isSigned ? cca::PixelType::Int16 : cca::PixelType::UInt16;
        case 32:
          return isSigned ? cca::PixelType::Int32 : cca::PixelType::UInt32;
        case 64:
          return isSigned ? cca::PixelType::Int64 : cca::PixelType::UInt64;
        default:
          break;
      }
    }
  }
  if (real && code == nb::dlpack::dtype_code::Float && dtype.lanes == 1 && (dtype.bits == 32 || dtype.bits == 64))
  {
    return dtype.bits == 32 ? cca::PixelType::Float32 : cca::PixelType::Float64;
  }
  if (real)
  {
    ThrowType("the feature image's dtype " + DtypeName(dtype) + " is not an integer, boolean, float32 or float64 type");
  }
  if (code == nb::dlpack::dtype_code::Float || code == nb::dlpack::dtype_code::Bfloat)
  {
    ThrowType("the image has a real dtype (" + DtypeName(dtype) +
              "): give threshold= (foreground: pixel > threshold), or background_value= or foreground_value=");
  }
  ThrowType("the image's dtype " + DtypeName(dtype) + " is not an integer or boolean type");
}

/** Host or CUDA device memory, from the DLPack device type. */
cca::MemorySpace
MemoryOf(int deviceType)
{
  if (deviceType == nb::device::cpu::value || deviceType == nb::device::cuda_host::value)
  {
    return cca::MemorySpace::Host;
  }
  if (deviceType == nb::device::cuda::value || deviceType == nb::device::cuda_managed::value)
  {
    return cca::MemorySpace::CudaDevice;
  }
  ThrowType("arrays on DLPack device type " + std::to_string(deviceType) +
            " are not supported (host memory and CUDA device memory are)");
}

} // namespace

std::int64_t
ForegroundBits(nb::handle value, nb::dlpack::dtype dtype)
{
  const auto code = static_cast<nb::dlpack::dtype_code>(dtype.code);
  int        overflow = 0;
  long long  asSigned = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (asSigned == -1 && PyErr_Occurred())
  {
    PyErr_Clear();
    ThrowType("the background or foreground value must be an integer");
  }
  unsigned long long asUnsigned = 0;
  bool               big = false; // above INT64_MAX
  if (overflow > 0)
  {
    asUnsigned = PyLong_AsUnsignedLongLong(value.ptr());
    if (PyErr_Occurred())
    {
      PyErr_Clear();
      overflow = 2;
    }
    big = true;
  }
  const int bits = code == nb::dlpack::dtype_code::Bool ? 1 : dtype.bits;
  bool      fits = overflow <= 1 && overflow >= 0;
  if (fits && code == nb::dlpack::dtype_code::Int)
  {
    const long long low = bits == 64 ? std::numeric_limits<long long>::min() : -(1LL << (bits - 1));
    const long long high = bits == 64 ? std::numeric_limits<long long>::max() : (1LL << (bits - 1)) - 1;
    fits = !big && asSigned >= low && asSigned <= high;
  }
  else if (fits)
  {
    const unsigned long long high = bits == 64 ? std::numeric_limits<unsigned long long>::max() : (1ULL << bits) - 1;
    fits = big ? asUnsigned <= high : (asSigned >= 0 && static_cast<unsigned long long>(asSigned) <= high);
  }
  if (!fits)
  {
    ThrowValue("the background or foreground value " + nb::cast<std::string>(nb::str(value)) +
               " cannot be held by the image's dtype " + DtypeName(dtype));
  }
  return big ? static_cast<std::int64_t>(asUnsigned) : static_cast<std::int64_t>(asSigned);
}

cca::ImageView
ViewOf(const Array & array, bool real)
{
  const size_t dimension = array.ndim();
  if (dimension != 2 && dimension != 3)
  {
    ThrowValue("the image must have 2 or 3 dimensions (y, x or z, y, x), not " + std::to_string(dimension));
  }
  cca::ImageView view;
  view.pixelType = PixelTypeOf(array.dtype(), real);
  view.dimension = static_cast<int>(dimension);
  view.data = array.data();
  view.memory = MemoryOf(array.device_type());
  view.deviceOrdinal = view.memory == cca::MemorySpace::CudaDevice ? array.device_id() : 0;
  view.size[2] = 1;
  view.stride[2] = 0;
  for (size_t i = 0; i < dimension; ++i)
  {
    const size_t axis = dimension - 1 - i;
    view.size[i] = static_cast<std::int64_t>(array.shape(axis));
    view.stride[i] = array.stride_ptr() ? array.stride(axis) : 0;
  }
  if (array.stride_ptr() == nullptr)
  {
    // DLPack without strides: dense, C order.
    view.stride[0] = view.stride[1] = view.stride[2] = 0;
  }
  else
  {
    // Axes of length 1 may carry any stride, 0 included; give them a non-zero one.
    for (int i = 0; i < 3; ++i)
    {
      if (view.size[i] == 1 && view.stride[i] == 0)
      {
        view.stride[i] = 1;
      }
    }
    if (view.dimension == 2)
    {
      view.stride[2] = view.size[0] * view.size[1];
    }
  }
  if (view.NumberOfPixels() == 0)
  {
    ThrowValue("the image is empty");
  }
  return view;
}

namespace
{

/** The bytes [first, last) a view's pixels span: strides may be negative. */
std::pair<std::uintptr_t, std::uintptr_t>
ByteExtent(const cca::ImageView & view)
{
  const std::int64_t dense[3] = { 1, view.size[0], view.size[0] * view.size[1] };
  std::int64_t       low = 0;
  std::int64_t       high = 0;
  for (int i = 0; i < 3; ++i)
  {
    const std::int64_t stride = view.stride[0] == 0 && view.stride[1] == 0 ? dense[i] : view.stride[i];
    const std::int64_t reach = (view.size[i] - 1) * stride;
    (reach < 0 ? low : high) += reach;
  }
  const std::int64_t bytes = cca::PixelTypeSize(view.pixelType);
  const auto         data = reinterpret_cast<std::uintptr_t>(view.data);
  return { data + low * bytes, data + (high + 1) * bytes };
}

} // namespace

cca::LabelImageType
CheckLabelDestination(const WritableArray & labels, const cca::ImageView & view, const char * name)
{
  const std::string what(name);
  const auto        code = static_cast<nb::dlpack::dtype_code>(labels.dtype().code);
  if ((code != nb::dlpack::dtype_code::UInt && code != nb::dlpack::dtype_code::Int) ||
      (labels.dtype().bits != 32 && labels.dtype().bits != 64))
  {
    ThrowType(what + " must have a 32 or 64-bit integer dtype, not " + DtypeName(labels.dtype()));
  }
  std::string shape;
  for (int i = view.dimension - 1; i >= 0; --i)
  {
    shape += std::to_string(view.size[i]) + (i > 0 ? ", " : "");
  }
  if (static_cast<int>(labels.ndim()) != view.dimension)
  {
    ThrowValue(what + " must have the image's shape (" + shape + ")");
  }
  std::int64_t expectedStride = 1;
  for (int i = 0; i < view.dimension; ++i)
  {
    const size_t axis = view.dimension - 1 - i;
    if (static_cast<std::int64_t>(labels.shape(axis)) != view.size[i])
    {
      ThrowValue(what + " must have the image's shape (" + shape + ")");
    }
    if (labels.stride_ptr() != nullptr && view.size[i] > 1 && labels.stride(axis) != expectedStride)
    {
      ThrowValue(what + " must be C-contiguous");
    }
    expectedStride *= view.size[i];
  }
  const cca::MemorySpace memory = MemoryOf(labels.device_type());
  if (memory != view.memory || (memory == cca::MemorySpace::CudaDevice && labels.device_id() != view.deviceOrdinal))
  {
    ThrowValue(what + " must be in the image's memory (" +
               (view.memory == cca::MemorySpace::Host ? std::string("host memory")
                                                      : "CUDA device " + std::to_string(view.deviceOrdinal)) +
               ")");
  }
  const auto           image = ByteExtent(view);
  const std::uintptr_t first = reinterpret_cast<std::uintptr_t>(labels.data());
  const std::uintptr_t last = first + static_cast<std::uintptr_t>(expectedStride) * labels.dtype().bits / 8;
  if (first < image.second && image.first < last)
  {
    ThrowValue(what + " shares memory with the image; pass a separate array");
  }
  return labels.dtype().bits == 64 ? cca::LabelImageType::UInt64 : cca::LabelImageType::UInt32;
}

} // namespace ccapython
