// The CUDA backend's copy workers (cuda/CopyWorkers.h), which need no GPU:
// every part of every task runs once, before Run returns, whatever the task
// sizes; engines on several threads at once take distinct workers from the
// process's pool and give them back for reuse. Run under ThreadSanitizer by
// scripts/sanitizer-tests.sh. The seed is printed on failure.
#include "CopyWorkers.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace
{

using cca::cuda::CopyWorkers;

std::mutex g_Report;
int        g_Failures = 0;

void
Fail(const std::string & what)
{
  std::lock_guard<std::mutex> lock(g_Report);
  if (++g_Failures <= 10)
  {
    std::cerr << "FAIL " << what << "\n";
  }
}

/** rounds tasks on one lease: each part adds its number to its own slots,
 *  which must then hold exactly one addition per part. */
void
RunTasks(CopyWorkers & workers, int rounds, std::uint32_t seed, const std::string & who)
{
  std::mt19937      random(seed);
  const int         parts = workers.Parts();
  std::vector<long> slots;
  for (int round = 0; round < rounds; ++round)
  {
    const std::size_t perPart = 1 + random() % 64;
    slots.assign(static_cast<std::size_t>(parts) * perPart, 0);
    workers.Run([&](int part) {
      for (std::size_t i = 0; i < perPart; ++i)
      {
        slots[static_cast<std::size_t>(part) * perPart + i] += part + 1;
      }
    });
    for (std::size_t s = 0; s < slots.size(); ++s)
    {
      const long expected = static_cast<long>(s / perPart) + 1;
      if (slots[s] != expected)
      {
        Fail(who + ", round " + std::to_string(round) + " of seed " + std::to_string(seed) + ": slot " +
             std::to_string(s) + " holds " + std::to_string(slots[s]) + ", expected " + std::to_string(expected));
        return;
      }
    }
  }
}

} // namespace

int
main()
{
  const std::uint32_t seed = 20261123;
  {
    CopyWorkers::Lease lease = CopyWorkers::Take();
    if (lease->Parts() < 1)
    {
      Fail("a lease without parts");
    }
    RunTasks(*lease, 500, seed, "one lease");
  }

  // Four engines at once: distinct workers while held, reused once given back.
  constexpr int                    Engines = 4;
  std::vector<std::thread>         engines;
  std::vector<const CopyWorkers *> held(Engines, nullptr);
  std::atomic<int>                 ready{ 0 };
  for (int e = 0; e < Engines; ++e)
  {
    engines.emplace_back([&, e] {
      for (int take = 0; take < 5; ++take)
      {
        CopyWorkers::Lease lease = CopyWorkers::Take();
        if (take == 0)
        {
          held[static_cast<std::size_t>(e)] = lease.get();
          ++ready;
          while (ready.load() < Engines)
          {
            std::this_thread::yield(); // all four hold a lease at once
          }
        }
        RunTasks(*lease, 40, seed + static_cast<std::uint32_t>(100 * e + take), "engine " + std::to_string(e));
      }
    });
  }
  for (auto & t : engines)
  {
    t.join();
  }
  if (std::set<const CopyWorkers *>(held.begin(), held.end()).size() != Engines)
  {
    Fail("engines holding leases at once shared workers");
  }
  {
    CopyWorkers::Lease again = CopyWorkers::Take();
    if (std::set<const CopyWorkers *>(held.begin(), held.end()).count(again.get()) == 0)
    {
      Fail("a lease after the engines ended made new workers instead of reusing theirs");
    }
  }
  std::cout << (g_Failures == 0 ? "all passed" : "FAILED") << std::endl;
  return g_Failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
