// The image IO factories an application reading images through ITK has
// registered, for benchmarks that measure what each label object's New()
// pays for them: ITK's NRRD, NIfTI, MetaImage, VTK and TIFF factories, the
// formats the program links (ITK's CMake registers some twenty).
#ifndef cca_benchmark_ImageIOFactories_h
#define cca_benchmark_ImageIOFactories_h

#include "itkMetaImageIOFactory.h"
#include "itkNiftiImageIOFactory.h"
#include "itkNrrdImageIOFactory.h"
#include "itkTIFFImageIOFactory.h"
#include "itkVTKImageIOFactory.h"

namespace cca
{
namespace benchmark
{

inline void
RegisterImageIOFactories()
{
  itk::NrrdImageIOFactory::RegisterOneFactory();
  itk::NiftiImageIOFactory::RegisterOneFactory();
  itk::MetaImageIOFactory::RegisterOneFactory();
  itk::VTKImageIOFactory::RegisterOneFactory();
  itk::TIFFImageIOFactory::RegisterOneFactory();
}

} // namespace benchmark
} // namespace cca

#endif
