// How glibc's malloc grows the heaps of threads, for code that makes millions
// of small objects from many threads at once (the ITK filter's label objects).
#ifndef cca_MallocHeaps_h
#define cca_MallocHeaps_h

namespace cca
{

/** Bytes by which glibc's malloc grows a heap at a time while a
 *  MallocHeapSteps lives: the largest heap of a thread's arena (64 MiB on
 *  64-bit Linux), so that each such heap is made writable in one system call. */
inline constexpr unsigned long MallocHeapStepBytes = 64ul << 20;

/** While an object of this class lives, glibc's malloc grows its heaps
 *  MallocHeapStepBytes at a time (its M_TOP_PAD) instead of page by page;
 *  the last one to go sets glibc's default (128 KiB) back. Objects may live
 *  on several threads at once.
 *
 *  Why: a thread's malloc arena makes its heap writable a few pages at a time,
 *  each step an mprotect() that takes the process's memory-map lock for
 *  writing, while every other thread's first write to a fresh page needs the
 *  same lock to fault the page in. Threads making 1.3 KB label objects (10^7
 *  objects: 13 GB, some 400,000 mprotect calls) then wait on one another.
 *  With 64 MiB steps, a new heap is writable at once.
 *
 *  What it costs the process: meanwhile glibc keeps up to 64 MiB of freed
 *  memory per arena instead of returning it to the system at once (untouched
 *  heap space costs no memory); and from the first one on, glibc's mmap
 *  threshold stays where it is instead of adapting to the sizes freed (as
 *  after any M_TOP_PAD setting).
 *
 *  Takes no effect (Active() false) where malloc is not glibc's, when the
 *  environment sets a glibc malloc tunable (GLIBC_TUNABLES: the user has
 *  chosen), or when CCA_KEEP_MALLOC_SETTINGS is set (non-empty). */
class MallocHeapSteps
{
public:
  MallocHeapSteps();
  ~MallocHeapSteps();
  MallocHeapSteps(const MallocHeapSteps &) = delete;
  MallocHeapSteps &
  operator=(const MallocHeapSteps &) = delete;

  /** Whether heaps grow MallocHeapStepBytes at a time now. */
  bool
  Active() const
  {
    return m_Active;
  }

private:
  bool m_Active = false;
};

} // namespace cca

#endif
