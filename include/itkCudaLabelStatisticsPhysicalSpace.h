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
#ifndef itkCudaLabelStatisticsPhysicalSpace_h
#define itkCudaLabelStatisticsPhysicalSpace_h

#include "itkImageBase.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

namespace itk
{

/** Why `other` does not occupy `image`'s physical space, or "" when it does,
 *  as ImageToImageFilter::VerifyInputInformation decides it for a filter's
 *  inputs: origin and spacing each within coordinateTolerance times
 *  `image`'s first spacing, every direction entry within directionTolerance
 *  (ITK's defaults 1e-6: a NIfTI file keeps its geometry in float, so the
 *  same grid read from it and from a NRRD differs in the eighth digit). The
 *  reason prints every differing value with 17 digits. */
template <unsigned int VDimension>
std::string
CudaLabelStatisticsPhysicalSpaceDifference(const ImageBase<VDimension> & image,
                                           const ImageBase<VDimension> & other,
                                           double                        coordinateTolerance,
                                           double                        directionTolerance)
{
  const double       tolerance = std::abs(coordinateTolerance * image.GetSpacing()[0]);
  std::ostringstream why;
  why << std::setprecision(17);
  const auto vectors = [&](const char * what, const auto & a, const auto & b) {
    for (unsigned int i = 0; i < VDimension; ++i)
    {
      if (!(std::abs(a[i] - b[i]) <= tolerance))
      {
        why << (why.tellp() > 0 ? "; " : "") << "its " << what << " " << b << " against " << a << " (tolerance "
            << tolerance << ")";
        return;
      }
    }
  };
  vectors("spacing", image.GetSpacing(), other.GetSpacing());
  vectors("origin", image.GetOrigin(), other.GetOrigin());
  for (unsigned int i = 0; i < VDimension; ++i)
  {
    for (unsigned int j = 0; j < VDimension; ++j)
    {
      if (!(std::abs(image.GetDirection()[i][j] - other.GetDirection()[i][j]) <= directionTolerance))
      {
        why << (why.tellp() > 0 ? "; " : "") << "its direction " << other.GetDirection()[i][j] << " at (" << i << ", "
            << j << ") against " << image.GetDirection()[i][j] << " (tolerance " << directionTolerance << ")";
        return why.str();
      }
    }
  }
  return why.str();
}

} // namespace itk

#endif
