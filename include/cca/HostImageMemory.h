// Host memory for the large images the engine writes (label images), from a
// pool of the process, so that a new image of a size seen before costs no
// fresh memory and the GPU writes it at the bus's speed.
#ifndef cca_HostImageMemory_h
#define cca_HostImageMemory_h

#include <cstddef>

namespace cca
{

/** What the pool holds (HostImageMemory::Use). */
struct HostImageMemoryUse
{
  std::size_t inUseBytes = 0;  ///< blocks held by images now
  std::size_t idleBytes = 0;   ///< blocks kept for the next images
  std::size_t pinnedBytes = 0; ///< of both, the page-locked ones
  std::size_t idleLimitBytes = 0;
};

/** Why a pool: the GPU labels a 2.35 Gvox volume in about 20 ms, but writing
 *  its label image into fresh host memory runs at 15-30 GB/s on the H100
 *  machine (the host's page faults and a copy out of pinned staging buffers),
 *  while a DMA into page-locked memory runs at 55 GB/s with no host copy.
 *  Locking fresh memory in place costs more than one download (the kernel
 *  faults each page, then the driver maps it: 20-40 GB/s each), so it pays
 *  only for memory that is used again. Hence:
 *
 *  - an image of at least MinimumBytes takes a block of the pool: an idle one
 *    of at least its size and at most half as large again, else a new one
 *    (untouched address space backed by huge pages where Linux allows);
 *  - a block given back stays idle for the next image while the idle blocks
 *    total at most IdleLimit() (the oldest go first);
 *  - a block given back after its second use is page-locked by a thread of
 *    the pool in the background (when a CUDA device is usable), a chunk at a
 *    time, and from then on the engine copies labels into it directly
 *    (Pinned(), PinnedExtent()); 64-bit labels that the device holds as
 *    32-bit ones are widened on the host from staging all the same where
 *    the CPU has streaming stores (half the bytes on the bus).
 *
 *  A program that labels one image pays nothing for the pool; one that labels
 *  many of similar sizes gets them at the bus's speed from the third on.
 *  The idle blocks are memory the process keeps: SetIdleLimit(0) turns the
 *  pool off (Acquire then returns nullptr), Trim() (and
 *  Engine::ReleaseCachedMemory) gives the idle blocks back. Linux only;
 *  elsewhere Acquire returns nullptr. All functions are thread-safe. */
class HostImageMemory
{
public:
  /** Images below this size are not worth a block: the staged copies reach
   *  the bus's speed on them, and no block is locked for them. */
  static constexpr std::size_t MinimumBytes = std::size_t{ 64 } << 20;

  /** A block of at least bytes bytes, aligned to 2 MiB, contents undefined;
   *  nullptr when bytes < MinimumBytes, the pool is off, or the system has
   *  no memory to map: the caller then allocates as usual. */
  static void *
  Acquire(std::size_t bytes);

  /** Gives back a block that Acquire returned; false (and nothing done) when
   *  memory is not a block of the pool in use. */
  static bool
  Release(void * memory);

  /** Makes an idle block for an image of bytes bytes ready before it is
   *  asked for: a new block's pages are written once on up to 16 threads,
   *  so that the engine's copy into it does not wait for the kernel to map
   *  fresh memory (a program whose label image comes from the pool calls
   *  it while CUDA starts). The next Acquire of that size takes it; this
   *  is not one of the block's uses (no page-locking follows from it).
   *  True when such a block is idle now; false below MinimumBytes, with
   *  the pool off or over its idle limit, or without memory to map. */
  static bool
  Prepare(std::size_t bytes);

  /** Blocks are page-locked in chunks of this size from their start (one
   *  lock of gigabytes would stall the process's page faults for seconds);
   *  a single copy may not cross from one chunk into the next. */
  static constexpr std::size_t PinChunkBytes = std::size_t{ 64 } << 20;

  /** True when [memory, memory + bytes) lies in a page-locked block held by
   *  an image: the engine then copies into it without staging. */
  static bool
  Pinned(const void * memory, std::size_t bytes);

  /** Bytes from memory to the end of its page-locked chunk, in a block held
   *  by an image; 0 when memory is not in one. */
  static std::size_t
  PinnedExtent(const void * memory);

  /** The most idle bytes kept; default a quarter of the physical memory. */
  static void
  SetIdleLimit(std::size_t bytes);
  static std::size_t
  IdleLimit();

  /** Gives every idle block back to the system (waits for pinning in progress). */
  static void
  Trim();

  /** Waits until no block is being page-locked: for benchmarks and tests
   *  that want the next image to find its block locked already. */
  static void
  WaitForPinning();

  static HostImageMemoryUse
  Use();
};

} // namespace cca

#endif
