// The caller's arrays as the engine takes them: a DLPack or buffer-protocol
// array (NumPy, CuPy, PyTorch, itk and SimpleITK array views) as a
// cca::ImageView without a copy, the foreground value in the image's dtype,
// and the checks on a label image destination.
#ifndef CudaLabelStatisticsPython_Arrays_h
#define CudaLabelStatisticsPython_Arrays_h

#include "cca/Types.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>

namespace ccapython
{

using Array = nanobind::ndarray<nanobind::ro>;
using WritableArray = nanobind::ndarray<>;

/** The foreground value as the engine's 64-bit pattern, after checking that
 *  the dtype can hold it (a value it cannot hold would silently change meaning). */
std::int64_t
ForegroundBits(nanobind::handle value, nanobind::dlpack::dtype dtype);

/** The array as an engine view: axes reversed (NumPy's z, y, x to x, y, z),
 *  strides in elements passed through, never copied. `real`: a feature
 *  image, which may have a real dtype. */
cca::ImageView
ViewOf(const Array & array, bool real = false);

/** A label image destination must be dense in C order, with the image's shape,
 *  in the image's memory, of 32 or 64-bit integers, and apart from the image
 *  (the engine reads pixels while it writes labels). `name` is what the
 *  caller calls it in messages. */
cca::LabelImageType
CheckLabelDestination(const WritableArray & labels, const cca::ImageView & view, const char * name);

} // namespace ccapython

#endif
