// Writes the component table: one row per label object, every attribute a column.
#ifndef CudaLabelStatisticsApp_CsvWriter_h
#define CudaLabelStatisticsApp_CsvWriter_h

#include "itkLabelMap.h"
#include "itkStatisticsLabelObject.h"

#include <string>

namespace ccaapp
{

/** Attributes that exist only when the filter computed them. */
struct CsvColumns
{
  bool perimeter = true;
  bool feret = false;
  bool orientedBoundingBox = false;
};

template <unsigned int VDimension>
using AppLabelMap = itk::LabelMap<itk::StatisticsLabelObject<itk::SizeValueType, VDimension>>;

/** Throws std::runtime_error when the file cannot be written. Instantiated for 2 and 3 D. */
template <unsigned int VDimension>
void
WriteComponentCsv(const AppLabelMap<VDimension> & labelMap, const std::string & path, const CsvColumns & columns);

} // namespace ccaapp

#endif
