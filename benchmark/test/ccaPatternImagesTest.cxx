// Checks Asad 2019's image families (PatternImages.h) against what the paper
// states about them, on the CPU (no GPU, no engine):
//  - a level-l Ridge pattern takes exactly l iterations of Label Equivalence
//    (the pattern's defining property, Asad 2019 IV-A and Appendix A), counted
//    with a small sequential reference LE written here;
//  - component counts: one per Ridge pattern and per spiral, x4 per
//    Subdivision step, the kept instances of RandomInstancing (mean p 4^s),
//    the linked groups of RandomMerging; under 4- and 8-connectivity;
//  - foreground occupancy: at most 25 % for Ridge patterns, at most 50 % for
//    spirals (section V-C), about constant along Subdivision;
//  - spirals take two LE iterations (section IV).
// Exit code 0 when every check holds; each failure is printed.
#include "PatternImages.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

namespace
{

int failures = 0;

void
Check(bool ok, const std::string & what)
{
  if (!ok)
  {
    ++failures;
    std::printf("FAIL: %s\n", what.c_str());
  }
}

/** Components by breadth-first flood fill; full = 8-connectivity. */
std::int64_t
CountComponents(const std::vector<std::uint8_t> & image, std::int64_t size, bool full)
{
  std::vector<char>         seen(image.size(), 0);
  std::vector<std::int64_t> stack;
  std::int64_t              count = 0;
  for (std::int64_t start = 0; start < static_cast<std::int64_t>(image.size()); ++start)
  {
    if (!image[start] || seen[start])
      continue;
    ++count;
    seen[start] = 1;
    stack.assign(1, start);
    while (!stack.empty())
    {
      const std::int64_t p = stack.back();
      stack.pop_back();
      const std::int64_t x = p % size, y = p / size;
      for (int dy = -1; dy <= 1; ++dy)
      {
        for (int dx = -1; dx <= 1; ++dx)
        {
          if ((dx == 0 && dy == 0) || (!full && dx != 0 && dy != 0))
            continue;
          const std::int64_t nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= size || ny >= size)
            continue;
          const std::int64_t q = ny * size + nx;
          if (image[q] && !seen[q])
          {
            seen[q] = 1;
            stack.push_back(q);
          }
        }
      }
    }
  }
  return count;
}

double
Occupancy(const std::vector<std::uint8_t> & image)
{
  std::int64_t on = 0;
  for (auto v : image)
    on += v;
  return static_cast<double>(on) / static_cast<double>(image.size());
}

/** Sequential reference of Label Equivalence with 8-connectivity (Hawick et
 *  al., Kalentev et al.; Asad 2019 section II-A and V-B): Prelabel sets each
 *  foreground pixel's label to its raster index; each iteration is a Scan,
 *  where every pixel whose smallest neighbour label m is below its own label
 *  l lowers the label of l's representative to m (atomicMin on L[l]), then an
 *  Analysis, where every pixel replaces its label by the end of its chain.
 *  The Scan reads the labels as they were when it started (the paper reads
 *  them through texture memory); with raster-index labels the first Scan's F4
 *  and F8 policies then pick the same neighbour. Returns the number of
 *  iterations whose Scan changed something; the final Scan that finds nothing
 *  to change is the stopping test, not an iteration. */
