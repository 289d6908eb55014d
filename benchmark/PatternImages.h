// Asad 2019's synthetic image families (Asad, Marroquim, Souza, "On GPU
// Connected Components and Properties", section IV): Ridge patterns R_l^k,
// the five Ridge families (Leveling, Scaling(l), Subdivision(l),
// RandomInstancing(l, s), RandomMerging(l, s)) and Spiral patterns, on square
// 2^n x 2^n uint8 images (0 = background, 1 = foreground). ITK-free and
// deterministic: the random families draw from MT19937 with fixed seeds, the
// raw 32-bit outputs compared with p * 2^32 as RandomImages.h does (no
// std::uniform_*_distribution, whose output differs between libraries).
//
// What the paper fixes, and the choices made where its text leaves freedom
// (the figures are not in our copy of the paper):
//  - R_l, l >= 2 (IV-B): a crest of |C_l| = 2^(l-2) + 1 one-pixel peaks at
//    x(P_i) = 3i with heights h(P_i) = 1 + #{k in [0, l-2] : 2^k divides i}
//    (Eq. 6-8), so w(C_l) = 2^(l-1) + 2^(l-2) + 1 and h(C_l) = l (Eq. 9-10),
//    standing on a base T_l of h(T_l) = w(C_l) - h(C_l) rows (Eq. 12).
//    Choice: every base row is w(C_l) pixels wide and each row starts one
//    pixel right of the row above (the 45 degree side). That is the shape
//    whose extent is w(T_l) = 2 w(C_l) - h(C_l) - 1 (the symbolic form of Eq.
//    11; its closed form and Eq. 15 are one pixel wider, which no
//    rasterisation of the stated rows gives), whose area is about a square of
//    the base's row size, as the text says, whose foreground occupancy peaks
//    at 25 % (l = 1, 2), "about 25 %" in V-C, and which spreads LE's first
//    Analysis evenly: with labels preferring the smallest raster index, each
//    base pixel chains up-left along its diagonal to the top row, so every
//    peak collects the same number of diagonals.
//  - R_1: the 2 x 2 shape of that kind (rows [0,1] and [1,2]); R_1^k has rows
//    of 2^(k+1) pixels, 2^(k+1) rows, no crest (the crest formulas give
//    non-integers for l = 1).
//  - R_l^k (IV-C): the crest scaled horizontally by 2^k (peaks 2^k wide, gaps
//    2^(k+1)), its height kept, the base recomputed from the scaled crest
//    width (Eq. 13-16). One pattern occupies a cell of 2^(k+l+1) pixels
//    (Eq. 17), placed at the cell's top-left corner.
//  - RandomMerging's links: "a horizontal or vertical line of foreground
//    pixels". Horizontal: along the middle base row of the left pattern to
//    the same row of the right one. Vertical: the last crest column, from
//    below the upper pattern's bottom row down to the top of the lower
//    pattern's last (tallest) peak. Both are 4-connected at both ends.
//  - Scaling(l): nearest-neighbour scaling about the top-left corner by
//    lambda = j / (steps - 1) in exact integer arithmetic.
//  - Spiral: a square spiral of one-pixel arms with one-pixel gaps, clockwise
//    from the top-left corner, of side 2^n j / steps: one component under
//    both connectivities, about 50 % occupancy at full size.
//  - Member counts: Table III counts 1200 / 1600 / 1600 / 2100 / 2100 / 900
//    images for Leveling / Scaling / Subdivision / RandomInstancing /
//    RandomMerging / Spiral at 8192^2, each member timed 100 times (Fig. 7-8):
//    12 levels (l = 1 .. n-1), 16 scales, 21 probabilities (each p drawn 100
//    times in the paper), 9 spirals. Subdivision(3) has n - l = 10 members by
//    IV-C's own limit, not 16; which other members the paper timed is not
//    said, so we time those 10.
#ifndef ccabench_PatternImages_h
#define ccabench_PatternImages_h

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace ccabench
{

/** Foreground pixels x0 .. x1 (inclusive) of one row. */
struct Span
{
  std::int64_t x0;
  std::int64_t x1;
};

/** The scaled Ridge pattern R_l^k: sizes in pixels, in the pattern's own frame (top-left = 0, 0). */
struct RidgeGeometry
{
  int          level = 1;       ///< l >= 1: the number of LE iterations the pattern needs
  int          scale = 0;       ///< k >= 0: the crest is scaled horizontally by 2^k
  std::int64_t unit = 1;        ///< 2^k: width of a peak
  int          peaks = 0;       ///< |C_l| = 2^(l-2) + 1; 0 for R_1
  std::int64_t crestHeight = 0; ///< h(C_l) = l; 0 for R_1
  std::int64_t rowWidth = 0;    ///< w(C_l^k): width of the crest and of every base row
  std::int64_t baseHeight = 0;  ///< h(T_l^k) = w(C_l^k) - l; 2^(k+1) for R_1
  std::int64_t width = 0;       ///< bounding box: rowWidth + baseHeight - 1 (w(T_l^k))
  std::int64_t height = 0;      ///< crestHeight + baseHeight
  std::int64_t cell = 0;        ///< 2^(k+l+1): the square one pattern occupies among others (Eq. 17)
};

/** Height of peak P_i of crest C_l (Eq. 8): 1 + the number of k in [0, l-2] with 2^k | i. */
inline int
PeakHeight(int level, std::int64_t i)
{
  int height = 1;
  for (int k = 0; k <= level - 2; ++k)
  {
    if (i % (std::int64_t{ 1 } << k) == 0)
      ++height;
  }
  return height;
}

inline RidgeGeometry
Ridge(int level, int scale)
{
  if (level < 1 || scale < 0 || level + scale > 40)
    throw std::invalid_argument("Ridge: level >= 1, scale >= 0");
  RidgeGeometry g;
  g.level = level;
  g.scale = scale;
  g.unit = std::int64_t{ 1 } << scale;
  if (level == 1)
  {
    g.rowWidth = 2 * g.unit;
    g.baseHeight = 2 * g.unit;
  }
  else
  {
    g.peaks = (1 << (level - 2)) + 1;
    g.crestHeight = level;
    g.rowWidth = (3 * (std::int64_t{ 1 } << (level - 2)) + 1) * g.unit; // Eq. 13
    g.baseHeight = g.rowWidth - level;                                  // Eq. 16
  }
  g.width = g.rowWidth + g.baseHeight - 1;
  g.height = g.crestHeight + g.baseHeight;
  g.cell = std::int64_t{ 1 } << (scale + level + 1);
  return g;
}

/** Appends the foreground spans of row y (pattern frame) of R_l^k to out. */
inline void
RidgeRowSpans(const RidgeGeometry & g, std::int64_t y, std::vector<Span> & out)
{
  if (y < 0 || y >= g.height)
    return;
  if (y < g.crestHeight)
  {
    // Peak P_i covers rows l - h(P_i) .. l - 1 of the crest.
    for (int i = 0; i < g.peaks; ++i)
    {
      if (y >= g.crestHeight - PeakHeight(g.level, i))
        out.push_back({ 3 * i * g.unit, 3 * i * g.unit + g.unit - 1 });
    }
    return;
  }
  const std::int64_t r = y - g.crestHeight; // base row: starts r pixels right of the top row
  out.push_back({ r, r + g.rowWidth - 1 });
}

/** Sets the pixels x0 .. x1 of row y, clipped to the image. */
inline void
FillSpan(std::vector<std::uint8_t> & image, std::int64_t size, std::int64_t y, std::int64_t x0, std::int64_t x1)
{
  if (y < 0 || y >= size)
    return;
  x0 = std::max<std::int64_t>(x0, 0);
  x1 = std::min<std::int64_t>(x1, size - 1);
  if (x0 <= x1)
    std::fill(image.begin() + y * size + x0, image.begin() + y * size + x1 + 1, std::uint8_t{ 1 });
}

/** Draws R_l^k with its bounding box's top-left corner at (left, top). */
inline void
DrawRidge(std::vector<std::uint8_t> & image,
          std::int64_t                size,
          const RidgeGeometry &       g,
          std::int64_t                left,
          std::int64_t                top)
{
  std::vector<Span> spans;
  for (std::int64_t y = 0; y < g.height; ++y)
  {
    spans.clear();
    RidgeRowSpans(g, y, spans);
    for (const Span & s : spans)
      FillSpan(image, size, top + y, left + s.x0, left + s.x1);
  }
}

/** Draws R_l^k scaled by num/den (<= 1) about its top-left corner, nearest neighbour:
 *  output pixel (x, y) is foreground when pattern pixel (floor(x den/num), floor(y den/num)) is. */
inline void
DrawScaledRidge(std::vector<std::uint8_t> & image,
                std::int64_t                size,
                const RidgeGeometry &       g,
                std::int64_t                num,
                std::int64_t                den)
{
  if (num <= 0)
    return;
  if (num > den)
    throw std::invalid_argument("DrawScaledRidge: scale above 1");
  // Output x maps into source span [a, b] when a num <= x den < (b + 1) num.
  auto               ceilDiv = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  const std::int64_t outHeight = ceilDiv(g.height * num, den);
  std::vector<Span>  spans;
  for (std::int64_t y = 0; y < outHeight; ++y)
  {
    spans.clear();
    RidgeRowSpans(g, y * den / num, spans);
    for (const Span & s : spans)
      FillSpan(image, size, y, ceilDiv(s.x0 * num, den), ceilDiv((s.x1 + 1) * num, den) - 1);
  }
}

/** Draws a square spiral of one-pixel arms and one-pixel gaps, clockwise from (0, 0), side pixels wide. */
inline void
DrawSpiral(std::vector<std::uint8_t> & image, std::int64_t size, std::int64_t side)
{
  if (side <= 0)
    return;
  // Turtle: right, down, left, up; arm lengths (in steps) side-1 three times,
  // then each length twice, two shorter each time, so one pixel stays between arms.
  const int    dx[4] = { 1, 0, -1, 0 };
  const int    dy[4] = { 0, 1, 0, -1 };
  std::int64_t x = 0, y = 0;
  auto         set = [&](std::int64_t px, std::int64_t py) {
    if (px >= 0 && px < size && py >= 0 && py < size)
      image[py * size + px] = 1;
  };
  set(x, y);
  std::int64_t length = side - 1;
  for (int arm = 0; length > 0; ++arm)
  {
    const int d = arm % 4;
    for (std::int64_t i = 0; i < length; ++i)
    {
      x += dx[d];
      y += dy[d];
      set(x, y);
    }
    // Lengths: L, L, L, L-2, L-2, L-4, L-4, ...
    if (arm >= 2 && arm % 2 == 0)
      length -= 2;
  }
}

enum class PatternFamily
{
  Leveling,
  Scaling,
  Subdivision,
  RandomInstancing,
  RandomMerging,
  Spiral
};

inline const char *
PatternFamilyName(PatternFamily f)
{
  switch (f)
  {
    case PatternFamily::Leveling:
      return "Leveling";
    case PatternFamily::Scaling:
      return "Scaling";
    case PatternFamily::Subdivision:
      return "Subdivision";
    case PatternFamily::RandomInstancing:
      return "RandomInstancing";
    case PatternFamily::RandomMerging:
      return "RandomMerging";
    case PatternFamily::Spiral:
      return "Spiral";
  }
  return "unknown";
}

inline constexpr PatternFamily AllPatternFamilies[] = { PatternFamily::Leveling,      PatternFamily::Scaling,
                                                        PatternFamily::Subdivision,   PatternFamily::RandomInstancing,
                                                        PatternFamily::RandomMerging, PatternFamily::Spiral };

/** Parameters of the families; the defaults are those of Asad 2019's experiments at 8192^2 (V-C). */
struct FamilySettings
{
  int scalingLevel = 2;     ///< Scaling(l): Fig. 8(b) uses a level 2 pattern
  int scalingSteps = 16;    ///< lambda = j / 15, j = 0 .. 15
  int subdivisionLevel = 3; ///< Subdivision(3), Fig. 7(b)
  int randomLevel = 3;      ///< RandomInstancing(3, 5), RandomMerging(3, 5), Fig. 7(c-d)
  int randomSubdivisions = 5;
  int probabilitySteps = 21; ///< p = j / 20, j = 0 .. 20
  int instances = 100;       ///< random images per probability (the paper's 100 executions)
  int spiralSteps = 9;       ///< sides 2^n j / 9, j = 1 .. 9
};

/** One image of a family. */
struct PatternCase
{
  PatternFamily family = PatternFamily::Leveling;
  int           level = 1;        ///< l
  int           subdivisions = 0; ///< s (Subdivision, Random*)
  double        parameter = 0;    ///< the family's free parameter: l, lambda, s, p, p, side fraction
  std::int64_t  num = 0, den = 1; ///< the same parameter as an exact fraction where it is one (lambda, p, side)
  int           member = 0;       ///< index of the free parameter's value
  int           instance = 0;     ///< random draw (Random* only)
  std::uint32_t seed = 0;

  std::string
  Name() const
  {
    std::string s = PatternFamilyName(family);
    switch (family)
    {
      case PatternFamily::Leveling:
        return s + " l=" + std::to_string(level);
      case PatternFamily::Scaling:
        return s + "(" + std::to_string(level) + ") lambda=" + std::to_string(num) + "/" + std::to_string(den);
      case PatternFamily::Subdivision:
        return s + "(" + std::to_string(level) + ") s=" + std::to_string(subdivisions);
      case PatternFamily::RandomInstancing:
      case PatternFamily::RandomMerging:
        return s + "(" + std::to_string(level) + "," + std::to_string(subdivisions) + ") p=" + std::to_string(num) +
               "/" + std::to_string(den) + " #" + std::to_string(instance);
      case PatternFamily::Spiral:
        return s + " side=" + std::to_string(num) + "/" + std::to_string(den);
    }
    return s;
  }
};

/** log2 of a power-of-two size; throws otherwise (Asad 2019's families are defined on 2^n x 2^n images). */
inline int
Log2Size(std::int64_t size)
{
  int n = 0;
  while ((std::int64_t{ 1 } << n) < size)
    ++n;
  if ((std::int64_t{ 1 } << n) != size || n < 3)
    throw std::invalid_argument("pattern families need a power-of-two size >= 8");
  return n;
}

/** The members of one family at size 2^n, in order. Random families: probabilitySteps x instances images.
 *  Levels and subdivision counts are clamped to what fits (s <= n - l - 1). */
inline std::vector<PatternCase>
FamilyCases(PatternFamily family, std::int64_t size, const FamilySettings & settings = FamilySettings())
{
  const int                n = Log2Size(size);
  std::vector<PatternCase> cases;
  PatternCase              c;
  c.family = family;
  switch (family)
  {
    case PatternFamily::Leveling:
      for (int l = 1; l <= n - 1; ++l)
      {
        c.level = l;
        c.parameter = l;
        c.member = l - 1;
        cases.push_back(c);
      }
      break;
    case PatternFamily::Scaling:
      c.level = std::min(settings.scalingLevel, n - 1);
      for (int j = 0; j < settings.scalingSteps; ++j)
      {
        c.num = j;
        c.den = std::max(1, settings.scalingSteps - 1);
        c.parameter = static_cast<double>(c.num) / c.den;
        c.member = j;
        cases.push_back(c);
      }
      break;
    case PatternFamily::Subdivision:
      c.level = std::min(settings.subdivisionLevel, n - 1);
      for (int s = 0; s <= n - c.level - 1; ++s)
      {
        c.subdivisions = s;
        c.parameter = s;
        c.member = s;
        cases.push_back(c);
      }
      break;
    case PatternFamily::RandomInstancing:
    case PatternFamily::RandomMerging:
      c.level = std::min(settings.randomLevel, n - 1);
      c.subdivisions = std::min(settings.randomSubdivisions, n - c.level - 1);
      for (int j = 0; j < settings.probabilitySteps; ++j)
      {
        for (int i = 0; i < settings.instances; ++i)
        {
          c.num = j;
          c.den = std::max(1, settings.probabilitySteps - 1);
          c.parameter = static_cast<double>(c.num) / c.den;
          c.member = j;
          c.instance = i;
          // Distinct per family, member and instance.
          c.seed = (static_cast<std::uint32_t>(family) << 24) | (static_cast<std::uint32_t>(j) << 12) |
                   static_cast<std::uint32_t>(i);
          cases.push_back(c);
        }
      }
      break;
    case PatternFamily::Spiral:
      for (int j = 1; j <= settings.spiralSteps; ++j)
      {
        c.num = j;
        c.den = settings.spiralSteps;
        c.parameter = static_cast<double>(j) / settings.spiralSteps;
        c.member = j - 1;
        cases.push_back(c);
      }
      break;
  }
  return cases;
}

/** What the generator knows about an image it drew. */
struct PatternInfo
{
  std::int64_t components = 0; ///< by construction (both connectivities)
  std::int64_t patterns = 0;   ///< Ridge patterns drawn (kept instances)
  std::int64_t links = 0;      ///< RandomMerging lines drawn
};

/** True with probability num/den, from one raw MT19937 draw. */
inline bool
Draw(std::mt19937 & rng, std::int64_t num, std::int64_t den)
{
  return static_cast<double>(rng()) * static_cast<double>(den) < static_cast<double>(num) * 4294967296.0;
}

/** Draws one member of a family into image (size x size, cleared first). */
inline PatternInfo
MakePattern(std::int64_t size, const PatternCase & c, std::vector<std::uint8_t> & image)
{
  const int n = Log2Size(size);
  image.assign(static_cast<std::size_t>(size * size), 0);
  PatternInfo info;
  switch (c.family)
  {
    case PatternFamily::Leveling:
      DrawRidge(image, size, Ridge(c.level, n - c.level - 1), 0, 0);
      info.components = info.patterns = 1;
      break;
    case PatternFamily::Scaling:
      DrawScaledRidge(image, size, Ridge(c.level, n - c.level - 1), c.num, c.den);
      info.components = info.patterns = c.num > 0 ? 1 : 0;
      break;
    case PatternFamily::Subdivision:
    case PatternFamily::RandomInstancing:
    case PatternFamily::RandomMerging: {
      // 2^s x 2^s cells of R_l^(n-l-1-s), each at its cell's top-left corner.
      const RidgeGeometry g = Ridge(c.level, n - c.level - 1 - c.subdivisions);
      const std::int64_t  cells = std::int64_t{ 1 } << c.subdivisions;
      std::mt19937        rng(c.seed);
      std::vector<char>   kept(static_cast<std::size_t>(cells * cells), 1);
      if (c.family == PatternFamily::RandomInstancing)
      {
        for (auto & k : kept) // raster order of cells; erased with probability 1 - p
          k = Draw(rng, c.num, c.den) ? 1 : 0;
      }
      std::vector<std::int64_t> parent(kept.size());
      std::iota(parent.begin(), parent.end(), 0);
      auto find = [&](std::int64_t v) {
        while (parent[v] != v)
          v = parent[v] = parent[parent[v]];
        return v;
      };
      for (std::int64_t cy = 0; cy < cells; ++cy)
      {
        for (std::int64_t cx = 0; cx < cells; ++cx)
        {
          if (kept[cy * cells + cx])
          {
            DrawRidge(image, size, g, cx * g.cell, cy * g.cell);
            ++info.patterns;
          }
        }
      }
      if (c.family == PatternFamily::RandomMerging)
      {
        // Per cell in raster order: the link to the right neighbour, then the one below.
        const std::int64_t middleRow = g.crestHeight + g.baseHeight / 2;
        const std::int64_t column = g.rowWidth - 1; // last crest column: the last, tallest peak
        for (std::int64_t cy = 0; cy < cells; ++cy)
        {
          for (std::int64_t cx = 0; cx < cells; ++cx)
          {
            const std::int64_t left = cx * g.cell, top = cy * g.cell;
            if (cx + 1 < cells && Draw(rng, c.num, c.den))
            {
              const std::int64_t r = middleRow - g.crestHeight; // that base row starts r pixels in
              FillSpan(image, size, top + middleRow, left + r + g.rowWidth, left + g.cell + r - 1);
              parent[find(cy * cells + cx)] = find(cy * cells + cx + 1);
              ++info.links;
            }
            if (cy + 1 < cells && Draw(rng, c.num, c.den))
            {
              for (std::int64_t y = top + g.height; y < top + g.cell; ++y)
                FillSpan(image, size, y, left + column, left + column);
              parent[find(cy * cells + cx)] = find((cy + 1) * cells + cx);
              ++info.links;
            }
          }
        }
      }
      for (std::int64_t v = 0; v < static_cast<std::int64_t>(kept.size()); ++v)
      {
        if (kept[v] && find(v) == v)
          ++info.components;
      }
      break;
    }
    case PatternFamily::Spiral:
      DrawSpiral(image, size, size * c.num / c.den);
      info.components = 1;
      break;
  }
  return info;
}

} // namespace ccabench

#endif
