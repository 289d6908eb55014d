// ITK's ShapeLabelObject attributes from exact integer features (see
// cca/ShapeAttributes.h for what differs from ITK and why).
#include "cca/ShapeAttributes.h"

#include "ParallelFor.h"

#include "cca/FeretDiameter.h"
#include "cca/SymmetricEigen.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace cca
{
namespace
{

constexpr double Pi = 3.14159265358979323846;

// ---- exact rank of the integer scatter matrix -----------------------------

/** M = N^2 K, K the covariance of the pixel indices: M_ij = N S_ij - s_i s_j.
 *  Each term is below 2^127 (ValidateInput bounds N S_ij by 2^64 N), so the
 *  difference fits a signed 128-bit integer. */
using Scatter = __int128[3][3];

void
ExactScatter(const ComponentFeatures & f, int dimension, Scatter m)
{
  static constexpr int productSlot[3][3] = { { 0, 3, 4 }, { 3, 1, 5 }, { 4, 5, 2 } };
  for (int i = 0; i < dimension; ++i)
  {
    for (int j = 0; j < dimension; ++j)
    {
      m[i][j] = static_cast<__int128>(f.pixelCount) * static_cast<__int128>(f.coordinateProductSum[productSlot[i][j]]) -
                static_cast<__int128>(f.coordinateSum[i]) * static_cast<__int128>(f.coordinateSum[j]);
    }
  }
}

/** Primes below 2^62 whose product (about 2^434) exceeds twice any minor of
 *  M (|3x3 determinant| < 6 x 2^381): a minor that is 0 modulo all of them is 0. */
constexpr std::uint64_t RankPrimes[] = { 0x3fffffffffffffc7ULL, 0x3fffffffffffffa9ULL, 0x3fffffffffffff8bULL,
                                         0x3fffffffffffff71ULL, 0x3fffffffffffff67ULL, 0x3fffffffffffff59ULL,
                                         0x3fffffffffffff55ULL };

std::uint64_t
Modulo(__int128 value, std::uint64_t p)
{
  __int128 r = value % static_cast<__int128>(p);
  if (r < 0)
  {
    r += p;
  }
  return static_cast<std::uint64_t>(r);
}

std::uint64_t
MulMod(std::uint64_t a, std::uint64_t b, std::uint64_t p)
{
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) % p);
}

std::uint64_t
SubMod(std::uint64_t a, std::uint64_t b, std::uint64_t p)
{
  return a >= b ? a - b : a + (p - b);
}

/** The rank of M, exactly. M is positive semi-definite, so its rank is at
 *  least 2 iff some 2x2 principal minor is non-zero (a PSD matrix whose 2x2
 *  principal minors all vanish is v v^T), and 3 iff its determinant is non-zero. */
int
ExactRank(const Scatter m, int dimension)
{
  bool anyDiagonal = false;
  for (int i = 0; i < dimension; ++i)
  {
    anyDiagonal = anyDiagonal || m[i][i] != 0;
  }
  if (!anyDiagonal)
  {
    return 0;
  }
  bool anyMinor = false; // some 2x2 principal minor is non-zero
  bool determinant = false;
  for (const std::uint64_t p : RankPrimes)
  {
    std::uint64_t r[3][3];
    for (int i = 0; i < dimension; ++i)
    {
      for (int j = 0; j < dimension; ++j)
      {
        r[i][j] = Modulo(m[i][j], p);
      }
    }
    for (int i = 0; i < dimension; ++i)
    {
      for (int j = i + 1; j < dimension; ++j)
      {
        anyMinor = anyMinor || SubMod(MulMod(r[i][i], r[j][j], p), MulMod(r[i][j], r[i][j], p), p) != 0;
      }
    }
    if (dimension == 3)
    {
      const std::uint64_t c0 = SubMod(MulMod(r[1][1], r[2][2], p), MulMod(r[1][2], r[2][1], p), p);
      const std::uint64_t c1 = SubMod(MulMod(r[1][0], r[2][2], p), MulMod(r[1][2], r[2][0], p), p);
      const std::uint64_t c2 = SubMod(MulMod(r[1][0], r[2][1], p), MulMod(r[1][1], r[2][0], p), p);
      const std::uint64_t det =
        (SubMod(MulMod(r[0][0], c0, p), MulMod(r[0][1], c1, p), p) + MulMod(r[0][2], c2, p)) % p;
      determinant = determinant || det != 0;
    }
  }
  if (!anyMinor)
  {
    return 1;
  }
  return dimension == 3 && !determinant ? 2 : dimension;
}