int
LabelEquivalenceIterations(const std::vector<std::uint8_t> & image, std::int64_t size)
{
  const std::uint32_t        background = std::numeric_limits<std::uint32_t>::max();
  const std::int64_t         pixels = size * size;
  std::vector<std::uint32_t> label(static_cast<std::size_t>(pixels));
  for (std::int64_t p = 0; p < pixels; ++p)
    label[p] = image[p] ? static_cast<std::uint32_t>(p) : background;
  std::vector<std::uint32_t> scanned;
  for (int iterations = 0;; ++iterations)
  {
    scanned = label;
    bool changed = false;
    for (std::int64_t p = 0; p < pixels; ++p)
    {
      if (!image[p])
        continue;
      const std::int64_t x = p % size, y = p / size;
      std::uint32_t      smallest = label[p];
      for (int dy = -1; dy <= 1; ++dy)
      {
        for (int dx = -1; dx <= 1; ++dx)
        {
          const std::int64_t nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= size || ny >= size || !image[ny * size + nx])
            continue;
          smallest = std::min(smallest, label[ny * size + nx]);
        }
      }
      if (smallest < label[p])
      {
        changed = true;
        std::uint32_t & representative = scanned[label[p]];
        representative = std::min(representative, smallest);
      }
    }
    if (!changed)
      return iterations;
    label.swap(scanned);
    // Analysis. Labels only ever point to smaller raster indices, so in
    // raster order each chain's next link is already resolved.
    for (std::int64_t p = 0; p < pixels; ++p)
    {
      if (image[p] && label[p] != static_cast<std::uint32_t>(p))
        label[p] = label[label[p]];
    }
  }
}

std::string
Describe(const ccabench::PatternCase & c, std::int64_t size)
{
  return c.Name() + " at " + std::to_string(size) + "^2";
}

/** Components under both connectivities equal the generator's count. */
void
CheckComponents(const std::vector<std::uint8_t> & image,
                std::int64_t                      size,
                std::int64_t                      expected,
                const std::string &               what)
{
  for (bool full : { false, true })
  {
    const std::int64_t counted = CountComponents(image, size, full);
    Check(counted == expected,
          what + ": " + std::to_string(counted) + " components (" + (full ? "8" : "4") + "-connectivity), expected " +
            std::to_string(expected));
  }
}

void
TestSingleRidges()
{
  // R_l^k alone in its cell: exactly l LE iterations, one component, <= 25 % of the cell.
  for (int l = 1; l <= 8; ++l)
  {
    for (int k = 0; k <= (l <= 5 ? 3 : 1); ++k)
    {
      const ccabench::RidgeGeometry g = ccabench::Ridge(l, k);
      const std::int64_t            size = g.cell;
      std::vector<std::uint8_t>     image(static_cast<std::size_t>(size * size), 0);
      ccabench::DrawRidge(image, size, g, 0, 0);
      const std::string what = "R_" + std::to_string(l) + "^" + std::to_string(k);
      const int         iterations = LabelEquivalenceIterations(image, size);
      Check(iterations == l,
            what + ": " + std::to_string(iterations) + " LE iterations, expected " + std::to_string(l));
      CheckComponents(image, size, 1, what);
      Check(Occupancy(image) <= 0.25, what + ": occupancy " + std::to_string(Occupancy(image)) + " above 25 %");
      // Eq. 17: two pixels at least between side-by-side patterns.
      Check(g.width + 2 <= g.cell || l == 1, what + ": does not fit its cell with a 2-pixel gap");
      Check(g.height == g.rowWidth, what + ": height differs from the row width");
      if (l >= 2)
      {
        // Eq. 13-16.
        const std::int64_t u = std::int64_t{ 1 } << k;
        Check(g.rowWidth == (std::int64_t{ 1 } << (k + l - 1)) + (std::int64_t{ 1 } << (k + l - 2)) + u,
              what + ": Eq. 13");
        Check(g.baseHeight == g.rowWidth - l, what + ": Eq. 16");
        Check(g.width == 2 * g.rowWidth - l - 1, what + ": Eq. 11 (symbolic form)");
        Check(ccabench::PeakHeight(l, 0) == l && ccabench::PeakHeight(l, g.peaks - 1) == l,
              what + ": end peaks of height l");
      }
    }
  }
}

