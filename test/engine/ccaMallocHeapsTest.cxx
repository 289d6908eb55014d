// cca::MallocHeapSteps: with glibc, while one lives (nested ones too), a
// thread's new arena gets a heap made writable in one step of
// MallocHeapStepBytes (glibc counts it in mallinfo2's arena bytes) instead of
// the few pages of glibc's default; once the last is gone, the default is
// back; CCA_KEEP_MALLOC_SETTINGS keeps glibc's default throughout. Each
// arena is measured on a new thread that stays alive to the end (an exited
// thread's arena is reused), in a fresh process: one case per process.
//   ccaMallocHeapsTest applies    (the environment has no malloc setting)
//   ccaMallocHeapsTest declines   (run with CCA_KEEP_MALLOC_SETTINGS=1)
#include "cca/MallocHeaps.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <thread>
#include <vector>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define CCA_TEST_SANITIZER_MALLOC 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define CCA_TEST_SANITIZER_MALLOC 1
#  endif
#endif

#if defined(__GLIBC__) && !defined(CCA_TEST_SANITIZER_MALLOC)
#  include <malloc.h>
#  if __GLIBC_PREREQ(2, 33)
#    define CCA_TEST_HAVE_MALLINFO2 1
#  endif
#endif

#ifdef CCA_TEST_HAVE_MALLINFO2
namespace
{

/** Threads that each made their arena and wait for the end of the test. */
class ArenaThreads
{
public:
  /** Bytes glibc's arenas took from the system for one more thread's first
   *  allocation. */
  std::size_t
  NewArenaBytes()
  {
    const std::size_t         before = mallinfo2().arena;
    std::promise<std::size_t> grown;
    std::future<std::size_t>  result = grown.get_future();
    m_Threads.emplace_back([&grown, before, this] {
      // volatile: the compiler may not drop an allocation nobody reads.
      void * volatile p = std::malloc(100);
      grown.set_value(mallinfo2().arena - before);
      m_Release.wait();
      std::free(p);
    });
    return result.get();
  }

  ~ArenaThreads()
  {
    m_ReleaseAll.set_value();
    for (auto & t : m_Threads)
    {
      t.join();
    }
  }

private:
  std::promise<void>       m_ReleaseAll;
  std::shared_future<void> m_Release{ m_ReleaseAll.get_future().share() };
  std::vector<std::thread> m_Threads;
};

int failures = 0;

void
Expect(bool ok, const char * what, std::size_t bytes)
{
  std::printf("%s: %s (a new arena took %zu bytes)\n", ok ? "ok" : "FAIL", what, bytes);
  failures += ok ? 0 : 1;
}

} // namespace
#endif

int
main(int argc, char * argv[])
{
  if (argc != 2 || (std::strcmp(argv[1], "applies") != 0 && std::strcmp(argv[1], "declines") != 0))
  {
    std::fprintf(stderr, "usage: ccaMallocHeapsTest applies|declines\n");
    return EXIT_FAILURE;
  }
#ifndef CCA_TEST_HAVE_MALLINFO2
  std::printf("skipped: malloc is not glibc 2.33 or later, or is a sanitizer's\n");
  return 77;
#else
  // glibc's default makes a new heap writable a few pages at a time: 100
  // bytes take less than 1 MiB; in large steps, the whole heap at once.
  const bool   expectActive = std::strcmp(argv[1], "applies") == 0;
  const auto   large = [](std::size_t bytes) { return bytes >= cca::MallocHeapStepBytes / 2; };
  const auto   small = [](std::size_t bytes) { return bytes < (std::size_t{ 1 } << 20); };
  ArenaThreads threads;
  {
    cca::MallocHeapSteps outer;
    std::size_t          bytes;
    {
      cca::MallocHeapSteps inner;
      bytes = threads.NewArenaBytes();
      Expect(outer.Active() == expectActive && inner.Active() == expectActive, "Active() as expected", bytes);
      Expect(expectActive ? large(bytes) : small(bytes), "the arena made while two live", bytes);
    }
    bytes = threads.NewArenaBytes();
    Expect(expectActive ? large(bytes) : small(bytes), "the arena made while one lives", bytes);
  }
  const std::size_t bytes = threads.NewArenaBytes();
  Expect(small(bytes), "the arena made after the last is gone (glibc's default back)", bytes);
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
#endif
}