// ---- geometry ----------------------------------------------------------------

/** A = direction x diag(spacing): index offsets to physical vectors. */
struct IndexToPhysical
{
  int    dimension;
  double a[3][3];
  double origin[3];

  explicit IndexToPhysical(const ImageGeometry & g)
    : dimension(g.dimension)
  {
    for (int i = 0; i < 3; ++i)
    {
      origin[i] = g.origin[i];
      for (int j = 0; j < 3; ++j)
      {
        a[i][j] = g.direction[i][j] * g.spacing[j];
      }
    }
  }

  /** origin + A index, as ITK's TransformContinuousIndexToPhysicalPoint. */
  void
  Point(const double index[3], double point[3]) const
  {
    for (int i = 0; i < dimension; ++i)
    {
      double sum = 0;
      for (int j = 0; j < dimension; ++j)
      {
        sum += a[i][j] * index[j];
      }
      point[i] = origin[i] + sum;
    }
  }
};

/** The volume of the unit ball in `dimension` dimensions (2 or 3). */
double
UnitBallVolume(int dimension)
{
  return dimension == 2 ? Pi : 4.0 * Pi / 3.0;
}

/** ITK's Math::NotAlmostEquals(x, 0.0): more than a tenth of epsilon from 0. */
bool
NotAlmostZero(double x)
{
  return std::fabs(x) > 0.1 * std::numeric_limits<double>::epsilon();
}

/** ShapeLabelMapFilter's perimeter from the intercept counts (its 2D and 3D forms). */
double
Perimeter(const ComponentFeatures & f, const ImageGeometry & g)
{
  auto count = [&f](bool x, bool y, bool z) { return static_cast<double>(f.interceptCounts[InterceptSlot(x, y, z)]); };
  const double dx = g.spacing[0];
  const double dy = g.spacing[1];
  if (g.dimension == 2)
  {
    double perimeter = 0.0;
    perimeter += dy * count(true, false, false) / 2.0;
    perimeter += dx * count(false, true, false) / 2.0;
    perimeter += dx * dy / std::sqrt(dx * dx + dy * dy) * count(true, true, false) / 2.0;
    return perimeter * Pi / 4.0;
  }
  const double dz = g.spacing[2];
  const double volume = dx * dy * dz;
  // Voronoi areas of the 13 direction classes on the unit sphere (ITK's constants).
  const double axis = 0.04577789120476 * 2;
  const double faceDiagonal = 0.03698062787608 * 2;
  const double cubeDiagonal = 0.03519563978232 * 2;
  double       perimeter = 0.0;
  perimeter += volume / dx * count(true, false, false) / 2.0 * axis;
  perimeter += volume / dy * count(false, true, false) / 2.0 * axis;
  perimeter += volume / dz * count(false, false, true) / 2.0 * axis;
  perimeter += volume / std::sqrt(dx * dx + dy * dy) * count(true, true, false) / 2.0 * faceDiagonal;
  perimeter += volume / std::sqrt(dx * dx + dz * dz) * count(true, false, true) / 2.0 * faceDiagonal;
  perimeter += volume / std::sqrt(dy * dy + dz * dz) * count(false, true, true) / 2.0 * faceDiagonal;
  perimeter += volume / std::sqrt(dx * dx + dy * dy + dz * dz) * count(true, true, true) / 2.0 * cubeDiagonal;
  return perimeter * 4;
}

