// How long CopyWorkers::Run takes to start and finish its parts: the
// process's copy threads woken by one condition variable (the engine's
// CopyWorkers) against threads that spin on an atomic generation for a
// while after each task before they sleep (SpinWorkers).
#include "CopyWorkers.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
#include <string>
#include <immintrin.h>

using Clock = std::chrono::steady_clock;
static double
Us(Clock::time_point a, Clock::time_point b)
{
  return std::chrono::duration<double, std::micro>(b - a).count();
}

class SpinWorkers
{
public:
  explicit SpinWorkers(long spinUs)
    : m_SpinUs(spinUs)
  {
    const unsigned hw = std::thread::hardware_concurrency();
    const int      helpers = static_cast<int>(std::min(15u, hw > 1 ? hw - 1 : 0u));
    for (int i = 0; i < helpers; ++i)
      m_Threads.emplace_back([this, i] { Work(i + 1); });
  }
  ~SpinWorkers()
  {
    {
      std::lock_guard<std::mutex> l(m_Mutex);
      m_Stop = true;
      m_Generation.fetch_add(1);
    }
    m_Wake.notify_all();
    for (auto & t : m_Threads)
      t.join();
  }
  int
  Parts() const
  {
    return static_cast<int>(m_Threads.size()) + 1;
  }
  void
  Run(const std::function<void(int)> & task)
  {
    m_Task.store(&task, std::memory_order_relaxed);
    m_Pending.store(static_cast<int>(m_Threads.size()), std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> l(m_Mutex);
      m_Generation.fetch_add(1, std::memory_order_release);
    }
    if (m_Sleeping.load() > 0)
      m_Wake.notify_all();
    task(0);
    while (m_Pending.load(std::memory_order_acquire) != 0)
      _mm_pause();
  }

private:
  void
  Work(int part)
  {
    unsigned long long seen = 0;
    for (;;)
    {
      const auto         spinUntil = Clock::now() + std::chrono::microseconds(m_SpinUs);
      unsigned long long g;
      int                n = 0;
      while ((g = m_Generation.load(std::memory_order_acquire)) == seen)
      {
        _mm_pause();
        if ((++n & 255) == 0 && Clock::now() > spinUntil)
          break;
      }
      if (g == seen)
      {
        std::unique_lock<std::mutex> l(m_Mutex);
        m_Sleeping.fetch_add(1);
        m_Wake.wait(l, [&] { return m_Generation.load() != seen; });
        m_Sleeping.fetch_sub(1);
        g = m_Generation.load();
      }
      if (m_Stop)
        return;
      seen = g;
      (*m_Task.load(std::memory_order_relaxed))(part);
      m_Pending.fetch_sub(1, std::memory_order_acq_rel);
    }
  }
  long                                          m_SpinUs;
  std::vector<std::thread>                      m_Threads;
  std::mutex                                    m_Mutex;
  std::condition_variable                       m_Wake;
  std::atomic<const std::function<void(int)> *> m_Task{ nullptr };
  std::atomic<unsigned long long>               m_Generation{ 0 };
  std::atomic<int>                              m_Pending{ 0 };
  std::atomic<int>                              m_Sleeping{ 0 };
  bool                                          m_Stop = false;
};

template <class W>
void
Measure(const char * name, W & w, int pauseUs, int workUs, int reps)
{
  std::vector<double>            total, lastStart;
  std::vector<Clock::time_point> started(w.Parts());
  for (int r = 0; r < reps; ++r)
  {
    const auto until = Clock::now() + std::chrono::microseconds(pauseUs);
    while (Clock::now() < until)
      std::this_thread::sleep_for(std::chrono::microseconds(pauseUs > 200 ? pauseUs - 100 : 0)), (void)0;
    const auto t0 = Clock::now();
    w.Run([&](int part) {
      started[part] = Clock::now();
      const auto end = started[part] + std::chrono::microseconds(workUs);
      while (Clock::now() < end)
        _mm_pause();
    });
    const auto t1 = Clock::now();
    total.push_back(Us(t0, t1) - workUs);
    auto last = *std::max_element(started.begin(), started.end());
    lastStart.push_back(Us(t0, last));
  }
  std::sort(total.begin(), total.end());
  std::sort(lastStart.begin(), lastStart.end());
  auto q = [&](std::vector<double> & v, double f) { return v[static_cast<size_t>(f * (v.size() - 1))]; };
  std::printf(
    "%-22s pause %6d us work %4d us: overhead median %7.1f p90 %7.1f us; last part started median %7.1f p90 %7.1f us\n",
    name,
    pauseUs,
    workUs,
    q(total, 0.5),
    q(total, 0.9),
    q(lastStart, 0.5),
    q(lastStart, 0.9));
}

int
main(int argc, char ** argv)
{
  const std::string v = argc > 1 ? argv[1] : "cv";
  std::printf("hardware threads %u, variant %s\n", std::thread::hardware_concurrency(), v.c_str());
  auto all = [&](auto & w, const char * name) {
    for (int round = 0; round < 2; ++round)
      for (int pause : { 20000, 2000, 500, 0 })
        for (int work : { 0, 50 })
          Measure(name, w, pause, work, pause >= 20000 ? 40 : 200);
  };
  if (v == "cv")
  {
    cca::cuda::CopyWorkers w;
    all(w, "condvar (engine)");
  }
  else
  {
    const long  spin = std::stol(v.substr(4));
    SpinWorkers w(spin);
    all(w, v.c_str());
  }
}
