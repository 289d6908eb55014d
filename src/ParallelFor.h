// Host threads for the engine's own host work (the CPU backend, the CUDA
// backend's finishing steps): fn(chunk) for each chunk on a thread of its own.
#ifndef cca_ParallelFor_h
#define cca_ParallelFor_h

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace cca
{

/** Runs fn(chunk) for chunk in [0, chunks) on one thread each. */
template <typename Function>
void
ParallelForChunks(int chunks, Function && fn)
{
  if (chunks == 1)
  {
    fn(0);
    return;
  }
  std::vector<std::thread> threads;
  threads.reserve(chunks);
  for (int c = 0; c < chunks; ++c)
  {
    threads.emplace_back([&fn, c] { fn(c); });
  }
  for (auto & t : threads)
  {
    t.join();
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