/** ShapeLabelMapFilter's oriented bounding box: the run end points projected
 *  on the principal axes, widened by the projected pixel corners. */
void
OrientedBoundingBox(const Run *             runs,
                    std::int64_t            runCount,
                    const ImageGeometry &   g,
                    const IndexToPhysical & map,
                    ShapeAttributes &       s)
{
  const int d = g.dimension;
  double    minimum[3];
  double    maximum[3];
  for (int i = 0; i < 3; ++i)
  {
    minimum[i] = std::numeric_limits<double>::max();
    maximum[i] = std::numeric_limits<double>::lowest();
  }
  auto include = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    const double index[3] = { static_cast<double>(g.regionIndex[0] + x),
                              static_cast<double>(g.regionIndex[1] + y),
                              static_cast<double>(g.regionIndex[2] + z) };
    double       point[3];
    map.Point(index, point);
    for (int i = 0; i < d; ++i)
    {
      double projected = 0;
      for (int j = 0; j < d; ++j)
      {
        projected += s.principalAxes[i][j] * (point[j] - s.centroid[j]);
      }
      minimum[i] = std::min(minimum[i], projected);
      maximum[i] = std::max(maximum[i], projected);
    }
  };
  for (std::int64_t r = 0; r < runCount; ++r)
  {
    include(runs[r].x, runs[r].y, runs[r].z);
    include(runs[r].x + runs[r].length - 1, runs[r].y, runs[r].z);
  }
  double adjustedMinimum[3];
  double adjustedMaximum[3];
  std::copy(minimum, minimum + 3, adjustedMinimum);
  std::copy(maximum, maximum + 3, adjustedMaximum);
  for (unsigned corner = 0; corner < (1u << d); ++corner)
  {
    double half[3];
    for (int j = 0; j < d; ++j)
    {
      half[j] = (corner & (1u << j)) ? -0.5 * g.spacing[j] : 0.5 * g.spacing[j];
    }
    double physical[3] = {};
    for (int i = 0; i < d; ++i)
    {
      for (int j = 0; j < d; ++j)
      {
        physical[i] += g.direction[i][j] * half[j];
      }
    }
    for (int i = 0; i < d; ++i)
    {
      double offset = 0;
      for (int j = 0; j < d; ++j)
      {
        offset += s.principalAxes[i][j] * physical[j];
      }
      adjustedMinimum[i] = std::min(adjustedMinimum[i], minimum[i] + offset);
      adjustedMaximum[i] = std::max(adjustedMaximum[i], maximum[i] + offset);
    }
  }
  for (int i = 0; i < d; ++i)
  {
    s.orientedBoundingBoxSize[i] = std::fabs(adjustedMaximum[i] - adjustedMinimum[i]);
    double origin = 0;
    for (int j = 0; j < d; ++j)
    {
      origin += s.principalAxes[j][i] * adjustedMinimum[j];
    }
    s.orientedBoundingBoxOrigin[i] = origin + s.centroid[i];
  }
}

/** Principal moments (ascending) and axes (rows, a proper rotation as ITK
 *  makes them) of the physical covariance A K A^T. */
