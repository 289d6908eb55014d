// The papers' random-image protocol (Lemaitre 2021, their GTC 2021 talk,
// Cabaret 2017; docs/references.md), shared by the benchmark programs so that
// every program times the very same images: N x N uint8 images (or N^3
// volumes) from cca/RandomImages.h (MT19937, g x g (x g) blocks share one
// draw), density d = 0 .. 1 in steps, granularity g = 1, 4, 16, plus the
// all-foreground image. External harnesses regenerate these images: seeds and
// the generator must not change. The peers' harness (peers-bench,
// src/random_images.h: RandomImage, RandomVolume) is a copy of this protocol
// whose 2D and 3D images are bit-identical to these (same seeds 1000 g + k,
// densities k * step, draw order and threshold; ccaRandomImagesTest pins a
// 512^3 protocol volume's fingerprint).
#ifndef ccabench_RandomImages_h
#define ccabench_RandomImages_h

#include "cca/RandomImages.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
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

/** The papers' random image, size x size: g x g blocks share one draw;
 *  foreground (1) when draw < d * 2^32 (cca/RandomImages.h). */
inline void
RandomImage(std::int64_t size, double density, int g, std::uint32_t seed, std::vector<std::uint8_t> & image)
{
  image.resize(static_cast<std::size_t>(size * size));
  cca::FillRandomBlockImage(size, size, 1, density, g, seed, image.data());
}

/** Its 3D form, size^3: g x g x g blocks, one draw per block in raster order (x fastest). */
inline void
RandomVolume(std::int64_t size, double density, int g, std::uint32_t seed, std::vector<std::uint8_t> & image)
{
  image.resize(static_cast<std::size_t>(size * size * size));
  cca::FillRandomBlockImage(size, size, size, density, g, seed, image.data());
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

/** Whether --g names granularities of the protocol: 0 (the all-foreground
 *  image), 1, 4 or 16. Other values would select no image at all. */
inline bool
ProtocolGranularity(int g)
{
  return g == 0 || g == 1 || g == 4 || g == 16;
}

/** Makes the image of one protocol case: size^2 (dimension 2) or size^3 (dimension 3). */
inline void
MakeImage(std::int64_t size, const ImageCase & c, std::vector<std::uint8_t> & image, int dimension = 2)
{
  if (dimension == 3)
    RandomVolume(size, c.density, c.g, c.seed, image);
  else
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
  {
    o.onlyG = std::stoi(next());
    if (!ProtocolGranularity(o.onlyG))
    {
      std::cerr << "--g " << o.onlyG << ": the protocol's granularities are 0 (all foreground), 1, 4 and 16\n";
      return false; // the caller prints its usage and stops
    }
  }
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
