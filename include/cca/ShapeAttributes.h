// ITK's shape attributes of each component, computed from the engine's exact
// integer features without ITK, for front ends that have no ITK (Python).
#ifndef cca_ShapeAttributes_h
#define cca_ShapeAttributes_h

#include "cca/Types.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace cca
{

/** Where the image lies in physical space, as ITK describes an image. Only
 *  the first `dimension` entries of each array are used. */
struct ImageGeometry
{
  int          dimension = 2;
  double       spacing[3] = { 1, 1, 1 };
  double       origin[3] = { 0, 0, 0 };
  double       direction[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }; ///< [row][column], ITK's Direction
  std::int64_t regionIndex[3] = { 0, 0, 0 }; ///< ITK index of the buffer's first pixel (buffered region index)
};

/** The optional attributes; off ones are NaN. As ITK's ShapeLabelMapFilter:
 *  perimeter on, the other two off by default. */
struct ShapeAttributeOptions
{
  bool perimeter = true;            ///< perimeter, roundness, perimeterOnBorderRatio
  bool feretDiameter = false;       ///< needs the component's runs
  bool orientedBoundingBox = false; ///< needs the component's runs
};

/** One component's attributes, named and defined as ITK's ShapeLabelObject's.
 *  Vectors are in ITK's axis order (x, y, z); 2D uses the first two entries
 *  (the third is 0). Physical quantities use spacing, origin and direction. */
struct ShapeAttributes
{
  std::int64_t numberOfPixels = 0;
  double       physicalSize = 0;
  double       centroid[3] = {};         ///< physical point
  std::int64_t boundingBoxIndex[3] = {}; ///< ITK index of the first corner (region index added)
  std::int64_t boundingBoxSize[3] = {};  ///< pixels along x, y, z
  std::int64_t numberOfPixelsOnBorder = 0;
  double       perimeterOnBorder = 0;
  double       perimeter = 0;
  double       roundness = 0;
  double       perimeterOnBorderRatio = 0;
  double       principalMoments[3] = {}; ///< ascending
  double       principalAxes[3][3] = {}; ///< row i: the unit axis of principalMoments[i]; a proper rotation
  double       elongation = 0;
  double       flatness = 0;
  double       equivalentSphericalRadius = 0;
  double       equivalentSphericalPerimeter = 0;
  double       equivalentEllipsoidDiameter[3] = {};
  double       feretDiameter = 0;
  double       orientedBoundingBoxOrigin[3] = {}; ///< physical point of the box corner at the minima along the axes
  double       orientedBoundingBoxSize[3] = {};   ///< extents along principalAxes rows
};

/** Computes the attributes of one component with ITK 5.2-5.4's formulas
 *  (ShapeLabelMapFilter), with two differences that come from exactness:
 *  - the second moments are the exact integer covariance of the pixel
 *    indices, mapped once to physical space (A K A^T, A = direction x
 *    diag(spacing)); ITK sums p p^T over physical points in double and
 *    subtracts c c^T, which leaves rounding noise (~1e-16 of the squared
 *    coordinates) where a moment is 0;
 *  - the exact rank of that covariance is known from the integers, so the
 *    principal moments of a degenerate component (one pixel, a line, a plane)
 *    are exactly 0, and Elongation, Flatness and EquivalentEllipsoidDiameter
 *    follow ITK's rule for a zero denominator (0) where ITK divides by noise.
 *  runs: the component's runs in raster order (needed for the Feret diameter
 *  and the oriented bounding box, may be null otherwise). */
void
ComputeShapeAttributes(const ComponentFeatures &     features,
                       const Run *                   runs,
                       std::int64_t                  runCount,
                       const ImageGeometry &         geometry,
                       const ShapeAttributeOptions & options,
                       ShapeAttributes &             attributes);

/** Receives the attributes of component `index` (label index + 1) on a
 *  worker thread; each index once, in no particular order across threads. */
using ShapeAttributeSink = std::function<void(std::int64_t index, const ShapeAttributes & attributes)>;

/** The attributes of every component of result over `threads` threads (0: all
 *  hardware threads), each handed to sink as it is computed, so that callers
 *  store them as they need (the Python package writes table columns) without
 *  an array of all rows first. result must hold runs when the options need
 *  them. Throws cca::Error. */
void
ComputeShapeAttributes(const Result &                result,
                       const ImageGeometry &         geometry,
                       const ShapeAttributeOptions & options,
                       const ShapeAttributeSink &    sink,
                       int                           threads = 0);

/** The same into a vector in label order (label L is attributes[L - 1]). */
void
ComputeShapeAttributes(const Result &                 result,
                       const ImageGeometry &          geometry,
                       const ShapeAttributeOptions &  options,
                       std::vector<ShapeAttributes> & attributes,
                       int                            threads = 0);

} // namespace cca

#endif