void
TestLeveling(std::int64_t size)
{
  const auto cases = ccabench::FamilyCases(ccabench::PatternFamily::Leveling, size);
  Check(static_cast<int>(cases.size()) == ccabench::Log2Size(size) - 1, "Leveling: n - 1 members");
  std::vector<std::uint8_t> image;
  for (const auto & c : cases)
  {
    const auto info = ccabench::MakePattern(size, c, image);
    const int  iterations = LabelEquivalenceIterations(image, size);
    Check(iterations == c.level, Describe(c, size) + ": " + std::to_string(iterations) + " LE iterations");
    CheckComponents(image, size, info.components, Describe(c, size));
    Check(info.components == 1, Describe(c, size) + ": one pattern");
    Check(Occupancy(image) <= 0.25, Describe(c, size) + ": occupancy above 25 %");
  }
}

void
TestScaling(std::int64_t size)
{
  const auto cases = ccabench::FamilyCases(ccabench::PatternFamily::Scaling, size);
  Check(cases.size() == 16 && cases.front().num == 0 && cases.back().num == cases.back().den,
        "Scaling: 16 members from lambda = 0 to 1");
  std::vector<std::uint8_t> image;
  double                    previous = -1;
  for (const auto & c : cases)
  {
    const auto   info = ccabench::MakePattern(size, c, image);
    const double occupancy = Occupancy(image);
    CheckComponents(image, size, info.components, Describe(c, size));
    Check(occupancy <= 0.25, Describe(c, size) + ": occupancy above 25 %");
    Check(occupancy >= previous, Describe(c, size) + ": occupancy does not grow with lambda");
    previous = occupancy;
  }
}

void
TestSubdivision(std::int64_t size)
{
  const auto cases = ccabench::FamilyCases(ccabench::PatternFamily::Subdivision, size);
  const int  n = ccabench::Log2Size(size);
  Check(static_cast<int>(cases.size()) == n - 3, "Subdivision(3): n - l members");
  std::vector<std::uint8_t> image;
  double                    first = 0;
  for (const auto & c : cases)
  {
    const auto info = ccabench::MakePattern(size, c, image);
    const auto expected = std::int64_t{ 1 } << (2 * c.subdivisions); // x4 per step
    Check(info.components == expected, Describe(c, size) + ": not 4^s patterns");
    CheckComponents(image, size, expected, Describe(c, size));
    const int iterations = LabelEquivalenceIterations(image, size);
    Check(iterations == c.level, Describe(c, size) + ": " + std::to_string(iterations) + " LE iterations");
    const double occupancy = Occupancy(image);
    if (c.subdivisions == 0)
      first = occupancy;
    // "keeps the number of pixels approximately constant": the -l terms of
    // Eq. 16 weigh more as patterns shrink; at scale 0 (the last member) R_3
    // is 7 pixels wide and 36 pixels in all, 25 % below the large patterns.
    const bool lastMember = c.subdivisions == n - c.level - 1;
    Check(std::abs(occupancy - first) <= (lastMember ? 0.3 : 0.15) * first,
          Describe(c, size) + ": occupancy " + std::to_string(occupancy) + " vs " + std::to_string(first));
  }
}

void
TestRandomInstancing(std::int64_t size)
{
  ccabench::FamilySettings settings;
  settings.randomSubdivisions = 3;
  settings.instances = 40;
  const auto                cases = ccabench::FamilyCases(ccabench::PatternFamily::RandomInstancing, size, settings);
  std::vector<std::uint8_t> image;
  std::vector<double>       sum(settings.probabilitySteps, 0);
  std::vector<int>          count(settings.probabilitySteps, 0);
  for (const auto & c : cases)
  {
    const auto info = ccabench::MakePattern(size, c, image);
    sum[c.member] += static_cast<double>(info.components);
    ++count[c.member];
    if (c.instance < 2) // the flood fills are the slow part
    {
      CheckComponents(image, size, info.components, Describe(c, size));
      Check(info.components == info.patterns, Describe(c, size) + ": kept patterns are separate components");
      if (info.components > 0 && c.instance == 0 && c.member % 5 == 0)
        Check(LabelEquivalenceIterations(image, size) == c.level, Describe(c, size) + ": LE iterations");
    }
    if (c.num == 0)
      Check(info.components == 0, Describe(c, size) + ": p = 0 keeps nothing");
    if (c.num == c.den)
      Check(info.components == 64, Describe(c, size) + ": p = 1 keeps all 4^s");
  }
  for (int j = 0; j < settings.probabilitySteps; ++j)
  {
    // Expected p 4^s; the mean of 40 binomial(64, p) draws is within 4 standard errors.
    const double p = static_cast<double>(j) / (settings.probabilitySteps - 1);
    const double mean = sum[j] / count[j];
    const double tolerance = 4 * std::sqrt(64 * p * (1 - p) / count[j]) + 1e-9;
    Check(std::abs(mean - 64 * p) <= tolerance,
          "RandomInstancing p=" + std::to_string(p) + ": mean " + std::to_string(mean) + " components, expected " +
            std::to_string(64 * p));
  }
  // Fixed seeds: the same case gives the same image.
  std::vector<std::uint8_t> again;
  ccabench::MakePattern(size, cases[cases.size() / 2], image);
  ccabench::MakePattern(size, cases[cases.size() / 2], again);
  Check(image == again, "RandomInstancing: not deterministic");
}

