// Host memory's first writes made ahead of the copy that fills it. Linux
// maps an anonymous page (and zeroes it) at its first write; where a
// download's copy threads write fresh memory with streaming stores, that
// write finds the just-zeroed lines in the caches and evicts them first,
// and it stalls the copies behind it. On the H200 machine the 2.35 Gvox
// volume's first 64-bit label image (18.8 GB) took 869-1223 ms in
// Update(), 735-794 with its pages written first on 16 threads
// (benchmark/results/h200-fresh-widening).
#ifndef cca_FirstWrites_h
#define cca_FirstWrites_h

#include <cstddef>

namespace cca
{

/** Advises the kernel to back the whole 2 MiB huge pages inside a host
 *  range of 32 MiB or more with huge pages before it is first written:
 *  first writes of fresh memory then run at about 1.7 times the speed
 *  (Linux; elsewhere, and for smaller ranges, nothing). A hint: a failure
 *  changes nothing. */
void
AdviseHugePages(void * memory, std::size_t bytes);

/** Writes a byte of every page of [memory, memory + bytes) (its contents
 *  are undefined after) on up to 16 threads, each a stretch of whole 2 MiB
 *  huge pages, so that the kernel maps them now, several at once
 *  (AdviseHugePages first). */
void
WritePagesOnThreads(void * memory, std::size_t bytes);

/** Whether [memory, memory + bytes) looks never written: its first and
 *  last pages are not in memory (mincore). False where that cannot be
 *  told (not Linux, not mapped memory). */
bool
PagesUnmapped(const void * memory, std::size_t bytes);

} // namespace cca

#endif
