// Exact first and second moments of a component from its integer features.
// The products n * sum(x y) and sum(x) * sum(y) need up to 127 bits; they are
// formed exactly here (portable code, no compiler-specific 128-bit type in
// any header) and rounded once, so callers get the covariance without the
// cancellation of a floating-point sum.
#ifndef cca_ExactMoments_h
#define cca_ExactMoments_h

#include "cca/Types.h"

namespace cca
{

/** Index-space covariance of the component's pixel coordinates (buffer
 *  coordinates; a translation does not change it):
 *  covariance[i][j] = (n * sum(x_i x_j) - sum(x_i) sum(x_j)) / n^2, exact
 *  up to one rounding. Axes i, j < dimension; the rest is left untouched. */
void
IndexCovariance(const ComponentFeatures & features, int dimension, double covariance[3][3]);

/** Mean coordinate along axis (0 = x) plus offset: (sum + n * offset) / n,
 *  with the sum formed exactly and rounded once. */
double
CentroidCoordinate(const ComponentFeatures & features, int axis, std::int64_t offset);

} // namespace cca

#endif
