// Host memory's first writes made ahead of the copy that fills it. Linux
// maps an anonymous page (and zeroes it) at its first write; where a
// download's copy threads write fresh memory with streaming stores, that
// write finds the just-zeroed lines in the caches and evicts them first:
// on the development VM 1 GB of 64-bit labels widened into fresh memory
// took 148-150 ms on 2 threads, the same after a pass that wrote a byte of
// each page first 93-124 ms in all (that pass 65-100 ms, the widening 24;
// benchmark/results/h200-fresh-widening).
#ifndef cca_FirstWrites_h
#define cca_FirstWrites_h

#include <cstddef>

namespace cca
{

/** Writes a byte of every page of [memory, memory + bytes) (its contents
 *  are undefined after) on up to 16 threads, each a stretch of whole 2 MiB
 *  huge pages, so that the kernel maps them now, several at once. Memory
 *  of 32 MiB or more is advised to take huge pages first. */
void
WritePagesOnThreads(void * memory, std::size_t bytes);

/** Whether [memory, memory + bytes) looks never written: its first and
 *  last pages are not in memory (mincore). False where that cannot be
 *  told (not Linux, not mapped memory). */
bool
PagesUnmapped(const void * memory, std::size_t bytes);

} // namespace cca

#endif
