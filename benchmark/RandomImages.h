// The papers' random-image protocol (seeds 000, 001, 003), shared by the
// benchmark programs so that every program times the very same images:
// N x N uint8 images from MT19937, density d = 0 .. 1 in steps, granularity
// g = 1, 4, 16 (g x g blocks share one draw), plus the all-foreground image.
#ifndef ccabench_RandomImages_h
#define ccabench_RandomImages_h

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ccabench
{

inline double
Median(std::vector<double> values)
{
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/** The papers' random image: g x g blocks share one draw; foreground (1) when draw < d * 2^32. */
inline void
RandomImage(std::int64_t size, double density, int g, std::uint32_t seed, std::vector<std::uint8_t> & image)
{
  image.assign(static_cast<std::size_t>(size * size), 0);
  std::mt19937              rng(seed);
  const double              threshold = density * 4294967296.0;
  const std::int64_t        blocks = (size + g - 1) / g;
  std::vector<std::uint8_t> row(static_cast<std::size_t>(blocks));
  if (density <= 0 || density >= 1)
  {
    // Every draw falls on the same side of the threshold: no need to draw (an 16384^2 image is 2^28 draws).
    std::fill(image.begin(), image.end(), density >= 1 ? 1 : 0);
    return;
  }
  for (std::int64_t by = 0; by < blocks; ++by)
  {
    for (auto & b : row)
    {
      b = static_cast<double>(rng()) < threshold ? 1 : 0;
    }
    // The block row's first image row, then copies of it.
    const std::int64_t y0 = by * g;
    std::uint8_t *     first = image.data() + y0 * size;
    for (std::int64_t bx = 0; bx < blocks; ++bx)
    {
      std::fill(first + bx * g, first + std::min(size, (bx + 1) * g), row[static_cast<std::size_t>(bx)]);
    }
    for (std::int64_t y = y0 + 1; y < std::min(size, y0 + g); ++y)
    {
      std::copy(first, first + size, image.data() + y * size);
    }
  }
}

/** One image of the protocol. g == 0 stands for the all-foreground image. */
struct ImageCase
{
  int           g = 1;
  double        density = 0;
  bool          allForeground = false;
  std::uint32_t seed = 0;

  /** "1", "4", "16" or "all", as the tables print it. */
  std::string
  GName() const
  {
    return allForeground ? "all" : std::to_string(g);
  }
  /** "g1", "g4", "g16" or "all", as the JSON summaries key it. */
  std::string
  Key() const
  {
    return allForeground ? "all" : "g" + std::to_string(g);
  }
};

/** The protocol's images in order: g = 1, 4, 16 over density, then the all-foreground image.
 *  onlyG >= 0 keeps one granularity (0 = all-foreground); onlyDensity >= 0 keeps one density.
 *  Seeds are those cca_benchmark has always used (1000 g + step index). */
inline std::vector<ImageCase>
ProtocolCases(double densityStep, int onlyG = -1, double onlyDensity = -1)
{
  std::vector<ImageCase> cases;
  const int              steps = static_cast<int>(1.0 / densityStep + 0.5);
  for (int g : { 1, 4, 16, 0 })
  {
    if (onlyG >= 0 && g != onlyG)
      continue;
    for (int k = 0; k <= steps; ++k)
    {
      ImageCase c;
      c.allForeground = g == 0;
      if (c.allForeground && k > 0)
        break;
      c.g = c.allForeground ? 1 : g;
      c.density = c.allForeground ? 1.0 : std::min(1.0, k * densityStep);
      c.seed = static_cast<std::uint32_t>(1000 * g + k);
      if (onlyDensity >= 0 && !c.allForeground && std::abs(c.density - onlyDensity) > 1e-9)
        continue;
      cases.push_back(c);
    }
  }
  return cases;
}

/** Makes the image of one protocol case. */
inline void
MakeImage(std::int64_t size, const ImageCase & c, std::vector<std::uint8_t> & image)
{
  RandomImage(size, c.density, c.g, c.seed, image);
}

/** Averages of a throughput over density: the mean of the per-image
 *  throughputs (as the papers average) and all pixels over the summed time. */
struct Average
{
  double sumGpixPerS = 0;
  double sumMs = 0;
  int    count = 0;

  void
  Add(double pixels, double ms)
  {
    sumGpixPerS += pixels / (ms * 1e6);
    sumMs += ms;
    ++count;
  }
  double
  Mean() const
  {
    return count ? sumGpixPerS / count : 0;
  }
  double
  TimeWeighted(double pixelsPerImage) const
  {
    return sumMs > 0 ? pixelsPerImage * count / (sumMs * 1e6) : 0;
  }
};

/** The options every protocol benchmark takes; each program sets its defaults. */
struct ProtocolOptions
{
  std::int64_t size = 2048;
  int          reps = 5;
  int          warmup = 1;
  double       densityStep = 0.1;
  std::string  connectivity = "face"; ///< face|full|both
  std::string  json;                  ///< --json FILE
  int          onlyG = -1;            ///< --g: one granularity (0 = the all-foreground image)
  double       onlyDensity = -1;      ///< --density: one density
};

/** Consumes one shared option (next() yields its value); false when arg is not one. */
template <typename Next>
bool
ParseProtocolOption(const std::string & arg, Next && next, ProtocolOptions & o)
{
  if (arg == "--size")
    o.size = std::stoll(next());
  else if (arg == "--reps")
    o.reps = std::max(1, std::stoi(next()));
  else if (arg == "--warmup")
    o.warmup = std::max(0, std::stoi(next()));
  else if (arg == "--g")
    o.onlyG = std::stoi(next());
  else if (arg == "--density")
    o.onlyDensity = std::stod(next());
  else if (arg == "--connectivity")
    o.connectivity = next();
  else if (arg == "--json")
    o.json = next();
  else
    return false;
  return true;
}

} // namespace ccabench

#endif
