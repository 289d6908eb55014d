// Which outputs make a small run's download stage long: a 512^2 (or N^2)
// random mask, options varied, 4 runs each on one engine, stage times.
#include "cca/Engine.h"
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
using Clock = std::chrono::steady_clock;
int
main(int argc, char ** argv)
{
  const int                 side = argc > 1 ? std::atoi(argv[1]) : 512;
  std::vector<std::uint8_t> image(std::size_t(side) * side);
  for (std::size_t i = 0; i < image.size(); ++i)
    image[i] = (i * 2654435761u >> 9) & 1;
  std::vector<std::uint32_t> labels(image.size());
  cca::ImageView             view;
  view.data = image.data();
  view.size[0] = side;
  view.size[1] = side;
  cca::Engine::StartCuda();
  cca::Engine e;
  struct Way
  {
    const char * name;
    bool         features, runs, labels;
  };
  const Way ways[] = { { "labels only + label image", false, false, true },
                       { "table only", true, false, false },
                       { "runs only", false, true, false },
                       { "table + runs", true, true, false },
                       { "table + runs + label image", true, true, true },
                       { "labels only, no output", false, false, false } };
  for (const Way & w : ways)
  {
    cca::Options o;
    o.backend = cca::Backend::Cuda;
    o.computeFeatures = w.features;
    o.computeRuns = w.runs;
    o.labelImageType = w.labels ? cca::LabelImageType::UInt32 : cca::LabelImageType::None;
    o.labelImage = w.labels ? labels.data() : nullptr;
    for (int k = 0; k < 4; ++k)
    {
      auto        a = Clock::now();
      cca::Result r = e.Run(view, o);
      double      ms = std::chrono::duration<double, std::milli>(Clock::now() - a).count();
      std::printf(
        "%-28s run %d: %7.2f ms; upload %.2f label %.2f features %.2f download %.2f; %lld objects, %lld bytes down\n",
        w.name,
        k,
        ms,
        r.times.uploadMs,
        r.times.labelMs,
        r.times.featuresMs,
        r.times.downloadMs,
        (long long)r.componentCount,
        (long long)r.bytesCopiedToHost);
    }
  }
}
