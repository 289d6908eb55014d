// The pool of host image blocks (cca/HostImageMemory.h): blocks by address,
// their state, and one background thread that page-locks the blocks that
// came back a second time.
#include "cca/HostImageMemory.h"

#include "FirstWrites.h"
#include "HostImagePinning.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#ifdef __linux__
#  include <sys/mman.h>
#  include <unistd.h>
#endif

namespace cca
{

namespace
{

class Pool;
Pool &
ThePool();

constexpr std::size_t HugePage = std::size_t{ 2 } << 20;

std::size_t
RoundToHugePages(std::size_t bytes)
{
  return (bytes + HugePage - 1) / HugePage * HugePage;
}

std::size_t
PhysicalMemoryBytes()
{
#ifdef __linux__
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageBytes = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageBytes > 0)
  {
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageBytes);
  }
#endif
  return 0;
}

/** Address space for a block, aligned to 2 MiB (so that its huge pages are
 *  whole), not yet backed by memory; nullptr when none can be mapped. The
 *  mapping is made 2 MiB larger and trimmed to the aligned part. */
void *
MapBlock(std::size_t bytes)
{
#ifdef __linux__
  void * mapped = mmap(nullptr, bytes + HugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED)
  {
    return nullptr;
  }
  const auto begin = reinterpret_cast<std::uintptr_t>(mapped);
  const auto aligned = (begin + HugePage - 1) & ~(std::uintptr_t{ HugePage } - 1);
  if (aligned > begin)
  {
    munmap(mapped, aligned - begin);
  }
  const std::uintptr_t end = begin + bytes + HugePage;
  if (end > aligned + bytes)
  {
    munmap(reinterpret_cast<void *>(aligned + bytes), end - (aligned + bytes));
  }
  // A hint: the first writes then fault 2 MiB at a time (1.7 times faster).
  madvise(reinterpret_cast<void *>(aligned), bytes, MADV_HUGEPAGE);
  return reinterpret_cast<void *>(aligned);
#else
  (void)bytes;
  return nullptr;
#endif
}

void
UnmapBlock(void * memory, std::size_t bytes)
{
#ifdef __linux__
  munmap(memory, bytes);
#else
  (void)memory;
  (void)bytes;
#endif
}

/** The engine runs in progress in the process, and a wait for none. */
class RunGate
{
public:
  void
  Enter()
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    ++m_Runs;
  }

  void
  Leave()
  {
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      --m_Runs;
    }
    m_Idle.notify_all();
  }

  /** Returns once no run is in progress, or at once when stop is set. */
  void
  WaitForNoRun(const std::atomic<bool> & stop)
  {
    std::unique_lock<std::mutex> lock(m_Mutex);
    // Timed: a stop request does not notify this condition.
    while (m_Runs > 0 && !stop)
    {
      m_Idle.wait_for(lock, std::chrono::milliseconds(20));
    }
  }

private:
  std::mutex              m_Mutex;
  std::condition_variable m_Idle;
  int                     m_Runs = 0;
};

RunGate &
Runs()
{
  static auto * gate = new RunGate; // never destroyed, as the pool
  return *gate;
}

/** Locks a block chunk by chunk (HostImageMemory::PinChunkBytes each): one
 *  lock of gigabytes holds the process's memory map for the whole time (the
 *  kernel pins its pages under it), and every thread that maps memory or
 *  faults a page in waits; measured on the H100 machine, an engine run beside
 *  the lock of 18.8 GB took 1.7 s longer. A chunk takes a few milliseconds.
 *  On a failure the chunks locked so far are unlocked. */
bool
PinChunks(const HostImagePinning & pinning, void * memory, std::size_t bytes, const std::atomic<bool> & stop)
{
  if (pinning.pin == nullptr)
  {
    return false;
  }
  auto * base = static_cast<unsigned char *>(memory);
  for (std::size_t offset = 0; offset < bytes; offset += HostImageMemory::PinChunkBytes)
  {
    // Between engine runs only (EngineRunInProgress); at exit the rest is
    // not worth waiting for.
    Runs().WaitForNoRun(stop);
    if (stop || !pinning.pin(base + offset, std::min(HostImageMemory::PinChunkBytes, bytes - offset)))
    {
      for (std::size_t done = 0; done < offset; done += HostImageMemory::PinChunkBytes)
      {
        pinning.unpin(base + done);
      }
      return false;
    }
  }
  return true;
}

void
UnpinChunks(const HostImagePinning & pinning, void * memory, std::size_t bytes)
{
  auto * base = static_cast<unsigned char *>(memory);
  for (std::size_t offset = 0; offset < bytes; offset += HostImageMemory::PinChunkBytes)
  {
    pinning.unpin(base + offset);
  }
}

