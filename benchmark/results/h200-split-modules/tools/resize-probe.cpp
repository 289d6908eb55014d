// Fresh vector<cca::Run> of 7.1 M runs (113 MB, the 512^3 g = 4 mask's)
// sized by std::vector::resize or cca::ResizeForOverwrite, then overwritten
// by the machine's threads side by side (as a download's copy threads
// would); fresh memory each repetition (the vector freed, glibc returns
// blocks this large to the system).
#include "ResizeForOverwrite.h"
#include "cca/Types.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

int
main(int argc, char ** argv)
{
  const bool        touch = argc > 1 && std::string(argv[1]) == "touch";
  const std::size_t count = 7100000;
  const int         threads = static_cast<int>(std::thread::hardware_concurrency());
  for (int rep = 0; rep < 5; ++rep)
  {
    std::vector<cca::Run> runs;
    const auto            t0 = std::chrono::steady_clock::now();
    if (touch)
    {
      cca::ResizeForOverwrite(runs, count, 0);
    }
    else
    {
      runs.resize(count);
    }
    const auto t1 = std::chrono::steady_clock::now();
    cca::ParallelForChunks(threads, [&](int c) {
      const std::size_t b = count / threads * c, e = c + 1 == threads ? count : count / threads * (c + 1);
      for (std::size_t i = b; i < e; ++i)
      {
        runs[i] = cca::Run{ static_cast<std::int32_t>(i), 1, 2, 3 };
      }
    });
    const auto t2 = std::chrono::steady_clock::now();
    std::printf("%s: size %.1f ms, overwrite %.1f ms, total %.1f ms\n",
                touch ? "touch" : "resize",
                std::chrono::duration<double, std::milli>(t1 - t0).count(),
                std::chrono::duration<double, std::milli>(t2 - t1).count(),
                std::chrono::duration<double, std::milli>(t2 - t0).count());
  }
}
