// Householder tridiagonalization and implicit QL for n <= 3. Arrays are
// indexed from 1, as in the published algorithm, so that each step reads as
// its description; z[j][i] is row j, column i.
#include "cca/SymmetricEigen.h"

#include "cca/Types.h"

#include <cmath>
#include <string>

namespace cca
{
namespace
{

constexpr int MaxN = 3;
using Square = double[MaxN + 1][MaxN + 1];
using Vector = double[MaxN + 1];

/** |a| with the sign of b (Fortran's SIGN). */
double
WithSignOf(double a, double b)
{
  return b >= 0.0 ? std::fabs(a) : -std::fabs(a);
}

/** Reduces the symmetric matrix (lower triangle of a) to tridiagonal form by
 *  orthogonal similarity transformations: diagonal d, sub-diagonal e[2..n]
 *  (e[1] = 0), and the accumulated transformation in z. */
void
Tridiagonalize(int n, const double a[3][3], Vector d, Vector e, Square z)
{
  for (int i = 1; i <= n; ++i)
  {
    for (int j = i; j <= n; ++j)
    {
      z[j][i] = a[j - 1][i - 1];
    }
    d[i] = a[n - 1][i - 1];
  }
  for (int i = n; i >= 2; --i)
  {
    const int l = i - 1;
    double    h = 0.0;
    double    scale = 0.0;
    if (l >= 2)
    {
      for (int k = 1; k <= l; ++k)
      {
        scale += std::fabs(d[k]);
      }
    }
    if (scale == 0.0)
    {
      // Nothing to annihilate in this row (always so for the last step).
      e[i] = d[l];
      for (int j = 1; j <= l; ++j)
      {
        d[j] = z[l][j];
        z[i][j] = 0.0;
        z[j][i] = 0.0;
      }
    }
    else
    {
      // The Householder vector u of row i, scaled to avoid under/overflow.
      for (int k = 1; k <= l; ++k)
      {
        d[k] /= scale;
        h += d[k] * d[k];
      }
      double f = d[l];
      double g = -WithSignOf(std::sqrt(h), f);
      e[i] = scale * g;
      h -= f * g;
      d[l] = f - g;
      // p = A u / h in e.
      for (int j = 1; j <= l; ++j)
      {
        e[j] = 0.0;
      }
      for (int j = 1; j <= l; ++j)
      {
        f = d[j];
        z[j][i] = f;
        g = e[j] + z[j][j] * f;
        for (int k = j + 1; k <= l; ++k)
        {
          g += z[k][j] * d[k];
          e[k] += z[k][j] * f;
        }
        e[j] = g;
      }
      f = 0.0;
      for (int j = 1; j <= l; ++j)
      {
        e[j] /= h;
        f += e[j] * d[j];
      }
      // q = p - K u, then A - q u^T - u q^T.
      const double hh = f / (h + h);
      for (int j = 1; j <= l; ++j)
      {
        e[j] -= hh * d[j];
      }
      for (int j = 1; j <= l; ++j)
      {
        f = d[j];
        g = e[j];
        for (int k = j; k <= l; ++k)
        {
          z[k][j] = z[k][j] - f * e[k] - g * d[k];
        }
        d[j] = z[l][j];
        z[i][j] = 0.0;
      }
    }
    d[i] = h;
  }
  // Accumulate the transformations.
  for (int i = 2; i <= n; ++i)
  {
    const int l = i - 1;
    z[n][l] = z[l][l];
    z[l][l] = 1.0;
    const double h = d[i];
    if (h != 0.0)
    {
      for (int k = 1; k <= l; ++k)
      {
        d[k] = z[k][i] / h;
      }
      for (int j = 1; j <= l; ++j)
      {
        double g = 0.0;
        for (int k = 1; k <= l; ++k)
        {
          g += z[k][i] * z[k][j];
        }
        for (int k = 1; k <= l; ++k)
        {
          z[k][j] -= g * d[k];
        }
      }
    }
    for (int k = 1; k <= l; ++k)
    {
      z[k][i] = 0.0;
    }
  }
  for (int i = 1; i <= n; ++i)
  {
    d[i] = z[n][i];
    z[n][i] = 0.0;
  }
  z[n][n] = 1.0;
  e[1] = 0.0;
}

/** Diagonalizes the tridiagonal matrix (d, e) by implicit QL sweeps with
 *  Wilkinson-like shifts, applying the rotations to z; then sorts the
 *  eigenvalues ascending with their vectors (columns of z). */
bool
DiagonalizeTridiagonal(int n, Vector d, Vector e, Square z)
{
  for (int i = 2; i <= n; ++i)
  {
    e[i - 1] = e[i];
  }
  e[n] = 0.0;
  double f = 0.0;
  double norm = 0.0; // a running bound: e[m] is negligible when norm + |e[m]| == norm
  for (int l = 1; l <= n; ++l)
  {
    int sweeps = 0;
    norm = std::fmax(norm, std::fabs(d[l]) + std::fabs(e[l]));
    int m = l;
    while (m <= n && norm + std::fabs(e[m]) != norm)
    {
      ++m; // e[n] is 0, so the loop ends by m = n at the latest
    }
    if (m > n)
    {
      m = n;
    }
    if (m != l)
    {
      do
      {
        if (++sweeps > 30)
        {
          return false;
        }
        // The shift: the eigenvalue of the leading 2x2 block nearer d[l].
        const int l1 = l + 1;
        const int l2 = l1 + 1;
        double    g = d[l];
        double    p = (d[l1] - g) / (2.0 * e[l]);
        double    r = std::hypot(p, 1.0);
        d[l] = e[l] / (p + WithSignOf(r, p));
        d[l1] = e[l] * (p + WithSignOf(r, p));
        const double dl1 = d[l1];
        double       h = g - d[l];
        for (int i = l2; i <= n; ++i)
        {
          d[i] -= h;
        }
        f += h;
        // One QL sweep of plane rotations from m - 1 up to l.
        p = d[m];
        double       c = 1.0;
        double       c2 = c;
        double       c3 = c;
        const double el1 = e[l1];
        double       s = 0.0;
        double       s2 = 0.0;
        for (int i = m - 1; i >= l; --i)
        {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = std::hypot(p, e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          for (int k = 1; k <= n; ++k)
          {
            h = z[k][i + 1];
            z[k][i + 1] = s * z[k][i] + c * h;
            z[k][i] = c * z[k][i] - s * h;
          }
        }
        p = -s * s2 * c3 * el1 * e[l] / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (norm + std::fabs(e[l]) > norm);
    }
    d[l] += f;
    e[l] = 0.0;
  }
  // Selection sort, ascending, moving the vectors along.
  for (int i = 1; i < n; ++i)
  {
    int    k = i;
    double p = d[i];
    for (int j = i + 1; j <= n; ++j)
    {
      if (d[j] < p)
      {
        k = j;
        p = d[j];
      }
    }
    if (k != i)
    {
      d[k] = d[i];
      d[i] = p;
      for (int j = 1; j <= n; ++j)
      {
        const double t = z[j][i];
        z[j][i] = z[j][k];
        z[j][k] = t;
      }
    }
  }
  return true;
}

} // namespace

bool
SymmetricEigenDecomposition(int n, const double a[3][3], double values[3], double vectors[3][3])
{
  Square z = {};
  Vector d = {};
  Vector e = {};
  Tridiagonalize(n, a, d, e, z);
  const bool converged = n == 1 || DiagonalizeTridiagonal(n, d, e, z);
  for (int i = 0; i < n; ++i)
  {
    values[i] = d[i + 1];
    for (int k = 0; k < n; ++k)
    {
      vectors[i][k] = z[k + 1][i + 1]; // column i of z is eigenvector i
    }
  }
  return converged;
}

void
PrincipalMomentsAndRotation(int n, const double a[3][3], const char * what, double moments[3], double axes[3][3])
{
  if (!SymmetricEigenDecomposition(n, a, moments, axes))
  {
    throw Error(Error::Kind::InvalidInput,
                std::string("the eigen decomposition of ") + what +
                  " did not converge (non-finite spacing or direction?)");
  }
  const double determinant = n == 2 ? axes[0][0] * axes[1][1] - axes[0][1] * axes[1][0]
                                    : axes[0][0] * (axes[1][1] * axes[2][2] - axes[1][2] * axes[2][1]) -
                                        axes[0][1] * (axes[1][0] * axes[2][2] - axes[1][2] * axes[2][0]) +
                                        axes[0][2] * (axes[1][0] * axes[2][1] - axes[1][1] * axes[2][0]);
  for (int j = 0; j < n; ++j)
  {
    axes[n - 1][j] *= determinant;
  }
}

} // namespace cca
