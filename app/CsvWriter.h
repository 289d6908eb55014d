// Writes the component table: one row per label object, every attribute a column.
#ifndef CudaLabelStatisticsApp_CsvWriter_h
#define CudaLabelStatisticsApp_CsvWriter_h

#include "Arguments.h"

#include "itkLabelMap.h"
#include "itkStatisticsLabelObject.h"

#include <cstdint>
#include <functional>
#include <string>

namespace ccaapp
{

/** Attributes that exist only when the filter computed them. */
struct CsvColumns
{
  bool perimeter = true;
  bool feret = false;
  bool orientedBoundingBox = false;
  /** A feature image was measured: the intensity columns, named as SimpleITK's
   *  LabelIntensityStatisticsImageFilter names its measurements. */
  bool intensity = false;
  /** Label input: the input label value of each object (column InputLabel). */
  std::function<WideInteger(std::uint32_t)> inputLabel;
};

/** The program's label map: uint32 labels, so the label image is uint32 too
 *  (at most 4294967295 components). */
template <unsigned int VDimension>
using AppLabelMap = itk::LabelMap<itk::StatisticsLabelObject<std::uint32_t, VDimension>>;

/** Writes `path` (a temporary file of an OutputTransaction, or a device) with
 *  checked writes; FileError naming displayPath when it fails. Instantiated for 2 and 3 D. */
template <unsigned int VDimension>
void
WriteComponentCsv(const AppLabelMap<VDimension> & labelMap,
                  const std::string &             path,
                  const std::string &             displayPath,
                  const CsvColumns &              columns);

} // namespace ccaapp

#endif