class Pool
{
public:
  Pool()
    : m_IdleLimit(PhysicalMemoryBytes() / 4)
  {}

  void *
  Acquire(std::size_t requested)
  {
    if (requested < HostImageMemory::MinimumBytes)
    {
      return nullptr;
    }
    const std::size_t bytes = RoundToHugePages(requested);
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      if (m_IdleLimit == 0)
      {
        return nullptr;
      }
      // An idle block of the size: a locked one first, then the smallest. One
      // being locked may be taken: its pages are there, and the engine copies
      // into it through staging until the worker has locked it.
      Block * best = nullptr;
      for (auto & entry : m_Blocks)
      {
        Block & block = entry.second;
        if (block.state != State::Idle || block.bytes < bytes || block.bytes > bytes + bytes / 2)
        {
          continue;
        }
        if (best == nullptr || block.pinned > best->pinned ||
            (block.pinned == best->pinned && block.bytes < best->bytes))
        {
          best = &block;
        }
      }
      if (best != nullptr)
      {
        best->state = State::InUse;
        ++best->uses;
        m_IdleBytes -= best->bytes;
        return best->memory;
      }
    }
    void * memory = MapBlock(bytes);
    if (memory == nullptr)
    {
      return nullptr;
    }
    std::lock_guard<std::mutex> lock(m_Mutex);
    Block &                     block = m_Blocks[reinterpret_cast<std::uintptr_t>(memory)];
    block.memory = memory;
    block.bytes = bytes;
    block.state = State::InUse;
    block.uses = 1;
    return memory;
  }

  bool
  Prepare(std::size_t requested)
  {
    // An idle block of the size if there is one (its pages were written
    // when it was used), else a new one, held meanwhile so that no image
    // takes it half written.
    void * const memory = Acquire(requested);
    if (memory == nullptr)
    {
      return false;
    }
    std::size_t bytes = 0;
    bool        fresh = false;
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      Block &                     block = m_Blocks[reinterpret_cast<std::uintptr_t>(memory)];
      bytes = block.bytes;
      fresh = block.uses == 1;
      --block.uses; // made ready, not used: the pinning counts the images' uses
    }
    if (fresh)
    {
      WritePagesOnThreads(memory, bytes);
    }
    std::vector<Block> freed;
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      MarkIdle(m_Blocks[reinterpret_cast<std::uintptr_t>(memory)]);
      freed = TakeOverLimit();
    }
    Free(freed);
    m_Changed.notify_all();
    std::lock_guard<std::mutex> lock(m_Mutex);
    const auto                  found = m_Blocks.find(reinterpret_cast<std::uintptr_t>(memory));
    return found != m_Blocks.end() && found->second.state == State::Idle;
  }

  bool
  Release(void * memory)
  {
    if (memory == nullptr)
    {
      return false;
    }
    std::vector<Block> freed;
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      const auto                  found = m_Blocks.find(reinterpret_cast<std::uintptr_t>(memory));
      if (found == m_Blocks.end() || found->second.state != State::InUse)
      {
        return false; // not a block in use: nothing to give back
      }
      Block & block = found->second;
      MarkIdle(block);
      if (!m_PinningChosen)
      {
        // Asked only now, when a block is reused: a program that labels one
        // image never initializes anything for the pool.
        m_Pinning = CudaHostImagePinning();
        m_PinningChosen = true;
      }
      if (!block.pinned && !block.pinning && !block.pinFailed && block.uses >= 2 && m_Pinning.pin != nullptr && !m_Stop)
      {
        block.pinning = true;
        m_ToPin.push_back(found->first);
        StartWorker();
        m_Wake.notify_one();
      }
      freed = TakeOverLimit();
    }
    Free(freed);
    m_Changed.notify_all();
    return true;
  }

  bool
  Pinned(const void * memory, std::size_t bytes)
  {
    const auto                  address = reinterpret_cast<std::uintptr_t>(memory);
    std::lock_guard<std::mutex> lock(m_Mutex);
    const auto                  found = PinnedBlockAt(address);
    return found != m_Blocks.end() && address + bytes <= found->first + found->second.bytes;
  }

  std::size_t
  PinnedExtent(const void * memory)
  {
    const auto                  address = reinterpret_cast<std::uintptr_t>(memory);
    std::lock_guard<std::mutex> lock(m_Mutex);
    const auto                  found = PinnedBlockAt(address);
    if (found == m_Blocks.end())
    {
      return 0;
    }
    const std::size_t offset = address - found->first;
    const std::size_t chunkEnd =
      offset / HostImageMemory::PinChunkBytes * HostImageMemory::PinChunkBytes + HostImageMemory::PinChunkBytes;
    return std::min(chunkEnd, found->second.bytes) - offset;
  }

  void
  SetIdleLimit(std::size_t bytes)
  {
    std::vector<Block> freed;
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      m_IdleLimit = bytes;
      freed = TakeOverLimit();
    }
    Free(freed);
  }

  std::size_t
  IdleLimit()
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    return m_IdleLimit;
  }

  void
  Trim()
  {
    std::vector<Block> freed;
    {
      std::unique_lock<std::mutex> lock(m_Mutex);
      WaitUntilNothingToPin(lock);
      for (auto entry = m_Blocks.begin(); entry != m_Blocks.end();)
      {
        if (entry->second.state == State::Idle && !entry->second.pinning)
        {
          m_IdleBytes -= entry->second.bytes;
          freed.push_back(entry->second);
          entry = m_Blocks.erase(entry);
        }
        else
        {
          ++entry;
        }
      }
    }
    Free(freed);
  }

  void
  WaitForPinning()
  {
    std::unique_lock<std::mutex> lock(m_Mutex);
    WaitUntilNothingToPin(lock);
  }

  HostImageMemoryUse
  Use()
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    HostImageMemoryUse          use;
    for (const auto & entry : m_Blocks)
    {
      const Block & block = entry.second;
      (block.state == State::InUse ? use.inUseBytes : use.idleBytes) += block.bytes;
      use.pinnedBytes += block.pinned ? block.bytes : 0;
    }
    use.idleLimitBytes = m_IdleLimit;
    return use;
  }

  HostImagePinning
  SetPinning(HostImagePinning pinning)
  {
    WaitForPinning();
    std::lock_guard<std::mutex> lock(m_Mutex);
    const HostImagePinning      previous = m_Pinning;
    m_Pinning = pinning;
    m_PinningChosen = true;
    return previous;
  }

  /** At exit, before CUDA shuts down: the worker finishes the block it
   *  locks and stops. */
  void
  StopWorker()
  {
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      m_Stop = true;
      m_Stopping = true;
    }
    m_Wake.notify_all();
    if (m_Worker.joinable())
    {
      m_Worker.join();
    }
  }

