// Sizing a result's vectors whose new elements are then overwritten whole
// (a download from the device, the CPU backend's grouping of the runs).
#ifndef cca_ResizeForOverwrite_h
#define cca_ResizeForOverwrite_h

#include "ParallelFor.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace cca
{

/** vector.resize(count), for elements the caller overwrites. std::vector
 *  zeroes what it grows by on the calling thread, and new memory's pages are
 *  first touched there too, each fault zeroing its page: a fresh result's
 *  113 MB of runs (512^3 g = 4) took about 55 ms so on an H200 host
 *  (benchmark/results/h200-split-modules call 5), where a result reused
 *  for the next run took none. Here the host's threads first touch the new
 *  capacity side by side, and resize's zeroing then runs over memory that
 *  is there. Below 8 MiB of growth, plain resize. */
template <class T>
void
ResizeForOverwrite(std::vector<T> & vector, std::size_t count, int threads)
{
  static_assert(std::is_trivially_copyable<T>::value, "the new elements are bytes until overwritten");
  constexpr std::size_t ParallelFromBytes = std::size_t{ 8 } << 20;
  constexpr std::size_t ChunkBytes = std::size_t{ 4 } << 20;
  if (count > vector.capacity() && (count - vector.size()) * sizeof(T) >= ParallelFromBytes)
  {
    vector.reserve(count);
    // Storage past size() is the allocator's memory, no element's yet.
    auto * const      grown = reinterpret_cast<unsigned char *>(vector.data() + vector.size());
    const std::size_t bytes = (count - vector.size()) * sizeof(T);
    const int         chunks = static_cast<int>(
      std::min<std::size_t>(static_cast<std::size_t>(HostThreads(threads)), (bytes + ChunkBytes - 1) / ChunkBytes));
    ParallelForChunks(chunks, [&](int c) {
      const std::size_t begin = bytes / chunks * c;
      const std::size_t end = c + 1 == chunks ? bytes : bytes / chunks * (c + 1);
      std::memset(grown + begin, 0, end - begin);
    });
  }
  vector.resize(count);
}

} // namespace cca

#endif
