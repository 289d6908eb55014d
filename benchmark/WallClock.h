// Wall time as the benchmark programs measure their host-side stages.
#ifndef cca_benchmark_WallClock_h
#define cca_benchmark_WallClock_h

#include <chrono>

namespace cca::benchmark
{

using Clock = std::chrono::steady_clock;

/** Milliseconds from start to now. */
inline double
MillisecondsSince(Clock::time_point start)
{
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace cca::benchmark

#endif
