// The objects' table as NumPy columns: ITK's shape attributes (ColumnTable),
// the label values, source labels and intensity attributes beside them
// (AddObjectColumns), each column an array that owns its memory.
#ifndef CudaLabelStatisticsPython_Columns_h
#define CudaLabelStatisticsPython_Columns_h

#include "cca/ShapeAttributes.h"
#include "cca/Types.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ccapython
{

/** The values as a one-dimensional NumPy array that owns them (moved, not copied). */
template <typename T>
nanobind::object
NumpyColumn(std::vector<T> && values)
{
  namespace nb = nanobind;
  auto * owned = new std::vector<T>(std::move(values));
  owned->reserve(1); // a non-null pointer for empty columns
  nb::capsule owner(owned, [](void * p) noexcept { delete static_cast<std::vector<T> *>(p); });
  return nb::cast(nb::ndarray<nb::numpy, T, nb::ndim<1>>(owned->data(), { owned->size() }, owner));
}

/** The table, column by column, in the order the package documents. Vector
 *  attributes are split as scikit-image's regionprops_table splits them:
 *  name-i (name-i-j for the axes), i in ITK's x, y, z order.
 *  Every attribute is an int64 or a double at a fixed offset of
 *  ShapeAttributes, so a column is a name, a type and an offset. The worker
 *  threads that compute the attributes store each row straight into the
 *  columns (Store), which they also touch first: no array of all rows (~400
 *  bytes each) is made, zeroed and read again column by column. */
class ColumnTable
{
public:
  ColumnTable(int d, const cca::ShapeAttributeOptions & options, std::int64_t rows);

  /** Row `index` (label index + 1); called from the worker threads (here in
   *  the header, so that it inlines into the attribute callback). */
  void
  Store(std::int64_t index, const cca::ShapeAttributes & row)
  {
    const auto * bytes = reinterpret_cast<const unsigned char *>(&row);
    for (Column & column : m_Columns)
    {
      std::memcpy(column.values.get() + index * 8, bytes + column.offset, 8);
    }
  }

  /** label, then the columns, as NumPy arrays that own their memory. */
  nanobind::dict
  ToDict();

private:
  struct Column
  {
    std::string                      name;
    bool                             integer;
    size_t                           offset; // of the value in ShapeAttributes
    std::unique_ptr<unsigned char[]> values; // 8 bytes a row, left uninitialized until stored
  };

  void
  Add(std::string name, bool integer, size_t offset);

  template <typename T>
  nanobind::object
  Array(std::unique_ptr<unsigned char[]> && values);

  size_t              m_Rows;
  std::vector<Column> m_Columns;
};

/** The columns beside the shape table: label_value (label-image input),
 *  source_label (a selection renumbered the objects) and the intensity group
 *  (a feature image), named as SimpleITK's LabelIntensityStatisticsImageFilter
 *  names its measurements, in snake_case; vectors split as the shape columns. */
void
AddObjectColumns(const cca::Result &        result,
                 const cca::ImageGeometry & geometry,
                 const cca::Options &       options,
                 cca::PixelType             pixelType,
                 nanobind::dict &           columns);

} // namespace ccapython

#endif