void
TestRandomMerging(std::int64_t size)
{
  ccabench::FamilySettings settings;
  settings.randomSubdivisions = 3;
  settings.instances = 3;
  const auto                cases = ccabench::FamilyCases(ccabench::PatternFamily::RandomMerging, size, settings);
  std::vector<std::uint8_t> image;
  double                    occupancyAtZero = -1;
  for (const auto & c : cases)
  {
    const auto info = ccabench::MakePattern(size, c, image);
    CheckComponents(image, size, info.components, Describe(c, size));
    Check(info.patterns == 64, Describe(c, size) + ": all 4^s patterns drawn");
    if (c.num == 0)
    {
      Check(info.components == 64 && info.links == 0, Describe(c, size) + ": p = 0 links nothing");
      occupancyAtZero = Occupancy(image);
    }
    if (c.num == c.den)
      Check(info.components == 1 && info.links == 2 * 8 * 7, Describe(c, size) + ": p = 1 links everything");
    // The links add a few pixels to a constant foreground.
    Check(Occupancy(image) <= 1.1 * occupancyAtZero, Describe(c, size) + ": links add too much foreground");
  }
}

void
TestSpirals(std::int64_t size)
{
  const auto                cases = ccabench::FamilyCases(ccabench::PatternFamily::Spiral, size);
  std::vector<std::uint8_t> image;
  Check(cases.size() == 9 && cases.back().num == cases.back().den, "Spiral: 9 members up to the full image");
  for (const auto & c : cases)
  {
    ccabench::MakePattern(size, c, image);
    CheckComponents(image, size, 1, Describe(c, size));
    Check(Occupancy(image) <= 0.5 + 1.0 / static_cast<double>(size), Describe(c, size) + ": occupancy above 50 %");
    const int iterations = LabelEquivalenceIterations(image, size);
    Check(iterations == 2, Describe(c, size) + ": " + std::to_string(iterations) + " LE iterations, the paper says 2");
  }
  // Every side from 1 to 64: one component, never touching arms.
  for (std::int64_t side = 1; side <= 64; ++side)
  {
    std::vector<std::uint8_t> small(64 * 64, 0);
    ccabench::DrawSpiral(small, 64, side);
    for (bool full : { false, true })
      Check(CountComponents(small, 64, full) == 1, "spiral of side " + std::to_string(side) + ": not one component");
  }
}

} // namespace

int
main()
{
  TestSingleRidges();
  for (std::int64_t size : { 256, 1024 })
  {
    TestLeveling(size);
    TestSubdivision(size);
  }
  TestScaling(512);
  TestRandomInstancing(256);
  TestRandomMerging(512);
  TestSpirals(256);
  TestSpirals(512);
  if (failures)
  {
    std::printf("%d checks failed\n", failures);
    return 1;
  }
  std::printf("all pattern-family checks passed\n");
  return 0;
}
