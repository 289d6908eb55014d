// Options::selection on the host (the CPU backend; the CUDA backend applies
// the same rule on the device, SelectionStage.cuh): which objects stay, and
// in which order they are numbered.
#ifndef cca_ObjectOrder_h
#define cca_ObjectOrder_h

#include "cca/Types.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cca
{
namespace detail
{

/** Positions (0-based, in the objects' order) of the objects selection
 *  keeps, in their new order. sizeOf(k) is the pixel count of object k.
 *  Sizes outside [minimumPixels, maximumPixels] are removed; keepLargest
 *  keeps the largest of the rest; orderBySize numbers them by decreasing
 *  size. Equal sizes keep their order (RelabelComponentImageFilter's rule). */
template <class SizeOf>
std::vector<std::int64_t>
SelectObjects(std::int64_t count, const Selection & selection, SizeOf && sizeOf)
{
  std::vector<std::int64_t> kept;
  kept.reserve(static_cast<std::size_t>(count));
  for (std::int64_t k = 0; k < count; ++k)
  {
    const std::int64_t size = sizeOf(k);
    if (size >= selection.minimumPixels && size <= selection.maximumPixels)
    {
      kept.push_back(k);
    }
  }
  const bool bySize = selection.orderBySize || selection.keepLargest > 0;
  if (bySize)
  {
    std::stable_sort(kept.begin(), kept.end(), [&](std::int64_t a, std::int64_t b) { return sizeOf(a) > sizeOf(b); });
  }
  if (selection.keepLargest > 0 && static_cast<std::int64_t>(kept.size()) > selection.keepLargest)
  {
    kept.resize(static_cast<std::size_t>(selection.keepLargest));
  }
  if (bySize && !selection.orderBySize)
  {
    std::sort(kept.begin(), kept.end());
  }
  return kept;
}

} // namespace detail
} // namespace cca

#endif
