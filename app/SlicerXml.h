// The 3D Slicer command-line module description (SlicerExecutionModel XML).
#ifndef CudaLabelStatisticsApp_SlicerXml_h
#define CudaLabelStatisticsApp_SlicerXml_h

#include <string>

namespace ccaapp
{

/** The <executable> description printed by --xml. Its flags are the program's own
 *  options, so Slicer's command lines parse with ParseArguments. */
std::string
SlicerXmlDescription(const std::string & version);

} // namespace ccaapp

#endif
