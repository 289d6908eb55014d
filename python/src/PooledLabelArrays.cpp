// Host label images from the pool (PooledLabelArrays.h): a pool block handed
// to NumPy with a capsule that gives it back.
#include "PooledLabelArrays.h"

#include "Errors.h"

#include "cca/HostImageMemory.h"

#include <nanobind/ndarray.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <utility>

namespace nb = nanobind;

namespace ccapython
{
namespace
{

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

} // namespace

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

} // namespace ccapython
