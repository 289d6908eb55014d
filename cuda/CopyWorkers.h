// The host threads that split large copies into and out of pinned staging
// memory (HostStaging.h). Plain C++ (no CUDA), so that the tests run it under
// ThreadSanitizer where no GPU is present (test/engine/ccaCopyWorkersTest.cxx).
#ifndef cca_cuda_CopyWorkers_h
#define cca_cuda_CopyWorkers_h

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace cca
{
namespace cuda
{

/** A few persistent threads that split large host copies: one thread moves
 *  (and first-touches) memory at only a fraction of the memory bandwidth. */
class CopyWorkers
{
public:
  CopyWorkers();
  ~CopyWorkers();
  CopyWorkers(const CopyWorkers &) = delete;
  CopyWorkers &
  operator=(const CopyWorkers &) = delete;

  /** How long the caller, its own part done, watches for the workers' last
   *  part before it sleeps until woken: a wake-up from the condition
   *  variable took about 30 us on the GPU machine (a virtual machine), on
   *  each Run of an engine's upload and downloads. Only the caller spins,
   *  on its own core: workers that spun had far worse tails there. */
  static constexpr int JoinSpinMicroseconds = 200;

  /** Calls task(part) for part in [0, Parts()) on the workers and the caller; returns when all are done. */
  void
  Run(const std::function<void(int part)> & task);
  int
  Parts() const
  {
    return static_cast<int>(m_Threads.size()) + 1;
  }

  /** Workers of the process's pool (made when none is idle), given back to
   *  it when the pointer is destroyed. */
  struct GiveBack
  {
    void
    operator()(CopyWorkers * workers) const;
  };
  using Lease = std::unique_ptr<CopyWorkers, GiveBack>;
  static Lease
  Take();

private:
  void
  Work(int part);

  std::vector<std::thread>         m_Threads;
  std::mutex                       m_Mutex;
  std::condition_variable          m_Wake;
  std::condition_variable          m_Done;
  const std::function<void(int)> * m_Task = nullptr;
  unsigned long long               m_Generation = 0;
  std::atomic<int>                 m_Pending{ 0 }; ///< parts of the workers not done; changed under m_Mutex
  bool                             m_Stop = false;
};

} // namespace cuda
} // namespace cca

#endif
