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
#ifndef itkCudaLabelStatisticsShapeAttributes_h
#define itkCudaLabelStatisticsShapeAttributes_h

#include "cca/FeretDiameter.h"
#include "cca/Int128.h"
#include "cca/Types.h"

#include "itkContinuousIndex.h"
#include "itkGeometryUtilities.h"
#include "itkMath.h"
#include "itkCudaLabelStatisticsProperRotation.h"
#include "itkCudaLabelStatisticsSymmetricEigensystem.h"
#include "itkVector.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace itk
{

/** \class CudaLabelStatisticsShapeAttributes
 * \brief Turns the engine's exact integer features of one component into the
 * attributes of a ShapeLabelObject, with the formulas of ITK 5.2.1's
 * ShapeLabelMapFilter.
 *
 * Centroid and second moments: ShapeLabelMapFilter sums p p^T over the
 * physical points in double, line by line, then subtracts c c^T. That loses
 * digits by cancellation (noise of ~1e-13 where a moment is 0, so Elongation
 * or Flatness can come out huge), and the signs of vnl's eigenvectors follow
 * that noise. By default the same sums are formed here from the lines, in the
 * same order, so every attribute, including the axes' signs, is ITK's. With
 * exactMoments the exact integer covariance K from the engine is used instead
 * and mapped once to physical space, A K A^T with A = Direction * diag(Spacing):
 * the same quantity without the cancellation.
 *
 * \ingroup CudaLabelStatistics
 */
template <typename TLabelMap>
class CudaLabelStatisticsShapeAttributes
{
public:
  static constexpr unsigned int Dimension = TLabelMap::ImageDimension;
  using LabelObjectType = typename TLabelMap::LabelObjectType;
  using RegionType = typename TLabelMap::RegionType;
  using IndexType = typename TLabelMap::IndexType;
  using MatrixType = typename LabelObjectType::MatrixType;
  using VectorType = typename LabelObjectType::VectorType;
  using CentroidType = typename LabelObjectType::CentroidType;

  /** What Assign computes from a component's central moments alone (vnl's
   *  two eigensystems: most of its time) and from its pixel count alone
   *  (the equivalent sphere: pow and tgamma), remembered by their exact bits:
   *  the same bits give the same attributes, and images with millions of
   *  components have few distinct small shapes. One per thread: not
   *  thread-safe. */
  class Memo
  {
  public:
    Memo()
      : m_Moments(MomentSlots)
      , m_Spheres(SphereSlots)
    {}

  private:
    friend class CudaLabelStatisticsShapeAttributes;
    static constexpr std::size_t MomentSlots = 4096; // a power of two
    static constexpr std::size_t SphereSlots = 1024; // pixel counts below this

    struct Principal
    {
      bool       used = false;
      double     key[Dimension * Dimension];
      VectorType moments;
      MatrixType axes;
    };
    struct Sphere
    {
      bool   used = false;
      double radius;
      double perimeter;
    };
    std::vector<Principal> m_Moments; ///< direct-mapped by a hash of the key's bits
    std::vector<Sphere>    m_Spheres; ///< by pixel count
  };

  CudaLabelStatisticsShapeAttributes(const TLabelMap *  map,
                                     const RegionType & region,
                                     bool               computePerimeter,
                                     bool               computeFeretDiameter,
                                     bool               computeOrientedBoundingBox,
                                     bool               exactMoments)
    : m_Map(map)
    , m_RegionIndex(region.GetIndex())
    , m_ComputePerimeter(computePerimeter)
    , m_ComputeFeretDiameter(computeFeretDiameter)
    , m_ComputeOrientedBoundingBox(computeOrientedBoundingBox)
    , m_ExactMoments(exactMoments)
  {
    const auto & spacing = map->GetSpacing();
    m_SizePerPixel = 1;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      m_SizePerPixel *= spacing[i];
    }
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      m_SizePerPixelPerDimension[i] = m_SizePerPixel / spacing[i];
      for (unsigned int j = 0; j < Dimension; ++j)
      {
        m_IndexToPhysical[i][j] = map->GetDirection()[i][j] * spacing[j];
      }
    }
  }

  /** The attributes of one component, its runs grouped, into object; memo
   *  holds earlier components' eigensystems and spheres (one per thread). */
  void
  Assign(const cca::ComponentFeatures & f,
         const cca::Run *               runs,
         std::int64_t                   runCount,
         LabelObjectType &              object,
         Memo &                         memo) const
  {
    const auto   n = static_cast<SizeValueType>(f.pixelCount);
    const double physicalSize = n * m_SizePerPixel;

    typename RegionType::SizeType size;
    IndexType                     minimum;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      minimum[i] = m_RegionIndex[i] + f.boundingBoxMin[i];
      size[i] = static_cast<SizeValueType>(f.boundingBoxMax[i] - f.boundingBoxMin[i] + 1);
    }
    CentroidType centroid;
    MatrixType   centralMoments;
    if (m_ExactMoments)
    {
      ContinuousIndex<double, Dimension> centroidIndex;
      for (unsigned int i = 0; i < Dimension; ++i)
      {
        const cca::detail::Int128 sum =
          cca::detail::Int128::From(f.coordinateSum[i]) +
          cca::detail::Int128::Product(f.pixelCount, static_cast<std::int64_t>(m_RegionIndex[i]));
        centroidIndex[i] = sum.ToFloating<double>() / n;
      }
      m_Map->TransformContinuousIndexToPhysicalPoint(centroidIndex, centroid);
      centralMoments = this->PhysicalCovariance(f);
    }
    else
    {
      this->MomentsAsShapeLabelMapFilter(runs, runCount, n, centroid, centralMoments);
    }

    double perimeterOnBorder = 0;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      perimeterOnBorder +=
        m_SizePerPixelPerDimension[i] * static_cast<double>(f.pixelsOnFace[2 * i] + f.pixelsOnFace[2 * i + 1]);
    }

    const auto &       principal = this->PrincipalMomentsAndAxes(centralMoments, memo);
    const VectorType & principalMoments = principal.moments;
    const MatrixType & principalAxes = principal.axes;

    double flatness = 0;
    double elongation = 0;
    if (Math::NotAlmostEquals(principalMoments[0], 0.0))
    {
      const double ratio = principalMoments[1] / principalMoments[0];
      flatness = ratio > 0.0 ? std::sqrt(ratio) : 0.0;
    }
    if (Math::NotAlmostEquals(principalMoments[Dimension - 2], 0.0))
    {
      const double ratio = principalMoments[Dimension - 1] / principalMoments[Dimension - 2];
      elongation = ratio > 0.0 ? std::sqrt(ratio) : 0.0;
    }

    const auto   sphere = this->EquivalentSphere(n, physicalSize, memo);
    const double equivalentRadius = sphere.radius;
    const double equivalentPerimeter = sphere.perimeter;
    VectorType   ellipsoidDiameter;
    double       meanMoment = 1.0;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      meanMoment *= principalMoments[i];
    }
    meanMoment = std::pow(meanMoment, 1.0 / Dimension);
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      ellipsoidDiameter[i] = 0.0;
      if (meanMoment != 0.0 && principalMoments[i] / meanMoment > 0.0)
      {
        ellipsoidDiameter[i] = 2.0 * equivalentRadius * std::sqrt(principalMoments[i] / meanMoment);
      }
    }

    object.SetNumberOfPixels(n);
    object.SetPhysicalSize(physicalSize);
    object.SetBoundingBox(RegionType(minimum, size));
    object.SetCentroid(centroid);
    object.SetNumberOfPixelsOnBorder(static_cast<SizeValueType>(f.pixelsOnBorder));
    object.SetPerimeterOnBorder(perimeterOnBorder);
    object.SetPrincipalMoments(principalMoments);
    object.SetPrincipalAxes(principalAxes);
    object.SetElongation(elongation);
    object.SetEquivalentSphericalRadius(equivalentRadius);
    object.SetEquivalentSphericalPerimeter(equivalentPerimeter);
    object.SetEquivalentEllipsoidDiameter(ellipsoidDiameter);
    object.SetFlatness(flatness);

    if (m_ComputeFeretDiameter)
    {
      double spacing[3] = { 1, 1, 1 };
      for (unsigned int i = 0; i < Dimension; ++i)
      {
        spacing[i] = m_Map->GetSpacing()[i];
      }
      object.SetFeretDiameter(cca::FeretDiameter(runs, runCount, spacing));
    }
    if (m_ComputePerimeter)
    {
      const double perimeter = this->Perimeter(f);
      object.SetPerimeter(perimeter);
      object.SetRoundness(equivalentPerimeter / perimeter);
      object.SetPerimeterOnBorderRatio(perimeterOnBorder / perimeter);
    }
    if (m_ComputeOrientedBoundingBox)
    {
      this->AssignOrientedBoundingBox(runs, runCount, principalAxes, centroid, object);
    }
  }

