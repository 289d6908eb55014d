/*=========================================================================
 *
 *  Licensed under the Apache License, Version 2.0 (the "License");
 *  you may not use this file except in compliance with the License.
 *  You may obtain a copy of the License at
 *
 *         http://www.apache.org/licenses/LICENSE-2.0.txt
 *
 *  Unless required by applicable law or agreed to in writing, software
 *  distributed under the License is distributed on an "AS IS" BASIS,
 *  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 *  See the License for the specific language governing permissions and
 *  limitations under the License.
 *
 *=========================================================================*/
// Helpers of the ITK tests: images from the shared test masks with a chosen
// geometry, and the attribute-by-attribute comparison of two label maps
// (ours against ITK 5.2.1's BinaryImageToShapeLabelMapFilter).
#ifndef itkCudaLabelStatisticsTestUtilities_h
#define itkCudaLabelStatisticsTestUtilities_h

#include "ccaTestMasks.h"

#include "itkCommand.h"
#include "itkImage.h"
#include "itkImageRegionConstIteratorWithIndex.h"
#include "itkImageRegionIteratorWithIndex.h"
#include "itkMath.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace ccaitktest
{

/** Where an image lies in physical space. */
struct Geometry
{
  std::string name;
  long        index[3];
  double      spacing[3];
  double      origin[3];
  double      direction[3][3]; ///< only the leading D x D block is used
};

inline Geometry
IdentityGeometry()
{
  return { "identity", { 0, 0, 0 }, { 1, 1, 1 }, { 0, 0, 0 }, { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };
}

/** Rotation by angle about a unit axis (Rodrigues); in 2D the leading 2x2
 *  block of a rotation about z. */
inline void
RotationMatrix(double angle, const double axisIn[3], double out[3][3])
{
  const double norm = std::sqrt(axisIn[0] * axisIn[0] + axisIn[1] * axisIn[1] + axisIn[2] * axisIn[2]);
  const double k[3] = { axisIn[0] / norm, axisIn[1] / norm, axisIn[2] / norm };
  const double c = std::cos(angle);
  const double s = std::sin(angle);
  for (int i = 0; i < 3; ++i)
  {
    for (int j = 0; j < 3; ++j)
    {
      out[i][j] = (1 - c) * k[i] * k[j] + (i == j ? c : 0.0);
    }
  }
  out[0][1] -= s * k[2];
  out[0][2] += s * k[1];
  out[1][0] += s * k[2];
  out[1][2] -= s * k[0];
  out[2][0] -= s * k[1];
  out[2][1] += s * k[0];
}

/** The geometries every differential case cycles through: identity; region
 *  index not at zero with anisotropic spacing, a rotated direction and an
 *  origin away from zero; a reflection (determinant -1); an origin far from
 *  the image, where ITK's uncentred moments lose the most digits; a sheared
 *  (non-orthogonal) direction. */
inline std::vector<Geometry>
TestGeometries(unsigned int dimension)
{
  std::vector<Geometry> g;
  g.push_back(IdentityGeometry());

  Geometry     rotated{ "index(5,-3,2) spacing(0.5,1.25,2) origin(10.5,-20.25,3) rotated",
                    { 5, -3, 2 },
                    { 0.5, 1.25, 2.0 },
                    { 10.5, -20.25, 3.0 },
                    {} };
  const double axis2D[3] = { 0, 0, 1 };
  const double axis3D[3] = { 1, 2, 3 };
  RotationMatrix(dimension == 2 ? 0.5235987755982988 : 0.7, dimension == 2 ? axis2D : axis3D, rotated.direction);
  g.push_back(rotated);

  Geometry reflected{ "index(-7,11,-1) spacing(2.5,0.3,1.1) origin(-100,50,7) reflected",
                      { -7, 11, -1 },
                      { 2.5, 0.3, 1.1 },
                      { -100, 50, 7 },
                      { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } } };
  g.push_back(reflected);

  Geometry     far{ "index(0,0,0) spacing(0.9,1.1,1) origin(300,-200,100) rotated",
                { 0, 0, 0 },
                { 0.9, 1.1, 1.0 },
                { 300, -200, 100 },
                {} };
  const double axisFar[3] = { -2, 1, 1 };
  RotationMatrix(-1.1, dimension == 2 ? axis2D : axisFar, far.direction);
  g.push_back(far);

  // ITK accepts any non-singular direction; the perimeter and the Feret
  // diameter then use spacing only, the moments the full index-to-physical map.
  Geometry sheared{ "index(2,0,-4) spacing(1.5,0.7,0.9) origin(-3,8,-1) sheared direction",
                    { 2, 0, -4 },
                    { 1.5, 0.7, 0.9 },
                    { -3, 8, -1 },
                    { { 1, 0.3, 0 }, { 0.2, 0.9, 0.1 }, { 0, 0.4, 1.2 } } };
  g.push_back(sheared);
  return g;
}

/** An image of the mask: foreground pixels hold fg, the others bg. */
template <typename TImage>
typename TImage::Pointer
MakeImage(const ccatest::Mask &      mask,
          const Geometry &           geometry,
          typename TImage::PixelType fg,
          typename TImage::PixelType bg)
{
  constexpr unsigned int D = TImage::ImageDimension;
  using RegionType = typename TImage::RegionType;
  typename RegionType::IndexType index;
  typename RegionType::SizeType  size;
  typename TImage::SpacingType   spacing;
  typename TImage::PointType     origin;
  typename TImage::DirectionType direction;
  for (unsigned int i = 0; i < D; ++i)
  {
    index[i] = geometry.index[i];
    size[i] = static_cast<itk::SizeValueType>(mask.size[i]);
    spacing[i] = geometry.spacing[i];
    origin[i] = geometry.origin[i];
    for (unsigned int j = 0; j < D; ++j)
    {
      direction[i][j] = geometry.direction[i][j];
    }
  }
  auto image = TImage::New();
  image->SetRegions(RegionType(index, size));
  image->SetSpacing(spacing);
  image->SetOrigin(origin);
  image->SetDirection(direction);
  image->Allocate();
  itk::ImageRegionIteratorWithIndex<TImage> it(image, image->GetLargestPossibleRegion());
  for (; !it.IsAtEnd(); ++it)
  {
    const auto   idx = it.GetIndex();
    std::int64_t c[3] = { 0, 0, 0 };
    for (unsigned int i = 0; i < D; ++i)
    {
      c[i] = idx[i] - index[i];
    }
    it.Set(mask.At(c[0], c[1], c[2]) ? fg : bg);
  }
  return image;
}

/** Counts failures; prints the first differences of each case under its name. */
class Checker
{
public:
  void
  Begin(const std::string & context)
  {
    m_Context = context;
    m_CaseFailures = 0;
    ++m_Cases;
  }

  void
  Fail(const std::string & message)
  {
    if (m_CaseFailures == 0)
    {
      ++m_FailedCases;
      std::cerr << "FAIL " << m_Context << "\n";
    }
    if (m_CaseFailures < 10)
    {
      std::cerr << "   " << message << "\n";
    }
    else if (m_CaseFailures == 10)
    {
      std::cerr << "   ... (further differences of this case not shown)\n";
    }
    ++m_CaseFailures;
  }

  template <typename A, typename B>
  void
  Equal(const A & got, const B & expected, const std::string & what)
  {
    if (!(got == expected))
    {
      std::ostringstream s;
      s << what << ": got " << got << ", expected " << expected;
      Fail(s.str());
    }
  }

  /** |got - expected| <= tolerance. */
  void
  Near(double got, double expected, double tolerance, const std::string & what)
  {
    const bool bothNaN = std::isnan(got) && std::isnan(expected);
    const bool bothInf = std::isinf(got) && std::isinf(expected) && (got > 0) == (expected > 0);
    if (!(bothNaN || bothInf || std::abs(got - expected) <= tolerance))
    {
      std::ostringstream s;
      s.precision(17);
      s << what << ": got " << got << ", expected " << expected << " (difference " << got - expected << ", tolerance "
        << tolerance << ")";
      Fail(s.str());
    }
  }

  /** Relative comparison: |got - expected| <= rel * max(|expected|, floor). */
  void
  Relative(double got, double expected, double rel, const std::string & what, double floor = 1e-300)
  {
    Near(got, expected, rel * std::max(std::abs(expected), floor), what);
  }

  int
  FailedCases() const
  {
    return m_FailedCases;
  }
  int
  Cases() const
  {
    return m_Cases;
  }
  bool
  CaseFailed() const
  {
    return m_CaseFailures > 0;
  }

private:
  std::string m_Context;
  int         m_CaseFailures = 0;
  int         m_FailedCases = 0;
  int         m_Cases = 0;
};

/** The largest distance from the physical origin of any pixel centre of the
 *  image: the scale of coordinates, for absolute tolerances. */
template <typename TImage>
double
CoordinateScale(const TImage * image)
{
  constexpr unsigned int D = TImage::ImageDimension;
  const auto             region = image->GetLargestPossibleRegion();
  double                 scale = 0;
  for (unsigned int corner = 0; corner < (1u << D); ++corner)
  {
    typename TImage::IndexType index = region.GetIndex();
    for (unsigned int i = 0; i < D; ++i)
    {
      if (corner & (1u << i))
      {
        index[i] += static_cast<itk::IndexValueType>(region.GetSize(i)) - 1;
      }
    }
    typename TImage::PointType p;
    image->TransformIndexToPhysicalPoint(index, p);
    scale = std::max(scale, p.GetVectorFromOrigin().GetNorm());
  }
  double pixel = 0;
  for (unsigned int i = 0; i < D; ++i)
  {
    pixel = std::max(pixel, image->GetSpacing()[i]);
  }
  return scale + pixel;
}

/** Largest observed error / tolerance ratios, to show how close the
 *  tolerances come to failing (printed at the end of a suite). */
struct Margins
{
  double moments = 0;
  double axes = 0;
  double ratios = 0;
  double others = 0;
  long   objects = 0;
  long   axesSkipped = 0;   ///< axes not compared: eigenvalues not separated
  long   ratiosSkipped = 0; ///< ratio attributes not compared: eigenvalues in the noise
  void
  Print(std::ostream & os) const
  {
    os << "largest error/tolerance: moments " << moments << ", axes " << axes << ", ratio attributes " << ratios
       << ", other attributes " << others << "; " << objects << " objects, " << axesSkipped << " axes and "
       << ratiosSkipped << " ratio attributes not comparable\n";
  }
};

inline void
Track(double & margin, double error, double tolerance)
{
  if (tolerance > 0 && std::isfinite(error))
  {
    margin = std::max(margin, error / tolerance);
  }
}

/** The relative tolerance of every directly computed floating-point attribute. */
constexpr double RelativeTolerance = 1e-9;
/** Worst rounding noise of ITK's moment matrix relative to the uncentred
 *  second moment (it sums p p^T line by line in double, then subtracts
 *  c c^T): the scale of noise used to decide what is comparable. */
constexpr double MomentNoise = 1e-12;

/** Compares every label object of ours with the reference, by label.
 *  ITK quirks handled here (see docs in the test report):
 *  - ITK's second moments are sum(p p^T)/N - c c^T in double, accumulated
 *    line by line: catastrophic cancellation when the object lies far from
 *    the physical origin. Ours are exact (integer sums). Moments are compared
 *    with a tolerance relative to the uncentred magnitude
 *    M2 = mean |p|^2 = trace(C) + |c|^2.
 *  - Principal axes are defined only up to the eigenvalue separation: an
 *    axis is compared only where its eigenvalue is separated from the others
 *    by more than 1e-6 * (M2 + max |lambda|); the tolerance grows as
 *    noise / gap (first-order perturbation of eigenvectors).
 *  - Ratio attributes (Elongation, Flatness, EquivalentEllipsoidDiameter)
 *    are compared only where the eigenvalues they divide by are above the
 *    noise of ITK's moments (1e3 * MomentNoise * M2); OrientedBoundingBox
 *    only where all axes are comparable.
 *  These allowances apply to ExactMoments on (exactMoments = true). With
 *  ExactMoments off the filter forms ITK's sums in ITK's order, so every
 *  moment-derived attribute, noise and axis signs included, must match at
 *  1e-9 relative everywhere (strict). */
template <typename TRefMap, typename TOurMap>
void
CompareLabelMaps(const TRefMap * ref,
                 const TOurMap * ours,
                 double          coordinateScale,
                 Checker &       check,
                 Margins &       margins,
                 bool            exactMoments = false)
{
  const bool             strict = !exactMoments;
  constexpr unsigned int D = TRefMap::ImageDimension;
  check.Equal(ours->GetNumberOfLabelObjects(), ref->GetNumberOfLabelObjects(), "number of label objects");
  check.Equal(static_cast<double>(ours->GetBackgroundValue()),
              static_cast<double>(ref->GetBackgroundValue()),
              "background value");
  check.Equal(ours->GetLargestPossibleRegion(), ref->GetLargestPossibleRegion(), "largest possible region");
  check.Equal(ours->GetSpacing(), ref->GetSpacing(), "spacing");
  check.Equal(ours->GetOrigin(), ref->GetOrigin(), "origin");
  check.Equal(ours->GetDirection(), ref->GetDirection(), "direction");
  if (check.CaseFailed())
  {
    return;
  }
  const double rel = RelativeTolerance;
  for (itk::SizeValueType i = 0; i < ref->GetNumberOfLabelObjects(); ++i)
  {
    const auto *      r = ref->GetNthLabelObject(i);
    const auto        label = r->GetLabel();
    const std::string p = "label " + std::to_string(static_cast<long long>(label)) + " ";
    if (!ours->HasLabel(static_cast<typename TOurMap::LabelType>(label)))
    {
      check.Fail(p + "missing in our label map");
      continue;
    }
    const auto * o = ours->GetLabelObject(static_cast<typename TOurMap::LabelType>(label));

    // Lines, exactly and in order.
    if (o->GetNumberOfLines() != r->GetNumberOfLines())
    {
      check.Fail(p + "number of lines " + std::to_string(o->GetNumberOfLines()) + ", expected " +
                 std::to_string(r->GetNumberOfLines()));
    }
    else
    {
      for (itk::SizeValueType k = 0; k < r->GetNumberOfLines(); ++k)
      {
        const auto & lo = o->GetLine(k);
        const auto & lr = r->GetLine(k);
        if (lo.GetIndex() != lr.GetIndex() || lo.GetLength() != lr.GetLength())
        {
          std::ostringstream s;
          s << p << "line " << k << ": got " << lo.GetIndex() << " length " << lo.GetLength() << ", expected "
            << lr.GetIndex() << " length " << lr.GetLength();
          check.Fail(s.str());
          break;
        }
      }
    }

    // Exact integer attributes.
    check.Equal(o->GetNumberOfPixels(), r->GetNumberOfPixels(), p + "NumberOfPixels");
    check.Equal(o->GetBoundingBox(), r->GetBoundingBox(), p + "BoundingBox");
    check.Equal(o->GetNumberOfPixelsOnBorder(), r->GetNumberOfPixelsOnBorder(), p + "NumberOfPixelsOnBorder");

    // Directly computed floating-point attributes: 1e-9 relative.
    auto scalar = [&](double got, double expected, const char * name, double floor = 1e-300) {
      const double tol = rel * std::max(std::abs(expected), floor);
      Track(margins.others, std::abs(got - expected), tol);
      check.Near(got, expected, tol, p + name);
    };
    scalar(o->GetPhysicalSize(), r->GetPhysicalSize(), "PhysicalSize");
    scalar(o->GetPerimeterOnBorder(), r->GetPerimeterOnBorder(), "PerimeterOnBorder");
    scalar(o->GetFeretDiameter(), r->GetFeretDiameter(), "FeretDiameter");
    scalar(o->GetPerimeter(), r->GetPerimeter(), "Perimeter");
    scalar(o->GetRoundness(), r->GetRoundness(), "Roundness");
    scalar(o->GetEquivalentSphericalRadius(), r->GetEquivalentSphericalRadius(), "EquivalentSphericalRadius");
    scalar(o->GetEquivalentSphericalPerimeter(), r->GetEquivalentSphericalPerimeter(), "EquivalentSphericalPerimeter");
    scalar(o->GetPerimeterOnBorderRatio(), r->GetPerimeterOnBorderRatio(), "PerimeterOnBorderRatio");
    for (unsigned int d = 0; d < D; ++d)
    {
      const double tol = rel * coordinateScale;
      Track(margins.others, std::abs(o->GetCentroid()[d] - r->GetCentroid()[d]), tol);
      check.Near(o->GetCentroid()[d], r->GetCentroid()[d], tol, p + "Centroid[" + std::to_string(d) + "]");
    }

    // Second moments.
    const auto & pmR = r->GetPrincipalMoments();
    const auto & pmO = o->GetPrincipalMoments();
    double       trace = 0;
    double       largest = 0;
    for (unsigned int d = 0; d < D; ++d)
    {
      trace += pmR[d];
      largest = std::max(largest, std::abs(pmR[d]));
    }
    const double m2 = std::abs(trace) + r->GetCentroid().GetVectorFromOrigin().GetSquaredNorm();
    const double noise = MomentNoise * m2;
    if (std::getenv("CCA_TEST_DEBUG"))
    {
      std::cout.precision(17);
      std::cout << p << "pm ours " << pmO << " ref " << pmR << " m2 " << m2 << "\n";
    }
    for (unsigned int d = 0; d < D; ++d)
    {
      const double tol = strict ? rel * std::abs(pmR[d]) + 1e-15 * m2 : rel * (std::abs(pmR[d]) + m2);
      Track(margins.moments, std::abs(pmO[d] - pmR[d]), tol);
      check.Near(pmO[d], pmR[d], tol, p + "PrincipalMoments[" + std::to_string(d) + "]");
    }

    // Principal axes where separated. With exact moments an eigenvector's
    // sign follows rounding (vnl fixes no sign convention; ITK's follows its
    // noise), so there each axis is compared up to its sign.
    bool   allAxesComparable = true;
    double worstAxisTolerance = 0;
    double axisSign[D];
    for (unsigned int a = 0; a < D; ++a)
    {
      double gap = std::numeric_limits<double>::max();
      for (unsigned int b = 0; b < D; ++b)
      {
        if (b != a)
        {
          gap = std::min(gap, std::abs(pmR[a] - pmR[b]));
        }
      }
      if (!strict && !(gap > 1e-6 * (m2 + largest)))
      {
        ++margins.axesSkipped;
        allAxesComparable = false;
        continue;
      }
      const double tol = strict ? rel : rel + noise / gap;
      worstAxisTolerance = std::max(worstAxisTolerance, tol);
      double dot = 0;
      for (unsigned int c = 0; c < D; ++c)
      {
        dot += o->GetPrincipalAxes()[a][c] * r->GetPrincipalAxes()[a][c];
      }
      axisSign[a] = (!strict && dot < 0) ? -1.0 : 1.0;
      for (unsigned int c = 0; c < D; ++c)
      {
        const double got = axisSign[a] * o->GetPrincipalAxes()[a][c];
        const double expected = r->GetPrincipalAxes()[a][c];
        Track(margins.axes, std::abs(got - expected), tol);
        check.Near(got, expected, tol, p + "PrincipalAxes[" + std::to_string(a) + "][" + std::to_string(c) + "]");
      }
    }

    // Ratios of eigenvalues where the eigenvalues are above ITK's noise.
    const double floorOfNoise = strict ? -1.0 : 1e3 * noise;
    auto         ratio = [&](double got, double expected, const char * name, double smallest) {
      const double tol = rel * std::abs(expected) + (strict ? 0.0 : 2 * std::abs(expected) * noise / smallest);
      Track(margins.ratios, std::abs(got - expected), tol);
      check.Near(got, expected, tol, p + name);
    };
    double smallestMoment = std::numeric_limits<double>::max();
    for (unsigned int d = 0; d < D; ++d)
    {
      smallestMoment = std::min(smallestMoment, std::abs(pmR[d]));
    }
    ++margins.objects;
    if (std::abs(pmR[D - 2]) > floorOfNoise && std::abs(pmR[D - 1]) > floorOfNoise)
    {
      ratio(o->GetElongation(), r->GetElongation(), "Elongation", std::abs(pmR[D - 2]));
    }
    else
    {
      ++margins.ratiosSkipped;
    }
    if (std::abs(pmR[0]) > floorOfNoise && std::abs(pmR[1]) > floorOfNoise)
    {
      ratio(o->GetFlatness(), r->GetFlatness(), "Flatness", std::abs(pmR[0]));
    }
    else
    {
      ++margins.ratiosSkipped;
    }
    if (!(smallestMoment > floorOfNoise))
    {
      ++margins.ratiosSkipped;
    }
    else
    {
      for (unsigned int d = 0; d < D; ++d)
      {
        ratio(o->GetEquivalentEllipsoidDiameter()[d],
              r->GetEquivalentEllipsoidDiameter()[d],
              ("EquivalentEllipsoidDiameter[" + std::to_string(d) + "]").c_str(),
              smallestMoment);
      }
    }

    // Oriented bounding box where all axes are determined.
    if (allAxesComparable)
    {
      // The physical diagonal of the bounding box bounds the lever arm of an axis error.
      double extent = 0;
      for (unsigned int d = 0; d < D; ++d)
      {
        const double side = static_cast<double>(r->GetBoundingBox().GetSize(d) + 1) * ref->GetSpacing()[d];
        extent += side * side;
      }
      extent = std::sqrt(extent);
      // An axis of opposite sign moves the box origin (its minimum corner) to
      // the other end of that side.
      auto expectedOrigin = r->GetOrientedBoundingBoxOrigin();
      for (unsigned int a = 0; a < D; ++a)
      {
        if (axisSign[a] < 0)
        {
          for (unsigned int d = 0; d < D; ++d)
          {
            expectedOrigin[d] += r->GetOrientedBoundingBoxSize()[a] * r->GetPrincipalAxes()[a][d];
          }
        }
      }
      for (unsigned int d = 0; d < D; ++d)
      {
        const double tolSize = rel * std::abs(r->GetOrientedBoundingBoxSize()[d]) + worstAxisTolerance * extent;
        Track(margins.axes, std::abs(o->GetOrientedBoundingBoxSize()[d] - r->GetOrientedBoundingBoxSize()[d]), tolSize);
        check.Near(o->GetOrientedBoundingBoxSize()[d],
                   r->GetOrientedBoundingBoxSize()[d],
                   tolSize,
                   p + "OrientedBoundingBoxSize[" + std::to_string(d) + "]");
        const double tolOrigin = rel * coordinateScale + worstAxisTolerance * extent;
        Track(margins.axes, std::abs(o->GetOrientedBoundingBoxOrigin()[d] - expectedOrigin[d]), tolOrigin);
        check.Near(o->GetOrientedBoundingBoxOrigin()[d],
                   expectedOrigin[d],
                   tolOrigin,
                   p + "OrientedBoundingBoxOrigin[" + std::to_string(d) + "]");
      }
    }
  }
}

/** Pixel-by-pixel equality of two label images, geometry included. */
template <typename TGot, typename TExpected>
void
CompareLabelImages(const TGot * got, const TExpected * expected, Checker & check)
{
  if (got == nullptr || got->GetBufferPointer() == nullptr)
  {
    check.Fail("label image: no buffer");
    return;
  }
  check.Equal(got->GetLargestPossibleRegion(), expected->GetLargestPossibleRegion(), "label image region");
  check.Equal(got->GetBufferedRegion(), expected->GetBufferedRegion(), "label image buffered region");
  check.Equal(got->GetSpacing(), expected->GetSpacing(), "label image spacing");
  check.Equal(got->GetOrigin(), expected->GetOrigin(), "label image origin");
  check.Equal(got->GetDirection(), expected->GetDirection(), "label image direction");
  if (check.CaseFailed())
  {
    return;
  }
  itk::ImageRegionConstIteratorWithIndex<TExpected> it(expected, expected->GetLargestPossibleRegion());
  int                                               shown = 0;
  for (; !it.IsAtEnd(); ++it)
  {
    const auto g = got->GetPixel(it.GetIndex());
    if (static_cast<double>(g) != static_cast<double>(it.Get()))
    {
      std::ostringstream s;
      s << "label image at " << it.GetIndex() << ": got " << static_cast<double>(g) << ", expected "
        << static_cast<double>(it.Get());
      check.Fail(s.str());
      if (++shown == 5)
      {
        break;
      }
    }
  }
}

/** Records the progress values a filter reports. */
class ProgressRecorder : public itk::Command
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(ProgressRecorder);
  using Self = ProgressRecorder;
  using Pointer = itk::SmartPointer<Self>;
  itkNewMacro(Self);

  void
  Execute(itk::Object * caller, const itk::EventObject & event) override
  {
    Execute(static_cast<const itk::Object *>(caller), event);
  }
  void
  Execute(const itk::Object *, const itk::EventObject &) override
  {
    const float p = m_Filter->GetProgress();
    m_Monotonic = m_Monotonic && p >= m_Last;
    m_Last = p;
    ++m_Events;
  }

  const itk::ProcessObject * m_Filter = nullptr;
  float                      m_Last = -1;
  int                        m_Events = 0;
  bool                       m_Monotonic = true;

protected:
  ProgressRecorder() = default;
};

} // namespace ccaitktest

#endif
