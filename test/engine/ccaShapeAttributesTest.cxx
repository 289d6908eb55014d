// cca::SymmetricEigenDecomposition and cca::ComputeShapeAttributes without
// ITK: eigen pairs checked by A v = lambda v on random matrices (fixed seed),
// ITK 5.2.1's golden perimeters and moments, exact zero moments of
// degenerate components. (The Python tests compare every attribute with
// SimpleITK and itk.)
#include "cca/Engine.h"
#include "cca/ShapeAttributes.h"
#include "cca/SymmetricEigen.h"

#include <cmath>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace
{

int g_Failures = 0;

void
Expect(bool ok, const std::string & what)
{
  if (!ok)
  {
    ++g_Failures;
    std::cerr << "FAIL " << what << "\n";
  }
}

void
EigenPairs()
{
  std::mt19937_64                        rng(20261122);
  std::uniform_real_distribution<double> uniform(-10.0, 10.0);
  for (int trial = 0; trial < 2000; ++trial)
  {
    const int n = 2 + trial % 2;
    double    a[3][3] = {};
    for (int i = 0; i < n; ++i)
    {
      for (int j = 0; j <= i; ++j)
      {
        // Every fifth matrix has zero off-diagonals or repeated entries.
        const double v = (trial % 5 == 0 && i != j) ? 0.0 : uniform(rng);
        a[i][j] = a[j][i] = v;
      }
    }
    double            values[3];
    double            vectors[3][3];
    const std::string what = "eigen pairs, trial " + std::to_string(trial) + " (seed 20261122)";
    Expect(cca::SymmetricEigenDecomposition(n, a, values, vectors), what + ": converged");
    double scale = 0;
    for (int i = 0; i < n; ++i)
    {
      scale = std::fmax(scale, std::fabs(values[i]));
    }
    for (int k = 0; k < n; ++k)
    {
      if (k > 0)
      {
        Expect(values[k - 1] <= values[k], what + ": ascending");
      }
      for (int i = 0; i < n; ++i)
      {
        double av = 0;
        for (int j = 0; j < n; ++j)
        {
          av += a[i][j] * vectors[k][j];
        }
        Expect(std::fabs(av - values[k] * vectors[k][i]) <= 1e-12 * (scale + 1), what + ": A v = lambda v");
      }
      for (int l = 0; l < n; ++l)
      {
        double dot = 0;
        for (int j = 0; j < n; ++j)
        {
          dot += vectors[k][j] * vectors[l][j];
        }
        Expect(std::fabs(dot - (k == l ? 1.0 : 0.0)) <= 1e-13, what + ": orthonormal");
      }
    }
  }
}

/** The attributes of the single component of a dense 0/1 mask. */
cca::ShapeAttributes
Single(const std::vector<std::uint8_t> & mask,
       int                               dimension,
       const std::int64_t                size[3],
       const cca::ImageGeometry &        geometry)
{
  cca::ImageView view;
  view.data = mask.data();
  view.dimension = dimension;
  for (int i = 0; i < 3; ++i)
  {
    view.size[i] = size[i];
  }
  cca::Options options;
  options.backend = cca::Backend::Cpu;
  cca::Engine       engine;
  const cca::Result result = engine.Run(view, options);
  Expect(result.componentCount == 1, "one component");
  std::vector<cca::ShapeAttributes> attributes;
  cca::ComputeShapeAttributes(result, geometry, cca::ShapeAttributeOptions{}, attributes);
  return attributes.at(0);
}

void
GoldenValues()
{
  // ITK 5.2.1 on Debian, spacing 1 (shared notes).
  cca::ImageGeometry g2;
  g2.dimension = 2;
  cca::ImageGeometry g3;
  g3.dimension = 3;
  const std::int64_t one[3] = { 1, 1, 1 };
  Expect(std::fabs(Single({ 1 }, 2, one, g2).perimeter - 2.681517) < 5e-7, "perimeter of one 2D pixel");
  Expect(std::fabs(Single({ 1 }, 3, one, g3).perimeter - 3.004080) < 5e-7, "perimeter of one 3D voxel");
  const std::int64_t square[3] = { 3, 3, 1 };
  const auto         s = Single(std::vector<std::uint8_t>(9, 1), 2, square, g2);
  Expect(std::fabs(s.perimeter - 10.265993) < 5e-7, "perimeter of a 3x3 square");
  Expect(std::fabs(s.principalMoments[0] - 2.0 / 3.0) < 1e-15, "principal moment of a 3x3 square");
  const std::int64_t cube[3] = { 3, 3, 3 };
  Expect(std::fabs(Single(std::vector<std::uint8_t>(27, 1), 3, cube, g3).perimeter - 41.070175) < 5e-7,
         "perimeter of a 3x3x3 cube");
}

void
DegenerateComponents()
{
  // A line along x in a rotated, anisotropic 3D image: two moments exactly 0.
  cca::ImageGeometry g;
  g.dimension = 3;
  g.spacing[0] = 0.37;
  g.spacing[1] = 1.9;
  g.spacing[2] = 0.61;
  const double c = std::cos(0.3);
  const double s = std::sin(0.3);
  const double direction[3][3] = { { c, -s, 0 }, { s * c, c * c, -s }, { s * s, s * c, c } };
  for (int i = 0; i < 3; ++i)
  {
    for (int j = 0; j < 3; ++j)
    {
      g.direction[i][j] = direction[i][j];
    }
  }
  const std::int64_t size[3] = { 30, 1, 1 };
  const auto         line = Single(std::vector<std::uint8_t>(30, 1), 3, size, g);
  Expect(line.principalMoments[0] == 0.0 && line.principalMoments[1] == 0.0, "a line's two zero moments");
  Expect(std::fabs(line.principalMoments[2] - 0.37 * 0.37 * (30.0 * 30.0 - 1.0) / 12.0) < 1e-12,
         "a line's moment along it");
  Expect(line.elongation == 0.0 && line.flatness == 0.0, "a line's elongation and flatness (ITK's zero rule)");
  // A diagonal 2D line (full connectivity): its small moment is exactly 0 too.
  std::vector<std::uint8_t> diagonal(16 * 16, 0);
  for (int k = 0; k < 16; ++k)
  {
    diagonal[k * 16 + k] = 1;
  }
  cca::ImageView view;
  view.data = diagonal.data();
  view.dimension = 2;
  view.size[0] = 16;
  view.size[1] = 16;
  cca::Options options;
  options.backend = cca::Backend::Cpu;
  options.connectivity = cca::Connectivity::Full;
  cca::Engine        engine;
  const cca::Result  result = engine.Run(view, options);
  cca::ImageGeometry g2;
  g2.dimension = 2;
  g2.spacing[0] = 0.3;
  g2.spacing[1] = 0.7;
  cca::ShapeAttributes attributes;
  cca::ComputeShapeAttributes(result.features.at(0), nullptr, 0, g2, cca::ShapeAttributeOptions{}, attributes);
  Expect(attributes.principalMoments[0] == 0.0 && attributes.principalMoments[1] > 0, "a diagonal line's moments");
}

} // namespace

int
main()
{
  EigenPairs();
  GoldenValues();
  DegenerateComponents();
  std::cout << "shape attributes: " << g_Failures << " failure(s)\n";
  return g_Failures == 0 ? 0 : 1;
}
