// Host memory's first writes made ahead (FirstWrites.h).
#include "FirstWrites.h"

#include "ParallelFor.h"

#include <algorithm>
#include <cstdint>

#ifdef __linux__
#  include <sys/mman.h>
#  include <unistd.h>
#endif

namespace cca
{

namespace
{
constexpr std::size_t HugePage = std::size_t{ 2 } << 20;
constexpr std::size_t Page = std::size_t{ 4 } << 10;
} // namespace

void
AdviseHugePages(void * memory, std::size_t bytes)
{
#ifdef __linux__
  if (bytes < 16 * HugePage)
  {
    return;
  }
  const auto begin = (reinterpret_cast<std::uintptr_t>(memory) + HugePage - 1) & ~(std::uintptr_t{ HugePage } - 1);
  const auto end = (reinterpret_cast<std::uintptr_t>(memory) + bytes) & ~(std::uintptr_t{ HugePage } - 1);
  if (end > begin)
  {
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
  }
#else
  (void)memory;
  (void)bytes;
#endif
}

void
WritePagesOnThreads(void * memory, std::size_t bytes)
{
  if (bytes == 0)
  {
    return;
  }
  AdviseHugePages(memory, bytes);
  const auto start = reinterpret_cast<std::uintptr_t>(memory);
  // Stretches of whole huge pages (from the first huge page boundary), so
  // that no two threads fault the same one.
  const std::uintptr_t first = (start + HugePage - 1) & ~(std::uintptr_t{ HugePage } - 1);
  const std::size_t    head = std::min(bytes, static_cast<std::size_t>(first - start));
  const std::size_t    hugePages = (bytes - head + HugePage - 1) / HugePage;
  const auto           threads = static_cast<int>(
    std::max<std::size_t>(1, std::min<std::size_t>({ static_cast<std::size_t>(HostThreads(0)), 16, hugePages })));
  auto * const base = static_cast<volatile unsigned char *>(memory);
  // Each page's first byte in [from, to): the page of from itself too.
  auto write = [base, start](std::size_t from, std::size_t to) {
    for (std::size_t offset = from; offset < to; offset = ((start + offset) / Page + 1) * Page - start)
    {
      base[offset] = 0;
    }
  };
  write(0, head);
  ParallelForChunks(threads, [&](int chunk) {
    const auto        part = static_cast<std::size_t>(chunk);
    const auto        count = static_cast<std::size_t>(threads);
    const std::size_t from = std::min(bytes, head + hugePages * part / count * HugePage);
    const std::size_t to = std::min(bytes, head + hugePages * (part + 1) / count * HugePage);
    write(from, to);
  });
}

bool
PagesUnmapped(const void * memory, std::size_t bytes)
{
#ifdef __linux__
  if (bytes == 0)
  {
    return false;
  }
  const auto    start = reinterpret_cast<std::uintptr_t>(memory);
  unsigned char firstPage = 1;
  unsigned char lastPage = 1;
  const auto    pageOf = [](std::uintptr_t address) { return reinterpret_cast<void *>(address & ~(Page - 1)); };
  if (mincore(pageOf(start), 1, &firstPage) != 0 || mincore(pageOf(start + bytes - 1), 1, &lastPage) != 0)
  {
    return false;
  }
  return (firstPage & 1) == 0 && (lastPage & 1) == 0;
#else
  (void)memory;
  (void)bytes;
  return false;
#endif
}

} // namespace cca
