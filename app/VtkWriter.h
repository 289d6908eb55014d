// VTK legacy files (.vtk): the header ITK's VTKImageIO writes (structured
// points, which hold no direction: ITK leaves it out too), the data
// big-endian as the format has it, swapped on every thread in pieces
// written in order. ITK's writer copies and swaps the whole image on one
// thread first (541-679 ms for a 537 MB label image on the H200,
// benchmark/results/h200-parallel-gzip).
#ifndef CudaLabelStatisticsApp_VtkWriter_h
#define CudaLabelStatisticsApp_VtkWriter_h

#include "ImageFormats.h"
#include "ImageGeometry.h"

#include <string>
#include <type_traits>

namespace ccaapp
{

/** The scalar type's name in ITK's VTK files, by the C++ type (ITK names
 *  long and long long apart, though both have 64 bits here). */
template <class T>
constexpr const char *
VtkTypeName()
{
  if constexpr (std::is_same_v<T, signed char> || std::is_same_v<T, char>)
    return "char";
  else if constexpr (std::is_same_v<T, unsigned char>)
    return "unsigned_char";
  else if constexpr (std::is_same_v<T, short>)
    return "short";
  else if constexpr (std::is_same_v<T, unsigned short>)
    return "unsigned_short";
  else if constexpr (std::is_same_v<T, int>)
    return "int";
  else if constexpr (std::is_same_v<T, unsigned int>)
    return "unsigned_int";
  else if constexpr (std::is_same_v<T, long>)
    return "long";
  else if constexpr (std::is_same_v<T, unsigned long>)
    return "unsigned_long";
  else if constexpr (std::is_same_v<T, long long>)
    return "vtktypeint64";
  else if constexpr (std::is_same_v<T, unsigned long long>)
    return "vtktypeuint64";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else
  {
    static_assert(std::is_same_v<T, double>, "a scalar type that ITK's VTK files have");
    return "double";
  }
}

/** Writes `pixels` (of `component`, in ITK's order, little-endian) to `path`
 *  as a binary VTK legacy file whose scalars are named `typeName`
 *  (VtkTypeName). Errors name displayPath. */
void
WriteVtk(const std::string &   path,
         const std::string &   displayPath,
         const ImageGeometry & geometry,
         PixelComponent        component,
         const char *          typeName,
         const void *          pixels);

} // namespace ccaapp

#endif
