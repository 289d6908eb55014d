// The pool of EnginePool.h: borrowing an idle engine (or making one), giving
// it back and freeing the idle engines' results, each under the pool's mutex.
#include "EnginePool.h"

namespace ccapython
{

EnginePool &
EnginePool::Instance()
{
  static auto * pool = new EnginePool(); // deliberately leaked, see EnginePool.h
  return *pool;
}

EnginePool::Lease
EnginePool::Borrow()
{
  const std::lock_guard<std::mutex> lock(m_Mutex);
  if (m_Idle.empty())
  {
    return Lease(*this, std::make_unique<Worker>());
  }
  auto worker = std::move(m_Idle.back());
  m_Idle.pop_back();
  return Lease(*this, std::move(worker));
}

void
EnginePool::ReleaseResults()
{
  const std::lock_guard<std::mutex> lock(m_Mutex);
  for (auto & worker : m_Idle)
  {
    worker->result = cca::Result{};
  }
}

void
EnginePool::Return(std::unique_ptr<Worker> worker)
{
  const std::lock_guard<std::mutex> lock(m_Mutex);
  m_Idle.push_back(std::move(worker));
}

} // namespace ccapython
