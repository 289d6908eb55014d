// The Python extension: turns a DLPack/buffer array into a cca::ImageView
// (no copy: host or CUDA device memory, strides passed through), runs the
// engine without the GIL, and either computes ITK's shape attributes with
// cca::ComputeShapeAttributes (with a feature image, the intensity group by
// cca::ComputeIntensityAttributes) and returns them as NumPy columns (analyze) or
// writes only the label image into the caller's array (label). Argument
// checks that need a framework (float thresholds, stream objects, ITK and
// SimpleITK images) live in the Python package; this module checks what the
// engine needs.
//
// This file only declares the module, its functions and their docstrings; the
// work is in small files of one job each: EnginePool (one engine per
// concurrent call), Errors (the engine's exceptions as Python's), Arrays
// (arrays as engine views, label image destinations), Choices (backend=,
// algorithm=, objects=), PooledLabelArrays (host label images from the pool),
// Columns (the NumPy column table) and Calls (analyze, label).
#include "Calls.h"
#include "EnginePool.h"
#include "Errors.h"
#include "PooledLabelArrays.h"

#include "cca/Engine.h"
#include "cca/HostImageMemory.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace nb = nanobind;

using ccapython::Array;
using ccapython::EnginePool;
using ccapython::ObjectArguments;
using ccapython::RunArguments;

NB_MODULE(_core, m)
{
  m.doc() = "The compiled engine of cudalabelstatistics (use the package's functions instead).";
  ccapython::AddEngineErrors(m);

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
        &ccapython::PooledLabelArray,
        nb::arg("shape"),
        nb::arg("kind"),
        nb::arg("itemsize"),
        "An uninitialised NumPy array in a block of the host image pool, or None.");
  m.def("host_image_memory_use", &ccapython::HostImageMemoryUse, "What the host image pool holds, in bytes.");
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
        &ccapython::Analyze,
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
  m.def("label", &ccapython::Label, nb::arg("run"), nb::kw_only(), nb::arg("labels").noconvert());
}