private:
  enum class State
  {
    InUse,
    Idle,
  };
  struct Block
  {
    void *             memory = nullptr;
    std::size_t        bytes = 0;
    State              state = State::InUse;
    bool               pinned = false;
    bool               pinning = false;   ///< queued for the worker or being locked: never unmapped meanwhile
    bool               pinFailed = false; ///< not tried again (no memory to lock, say)
    int                uses = 0;
    unsigned long long idleOrder = 0;
    HostImagePinning   pinnedBy; ///< the functions that locked it, to unlock it
  };

  /** The page-locked block held by an image that contains address, or
   *  m_Blocks.end() (locked). */
  std::map<std::uintptr_t, Block>::const_iterator
  PinnedBlockAt(std::uintptr_t address) const
  {
    auto after = m_Blocks.upper_bound(address);
    if (after == m_Blocks.begin())
    {
      return m_Blocks.end();
    }
    const auto    found = std::prev(after);
    const Block & block = found->second;
    const bool    inside = address < found->first + block.bytes;
    return block.pinned && block.state == State::InUse && inside ? found : m_Blocks.cend();
  }

  /** Waits until no block is queued for the worker or being locked (locked). */
  void
  WaitUntilNothingToPin(std::unique_lock<std::mutex> & lock)
  {
    m_Changed.wait(lock, [&] { return m_ToPin.empty() && !m_WorkerBusy; });
  }

  /** The block joins the idle ones, the newest of them (locked). */
  void
  MarkIdle(Block & block)
  {
    block.state = State::Idle;
    block.idleOrder = ++m_IdleClock;
    m_IdleBytes += block.bytes;
  }

  /** Idle blocks beyond the limit, oldest first, out of the pool (locked). */
  std::vector<Block>
  TakeOverLimit()
  {
    std::vector<Block> freed;
    while (m_IdleBytes > m_IdleLimit)
    {
      auto oldest = m_Blocks.end();
      for (auto entry = m_Blocks.begin(); entry != m_Blocks.end(); ++entry)
      {
        if (entry->second.state == State::Idle && !entry->second.pinning &&
            (oldest == m_Blocks.end() || entry->second.idleOrder < oldest->second.idleOrder))
        {
          oldest = entry;
        }
      }
      if (oldest == m_Blocks.end())
      {
        break; // the rest is being locked: the worker frees what is over after
      }
      m_IdleBytes -= oldest->second.bytes;
      freed.push_back(oldest->second);
      m_Blocks.erase(oldest);
    }
    return freed;
  }

  static void
  Free(const std::vector<Block> & blocks)
  {
    for (const Block & block : blocks)
    {
      if (block.pinned && block.pinnedBy.unpin != nullptr)
      {
        UnpinChunks(block.pinnedBy, block.memory, block.bytes);
      }
      UnmapBlock(block.memory, block.bytes);
    }
  }

  void
  StartWorker()
  {
    if (m_Worker.joinable() || m_Stop)
    {
      return;
    }
    m_Worker = std::thread([this] { Work(); });
    // Registered now, after CUDA started (choosing the pinning asked for the
    // device), so that this handler runs before CUDA's own shut-down.
    std::atexit([] { ThePool().StopWorker(); });
  }

  void
  Work()
  {
    std::unique_lock<std::mutex> lock(m_Mutex);
    for (;;)
    {
      m_Wake.wait(lock, [&] { return m_Stop || !m_ToPin.empty(); });
      if (m_Stop)
      {
        // Blocks still waiting stay unlocked and idle.
        for (const std::uintptr_t address : m_ToPin)
        {
          m_Blocks[address].pinning = false;
        }
        m_ToPin.clear();
        m_Changed.notify_all();
        return;
      }
      const std::uintptr_t address = m_ToPin.front();
      m_ToPin.pop_front();
      Block &                block = m_Blocks[address];
      void * const           memory = block.memory;
      const std::size_t      bytes = block.bytes;
      const HostImagePinning pinning = m_Pinning;
      m_WorkerBusy = true;
      lock.unlock();
      const bool pinned = PinChunks(pinning, memory, bytes, m_Stopping);
      lock.lock();
      m_WorkerBusy = false;
      Block & after = m_Blocks[address]; // blocks being locked are never erased
      after.pinned = pinned;
      after.pinning = false;
      after.pinFailed = !pinned;
      after.pinnedBy = pinning;
      std::vector<Block> freed = TakeOverLimit();
      lock.unlock();
      Free(freed);
      m_Changed.notify_all();
      lock.lock();
    }
  }

  std::mutex                      m_Mutex;
  std::condition_variable         m_Changed; ///< a block's state changed, or the worker went idle
  std::condition_variable         m_Wake;    ///< work for the worker
  std::map<std::uintptr_t, Block> m_Blocks;  ///< by address
  std::deque<std::uintptr_t>      m_ToPin;
  std::size_t                     m_IdleBytes = 0;
  std::size_t                     m_IdleLimit = 0;
  unsigned long long              m_IdleClock = 0;
  HostImagePinning                m_Pinning;
  bool                            m_PinningChosen = false;
  std::thread                     m_Worker;
  bool                            m_WorkerBusy = false;
  bool                            m_Stop = false;
  std::atomic<bool>               m_Stopping{ false }; ///< m_Stop, read by the worker between chunks
};