void
PrincipalMomentsAndAxes(const ComponentFeatures & f,
                        const ImageGeometry &     g,
                        const IndexToPhysical &   map,
                        ShapeAttributes &         s)
{
  const int d = g.dimension;
  Scatter   m;
  ExactScatter(f, d, m);
  const long double n2 = static_cast<long double>(f.pixelCount) * static_cast<long double>(f.pixelCount);
  double            k[3][3] = {};
  for (int i = 0; i < d; ++i)
  {
    for (int j = 0; j < d; ++j)
    {
      k[i][j] = static_cast<double>(static_cast<long double>(m[i][j]) / n2);
    }
  }
  double c[3][3] = {};
  for (int i = 0; i < d; ++i)
  {
    for (int j = 0; j <= i; ++j)
    {
      double value = 0;
      for (int a = 0; a < d; ++a)
      {
        for (int b = 0; b < d; ++b)
        {
          value += map.a[i][a] * k[a][b] * map.a[j][b];
        }
      }
      c[i][j] = value;
      c[j][i] = value;
    }
  }
  double values[3] = {};
  double vectors[3][3] = {};
  PrincipalMomentsAndRotation(d, c, "a component's moments", values, vectors);
  // Eigenvalues that are exactly 0 (a degenerate component) come out of the
  // floating-point solver as noise: set them to the exact value.
  const int rank = ExactRank(m, d);
  for (int i = 0; i < d - rank; ++i)
  {
    values[i] = 0.0;
  }
  for (int i = 0; i < d; ++i)
  {
    s.principalMoments[i] = values[i];
    for (int j = 0; j < d; ++j)
    {
      s.principalAxes[i][j] = vectors[i][j];
    }
  }
}

} // namespace

void
ComputeShapeAttributes(const ComponentFeatures &     f,
                       const Run *                   runs,
                       std::int64_t                  runCount,
                       const ImageGeometry &         g,
                       const ShapeAttributeOptions & options,
                       ShapeAttributes &             s)
{
  if (g.dimension != 2 && g.dimension != 3)
  {
    throw Error(Error::Kind::InvalidInput, "the geometry's dimension must be 2 or 3");
  }
  if (f.pixelCount <= 0)
  {
    throw Error(Error::Kind::InvalidInput, "a component without pixels has no shape attributes");
  }
  const int             d = g.dimension;
  const IndexToPhysical map(g);
  const double          n = static_cast<double>(f.pixelCount);
  const double          nan = std::numeric_limits<double>::quiet_NaN();
  double                sizePerPixel = 1;
  for (int i = 0; i < d; ++i)
  {
    sizePerPixel *= g.spacing[i];
  }
  s = ShapeAttributes{};
  s.numberOfPixels = f.pixelCount;
  s.physicalSize = n * sizePerPixel;
  double centroidIndex[3] = {};
  for (int i = 0; i < d; ++i)
  {
    s.boundingBoxIndex[i] = g.regionIndex[i] + f.boundingBoxMin[i];
    s.boundingBoxSize[i] = static_cast<std::int64_t>(f.boundingBoxMax[i]) - f.boundingBoxMin[i] + 1;
    const __int128 sum =
      static_cast<__int128>(f.coordinateSum[i]) + static_cast<__int128>(f.pixelCount) * g.regionIndex[i];
    centroidIndex[i] = static_cast<double>(static_cast<long double>(sum) / static_cast<long double>(f.pixelCount));
  }
  map.Point(centroidIndex, s.centroid);
  s.numberOfPixelsOnBorder = f.pixelsOnBorder;
  for (int i = 0; i < d; ++i)
  {
    s.perimeterOnBorder +=
      sizePerPixel / g.spacing[i] * static_cast<double>(f.pixelsOnFace[2 * i] + f.pixelsOnFace[2 * i + 1]);
  }

  PrincipalMomentsAndAxes(f, g, map, s);
  const double * pm = s.principalMoments;
  if (NotAlmostZero(pm[0]))
  {
    const double ratio = pm[1] / pm[0];
    s.flatness = ratio > 0.0 ? std::sqrt(ratio) : 0.0;
  }
  if (NotAlmostZero(pm[d - 2]))
  {
    const double ratio = pm[d - 1] / pm[d - 2];
    s.elongation = ratio > 0.0 ? std::sqrt(ratio) : 0.0;
  }

  // ITK's GeometryUtilities: the ball of the same volume, and its surface.
  s.equivalentSphericalRadius = std::pow(s.physicalSize / UnitBallVolume(d), 1.0 / d);
  s.equivalentSphericalPerimeter =
    d * UnitBallVolume(d) * std::pow(s.equivalentSphericalRadius, d) / s.equivalentSphericalRadius;
  double meanMoment = 1.0;
  for (int i = 0; i < d; ++i)
  {
    meanMoment *= pm[i];
  }
  meanMoment = std::pow(meanMoment, 1.0 / d);
  for (int i = 0; i < d; ++i)
  {
    s.equivalentEllipsoidDiameter[i] = 0.0;
    if (meanMoment != 0.0 && pm[i] / meanMoment > 0.0)
    {
      s.equivalentEllipsoidDiameter[i] = 2.0 * s.equivalentSphericalRadius * std::sqrt(pm[i] / meanMoment);
    }
  }

  if (options.perimeter)
  {
    s.perimeter = Perimeter(f, g);
    s.roundness = s.equivalentSphericalPerimeter / s.perimeter;
    s.perimeterOnBorderRatio = s.perimeterOnBorder / s.perimeter;
  }
  else
  {
    s.perimeter = s.roundness = s.perimeterOnBorderRatio = nan;
  }
  if ((options.feretDiameter || options.orientedBoundingBox) && (runs == nullptr || runCount <= 0))
  {
    throw Error(Error::Kind::InvalidInput, "the Feret diameter and the oriented bounding box need the runs");
  }
  if (options.feretDiameter)
  {
    const double spacing[3] = { g.spacing[0], g.spacing[1], d == 3 ? g.spacing[2] : 1.0 };
    s.feretDiameter = FeretDiameter(runs, runCount, spacing);
  }
  else
  {
    s.feretDiameter = nan;
  }
  if (options.orientedBoundingBox)
  {
    OrientedBoundingBox(runs, runCount, g, map, s);
  }
  else
  {
    for (int i = 0; i < 3; ++i)
    {
      s.orientedBoundingBoxOrigin[i] = s.orientedBoundingBoxSize[i] = nan;
    }
  }
}

