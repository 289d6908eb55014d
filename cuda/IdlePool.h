// Idle objects kept by the process for the next user (copy threads, the
// streams and pinned buffers of copies by regions), so that a new engine
// makes none. Plain C++, so that the tests run it under ThreadSanitizer.
#ifndef cca_cuda_IdlePool_h
#define cca_cuda_IdlePool_h

#include <iterator>
#include <mutex>
#include <vector>

namespace cca
{
namespace cuda
{

template <class T>
class IdlePool
{
public:
  /** The idle object given back last for which fits(object) holds, taken
   *  out of the pool; null if none. */
  template <class Fits>
  T *
  Take(Fits && fits)
  {
    std::lock_guard<std::mutex> lock(m_Mutex);
    for (auto it = m_Idle.rbegin(); it != m_Idle.rend(); ++it)
    {
      if (fits(**it))
      {
        T * object = *it;
        m_Idle.erase(std::next(it).base());
        return object;
      }
    }
    return nullptr;
  }

  void
  Give(T * object)
  {
    if (object != nullptr)
    {
      std::lock_guard<std::mutex> lock(m_Mutex);
      m_Idle.push_back(object);
    }
  }

private:
  std::mutex       m_Mutex;
  std::vector<T *> m_Idle;
};

/** The process's pool of idle T. Never destroyed, nor are its objects: copy
 *  threads may still sleep, and CUDA objects may outlive the driver, when
 *  the process ends. */
template <class T>
IdlePool<T> &
IdleObjects()
{
  static auto * pool = new IdlePool<T>;
  return *pool;
}

} // namespace cuda
} // namespace cca

#endif