private:
  /** Principal moments and axes of the central moments as ShapeLabelMapFilter
   *  finds them, from memo when it saw the same bits. */
  const typename Memo::Principal &
  PrincipalMomentsAndAxes(const MatrixType & centralMoments, Memo & memo) const
  {
    double key[Dimension * Dimension];
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      for (unsigned int j = 0; j < Dimension; ++j)
      {
        key[i * Dimension + j] = centralMoments[i][j];
      }
    }
    std::uint64_t hash = 1469598103934665603ull; // FNV-1a over the words
    for (const double value : key)
    {
      std::uint64_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      hash = (hash ^ bits) * 1099511628211ull;
    }
    auto & entry = memo.m_Moments[(hash ^ (hash >> 29)) & (Memo::MomentSlots - 1)];
    if (entry.used && std::memcmp(entry.key, key, sizeof key) == 0)
    {
      return entry;
    }
    CudaLabelStatisticsDetail::SymmetricEigensystem(centralMoments, entry.moments, entry.axes);
    CudaLabelStatisticsDetail::MakeProperRotation(entry.axes);
    std::memcpy(entry.key, key, sizeof key);
    entry.used = true;
    return entry;
  }

  /** Radius and perimeter of the hypersphere of the component's physical
   *  size, from memo for small pixel counts. */
  typename Memo::Sphere
  EquivalentSphere(SizeValueType n, double physicalSize, Memo & memo) const
  {
    if (n < Memo::SphereSlots && memo.m_Spheres[n].used)
    {
      return memo.m_Spheres[n];
    }
    typename Memo::Sphere sphere;
    sphere.radius = GeometryUtilities::HyperSphereRadiusFromVolume(Dimension, physicalSize);
    sphere.perimeter = GeometryUtilities::HyperSpherePerimeter(Dimension, sphere.radius);
    sphere.used = true;
    if (n < Memo::SphereSlots)
    {
      memo.m_Spheres[n] = sphere;
    }
    return sphere;
  }

  /** A K A^T, K the exact index-space covariance. */
  MatrixType
  PhysicalCovariance(const cca::ComponentFeatures & f) const
  {
    static constexpr int productSlot[3][3] = { { 0, 3, 4 }, { 3, 1, 5 }, { 4, 5, 2 } };
    const long double    n = static_cast<long double>(f.pixelCount);
    double               k[Dimension][Dimension];
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      for (unsigned int j = 0; j < Dimension; ++j)
      {
        const cca::detail::Int128 numerator =
          cca::detail::Int128::Product(f.pixelCount, f.coordinateProductSum[productSlot[i][j]]) -
          cca::detail::Int128::Product(f.coordinateSum[i], f.coordinateSum[j]);
        k[i][j] = static_cast<double>(numerator.ToFloating<long double>() / (n * n));
      }
    }
    MatrixType physical;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      for (unsigned int j = 0; j < Dimension; ++j)
      {
        double value = 0;
        for (unsigned int a = 0; a < Dimension; ++a)
        {
          for (unsigned int b = 0; b < Dimension; ++b)
          {
            value += m_IndexToPhysical[i][a] * k[a][b] * m_IndexToPhysical[j][b];
          }
        }
        physical[i][j] = value;
      }
    }
    // Exactly symmetric, as the eigensolver expects.
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      for (unsigned int j = i + 1; j < Dimension; ++j)
      {
        physical[j][i] = physical[i][j];
      }
    }
    return physical;
  }

  IndexType
  RunStart(const cca::Run & run) const
  {
    IndexType index = m_RegionIndex;
    index[0] += run.x;
    index[1] += run.y;
    if constexpr (Dimension == 3)
    {
      index[2] += run.z;
    }
    return index;
  }

  /** Centroid and centred second moments summed line by line in double in
   *  ShapeLabelMapFilter's order, so that rounding, and with it vnl's
   *  eigenvector signs, is the same as ITK's. The sums are kept in locals,
   *  the upper triangle only (ITK adds the same products to both halves):
   *  the same operations in the same order. */
  void
  MomentsAsShapeLabelMapFilter(const cca::Run * runs,
                               std::int64_t     runCount,
                               SizeValueType    n,
                               CentroidType &   centroid,
                               MatrixType &     moments) const
  {
    double origin[Dimension];
    double toPhysical[Dimension][Dimension];
    double step[Dimension]; // physical step of one pixel along x
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      origin[i] = m_Map->GetOrigin()[i];
      for (unsigned int j = 0; j < Dimension; ++j)
      {
        toPhysical[i][j] = m_IndexToPhysical[i][j];
      }
      step[i] = m_Map->GetSpacing()[0] * m_Map->GetDirection()(i, 0);
    }
    // As ImageBase::TransformIndexToPhysicalPoint, whose matrix (direction
    // times the diagonal of the spacing, a product whose other terms are
    // zeros) is m_IndexToPhysical.
    auto toPoint = [&](const IndexType & index, double(&p)[Dimension]) {
      for (unsigned int i = 0; i < Dimension; ++i)
      {
        p[i] = origin[i];
        for (unsigned int j = 0; j < Dimension; ++j)
        {
          p[i] += toPhysical[i][j] * index[j];
        }
      }
    };
    double centroidSum[Dimension] = {};
    double sum[Dimension][Dimension] = {}; // upper triangle
    for (std::int64_t r = 0; r < runCount; ++r)
    {
      const IndexType     start = this->RunStart(runs[r]);
      const SizeValueType length = static_cast<SizeValueType>(runs[r].length);
      for (unsigned int i = 1; i < Dimension; ++i)
      {
        centroidSum[i] += static_cast<OffsetValueType>(length) * start[i];
      }
      centroidSum[0] += start[0] * static_cast<OffsetValueType>(length) + (length * (length - 1)) / 2.0;
      if (length <= 2)
      {
        IndexType index = start;
        for (SizeValueType k = 0; k < length; ++k, ++index[0])
        {
          double p[Dimension];
          toPoint(index, p);
          for (unsigned int i = 0; i < Dimension; ++i)
          {
            sum[i][i] += p[i] * p[i];
            for (unsigned int j = i + 1; j < Dimension; ++j)
            {
              sum[i][j] += p[i] * p[j];
            }
          }
        }
      }
      else
      {
        // Closed forms of the sums over the line's pixels p0 + k * step.
        double p0[Dimension];
        toPoint(start, p0);
        const double halfSpan = (length - 1.0) / 2.0;
        const double thirdTerm = (2.0 * length - 1.0) / 3.0;
        for (unsigned int i = 0; i < Dimension; ++i)
        {
          sum[i][i] += length * (p0[i] * p0[i] + halfSpan * (2.0 * p0[i] * step[i] + thirdTerm * step[i] * step[i]));
          for (unsigned int j = i + 1; j < Dimension; ++j)
          {
            sum[i][j] +=
              length * (p0[i] * p0[j] + halfSpan * (p0[i] * step[j] + step[i] * p0[j] + thirdTerm * step[i] * step[j]));
          }
        }
      }
    }
    ContinuousIndex<double, Dimension> centroidIndex;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      centroidIndex[i] = centroidSum[i] / n;
      for (unsigned int j = i; j < Dimension; ++j)
      {
        moments[i][j] = sum[i][j] / n;
        moments[j][i] = moments[i][j];
      }
    }
    m_Map->TransformContinuousIndexToPhysicalPoint(centroidIndex, centroid);
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      for (unsigned int j = 0; j < Dimension; ++j)
      {
        moments[i][j] -= centroid[i] * centroid[j];
      }
    }
  }

  /** ShapeLabelMapFilter's perimeter from intercept counts (2D and 3D forms). */
  double
  Perimeter(const cca::ComponentFeatures & f) const
  {
    const auto & spacing = m_Map->GetSpacing();
    auto         count = [&f](bool x, bool y, bool z) {
      return static_cast<SizeValueType>(f.interceptCounts[cca::InterceptSlot(x, y, z)]);
    };
    if constexpr (Dimension == 2)
    {
      const double dx = spacing[0];
      const double dy = spacing[1];
      double       perimeter = 0.0;
      perimeter += dy * count(true, false, false) / 2.0;
      perimeter += dx * count(false, true, false) / 2.0;
      perimeter += dx * dy / spacing.GetNorm() * count(true, true, false) / 2.0;
      return perimeter * Math::pi / 4.0;
    }
    else
    {
      const double dx = spacing[0];
      const double dy = spacing[1];
      const double dz = spacing[2];
      const double dxy = std::sqrt(dx * dx + dy * dy);
      const double dxz = std::sqrt(dx * dx + dz * dz);
      const double dyz = std::sqrt(dy * dy + dz * dz);
      const double dxyz = std::sqrt(dx * dx + dy * dy + dz * dz);
      const double volume = dx * dy * dz;
      // Voronoi areas on the unit sphere of the 13 direction classes (ITK's constants).
      const double axis = 0.04577789120476 * 2;
      const double faceDiagonal = 0.03698062787608 * 2;
      const double cubeDiagonal = 0.03519563978232 * 2;
      double       perimeter = 0.0;
      perimeter += volume / dx * count(true, false, false) / 2.0 * axis;
      perimeter += volume / dy * count(false, true, false) / 2.0 * axis;
      perimeter += volume / dz * count(false, false, true) / 2.0 * axis;
      perimeter += volume / dxy * count(true, true, false) / 2.0 * faceDiagonal;
      perimeter += volume / dxz * count(true, false, true) / 2.0 * faceDiagonal;
      perimeter += volume / dyz * count(false, true, true) / 2.0 * faceDiagonal;
      perimeter += volume / dxyz * count(true, true, true) / 2.0 * cubeDiagonal;
      return perimeter * 4;
    }
  }

  /** ShapeLabelMapFilter's oriented bounding box: line end points projected on
   *  the principal axes, widened by the pixel corners. */
  void
  AssignOrientedBoundingBox(const cca::Run *     runs,
                            std::int64_t         runCount,
                            const MatrixType &   axes,
                            const CentroidType & centroid,
                            LabelObjectType &    object) const
  {
    VectorType minimum;
    VectorType maximum;
    minimum.Fill(NumericTraits<double>::max());
    maximum.Fill(NumericTraits<double>::NonpositiveMin());
    auto include = [&](const IndexType & index) {
      CentroidType point;
      m_Map->TransformIndexToPhysicalPoint(index, point);
      const VectorType projected = axes * (point - centroid);
      for (unsigned int i = 0; i < Dimension; ++i)
      {
        minimum[i] = std::min(minimum[i], projected[i]);
        maximum[i] = std::max(maximum[i], projected[i]);
      }
    };
    for (std::int64_t r = 0; r < runCount; ++r)
    {
      IndexType index = this->RunStart(runs[r]);
      include(index);
      index[0] += runs[r].length - 1;
      include(index);
    }
    VectorType adjustedMinimum = minimum;
    VectorType adjustedMaximum = maximum;
    for (unsigned int corner = 0; corner < (1u << Dimension); ++corner)
    {
      Vector<double, Dimension> halfPixel(0.5 * m_Map->GetSpacing());
      for (unsigned int i = 0; i < Dimension; ++i)
      {
        if (corner & (1u << i))
        {
          halfPixel[i] *= -1;
        }
      }
      const auto       physicalOffset = m_Map->TransformLocalVectorToPhysicalVector(halfPixel);
      const VectorType offset = axes * physicalOffset;
      for (unsigned int i = 0; i < Dimension; ++i)
      {
        adjustedMinimum[i] = std::min(adjustedMinimum[i], minimum[i] + offset[i]);
        adjustedMaximum[i] = std::max(adjustedMaximum[i], maximum[i] + offset[i]);
      }
    }
    typename LabelObjectType::OrientedBoundingBoxSizeType size;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      size[i] = std::abs(adjustedMaximum[i] - adjustedMinimum[i]);
    }
    const VectorType originOffset = MatrixType(axes.GetTranspose()) * adjustedMinimum;
    typename LabelObjectType::OrientedBoundingBoxPointType origin;
    for (unsigned int i = 0; i < Dimension; ++i)
    {
      origin[i] = originOffset[i] + centroid[i];
    }
    object.SetOrientedBoundingBoxSize(size);
    object.SetOrientedBoundingBoxOrigin(origin);
  }

  const TLabelMap * m_Map;
  IndexType         m_RegionIndex;
  bool              m_ComputePerimeter;
  bool              m_ComputeFeretDiameter;
  bool              m_ComputeOrientedBoundingBox;
  bool              m_ExactMoments;
  double            m_SizePerPixel;
  double            m_SizePerPixelPerDimension[Dimension];
  double            m_IndexToPhysical[Dimension][Dimension];
};

} // end namespace itk

#endif
