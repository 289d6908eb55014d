#include "CopyWorkers.h"

#include "IdlePool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(_M_X64)
#  include <immintrin.h>
#endif

namespace cca
{
namespace cuda
{

CopyWorkers::CopyWorkers()
{
  const unsigned hardware = std::thread::hardware_concurrency();
  // All cores but the caller's: copies into and out of pinned memory run
  // at about 11 GB/s a thread and about 46 GB/s with 16 (docs/results-history.md).
  const int helpers = static_cast<int>(std::min(15u, hardware > 1 ? hardware - 1 : 0u));
  for (int i = 0; i < helpers; ++i)
  {
    m_Threads.emplace_back([this, i] { Work(i + 1); });
  }
}

CopyWorkers::~CopyWorkers()
{
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Stop = true;
  }
  m_Wake.notify_all();
  for (auto & t : m_Threads)
  {
    t.join();
  }
}

void
CopyWorkers::Work(int part)
{
  unsigned long long seen = 0;
  for (;;)
  {
    const std::function<void(int)> * task = nullptr;
    {
      std::unique_lock<std::mutex> lock(m_Mutex);
      m_Wake.wait(lock, [&] { return m_Stop || m_Generation != seen; });
      if (m_Stop)
      {
        return;
      }
      seen = m_Generation;
      task = m_Task;
    }
    (*task)(part);
    {
      // Under the mutex, so that a caller that has stopped spinning and
      // checks m_Pending under it before sleeping cannot miss the wake-up.
      std::lock_guard<std::mutex> lock(m_Mutex);
      if (m_Pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
      {
        m_Done.notify_one();
      }
    }
  }
}

void
CopyWorkers::Run(const std::function<void(int part)> & task)
{
  if (m_Threads.empty())
  {
    task(0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    m_Task = &task;
    m_Pending.store(static_cast<int>(m_Threads.size()), std::memory_order_relaxed);
    ++m_Generation;
  }
  m_Wake.notify_all();
  task(0);
  // The acquire load pairs with the workers' release of their parts' writes.
  const auto spinUntil = std::chrono::steady_clock::now() + std::chrono::microseconds(JoinSpinMicroseconds);
  while (m_Pending.load(std::memory_order_acquire) != 0 && std::chrono::steady_clock::now() < spinUntil)
  {
#if defined(__x86_64__) || defined(_M_X64)
    _mm_pause();
#endif
  }
  std::unique_lock<std::mutex> lock(m_Mutex);
  m_Done.wait(lock, [&] { return m_Pending.load(std::memory_order_acquire) == 0; });
}

void
CopyWorkers::GiveBack::operator()(CopyWorkers * workers) const
{
  IdleObjects<CopyWorkers>().Give(workers);
}

CopyWorkers::Lease
CopyWorkers::Take()
{
  CopyWorkers * idle = IdleObjects<CopyWorkers>().Take([](const CopyWorkers &) { return true; });
  return Lease(idle != nullptr ? idle : new CopyWorkers);
}

} // namespace cuda
} // namespace cca
