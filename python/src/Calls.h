// The module's two calls, analyze (label_shape_statistics) and label, and the
// argument objects the package makes for them: each call turns its arguments
// into the engine's view and options, runs an engine from the pool without
// the GIL and reports what the engine did.
#ifndef CudaLabelStatisticsPython_Calls_h
#define CudaLabelStatisticsPython_Calls_h

#include "Arrays.h"

#include <nanobind/nanobind.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ccapython
{

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

/** What every call passes: the image, its foreground rule and where and how
 *  to run. A Python object of its own (_core.RunArguments), made once by the
 *  package for whichever call it makes. */
struct RunArguments
{
  Array                         image;
  bool                          foregroundEqual;
  nanobind::object              value;
  bool                          fullyConnected;
  std::string                   backend;
  int                           cudaDevice;
  std::optional<std::uintptr_t> stream;
  int                           threads;
  std::string                   algorithm;
};

/** label_shape_statistics: the engine's table, then ITK's shape attributes as columns. */
nanobind::dict
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
        bool                         lines);

/** label: the label image only. No feature table and no runs are made, so
 *  nothing but the count (and, for host images on the CUDA backend, the label
 *  image) comes back from the device. */
nanobind::dict
Label(const RunArguments & arguments, const WritableArray & labels);

} // namespace ccapython

#endif
