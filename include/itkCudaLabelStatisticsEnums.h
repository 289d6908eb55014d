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
#ifndef itkCudaLabelStatisticsEnums_h
#define itkCudaLabelStatisticsEnums_h

#include <cstdint>
#include <ostream>

namespace itk
{

/** \class CudaLabelStatisticsEnums
 * \brief Enums of CudaLabelStatisticsImageFilter.
 * \ingroup CudaLabelStatistics
 */
class CudaLabelStatisticsEnums
{
public:
  /** Where the components are labeled and measured. */
  enum class Backend : uint8_t
  {
    Auto = 0, ///< CUDA when a device is present, else CPU
    CUDA = 1,
    CPU = 2
  };

  /** Which input pixels are foreground. */
  enum class ForegroundRule : uint8_t
  {
    EqualToForegroundValue = 0,   ///< pixel == InputForegroundValue
    NotEqualToBackgroundValue = 1 ///< pixel != InputBackgroundValue
  };
};

inline std::ostream &
operator<<(std::ostream & out, const CudaLabelStatisticsEnums::Backend value)
{
  switch (value)
  {
    case CudaLabelStatisticsEnums::Backend::Auto:
      return out << "itk::CudaLabelStatisticsEnums::Backend::Auto";
    case CudaLabelStatisticsEnums::Backend::CUDA:
      return out << "itk::CudaLabelStatisticsEnums::Backend::CUDA";
    case CudaLabelStatisticsEnums::Backend::CPU:
      return out << "itk::CudaLabelStatisticsEnums::Backend::CPU";
  }
  return out << "INVALID VALUE FOR itk::CudaLabelStatisticsEnums::Backend";
}

inline std::ostream &
operator<<(std::ostream & out, const CudaLabelStatisticsEnums::ForegroundRule value)
{
  switch (value)
  {
    case CudaLabelStatisticsEnums::ForegroundRule::EqualToForegroundValue:
      return out << "itk::CudaLabelStatisticsEnums::ForegroundRule::EqualToForegroundValue";
    case CudaLabelStatisticsEnums::ForegroundRule::NotEqualToBackgroundValue:
      return out << "itk::CudaLabelStatisticsEnums::ForegroundRule::NotEqualToBackgroundValue";
  }
  return out << "INVALID VALUE FOR itk::CudaLabelStatisticsEnums::ForegroundRule";
}

} // end namespace itk

#endif
