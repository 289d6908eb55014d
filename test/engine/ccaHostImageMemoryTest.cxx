// cca::HostImageMemory, the pool of large host images, with a recording
// stand-in for CUDA's page-locking (so that it runs where no GPU is): which
// block an image gets, when a block is locked and unlocked, the idle limit,
// Trim, Release of what is not a block, a block made ready before an image
// asks for it (Prepare), and many threads at once.
#include "cca/HostImageMemory.h"

#include "HostImagePinning.h"
#include "ccaExpect.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#ifdef __linux__
#  include <sys/mman.h>
#  include <unistd.h>
#endif

namespace
{

constexpr std::size_t MiB = std::size_t{ 1 } << 20;

using cca::HostImageMemory;

/** The stand-in for cudaHostRegister: records the locked ranges (chunks);
 *  refuses while refuse is set, and from the pin numbered refuseFrom on. */
std::mutex        lockedMutex;
std::set<void *>  locked;
std::atomic<int>  pins{ 0 };
std::atomic<int>  unpins{ 0 };
std::atomic<bool> refuse{ false };
std::atomic<int>  refuseFrom{ 1 << 30 };

bool
RecordPin(void * memory, std::size_t bytes)
{
  const int pin = ++pins;
  if (refuse || pin >= refuseFrom)
  {
    return false;
  }
  if (bytes > HostImageMemory::PinChunkBytes)
  {
    return false; // chunk by chunk, never more
  }
  // The memory is the caller's to write while it is being locked: touch it.
  static_cast<volatile unsigned char *>(memory)[bytes - 1] = 1;
  std::lock_guard<std::mutex> lock(lockedMutex);
  locked.insert(memory);
  return true;
}

void
RecordUnpin(void * memory)
{
  ++unpins;
  std::lock_guard<std::mutex> lock(lockedMutex);
  locked.erase(memory);
}

bool
IsLocked(void * memory)
{
  std::lock_guard<std::mutex> lock(lockedMutex);
  return locked.count(memory) != 0;
}

void
TestBlocks()
{
  EXPECT(HostImageMemory::Acquire(HostImageMemory::MinimumBytes - 1) == nullptr);
  EXPECT(!HostImageMemory::Release(nullptr));

  void * a = HostImageMemory::Acquire(100 * MiB + 3);
  EXPECT(a != nullptr);
  if (a == nullptr)
  {
    return;
  }
  EXPECT(reinterpret_cast<std::uintptr_t>(a) % (2 * MiB) == 0);
  std::memset(a, 7, 100 * MiB + 3);                       // writable to its last byte
  EXPECT(HostImageMemory::Use().inUseBytes == 102 * MiB); // whole huge pages
  EXPECT(!HostImageMemory::Pinned(a, 4));                 // a first use is never locked

  // Given back after one use: idle, not locked.
  EXPECT(HostImageMemory::Release(a));
  EXPECT(!HostImageMemory::Release(a)); // not in use any more
  HostImageMemory::WaitForPinning();
  EXPECT(pins == 0);
  EXPECT(HostImageMemory::Use().idleBytes == 102 * MiB);

  // Too large a block for 64 MiB (more than half as large again), too
  // small for 200 MiB: new blocks.
  void * small = HostImageMemory::Acquire(64 * MiB);
  void * large = HostImageMemory::Acquire(200 * MiB);
  EXPECT(small != a && large != a && small != nullptr && large != nullptr);

  // 90 MiB takes the idle block (its second use); given back, it is locked.
  void * again = HostImageMemory::Acquire(90 * MiB);
  EXPECT(again == a);
  EXPECT(HostImageMemory::Release(again));
  HostImageMemory::WaitForPinning();
  EXPECT(pins == 2 && IsLocked(a) && IsLocked(static_cast<char *>(a) + 64 * MiB)); // two chunks: 64 + 38 MiB
  EXPECT(!HostImageMemory::Pinned(a, 4));                                          // locked, but held by no image
  EXPECT(HostImageMemory::PinnedExtent(a) == 0);

  // The third use finds it locked: the engine copies into it directly.
  void * third = HostImageMemory::Acquire(102 * MiB);
  EXPECT(third == a);
  EXPECT(HostImageMemory::Pinned(a, 102 * MiB));
  EXPECT(HostImageMemory::Pinned(static_cast<char *>(a) + 5 * MiB, 97 * MiB));
  EXPECT(!HostImageMemory::Pinned(static_cast<char *>(a) + 5 * MiB, 97 * MiB + 1)); // beyond the block
  EXPECT(!HostImageMemory::Pinned(small, 4));
  EXPECT(HostImageMemory::Use().pinnedBytes == 102 * MiB);
  // A copy stays within a chunk: the bytes to the end of each.
  EXPECT(HostImageMemory::PinnedExtent(a) == 64 * MiB);
  EXPECT(HostImageMemory::PinnedExtent(static_cast<char *>(a) + 5 * MiB) == 59 * MiB);
  EXPECT(HostImageMemory::PinnedExtent(static_cast<char *>(a) + 64 * MiB) == 38 * MiB);
  EXPECT(HostImageMemory::PinnedExtent(static_cast<char *>(a) + 102 * MiB - 8) == 8);
  EXPECT(HostImageMemory::PinnedExtent(static_cast<char *>(a) + 102 * MiB) == 0);
  EXPECT(HostImageMemory::PinnedExtent(static_cast<char *>(a) + 102 * MiB + 4096) == 0); // past its end
  EXPECT(HostImageMemory::PinnedExtent(small) == 0);
  EXPECT(HostImageMemory::Release(third));
  HostImageMemory::WaitForPinning();
  EXPECT(pins == 2); // locked once only

  // The idle limit: the oldest idle blocks go first, unlocked then unmapped.
  EXPECT(HostImageMemory::Release(small));
  EXPECT(HostImageMemory::Release(large));
  EXPECT(HostImageMemory::Use().idleBytes == (102 + 64 + 200) * MiB);
  const std::size_t limit = HostImageMemory::IdleLimit();
  HostImageMemory::SetIdleLimit(300 * MiB); // drops a (idle since longest), keeps 64 + 200
  EXPECT(HostImageMemory::Use().idleBytes == 264 * MiB);
  EXPECT(unpins == 2 && !IsLocked(a));
  HostImageMemory::SetIdleLimit(0); // the pool off: nothing kept, nothing given
  EXPECT(HostImageMemory::Use().idleBytes == 0);
  EXPECT(HostImageMemory::Acquire(100 * MiB) == nullptr);
  HostImageMemory::SetIdleLimit(limit);

  // Trim gives every idle block back.
  void * b = HostImageMemory::Acquire(80 * MiB);
  EXPECT(HostImageMemory::Release(b));
  EXPECT(HostImageMemory::Use().idleBytes == 80 * MiB);
  HostImageMemory::Trim();
  EXPECT(HostImageMemory::Use().idleBytes == 0 && HostImageMemory::Use().inUseBytes == 0);
}

/** Whether every page of [memory, memory + bytes) is in memory (mincore). */
bool
Resident(void * memory, std::size_t bytes)
{
#ifdef __linux__
  const auto                 page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> pages((bytes + page - 1) / page);
  if (mincore(memory, bytes, pages.data()) != 0)
  {
    return false;
  }
  for (const unsigned char p : pages)
  {
    if ((p & 1) == 0)
    {
      return false;
    }
  }
  return true;
#else
  (void)memory;
  (void)bytes;
  return true; // the pool is Linux only (main)
#endif
}

/** Prepare: an idle block whose pages are in memory before any image
 *  writes it, which the next image of its size takes; making it ready is
 *  not a use (given back after the image's one use, it is not locked). */
void
TestPrepare()
{
  EXPECT(!HostImageMemory::Prepare(HostImageMemory::MinimumBytes - 1));
  const int pinsBefore = pins;
  EXPECT(HostImageMemory::Prepare(100 * MiB + 5));
  EXPECT(HostImageMemory::Use().idleBytes == 102 * MiB && HostImageMemory::Use().inUseBytes == 0);
  void * image = HostImageMemory::Acquire(100 * MiB);
  EXPECT(image != nullptr && HostImageMemory::Use().idleBytes == 0 && HostImageMemory::Use().inUseBytes == 102 * MiB);
  if (image == nullptr)
  {
    return;
  }
  EXPECT(Resident(image, 102 * MiB)); // written by Prepare, not yet by the image
  EXPECT(HostImageMemory::Release(image));
  HostImageMemory::WaitForPinning();
  EXPECT(pins == pinsBefore);
  // Ready again: the same idle block, no second one.
  EXPECT(HostImageMemory::Prepare(100 * MiB));
  EXPECT(HostImageMemory::Use().idleBytes == 102 * MiB);
  // The pool off: nothing made ready.
  const std::size_t limit = HostImageMemory::IdleLimit();
  HostImageMemory::SetIdleLimit(0);
  EXPECT(!HostImageMemory::Prepare(100 * MiB));
  EXPECT(HostImageMemory::Use().idleBytes == 0);
  HostImageMemory::SetIdleLimit(limit);
  HostImageMemory::Trim();
}

void
TestRefusedLock()
{
  // A block that cannot be locked (no memory to lock, say) stays usable,
  // unlocked, and is not tried again.
  refuse = true;
  const int before = pins;
  void *    a = HostImageMemory::Acquire(70 * MiB);
  for (int use = 0; use < 4; ++use)
  {
    EXPECT(HostImageMemory::Release(a));
    HostImageMemory::WaitForPinning();
    EXPECT(HostImageMemory::Acquire(70 * MiB) == a);
    EXPECT(!HostImageMemory::Pinned(a, 4));
  }
  EXPECT(pins == before + 1);
  EXPECT(HostImageMemory::Release(a));
  refuse = false;
  HostImageMemory::Trim();

  // A chunk refused after others were locked: those are unlocked again.
  void * b = HostImageMemory::Acquire(200 * MiB); // four chunks
  EXPECT(HostImageMemory::Release(b));
  EXPECT(HostImageMemory::Acquire(200 * MiB) == b);
  const int unpinsBefore = unpins;
  refuseFrom = pins + 3; // the third chunk
  EXPECT(HostImageMemory::Release(b));
  HostImageMemory::WaitForPinning();
  EXPECT(unpins == unpinsBefore + 2);
  EXPECT(!IsLocked(b));
  EXPECT(HostImageMemory::Acquire(200 * MiB) == b);
  EXPECT(!HostImageMemory::Pinned(b, 4));
  EXPECT(HostImageMemory::Release(b));
  refuseFrom = 1 << 30;
  HostImageMemory::Trim();
}

void
TestRunGate()
{
  // No chunk is locked while an engine runs; the locking goes on after.
  void * a = HostImageMemory::Acquire(130 * MiB); // three chunks
  EXPECT(HostImageMemory::Release(a));
  EXPECT(HostImageMemory::Acquire(130 * MiB) == a);
  const int before = pins;
  {
    const cca::EngineRunInProgress running;
    EXPECT(HostImageMemory::Release(a)); // its second use: to be locked
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT(pins == before);
  }
  HostImageMemory::WaitForPinning();
  EXPECT(pins == before + 3 && IsLocked(a));
  HostImageMemory::Trim();
  EXPECT(!IsLocked(a));
}

void
TestThreads()
{
  // Threads take and give back blocks of a few sizes while the worker locks
  // them: every block is held by one image at a time (its first byte says
  // whose), and in the end all are idle, each locked at most once.
  constexpr int            threads = 8;
  constexpr int            rounds = 40;
  std::atomic<int>         clashes{ 0 };
  std::atomic<int>         missing{ 0 };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
  {
    pool.emplace_back([&, t] {
      for (int r = 0; r < rounds; ++r)
      {
        const std::size_t bytes = (64 + 32 * ((t + r) % 3)) * MiB;
        auto *            memory = static_cast<volatile unsigned char *>(HostImageMemory::Acquire(bytes));
        if (memory == nullptr)
        {
          ++missing;
          continue;
        }
        memory[0] = static_cast<unsigned char>(t + 1);
        std::this_thread::yield();
        if (memory[0] != t + 1)
        {
          ++clashes;
        }
        HostImageMemory::Release(const_cast<unsigned char *>(memory));
      }
    });
  }
  for (auto & thread : pool)
  {
    thread.join();
  }
  HostImageMemory::WaitForPinning();
  EXPECT(clashes == 0);
  EXPECT(missing == 0);
  EXPECT(HostImageMemory::Use().inUseBytes == 0);
  {
    std::lock_guard<std::mutex> lock(lockedMutex);
    EXPECT(static_cast<int>(locked.size()) <= pins);
  }
  HostImageMemory::Trim();
}

} // namespace

int
main()
{
#ifndef __linux__
  std::printf("the host image pool is Linux only: skipped\n");
  return 77;
#else
  cca::HostImagePinning recording;
  recording.pin = RecordPin;
  recording.unpin = RecordUnpin;
  cca::SetHostImagePinning(recording);
  TestBlocks();
  TestPrepare();
  TestRefusedLock();
  TestRunGate();
  TestThreads();
  EXPECT(locked.empty()); // every locked block unlocked once trimmed
  if (cca_test::Failures() != 0)
  {
    std::printf("%d failures\n", cca_test::Failures());
    return 1;
  }
  std::printf("host image pool: all checks passed\n");
  return 0;
#endif
}
