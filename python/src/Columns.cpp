// The column table of Columns.h: which columns a call's options give, in the
// documented order, and the intensity group computed row by row from the
// engine's result.
#include "Columns.h"

#include "cca/IntensityAttributes.h"

#include <algorithm>
#include <cstddef>
#include <type_traits>

namespace nb = nanobind;

namespace ccapython
{

ColumnTable::ColumnTable(int d, const cca::ShapeAttributeOptions & options, std::int64_t rows)
  : m_Rows(static_cast<size_t>(rows))
{
  using S = cca::ShapeAttributes;
  static_assert(std::is_standard_layout_v<S>, "columns are read at member offsets");
  static_assert(sizeof(double) == 8 && sizeof(std::int64_t) == 8, "8-byte attributes");
  const auto addVector = [&](const std::string & name, bool integer, size_t offset, int count) {
    for (int i = 0; i < count; ++i)
    {
      Add(name + "-" + std::to_string(i), integer, offset + i * 8);
    }
  };
  Add("number_of_pixels", true, offsetof(S, numberOfPixels));
  Add("physical_size", false, offsetof(S, physicalSize));
  addVector("centroid", false, offsetof(S, centroid), d);
  addVector("bbox", true, offsetof(S, boundingBoxIndex), d);
  for (int i = 0; i < d; ++i)
  {
    Add("bbox-" + std::to_string(d + i), true, offsetof(S, boundingBoxSize) + i * 8);
  }
  Add("number_of_pixels_on_border", true, offsetof(S, numberOfPixelsOnBorder));
  Add("perimeter_on_border", false, offsetof(S, perimeterOnBorder));
  if (options.perimeter)
  {
    Add("perimeter", false, offsetof(S, perimeter));
    Add("roundness", false, offsetof(S, roundness));
  }
  addVector("principal_moments", false, offsetof(S, principalMoments), d);
  for (int i = 0; i < d; ++i)
  {
    for (int j = 0; j < d; ++j)
    {
      Add("principal_axes-" + std::to_string(i) + "-" + std::to_string(j),
          false,
          offsetof(S, principalAxes) + (3 * i + j) * 8);
    }
  }
  Add("elongation", false, offsetof(S, elongation));
  Add("flatness", false, offsetof(S, flatness));
  Add("equivalent_spherical_radius", false, offsetof(S, equivalentSphericalRadius));
  Add("equivalent_spherical_perimeter", false, offsetof(S, equivalentSphericalPerimeter));
  addVector("equivalent_ellipsoid_diameter", false, offsetof(S, equivalentEllipsoidDiameter), d);
  if (options.feretDiameter)
  {
    Add("feret_diameter", false, offsetof(S, feretDiameter));
  }
  if (options.perimeter)
  {
    Add("perimeter_on_border_ratio", false, offsetof(S, perimeterOnBorderRatio));
  }
  if (options.orientedBoundingBox)
  {
    addVector("oriented_bounding_box_origin", false, offsetof(S, orientedBoundingBoxOrigin), d);
    addVector("oriented_bounding_box_size", false, offsetof(S, orientedBoundingBoxSize), d);
  }
}

template <typename T>
nb::object
ColumnTable::Array(std::unique_ptr<unsigned char[]> && values)
{
  unsigned char * data = values.release();
  nb::capsule     owner(data, [](void * p) noexcept { delete[] static_cast<unsigned char *>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(reinterpret_cast<T *>(data), { m_Rows }, owner));
}

nb::dict
ColumnTable::ToDict()
{
  nb::dict                         columns;
  std::unique_ptr<unsigned char[]> labels(new unsigned char[std::max<size_t>(1, m_Rows) * 8]);
  auto *                           label = reinterpret_cast<std::int64_t *>(labels.get());
  for (size_t r = 0; r < m_Rows; ++r)
  {
    label[r] = static_cast<std::int64_t>(r + 1);
  }
  columns["label"] = Array<std::int64_t>(std::move(labels));
  for (Column & column : m_Columns)
  {
    columns[column.name.c_str()] =
      column.integer ? Array<std::int64_t>(std::move(column.values)) : Array<double>(std::move(column.values));
  }
  return columns;
}

void
ColumnTable::Add(std::string name, bool integer, size_t offset)
{
  m_Columns.push_back({ std::move(name),
                        integer,
                        offset,
                        std::unique_ptr<unsigned char[]>(new unsigned char[std::max<size_t>(1, m_Rows) * 8]) });
}

void
AddObjectColumns(const cca::Result &        result,
                 const cca::ImageGeometry & geometry,
                 const cca::Options &       options,
                 cca::PixelType             pixelType,
                 nb::dict &                 columns)
{
  // The options decide the columns, not the rows: a table without objects
  // has the columns of one with objects.
  const auto rows = static_cast<size_t>(result.componentCount);
  if (options.objects != cca::Objects::ForegroundComponents)
  {
    if (pixelType == cca::PixelType::UInt64) // values past 2^63 keep their bits in labelValues
    {
      columns["label_value"] =
        NumpyColumn(std::vector<std::uint64_t>(result.labelValues.begin(), result.labelValues.end()));
    }
    else
    {
      columns["label_value"] = NumpyColumn(std::vector<std::int64_t>(result.labelValues));
    }
  }
  if (options.selection.Active())
  {
    columns["source_label"] = NumpyColumn(std::vector<std::int64_t>(result.sourceNumbers));
  }
  if (!options.intensity.Requested())
  {
    return;
  }
  const int                              d = geometry.dimension;
  std::vector<std::vector<double>>       scalars(9, std::vector<double>(rows));
  std::vector<std::vector<std::int64_t>> indices(2 * d, std::vector<std::int64_t>(rows));
  std::vector<std::vector<double>>       centers(d, std::vector<double>(rows));
  std::vector<std::vector<double>>       moments(d, std::vector<double>(rows));
  std::vector<std::vector<double>>       axes(d * d, std::vector<double>(rows));
  std::vector<std::vector<double>>       ratios(2, std::vector<double>(rows));
  for (size_t r = 0; r < rows; ++r)
  {
    const cca::ObjectIntensity &   s = result.intensity[r];
    const cca::IntensityAttributes a = cca::ComputeIntensityAttributes(s, result.features[r].pixelCount, geometry);
    const double                   values[9] = { s.minimum,  s.maximum, a.mean,     s.sum,     a.standardDeviation,
                                                 a.variance, s.median,  a.skewness, a.kurtosis };
    for (int c = 0; c < 9; ++c)
    {
      scalars[c][r] = values[c];
    }
    for (int i = 0; i < d; ++i)
    {
      indices[i][r] = a.minimumIndex[i];
      indices[d + i][r] = a.maximumIndex[i];
      centers[i][r] = a.centerOfGravity[i];
      moments[i][r] = a.weightedPrincipalMoments[i];
      for (int j = 0; j < d; ++j)
      {
        axes[i * d + j][r] = a.weightedPrincipalAxes[i][j];
      }
    }
    ratios[0][r] = a.weightedElongation;
    ratios[1][r] = a.weightedFlatness;
  }
  const char * names[9] = { "minimum",  "maximum", "mean",     "sum",     "standard_deviation",
                            "variance", "median",  "skewness", "kurtosis" };
  for (int c = 0; c < 9; ++c)
  {
    columns[names[c]] = NumpyColumn(std::move(scalars[c]));
  }
  for (int i = 0; i < d; ++i)
  {
    columns[("minimum_index-" + std::to_string(i)).c_str()] = NumpyColumn(std::move(indices[i]));
  }
  for (int i = 0; i < d; ++i)
  {
    columns[("maximum_index-" + std::to_string(i)).c_str()] = NumpyColumn(std::move(indices[d + i]));
  }
  for (int i = 0; i < d; ++i)
  {
    columns[("center_of_gravity-" + std::to_string(i)).c_str()] = NumpyColumn(std::move(centers[i]));
  }
  for (int i = 0; i < d; ++i)
  {
    columns[("weighted_principal_moments-" + std::to_string(i)).c_str()] = NumpyColumn(std::move(moments[i]));
  }
  for (int i = 0; i < d; ++i)
  {
    for (int j = 0; j < d; ++j)
    {
      columns[("weighted_principal_axes-" + std::to_string(i) + "-" + std::to_string(j)).c_str()] =
        NumpyColumn(std::move(axes[i * d + j]));
    }
  }
  columns["weighted_elongation"] = NumpyColumn(std::move(ratios[0]));
  columns["weighted_flatness"] = NumpyColumn(std::move(ratios[1]));
}

} // namespace ccapython
