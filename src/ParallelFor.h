// Host threads for the engine's own host work (the CPU backend, the CUDA
// backend's finishing steps): fn(chunk) for each chunk on a thread of its own.
#ifndef cca_ParallelFor_h
#define cca_ParallelFor_h

#include <algorithm>
#include <cstdint>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace cca
{

/** Runs fn(chunk) for chunk in [0, chunks) on one thread each. An exception
 *  of a chunk (std::bad_alloc when memory runs out) is rethrown here after
 *  every thread has joined, instead of ending the process; a chunk whose
 *  thread cannot be started runs on the calling thread. */
template <typename Function>
void
ParallelForChunks(int chunks, Function && fn)
{
  if (chunks == 1)
  {
    fn(0);
    return;
  }
  std::vector<std::exception_ptr> errors(chunks);
  auto                            guarded = [&fn, &errors](int c) {
    try
    {
      fn(c);
    }
    catch (...)
    {
      errors[c] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(chunks);
  for (int c = 0; c < chunks; ++c)
  {
    try
    {
      threads.emplace_back(guarded, c);
    }
    catch (const std::system_error &)
    {
      guarded(c);
    }
  }
  for (auto & t : threads)
  {
    t.join();
  }
  for (const auto & error : errors)
  {
    if (error)
    {
      std::rethrow_exception(error);
    }
  }
}

/** The threads to use: requested (> 0), else every hardware thread. */
inline int
HostThreads(int requested)
{
  return requested > 0 ? requested : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace cca

#endif
