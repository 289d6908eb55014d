// The Feret diameter of one component, computed from its run-length lines
// (host side).
#ifndef cca_FeretDiameter_h
#define cca_FeretDiameter_h

#include "cca/Types.h"

#include <cstdint>

namespace cca
{

/** The largest distance between the centres of two pixels of a component,
 *  with each axis scaled by spacing: ITK's FeretDiameter. The farthest pair
 *  lies on the convex hull, whose vertices are first or last pixels of rows,
 *  so only those are compared (per-slice 2D hulls), not all border pixels.
 *  runs: the component's runs in raster order. */
double
FeretDiameter(const Run * runs, std::int64_t runCount, const double spacing[3]);

} // namespace cca

#endif
