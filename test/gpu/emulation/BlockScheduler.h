// The emulated blocks of a launch, for CudaEmulation.h: BlockRunner runs one
// block at a time on the calling OS thread, its CUDA threads as fibres
// (Fibres.h) switched round-robin whenever one has to wait (a barrier, a
// warp intrinsic) or is preempted (at an atomic); BlockThreads hands the
// blocks of a launch to the caller and a few persistent OS threads.
#ifndef cca_emulation_BlockScheduler_h
#define cca_emulation_BlockScheduler_h

#include "Fibres.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

/** CUDA's built-in index variables (x only: the backend launches 1D grids). */
struct EmulatedDim3
{
  unsigned x = 0;
  unsigned y = 0;
  unsigned z = 0;
};
inline thread_local EmulatedDim3 threadIdx; // set at every switch between the fibres of a block
inline thread_local EmulatedDim3 blockIdx;
inline EmulatedDim3              blockDim;
inline EmulatedDim3              gridDim;

namespace emulation
{

/** A whole number from the environment, or fallback. */
inline int
EnvironmentNumber(const char * name, int fallback)
{
  const char * text = std::getenv(name);
  return text != nullptr && *text != 0 ? std::atoi(text) : fallback;
}

/** Runs emulated blocks, one at a time, on the calling OS thread: the
 *  block's threads are fibres, switched round-robin whenever one has to
 *  wait (at a barrier or warp intrinsic) or is preempted (at an atomic). */
class BlockRunner
{
public:
  BlockRunner()
    : m_PreemptPeriod(static_cast<unsigned>(std::max(0, EnvironmentNumber("CCA_EMULATION_PREEMPT", 4))))
  {}
  ~BlockRunner()
  {
    for (Thread & t : m_Threads)
    {
      ForgetFibre(t.context);
    }
    ForgetFibre(m_Host);
  }
  BlockRunner(const BlockRunner &) = delete;
  BlockRunner &
  operator=(const BlockRunner &) = delete;

  /** The runner of this OS thread. */
  static BlockRunner &
  OfThisThread()
  {
    static thread_local BlockRunner runner;
    return runner;
  }

  /** Runs block b of threads threads: call(kernel) in each; returns when all are done. */
  void
  Run(unsigned b, unsigned threads, void (*call)(const void *), const void * kernel)
  {
    if (threads == 0 || threads % 32 != 0)
    {
      Fail("blocks must be whole warps");
    }
    while (m_Stacks.size() < threads)
    {
      m_Stacks.push_back(std::make_unique<FibreStack>(StackBytes));
    }
    if (m_Threads.size() < threads)
    {
      m_Threads.resize(threads);
    }
    m_Warps.assign(threads / 32, Warp{});
    m_Count = threads;
    m_Live = threads;
    m_Arrived = 0;
    m_Generation = 0;
    m_Call = call;
    m_Kernel = kernel;
    for (unsigned t = 0; t < threads; ++t)
    {
      m_Threads[t].waitOn = nullptr;
      m_Threads[t].finished = false;
      StartFibre(m_Threads[t].context, *m_Stacks[t], &BlockRunner::Entry, this);
    }
    blockIdx.x = b;
    m_Current = 0;
    threadIdx.x = 0;
    m_InBlock = true;
    SwitchFibre(m_Host, m_Threads[0].context);
    m_InBlock = false;
  }

  /** __syncthreads: waits until every thread of the block that has not
   *  finished has arrived. */
  void
  SyncThreads()
  {
    const unsigned generation = m_Generation;
    if (++m_Arrived == m_Live)
    {
      m_Arrived = 0;
      ++m_Generation;
      return;
    }
    WaitWhile(m_Generation, generation);
  }

  /** Every lane of the calling warp publishes value; returns all 32 (all
   *  lanes must call it). Slots alternate between calls: a lane may publish
   *  its next value before the others have read this one. */
  void
  Gather(std::uint64_t value, std::uint64_t (&all)[32])
  {
    Warp &         w = m_Warps[threadIdx.x / 32];
    const unsigned generation = w.generation;
    std::uint64_t(&slot)[32] = w.slot[generation & 1];
    slot[threadIdx.x & 31] = value;
    if (++w.arrived == 32)
    {
      w.arrived = 0;
      ++w.generation;
    }
    else
    {
      WaitWhile(w.generation, generation);
    }
    std::memcpy(all, slot, sizeof(all));
  }

  /** At an atomic: now and then, let the next thread of the block run. */
  void
  MaybePreempt()
  {
    if (!m_InBlock || m_PreemptPeriod == 0)
    {
      return;
    }
    if (m_Countdown > 0)
    {
      --m_Countdown;
      return;
    }
    // xorshift: a countdown in [0, 2 * period), so one atomic in period switches on average.
    m_Random ^= m_Random << 13;
    m_Random ^= m_Random >> 7;
    m_Random ^= m_Random << 17;
    m_Countdown = static_cast<unsigned>(m_Random % (2 * m_PreemptPeriod));
    SwitchToNext(false);
  }

private:
  static constexpr std::size_t StackBytes = std::size_t{ 256 } << 10;

  struct Thread
  {
    FibreContext     context;
    const unsigned * waitOn = nullptr; ///< runnable again once *waitOn != waitWhile
    unsigned         waitWhile = 0;
    bool             finished = false;
  };
  struct Warp
  {
    unsigned      arrived = 0;
    unsigned      generation = 0;
    std::uint64_t slot[2][32];
  };

