// The Python extension: turns a DLPack/buffer array into a cca::ImageView
// (no copy: host or CUDA device memory, strides passed through), runs the
// engine without the GIL, and either computes ITK's shape attributes with
// cca::ComputeShapeAttributes (with a feature image, the intensity group by
// cca::ComputeIntensityAttributes) and returns them as NumPy columns (analyze) or
// writes only the label image into the caller's array (label). Argument
// checks that need a framework (float thresholds, stream objects, ITK and
// SimpleITK images) live in the Python package; this module checks what the
// engine needs.
#include "cca/BackgroundWork.h"
#include "cca/Engine.h"
#include "cca/HostImageMemory.h"
#include "cca/IntensityAttributes.h"
#include "cca/ShapeAttributes.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace
{

// ---- engines: one per concurrent call ------------------------------------------

/** cca::Engine is not thread-safe but keeps buffers worth reusing, so calls
 *  borrow an idle engine (or make one) and give it back. Each engine keeps
 *  its last cca::Result too: a result reused by the engine is written over
 *  (its pages are already mapped) where a new one would take a page fault per
 *  4 KiB of the table, about as long as the copy from the device itself. The
 *  pool is never destroyed: engines hold CUDA resources, and releasing them
 *  after the CUDA runtime has shut down at interpreter exit would fail. */
class EnginePool
{
public:
  struct Worker
  {
    cca::Engine engine;
    cca::Result result;
  };

  class Lease
  {
  public:
    Lease(EnginePool & pool, std::unique_ptr<Worker> worker)
      : m_Pool(pool)
      , m_Worker(std::move(worker))
    {}
    ~Lease() { m_Pool.Return(std::move(m_Worker)); }
    Lease(const Lease &) = delete;
    Lease &
    operator=(const Lease &) = delete;
    Worker *
    operator->() const
    {
      return m_Worker.get();
    }

  private:
    EnginePool &            m_Pool;
    std::unique_ptr<Worker> m_Worker;
  };

  static EnginePool &
  Instance()
  {
    static auto * pool = new EnginePool(); // deliberately leaked, see above
    return *pool;
  }

  Lease
  Borrow()
  {
    const std::lock_guard<std::mutex> lock(m_Mutex);
    if (m_Idle.empty())
    {
      return Lease(*this, std::make_unique<Worker>());
    }
    auto worker = std::move(m_Idle.back());
    m_Idle.pop_back();
    return Lease(*this, std::move(worker));
  }

  /** Frees the idle engines' last results (engines in use keep theirs). */
  void
  ReleaseResults()
  {
    const std::lock_guard<std::mutex> lock(m_Mutex);
    for (auto & worker : m_Idle)
    {
      worker->result = cca::Result{};
    }
  }

private:
  void
  Return(std::unique_ptr<Worker> worker)
  {
    const std::lock_guard<std::mutex> lock(m_Mutex);
    m_Idle.push_back(std::move(worker));
  }

  std::mutex                           m_Mutex;
  std::vector<std::unique_ptr<Worker>> m_Idle;
};

// ---- errors --------------------------------------------------------------------

PyObject * g_CudaError = nullptr;
PyObject * g_CudaUnavailableError = nullptr;

/** cca::Error kinds as the exceptions Python users expect. */
void
TranslateEngineError(const std::exception_ptr & error, void *)
{
  try
  {
    std::rethrow_exception(error);
  }
  catch (const cca::Error & e)
  {
    switch (e.GetKind())
    {
      case cca::Error::Kind::InvalidInput:
        PyErr_SetString(PyExc_ValueError, e.what());
        break;
      case cca::Error::Kind::Overflow:
        PyErr_SetString(PyExc_OverflowError, e.what());
        break;
      case cca::Error::Kind::OutOfMemory:
        PyErr_SetString(PyExc_MemoryError, e.what());
        break;
      case cca::Error::Kind::NoDevice:
        PyErr_SetString(g_CudaUnavailableError, e.what());
        break;
      case cca::Error::Kind::Cuda:
        PyErr_SetString(g_CudaError, e.what());
        break;
    }
  }
}

[[noreturn]] void
ThrowType(const std::string & message)
{
  throw nb::type_error(message.c_str());
}

[[noreturn]] void
ThrowValue(const std::string & message)
{
  throw nb::value_error(message.c_str());
}

// ---- arrays --------------------------------------------------------------------

using Array = nb::ndarray<nb::ro>;
using WritableArray = nb::ndarray<>;

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

/** The foreground value as the engine's 64-bit pattern, after checking that
 *  the dtype can hold it (a value it cannot hold would silently change meaning). */
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

/** The array as an engine view: axes reversed (NumPy's z, y, x to x, y, z),
 *  strides in elements passed through, never copied. `real`: a feature
 *  image, which may have a real dtype. */
cca::ImageView
ViewOf(const Array & array, bool real = false)
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

/** A label image destination must be dense in C order, with the image's shape,
 *  in the image's memory, of 32 or 64-bit integers, and apart from the image
 *  (the engine reads pixels while it writes labels). `name` is what the
 *  caller calls it in messages. */
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

/** The value of `choices` named `name`; else ValueError: "<what> must be 'a',
 *  'b' or 'c', not '<name>'". */
template <typename T, std::size_t N>
T
ChoiceOf(const std::string & name, const char * what, const std::pair<const char *, T> (&choices)[N])
{
  std::string names;
  for (std::size_t i = 0; i < N; ++i)
  {
    if (name == choices[i].first)
    {
      return choices[i].second;
    }
    names += std::string(i == 0 ? "" : (i + 1 == N ? " or " : ", ")) + "'" + choices[i].first + "'";
  }
  ThrowValue(std::string(what) + " must be " + names + ", not '" + name + "'");
}

cca::Backend
BackendOf(const std::string & name)
{
  static constexpr std::pair<const char *, cca::Backend> backends[] = { { "auto", cca::Backend::Auto },
                                                                        { "cpu", cca::Backend::Cpu },
                                                                        { "cuda", cca::Backend::Cuda } };
  return ChoiceOf(name, "backend", backends);
}

cca::Algorithm
AlgorithmOf(const std::string & name)
{
  auto lower = [](std::string s) {
    for (char & c : s)
    {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return s;
  };
  for (const cca::Algorithm algorithm : cca::AllAlgorithms)
  {
    if (lower(cca::AlgorithmName(algorithm)) == lower(name))
    {
      return algorithm;
    }
  }
  ThrowValue("unknown algorithm '" + name + "'");
}

// ---- host label images from the pool ------------------------------------------

/** Gives a pool block back unless a capsule took it over. */
struct PoolBlockRelease
{
  void
  operator()(void * block) const noexcept
  {
    cca::HostImageMemory::Release(block);
  }
};
using PoolBlock = std::unique_ptr<void, PoolBlockRelease>;

template <typename T>
nb::object
PooledArray(PoolBlock block, const std::vector<size_t> & shape)
{
  // The block goes back to the pool when the array and every view of it are
  // gone: the next label image of about its size then finds its pages made,
  // and from its third use page-locked, so the engine writes it by DMA.
  nb::capsule owner(block.get(), [](void * p) noexcept { PoolBlockRelease{}(p); });
  void *      data = block.release();
  return nb::cast(nb::ndarray<nb::numpy, T>(data, shape.size(), shape.data(), owner));
}

/** An uninitialised NumPy array of shape and an integer dtype (kind 'i' or
 *  'u', 4 or 8 bytes) whose memory is a block of the process's host image
 *  pool (cca::HostImageMemory); None when the image is below the pool's
 *  minimum, the pool is off or has no memory: the caller then allocates as
 *  usual. */
nb::object
PooledLabelArray(const std::vector<size_t> & shape, char kind, size_t itemsize)
{
  if ((kind != 'i' && kind != 'u') || (itemsize != 4 && itemsize != 8))
  {
    ThrowType("a pooled label image needs a 32 or 64-bit integer dtype");
  }
  size_t bytes = itemsize;
  for (const size_t n : shape)
  {
    if (n != 0 && bytes > std::numeric_limits<size_t>::max() / n)
    {
      ThrowValue("the label image's size overflows");
    }
    bytes *= n;
  }
  PoolBlock block(cca::HostImageMemory::Acquire(bytes));
  if (!block)
  {
    return nb::none();
  }
  if (itemsize == 4)
  {
    return kind == 'i' ? PooledArray<std::int32_t>(std::move(block), shape)
                       : PooledArray<std::uint32_t>(std::move(block), shape);
  }
  return kind == 'i' ? PooledArray<std::int64_t>(std::move(block), shape)
                     : PooledArray<std::uint64_t>(std::move(block), shape);
}

nb::dict
HostImageMemoryUse()
{
  const cca::HostImageMemoryUse use = cca::HostImageMemory::Use();
  nb::dict                      out;
  out["in_use_bytes"] = use.inUseBytes;
  out["idle_bytes"] = use.idleBytes;
  out["pinned_bytes"] = use.pinnedBytes;
  out["idle_limit_bytes"] = use.idleLimitBytes;
  return out;
}

// ---- columns -------------------------------------------------------------------

template <typename T>
nb::object
NumpyColumn(std::vector<T> && values)
{
  auto * owned = new std::vector<T>(std::move(values));
  owned->reserve(1); // a non-null pointer for empty columns
  nb::capsule owner(owned, [](void * p) noexcept { delete static_cast<std::vector<T> *>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(owned->data(), { owned->size() }, owner));
}

/** The table, column by column, in the order the package documents. Vector
 *  attributes are split as scikit-image's regionprops_table splits them:
 *  name-i (name-i-j for the axes), i in ITK's x, y, z order.
 *  Every attribute is an int64 or a double at a fixed offset of
 *  ShapeAttributes, so a column is a name, a type and an offset. The worker
 *  threads that compute the attributes store each row straight into the
 *  columns (Store), which they also touch first: no array of all rows (~400
 *  bytes each) is made, zeroed and read again column by column. */
class ColumnTable
{
public:
  ColumnTable(int d, const cca::ShapeAttributeOptions & options, std::int64_t rows)
    : m_Rows(static_cast<size_t>(rows))
  {
    using S = cca::ShapeAttributes;
    static_assert(std::is_standard_layout_v<S>, "columns are read at member offsets");
    static_assert(sizeof(double) == 8 && sizeof(std::int64_t) == 8, "8-byte attributes");
    const auto addVector = [&](const std::string & name, bool integer, size_t offset, int count) {
      for (int i = 0; i < count; ++i)
      {
        Add(name + "-" + std::to_string(i), integer, offset + i * 8);
      }
    };
    Add("number_of_pixels", true, offsetof(S, numberOfPixels));
    Add("physical_size", false, offsetof(S, physicalSize));
    addVector("centroid", false, offsetof(S, centroid), d);
    addVector("bbox", true, offsetof(S, boundingBoxIndex), d);
    for (int i = 0; i < d; ++i)
    {
      Add("bbox-" + std::to_string(d + i), true, offsetof(S, boundingBoxSize) + i * 8);
    }
    Add("number_of_pixels_on_border", true, offsetof(S, numberOfPixelsOnBorder));
    Add("perimeter_on_border", false, offsetof(S, perimeterOnBorder));
    if (options.perimeter)
    {
      Add("perimeter", false, offsetof(S, perimeter));
      Add("roundness", false, offsetof(S, roundness));
    }
    addVector("principal_moments", false, offsetof(S, principalMoments), d);
    for (int i = 0; i < d; ++i)
    {
      for (int j = 0; j < d; ++j)
      {
        Add("principal_axes-" + std::to_string(i) + "-" + std::to_string(j),
            false,
            offsetof(S, principalAxes) + (3 * i + j) * 8);
      }
    }
    Add("elongation", false, offsetof(S, elongation));
    Add("flatness", false, offsetof(S, flatness));
    Add("equivalent_spherical_radius", false, offsetof(S, equivalentSphericalRadius));
    Add("equivalent_spherical_perimeter", false, offsetof(S, equivalentSphericalPerimeter));
    addVector("equivalent_ellipsoid_diameter", false, offsetof(S, equivalentEllipsoidDiameter), d);
    if (options.feretDiameter)
    {
      Add("feret_diameter", false, offsetof(S, feretDiameter));
    }
    if (options.perimeter)
    {
      Add("perimeter_on_border_ratio", false, offsetof(S, perimeterOnBorderRatio));
    }
    if (options.orientedBoundingBox)
    {
      addVector("oriented_bounding_box_origin", false, offsetof(S, orientedBoundingBoxOrigin), d);
      addVector("oriented_bounding_box_size", false, offsetof(S, orientedBoundingBoxSize), d);
    }
  }

  /** Row `index` (label index + 1); called from the worker threads. */
  void
  Store(std::int64_t index, const cca::ShapeAttributes & row)
  {
    const auto * bytes = reinterpret_cast<const unsigned char *>(&row);
    for (Column & column : m_Columns)
    {
      std::memcpy(column.values.get() + index * 8, bytes + column.offset, 8);
    }
  }

  /** label, then the columns, as NumPy arrays that own their memory. */
  nb::dict
  ToDict()
  {
    nb::dict                         columns;
    std::unique_ptr<unsigned char[]> labels(new unsigned char[std::max<size_t>(1, m_Rows) * 8]);
    auto *                           label = reinterpret_cast<std::int64_t *>(labels.get());
    for (size_t r = 0; r < m_Rows; ++r)
    {
      label[r] = static_cast<std::int64_t>(r + 1);
    }
    columns["label"] = Array<std::int64_t>(std::move(labels));
    for (Column & column : m_Columns)
    {
      columns[column.name.c_str()] =
        column.integer ? Array<std::int64_t>(std::move(column.values)) : Array<double>(std::move(column.values));
    }
    return columns;
  }

private:
  struct Column
  {
    std::string                      name;
    bool                             integer;
    size_t                           offset; // of the value in ShapeAttributes
    std::unique_ptr<unsigned char[]> values; // 8 bytes a row, left uninitialized until stored
  };

  void
  Add(std::string name, bool integer, size_t offset)
  {
    m_Columns.push_back({ std::move(name),
                          integer,
                          offset,
                          std::unique_ptr<unsigned char[]>(new unsigned char[std::max<size_t>(1, m_Rows) * 8]) });
  }

  template <typename T>
  nb::object
  Array(std::unique_ptr<unsigned char[]> && values)
  {
    unsigned char * data = values.release();
    nb::capsule     owner(data, [](void * p) noexcept { delete[] static_cast<unsigned char *>(p); });
    return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(reinterpret_cast<T *>(data), { m_Rows }, owner));
  }

  size_t              m_Rows;
  std::vector<Column> m_Columns;
};

/** The columns beside the shape table: label_value (label-image input),
 *  source_label (a selection renumbered the objects) and the intensity group
 *  (a feature image), named as SimpleITK's LabelIntensityStatisticsImageFilter
 *  names its measurements, in snake_case; vectors split as the shape columns. */
void
AddObjectColumns(const cca::Result &        result,
                 const cca::ImageGeometry & geometry,
                 const cca::Options &       options,
                 cca::PixelType             pixelType,
                 nb::dict &                 columns)
{
  // The options decide the columns, not the rows: a table without objects
  // has the columns of one with objects.
  const auto rows = static_cast<size_t>(result.componentCount);
  if (options.objects != cca::Objects::ForegroundComponents)
  {
    if (pixelType == cca::PixelType::UInt64) // values past 2^63 keep their bits in labelValues
    {
      columns["label_value"] =
        NumpyColumn(std::vector<std::uint64_t>(result.labelValues.begin(), result.labelValues.end()));
    }
    else
    {
      columns["label_value"] = NumpyColumn(std::vector<std::int64_t>(result.labelValues));
    }
  }
  if (options.selection.Active())
  {
    columns["source_label"] = NumpyColumn(std::vector<std::int64_t>(result.sourceNumbers));
  }
  if (!options.intensity.Requested())
  {
    return;
  }
  const int                              d = geometry.dimension;
  std::vector<std::vector<double>>       scalars(9, std::vector<double>(rows));
  std::vector<std::vector<std::int64_t>> indices(2 * d, std::vector<std::int64_t>(rows));
  std::vector<std::vector<double>>       centers(d, std::vector<double>(rows));
  std::vector<std::vector<double>>       moments(d, std::vector<double>(rows));
  std::vector<std::vector<double>>       axes(d * d, std::vector<double>(rows));
  std::vector<std::vector<double>>       ratios(2, std::vector<double>(rows));
  for (size_t r = 0; r < rows; ++r)
  {
    const cca::ObjectIntensity &   s = result.intensity[r];
    const cca::IntensityAttributes a = cca::ComputeIntensityAttributes(s, result.features[r].pixelCount, geometry);
    const double                   values[9] = { s.minimum,  s.maximum, a.mean,     s.sum,     a.standardDeviation,
                                                 a.variance, s.median,  a.skewness, a.kurtosis };
    for (int c = 0; c < 9; ++c)
    {
      scalars[c][r] = values[c];
    }
    for (int i = 0; i < d; ++i)
    {
      indices[i][r] = a.minimumIndex[i];
      indices[d + i][r] = a.maximumIndex[i];
      centers[i][r] = a.centerOfGravity[i];
      moments[i][r] = a.weightedPrincipalMoments[i];
      for (int j = 0; j < d; ++j)
      {
        axes[i * d + j][r] = a.weightedPrincipalAxes[i][j];
      }
    }
    ratios[0][r] = a.weightedElongation;
    ratios[1][r] = a.weightedFlatness;
  }
  const char * names[9] = { "minimum",  "maximum", "mean",     "sum",     "standard_deviation",
                            "variance", "median",  "skewness", "kurtosis" };
  for (int c = 0; c < 9; ++c)
  {
    columns[names[c]] = NumpyColumn(std::move(scalars[c]));
  }
  for (int i = 0; i < d; ++i)
  {
    columns[("minimum_index-" + std::to_string(i)).c_str()] = NumpyColumn(std::move(indices[i]));
  }
  for (int i = 0; i < d; ++i)
  {
    columns[("maximum_index-" + std::to_string(i)).c_str()] = NumpyColumn(std::move(indices[d + i]));
  }
  for (int i = 0; i < d; ++i)
  {
    columns[("center_of_gravity-" + std::to_string(i)).c_str()] = NumpyColumn(std::move(centers[i]));
  }
  for (int i = 0; i < d; ++i)
  {
    columns[("weighted_principal_moments-" + std::to_string(i)).c_str()] = NumpyColumn(std::move(moments[i]));
  }
  for (int i = 0; i < d; ++i)
  {
    for (int j = 0; j < d; ++j)
    {
      columns[("weighted_principal_axes-" + std::to_string(i) + "-" + std::to_string(j)).c_str()] =
        NumpyColumn(std::move(axes[i * d + j]));
    }
  }
  columns["weighted_elongation"] = NumpyColumn(std::move(ratios[0]));
  columns["weighted_flatness"] = NumpyColumn(std::move(ratios[1]));
}

cca::Objects
ObjectsOf(const std::string & name)
{
  static constexpr std::pair<const char *, cca::Objects> objects[] = {
    { "components", cca::Objects::ForegroundComponents },
    { "label_values", cca::Objects::LabelValues },
    { "label_value_components", cca::Objects::LabelValueComponents },
  };
  return ChoiceOf(name, "objects", objects);
}

/** What label_shape_statistics measures besides the shape: which objects, a
 *  feature image and its histogram's bins (0: the engine's default rule),
 *  and the selection by size. A Python object of its own
 *  (_core.ObjectArguments), made by the package after its checks. */
struct ObjectArguments
{
  std::string          objects;
  std::optional<Array> featureImage;
  std::uint32_t        histogramBins;
  std::int64_t         minimumPixels;
  std::int64_t         maximumPixels;
  std::int64_t         keepLargest;
  bool                 orderBySize;
};

/** Sets options.objects, intensity and selection from `arguments`. */
void
ApplyObjectArguments(const ObjectArguments & arguments, const cca::ImageView & view, cca::Options & options)
{
  options.objects = ObjectsOf(arguments.objects);
  if (arguments.featureImage)
  {
    // Host or CUDA memory: cca::ValidateInput checks the device against the image's and the backend.
    const cca::ImageView feature = ViewOf(*arguments.featureImage, true);
    if (feature.dimension != view.dimension || feature.size[0] != view.size[0] || feature.size[1] != view.size[1] ||
        feature.size[2] != view.size[2])
    {
      ThrowValue("the feature image must have the image's shape");
    }
    options.intensity.featureImage = feature;
    options.intensity.weightedMoments = true;
    options.intensity.histogram = cca::StatisticsLabelMapHistogram(feature.pixelType, arguments.histogramBins);
  }
  options.selection.minimumPixels = arguments.minimumPixels;
  options.selection.maximumPixels = arguments.maximumPixels;
  options.selection.keepLargest = arguments.keepLargest;
  options.selection.orderBySize = arguments.orderBySize;
}

// ---- the calls ----------------------------------------------------------------

/** What every call passes: the image, its foreground rule and where and how
 *  to run. A Python object of its own (_core.RunArguments), made once by the
 *  package for whichever call it makes. */
struct RunArguments
{
  Array                         image;
  bool                          foregroundEqual;
  nb::object                    value;
  bool                          fullyConnected;
  std::string                   backend;
  int                           cudaDevice;
  std::optional<std::uintptr_t> stream;
  int                           threads;
  std::string                   algorithm;
};

/** The engine's view of the image and the options every call shares; the
 *  label image goes to `labels` when given (`name` in messages). */
std::pair<cca::ImageView, cca::Options>
EngineInput(const RunArguments & arguments, const std::optional<WritableArray> & labels, const char * name)
{
  const cca::ImageView view = ViewOf(arguments.image);
  cca::Options         options;
  options.foregroundRule = arguments.foregroundEqual ? cca::ForegroundRule::EqualTo : cca::ForegroundRule::NotEqualTo;
  options.foregroundValue = ForegroundBits(arguments.value, arguments.image.dtype());
  options.connectivity = arguments.fullyConnected ? cca::Connectivity::Full : cca::Connectivity::Face;
  options.backend = BackendOf(arguments.backend);
  options.cudaDevice = arguments.cudaDevice;
  options.algorithm = AlgorithmOf(arguments.algorithm);
  options.numberOfThreads = arguments.threads;
  if (arguments.stream)
  {
    options.useCallerStream = true;
    options.cudaStream = *arguments.stream;
  }
  if (labels)
  {
    options.labelImageType = CheckLabelDestination(*labels, view, name);
    options.labelImage = labels->data();
    options.labelImageMemory = view.memory;
  }
  return { view, options };
}

/** What every call reports besides its own results: the count, the backend
 *  that ran, the engine's stage times, its warnings and the transfers. */
nb::dict
RunReport(const cca::Result & result, const cca::ImageView & view)
{
  nb::dict out;
  out["component_count"] = result.componentCount;
  out["backend"] = result.backendUsed == cca::Backend::Cuda ? "cuda" : "cpu";
  nb::dict times;
  times["upload_ms"] = result.times.uploadMs;
  times["label_ms"] = result.times.labelMs;
  times["features_ms"] = result.times.featuresMs;
  times["download_ms"] = result.times.downloadMs;
  times["total_ms"] = result.times.totalMs;
  out["times"] = times;
  nb::list warnings;
  for (const std::string & warning : result.warnings)
  {
    warnings.append(nb::str(warning.c_str()));
  }
  out["warnings"] = warnings;
  out["data_pointer"] = reinterpret_cast<std::uintptr_t>(view.data);
  out["bytes_copied_to_device"] = result.bytesCopiedToDevice;
  out["bytes_copied_to_host"] = result.bytesCopiedToHost;
  return out;
}

/** label_shape_statistics: the engine's table, then ITK's shape attributes as columns. */
nb::dict
Analyze(const RunArguments &         arguments,
        const ObjectArguments &      objects,
        std::optional<WritableArray> labels,
        std::array<double, 3>        spacing,
        std::array<double, 3>        origin,
        std::array<double, 9>        direction,
        std::array<std::int64_t, 3>  regionIndex,
        bool                         perimeter,
        bool                         feretDiameter,
        bool                         orientedBoundingBox,
        bool                         lines)
{
  auto [view, options] = EngineInput(arguments, labels, "the label image");
  ApplyObjectArguments(objects, view, options);
  cca::ShapeAttributeOptions attributeOptions;
  attributeOptions.perimeter = perimeter;
  attributeOptions.feretDiameter = feretDiameter;
  attributeOptions.orientedBoundingBox = orientedBoundingBox;
  options.computeRuns = lines || feretDiameter || orientedBoundingBox;

  cca::ImageGeometry geometry;
  geometry.dimension = view.dimension;
  for (int i = 0; i < 3; ++i)
  {
    geometry.spacing[i] = spacing[i];
    geometry.origin[i] = origin[i];
    geometry.regionIndex[i] = regionIndex[i];
    for (int j = 0; j < 3; ++j)
    {
      geometry.direction[i][j] = direction[3 * i + j];
    }
  }
  for (int i = 0; i < view.dimension; ++i)
  {
    if (!(spacing[i] > 0))
    {
      ThrowValue("spacing must be positive");
    }
  }

  // Wall times of the host's stages (they grow with the number of
  // components, not of pixels).
  using Clock = std::chrono::steady_clock;
  const auto milliseconds = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  auto                         worker = EnginePool::Instance().Borrow();
  cca::Result &                result = worker->result;
  std::unique_ptr<ColumnTable> table;
  double                       attributesMs = 0;
  const int                    dimension = view.dimension; // a structured binding: not captured in C++17
  const auto                   computeAttributes = [&] {
    const Clock::time_point start = Clock::now();
    table = std::make_unique<ColumnTable>(dimension, attributeOptions, result.componentCount);
    cca::ComputeShapeAttributes(
      result,
      geometry,
      attributeOptions,
      [&table](std::int64_t index, const cca::ShapeAttributes & row) { table->Store(index, row); },
      arguments.threads);
    attributesMs = milliseconds(start, Clock::now());
  };
  {
    nb::gil_scoped_release released;
    // With a label image on the host, the attributes are computed while the
    // engine copies it (Options::objectsReady), as the ITK filter builds
    // its LabelMap; otherwise after the run.
    cca::BackgroundWork attributes(computeAttributes);
    if (options.labelImageType != cca::LabelImageType::None && options.labelImageMemory == cca::MemorySpace::Host)
    {
      attributes.StartWhenObjectsReady(options);
    }
    try
    {
      worker->engine.Run(view, options, result);
    }
    catch (...)
    {
      attributes.Abandon(); // it reads the result; the engine's error is the one to report
      throw;
    }
    attributes.Finish();
  }

  const Clock::time_point columnsStart = Clock::now();
  nb::dict                out = RunReport(result, view);
  nb::dict                columns = table->ToDict();
  AddObjectColumns(result, geometry, options, view.pixelType, columns);
  out["columns"] = columns;
  nb::dict times = out["times"];
  times["shape_attributes_ms"] = attributesMs;
  times["columns_ms"] = milliseconds(columnsStart, Clock::now());
  if (options.computeRuns && lines)
  {
    std::vector<std::int32_t> runs(result.runs.size() * 4);
    for (size_t r = 0; r < result.runs.size(); ++r)
    {
      runs[4 * r] = result.runs[r].x;
      runs[4 * r + 1] = result.runs[r].y;
      runs[4 * r + 2] = result.runs[r].z;
      runs[4 * r + 3] = result.runs[r].length;
    }
    out["runs"] = NumpyColumn(std::move(runs));
    out["run_offsets"] = NumpyColumn(std::vector<std::int64_t>(result.runOffsets.begin(), result.runOffsets.end()));
  }
  return out;
}

/** label: the label image only. No feature table and no runs are made, so
 *  nothing but the count (and, for host images on the CUDA backend, the label
 *  image) comes back from the device. */
nb::dict
Label(const RunArguments & arguments, const WritableArray & labels)
{
  auto [view, options] = EngineInput(arguments, labels, "out");
  options.computeFeatures = false;
  options.computeRuns = false;
  auto          worker = EnginePool::Instance().Borrow();
  cca::Result & result = worker->result;
  {
    nb::gil_scoped_release released;
    worker->engine.Run(view, options, result);
  }
  return RunReport(result, view);
}

} // namespace

NB_MODULE(_core, m)
{
  m.doc() = "The compiled engine of cudalabelstatistics (use the package's functions instead).";
  g_CudaError = PyErr_NewException("cudalabelstatistics.CudaError", PyExc_RuntimeError, nullptr);
  g_CudaUnavailableError = PyErr_NewException("cudalabelstatistics.CudaUnavailableError", g_CudaError, nullptr);
  m.attr("CudaError") = nb::handle(g_CudaError);
  m.attr("CudaUnavailableError") = nb::handle(g_CudaUnavailableError);
  nb::register_exception_translator(TranslateEngineError);

  m.def("cuda_compiled_in", &cca::Engine::CudaCompiledIn, "True when this build has the CUDA backend.");
  m.def("cuda_available",
        &cca::Engine::CudaAvailable,
        "True when this build has the CUDA backend and a CUDA device is usable.");
  m.def(
    "start_cuda",
    [](int device) {
      nb::gil_scoped_release released; // the package starts it on a thread of its own
      return cca::Engine::StartCuda(device);
    },
    nb::arg("device"),
    "Starts CUDA ahead of the first run (device -1: the current one); False when no device is usable.");
  m.def(
    "release_cached_memory",
    [] {
      EnginePool::Instance().ReleaseResults();
      cca::Engine::ReleaseCachedMemory();
    },
    "Gives back the memory kept for the next calls: the last result tables, device memory, pinned host memory "
    "and the idle label image memory.");
  m.def("pooled_label_array",
        &PooledLabelArray,
        nb::arg("shape"),
        nb::arg("kind"),
        nb::arg("itemsize"),
        "An uninitialised NumPy array in a block of the host image pool, or None.");
  m.def("host_image_memory_use", &HostImageMemoryUse, "What the host image pool holds, in bytes.");
  m.def("set_host_image_idle_limit",
        &cca::HostImageMemory::SetIdleLimit,
        nb::arg("nbytes"),
        "The most bytes of idle label image memory the process keeps (0: no pool).");
  m.def("host_image_idle_limit", &cca::HostImageMemory::IdleLimit);
  m.def("wait_for_host_image_pinning", [] {
    nb::gil_scoped_release released;
    cca::HostImageMemory::WaitForPinning();
  });
  nb::class_<RunArguments>(m, "RunArguments")
    .def(
      "__init__",
      [](RunArguments *                self,
         const Array &                 image,
         bool                          foregroundEqual,
         nb::object                    value,
         bool                          fullyConnected,
         std::string                   backend,
         int                           cudaDevice,
         std::optional<std::uintptr_t> stream,
         int                           threads,
         std::string                   algorithm) {
        new (self) RunArguments{ image,      foregroundEqual, std::move(value), fullyConnected,      std::move(backend),
                                 cudaDevice, stream,          threads,          std::move(algorithm) };
      },
      nb::arg("image").noconvert(),
      nb::kw_only(),
      nb::arg("foreground_equal"),
      nb::arg("value"),
      nb::arg("fully_connected"),
      nb::arg("backend"),
      nb::arg("cuda_device"),
      nb::arg("stream").none(),
      nb::arg("threads"),
      nb::arg("algorithm"));
  nb::class_<ObjectArguments>(m, "ObjectArguments")
    .def(
      "__init__",
      [](ObjectArguments *    self,
         std::string          objects,
         std::optional<Array> featureImage,
         std::uint32_t        histogramBins,
         std::int64_t         minimumPixels,
         std::int64_t         maximumPixels,
         std::int64_t         keepLargest,
         bool                 orderBySize) {
        new (self) ObjectArguments{ std::move(objects), std::move(featureImage), histogramBins,
                                    minimumPixels,      maximumPixels,           keepLargest,
                                    orderBySize };
      },
      nb::kw_only(),
      nb::arg("objects"),
      nb::arg("feature_image").noconvert().none(),
      nb::arg("histogram_bins"),
      nb::arg("minimum_pixels"),
      nb::arg("maximum_pixels"),
      nb::arg("keep_largest"),
      nb::arg("order_by_size"));
  m.def("analyze",
        &Analyze,
        nb::arg("run"),
        nb::arg("objects"),
        nb::kw_only(),
        nb::arg("labels").noconvert().none(),
        nb::arg("spacing"),
        nb::arg("origin"),
        nb::arg("direction"),
        nb::arg("region_index"),
        nb::arg("perimeter"),
        nb::arg("feret_diameter"),
        nb::arg("oriented_bounding_box"),
        nb::arg("lines"));
  m.def("label", &Label, nb::arg("run"), nb::kw_only(), nb::arg("labels").noconvert());
}
