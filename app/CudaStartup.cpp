#include "CudaStartup.h"

#include "cca/Engine.h"

#include <atomic>
#include <chrono>
#include <system_error>
#include <thread>

namespace ccaapp
{
namespace
{

using Clock = std::chrono::steady_clock;

// The program ends through std::_Exit, which runs no static destructor: a
// thread still running then (a run that failed while reading) is no error.
std::thread       g_Thread;
CudaStartupTimes  g_Times;
std::atomic<bool> g_Running{ false };

double
SecondsSince(Clock::time_point start)
{
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

void
StartCudaInBackground(const std::string & backend, int device)
{
  if (backend == "cpu" || !cca::Engine::CudaCompiledIn())
  {
    return;
  }
  try
  {
    g_Running = true;
    g_Thread = std::thread([device] {
      const auto start = Clock::now();
      try
      {
        cca::Engine::StartCuda(device);
      }
      catch (...)
      {
        // The analysis starts CUDA again and reports what fails.
      }
      g_Times.seconds = SecondsSince(start);
      g_Running = false;
    });
    g_Times.ran = true;
  }
  catch (const std::system_error &)
  {
    // No thread (a thread limit, an address-space limit): no overlap.
    g_Running = false;
  }
}

bool
CudaStartupRunning()
{
  return g_Running;
}

CudaStartupTimes
FinishCudaStartup()
{
  if (g_Thread.joinable())
  {
    const auto start = Clock::now();
    g_Thread.join();
    g_Times.waitedSeconds = SecondsSince(start);
  }
  return g_Times;
}

} // namespace ccaapp