void
ComputeShapeAttributes(const Result &                result,
                       const ImageGeometry &         geometry,
                       const ShapeAttributeOptions & options,
                       const ShapeAttributeSink &    sink,
                       int                           threads)
{
  const std::int64_t count = result.componentCount;
  const bool         needRuns = options.feretDiameter || options.orientedBoundingBox;
  if (needRuns && static_cast<std::int64_t>(result.runOffsets.size()) != count + 1)
  {
    throw Error(Error::Kind::InvalidInput,
                "the Feret diameter and the oriented bounding box need the runs (Options::computeRuns)");
  }
  const std::int64_t perThread = 4096; // small tables are not worth a thread
  const int          workers =
    static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(HostThreads(threads), count / perThread)));
  ParallelForChunks(workers, [&](int part) {
    const std::int64_t begin = count * part / workers;
    const std::int64_t end = count * (part + 1) / workers;
    ShapeAttributes    attributes;
    for (std::int64_t l = begin; l < end; ++l)
    {
      const Run *  runs = nullptr;
      std::int64_t runCount = 0;
      if (needRuns)
      {
        runs = result.runs.data() + result.runOffsets[l];
        runCount = result.runOffsets[l + 1] - result.runOffsets[l];
      }
      ComputeShapeAttributes(result.features[l], runs, runCount, geometry, options, attributes);
      sink(l, attributes);
    }
  });
}

void
ComputeShapeAttributes(const Result &                 result,
                       const ImageGeometry &          geometry,
                       const ShapeAttributeOptions &  options,
                       std::vector<ShapeAttributes> & attributes,
                       int                            threads)
{
  attributes.resize(static_cast<std::size_t>(std::max<std::int64_t>(0, result.componentCount)));
  ComputeShapeAttributes(
    result,
    geometry,
    options,
    [&attributes](std::int64_t index, const ShapeAttributes & a) { attributes[static_cast<std::size_t>(index)] = a; },
    threads);
}

} // namespace cca
