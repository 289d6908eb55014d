// src/FirstWrites.h: a byte of every page of a range written on several
// threads (every page of the range mapped after, none beside it, on any
// alignment), and the look at whether memory was ever written (mincore).
// Linux only: exits 77 (skipped) elsewhere.
#include "FirstWrites.h"
#include "ccaExpect.h"

#include <cstdint>
#include <cstdio>
#include <vector>

#ifdef __linux__
#  include <sys/mman.h>
#  include <unistd.h>
#endif

namespace
{

#ifdef __linux__
constexpr std::size_t MiB = std::size_t{ 1 } << 20;
constexpr std::size_t Page = 4096;

/** How many pages of [memory, memory + bytes) (page-aligned) are in memory. */
std::size_t
ResidentPages(unsigned char * memory, std::size_t bytes)
{
  std::vector<unsigned char> pages((bytes + Page - 1) / Page);
  if (mincore(memory, bytes, pages.data()) != 0)
  {
    return static_cast<std::size_t>(-1);
  }
  std::size_t resident = 0;
  for (const unsigned char p : pages)
  {
    resident += p & 1;
  }
  return resident;
}

/** In a fresh mapping of 80 MiB, the range [offset, offset + bytes). */
void
CheckRange(std::size_t offset, std::size_t bytes)
{
  constexpr std::size_t mapped = 80 * MiB;
  void *                p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT(p != MAP_FAILED);
  if (p == MAP_FAILED)
  {
    return;
  }
  auto * const memory = static_cast<unsigned char *>(p);
  EXPECT(cca::PagesUnmapped(memory + offset, bytes));
  cca::WritePagesOnThreads(memory + offset, bytes);
  // The pages the range touches, and nothing before or after them (whole
  // 4 KiB pages: huge pages are a hint, and mincore counts 4 KiB pages).
  const std::size_t firstPage = offset / Page;
  const std::size_t endPage = (offset + bytes + Page - 1) / Page;
  const std::size_t inRange = ResidentPages(memory + firstPage * Page, (endPage - firstPage) * Page);
  const std::size_t all = ResidentPages(memory, mapped);
  const bool        huge = all > endPage - firstPage; // the kernel mapped whole huge pages around the range
  if (inRange != endPage - firstPage || (!huge && all != inRange))
  {
    std::printf("FAILED: range at %zu of %zu bytes: %zu of %zu pages mapped, %zu in the whole mapping\n",
                offset,
                bytes,
                inRange,
                endPage - firstPage,
                all);
    ++cca_test::Failures();
  }
  EXPECT(!cca::PagesUnmapped(memory + offset, bytes));
  munmap(p, mapped);
}
#endif

} // namespace

int
main()
{
#ifndef __linux__
  std::printf("FirstWrites needs Linux's mincore: skipped\n");
  return 77;
#else
  CheckRange(0, 64 * MiB);                 // aligned, many huge pages on several threads
  CheckRange(2 * MiB + 100, 40 * MiB + 7); // an unaligned head and tail
  CheckRange(3 * Page + 1, 5 * Page);      // a few pages, no whole huge page
  CheckRange(10 * MiB - 1, 2);             // two bytes on two pages
  cca::WritePagesOnThreads(nullptr, 0);    // nothing to write
  EXPECT(!cca::PagesUnmapped(nullptr, 0));
  std::vector<unsigned char> written(3 * MiB, 1);
  EXPECT(!cca::PagesUnmapped(written.data(), written.size()));
  if (cca_test::Failures() != 0)
  {
    std::printf("%d failures\n", cca_test::Failures());
    return 1;
  }
  std::printf("first writes: all checks passed\n");
  return 0;
#endif
}