  [[noreturn]] static void
  Fail(const char * what)
  {
    std::fprintf(stderr, "emulation: %s\n", what);
    std::abort();
  }

  static void
  Entry(void * self)
  {
    EnterFibre();
    auto & runner = *static_cast<BlockRunner *>(self);
    runner.m_Call(runner.m_Kernel);
    runner.Finish();
  }

  void
  Finish()
  {
    m_Threads[m_Current].finished = true;
    --m_Live;
    if (m_Arrived > 0 && m_Arrived == m_Live)
    {
      m_Arrived = 0; // the others wait at a barrier this thread will never reach
      ++m_Generation;
    }
    SwitchToNext(true);
    Fail("a finished thread was resumed");
  }

  void
  WaitWhile(const unsigned & counter, unsigned value)
  {
    Thread & self = m_Threads[m_Current];
    self.waitOn = &counter;
    self.waitWhile = value;
    SwitchToNext(false);
    self.waitOn = nullptr;
  }

  /** Resumes the next runnable thread after the current one (round-robin),
   *  the host when all have finished. Returns when the current thread is resumed. */
  void
  SwitchToNext(bool finished)
  {
    const unsigned from = m_Current;
    for (unsigned k = 1; k <= m_Count; ++k)
    {
      const unsigned j = (from + k) % m_Count;
      const Thread & t = m_Threads[j];
      if (t.finished || (t.waitOn != nullptr && *t.waitOn == t.waitWhile))
      {
        continue;
      }
      if (j != from)
      {
        m_Current = j;
        threadIdx.x = j;
        SwitchFibre(m_Threads[from].context, m_Threads[j].context, finished);
        m_Current = from; // resumed (whoever switched back also set these)
        threadIdx.x = from;
      }
      return;
    }
    if (m_Live != 0)
    {
      Fail("the threads of a block wait for each other forever (a barrier or a warp intrinsic that not all "
           "threads reach)");
    }
    SwitchFibre(m_Threads[from].context, m_Host, true);
  }

  std::vector<std::unique_ptr<FibreStack>> m_Stacks;
  std::vector<Thread>                      m_Threads;
  std::vector<Warp>                        m_Warps;
  FibreContext                             m_Host;
  unsigned                                 m_Count = 0;
  unsigned                                 m_Live = 0;
  unsigned                                 m_Current = 0;
  unsigned                                 m_Arrived = 0;    ///< at the block barrier
  unsigned                                 m_Generation = 0; ///< of the block barrier
  bool                                     m_InBlock = false;
  void (*m_Call)(const void *) = nullptr;
  const void *  m_Kernel = nullptr;
  unsigned      m_PreemptPeriod;
  unsigned      m_Countdown = 0;
  std::uint64_t m_Random = 0x9e3779b97f4a7c15ull;
};

/** The OS threads that run the blocks of a launch: the caller and a few
 *  persistent workers take blocks in turn. */
class BlockThreads
{
public:
  static BlockThreads &
  Instance()
  {
    static BlockThreads instance;
    return instance;
  }

  ~BlockThreads()
  {
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      m_Stop = true;
    }
    m_Wake.notify_all();
    for (std::thread & t : m_Workers)
    {
      t.join();
    }
  }

  void
  Run(unsigned blocks, unsigned threads, void (*call)(const void *), const void * kernel)
  {
    m_Job = Job{ blocks, threads, call, kernel };
    m_Next = 0;
    if (blocks > 1 && !m_Workers.empty())
    {
      {
        std::lock_guard<std::mutex> lock(m_Mutex);
        ++m_Round;
        m_Busy = static_cast<unsigned>(m_Workers.size());
      }
      m_Wake.notify_all();
      Work();
      std::unique_lock<std::mutex> lock(m_Mutex);
      m_Done.wait(lock, [this] { return m_Busy == 0; });
    }
    else
    {
      Work();
    }
  }

private:
  struct Job
  {
    unsigned blocks = 0;
    unsigned threads = 0;
    void (*call)(const void *) = nullptr;
    const void * kernel = nullptr;
  };

  BlockThreads()
  {
    const int hardware = static_cast<int>(std::thread::hardware_concurrency());
    const int count = EnvironmentNumber("CCA_EMULATION_THREADS", std::clamp(hardware, 2, 4));
    for (int i = 1; i < count; ++i)
    {
      m_Workers.emplace_back([this] { Serve(); });
    }
  }

  void
  Work()
  {
    BlockRunner & runner = BlockRunner::OfThisThread();
    for (unsigned b = m_Next++; b < m_Job.blocks; b = m_Next++)
    {
      runner.Run(b, m_Job.threads, m_Job.call, m_Job.kernel);
    }
  }

  void
  Serve()
  {
    unsigned long long seen = 0;
    for (;;)
    {
      {
        std::unique_lock<std::mutex> lock(m_Mutex);
        m_Wake.wait(lock, [&] { return m_Stop || m_Round != seen; });
        if (m_Stop)
        {
          return;
        }
        seen = m_Round;
      }
      Work();
      std::lock_guard<std::mutex> lock(m_Mutex);
      if (--m_Busy == 0)
      {
        m_Done.notify_all();
      }
    }
  }

  std::vector<std::thread> m_Workers;
  std::mutex               m_Mutex;
  std::condition_variable  m_Wake;
  std::condition_variable  m_Done;
  Job                      m_Job;
  std::atomic<unsigned>    m_Next{ 0 };
  unsigned long long       m_Round = 0;
  unsigned                 m_Busy = 0;
  bool                     m_Stop = false;
};

} // namespace emulation

#endif
