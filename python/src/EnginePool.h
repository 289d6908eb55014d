// The engines the Python calls run on: one per concurrent call, kept between
// calls with the buffers and result table worth reusing.
#ifndef CudaLabelStatisticsPython_EnginePool_h
#define CudaLabelStatisticsPython_EnginePool_h

#include "cca/Engine.h"

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace ccapython
{

/** cca::Engine is not thread-safe but keeps buffers worth reusing, so calls
 *  borrow an idle engine (or make one) and give it back. Each engine keeps
 *  its last cca::Result too: a result reused by the engine is written over
 *  (its pages are already mapped) where a new one would take a page fault per
 *  4 KiB of the table, about as long as the copy from the device itself. The
 *  pool is never destroyed: engines hold CUDA resources, and releasing them
 *  after the CUDA runtime has shut down at interpreter exit would fail. */
class EnginePool
{
public:
  struct Worker
  {
    cca::Engine engine;
    cca::Result result;
  };

  class Lease
  {
  public:
    Lease(EnginePool & pool, std::unique_ptr<Worker> worker)
      : m_Pool(pool)
      , m_Worker(std::move(worker))
    {}
    ~Lease() { m_Pool.Return(std::move(m_Worker)); }
    Lease(const Lease &) = delete;
    Lease &
    operator=(const Lease &) = delete;
    Worker *
    operator->() const
    {
      return m_Worker.get();
    }

  private:
    EnginePool &            m_Pool;
    std::unique_ptr<Worker> m_Worker;
  };

  static EnginePool &
  Instance();

  Lease
  Borrow();

  /** Frees the idle engines' last results (engines in use keep theirs). */
  void
  ReleaseResults();

private:
  void
  Return(std::unique_ptr<Worker> worker);

  std::mutex                           m_Mutex;
  std::vector<std::unique_ptr<Worker>> m_Idle;
};

} // namespace ccapython

#endif
