#include "cca/FeretDiameter.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace cca
{
namespace
{

struct Point
{
  std::int64_t x;
  std::int64_t y;
  bool
  operator<(const Point & other) const
  {
    return x < other.x || (x == other.x && y < other.y);
  }
  bool
  operator==(const Point & other) const
  {
    return x == other.x && y == other.y;
  }
};

std::int64_t
Cross(const Point & o, const Point & a, const Point & b)
{
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/** Vertices of the convex hull (monotone chain); sorts and consumes points. */
std::vector<Point>
ConvexHull(std::vector<Point> & points)
{
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  if (points.size() <= 2)
  {
    return points;
  }
  std::vector<Point> hull(2 * points.size());
  std::size_t        k = 0;
  for (const Point & p : points)
  {
    while (k >= 2 && Cross(hull[k - 2], hull[k - 1], p) <= 0)
    {
      --k;
    }
    hull[k++] = p;
  }
  const std::size_t lowerSize = k + 1;
  for (std::size_t i = points.size() - 1; i-- > 0;)
  {
    while (k >= lowerSize && Cross(hull[k - 2], hull[k - 1], points[i]) <= 0)
    {
      --k;
    }
    hull[k++] = points[i];
  }
  hull.resize(k - 1);
  return hull;
}

} // namespace

double
FeretDiameter(const Run * runs, std::int64_t runCount, const double spacing[3])
{
  struct Candidate
  {
    std::int64_t index[3];
  };
  std::vector<Candidate> candidates;
  std::vector<Point>     slice;
  std::int64_t           i = 0;
  while (i < runCount)
  {
    const std::int32_t z = runs[i].z;
    slice.clear();
    while (i < runCount && runs[i].z == z)
    {
      const std::int32_t y = runs[i].y;
      const std::int64_t first = runs[i].x;
      std::int64_t       last = first + runs[i].length - 1;
      for (++i; i < runCount && runs[i].z == z && runs[i].y == y; ++i)
      {
        last = std::int64_t{ runs[i].x } + runs[i].length - 1;
      }
      slice.push_back(Point{ first, y });
      slice.push_back(Point{ last, y });
    }
    for (const Point & p : ConvexHull(slice))
    {
      candidates.push_back(Candidate{ { p.x, p.y, z } });
    }
  }
  // The same distance formula as ITK, so equal pairs give equal values.
  double largest = 0;
  for (std::size_t a = 0; a < candidates.size(); ++a)
  {
    for (std::size_t b = a + 1; b < candidates.size(); ++b)
    {
      double length = 0;
      for (int d = 0; d < 3; ++d)
      {
        const std::int64_t difference = candidates[a].index[d] - candidates[b].index[d];
        length += std::pow(difference * spacing[d], 2);
      }
      largest = std::max(largest, length);
    }
  }
  return std::sqrt(largest);
}

} // namespace cca