Pool &
ThePool()
{
  // Never destroyed: images may give their blocks back during static
  // destruction. The worker is stopped at exit (Pool::StartWorker).
  static auto * pool = new Pool;
  return *pool;
}

} // namespace

EngineRunInProgress::EngineRunInProgress()
{
  Runs().Enter();
}

EngineRunInProgress::~EngineRunInProgress()
{
  Runs().Leave();
}

HostImagePinning
SetHostImagePinning(HostImagePinning pinning)
{
  return ThePool().SetPinning(pinning);
}

void *
HostImageMemory::Acquire(std::size_t bytes)
{
  return ThePool().Acquire(bytes);
}

bool
HostImageMemory::Release(void * memory)
{
  return ThePool().Release(memory);
}

bool
HostImageMemory::Prepare(std::size_t bytes)
{
  return ThePool().Prepare(bytes);
}

bool
HostImageMemory::Pinned(const void * memory, std::size_t bytes)
{
  return memory != nullptr && ThePool().Pinned(memory, bytes);
}

std::size_t
HostImageMemory::PinnedExtent(const void * memory)
{
  return memory != nullptr ? ThePool().PinnedExtent(memory) : 0;
}

void
HostImageMemory::SetIdleLimit(std::size_t bytes)
{
  ThePool().SetIdleLimit(bytes);
}

std::size_t
HostImageMemory::IdleLimit()
{
  return ThePool().IdleLimit();
}

void
HostImageMemory::Trim()
{
  ThePool().Trim();
}

void
HostImageMemory::WaitForPinning()
{
  ThePool().WaitForPinning();
}

HostImageMemoryUse
HostImageMemory::Use()
{
  return ThePool().Use();
}

} // namespace cca
