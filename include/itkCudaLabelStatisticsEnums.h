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

#include "cca/Types.h"

#include <cstddef>
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

  /** The CUDA backend's labeling and feature-accumulation strategy, value
   *  for value cca::Algorithm (cca/Types.h describes each; the papers are in
   *  docs/references.md); every one gives the same result. Default is the
   *  fastest: FLSL_CD's strategy with changes of its own. */
  enum class Algorithm : uint8_t
  {
    Default = 0,
    Naive = 1,     ///< pixels joined by union-find, plain atomic votes
    HA = 2,        ///< sub-runs of 32-pixel warp blocks joined by union-find, plain atomic votes
    HA_CD = 3,     ///< HA, votes folded by warp conflict detection
    HA_OTF = 4,    ///< HA, features moved along the unions
    FLSL = 5,      ///< runs joined by union-find, plain atomic votes
    FLSL_OTF = 6,  ///< FLSL, features moved along the unions
    FLSL_CD = 7,   ///< FLSL, votes folded by warp conflict detection
    DLP = 8,       ///< Distanceless Label Propagation pixel labeling, conflict-detection votes
    LE_Early = 9,  ///< Label Equivalence, properties merged during labeling
    LE_Late = 10,  ///< Label Equivalence, properties after sequential relabeling
    TM_Early = 11, ///< Tile Merging, properties merged during labeling
    TM_Late = 12   ///< Tile Merging, properties after sequential relabeling
  };

  /** How the CUDA backend compacts the feature table before its copy to the
   *  host; every one gives the same result. */
  enum class FeatureCompaction : uint8_t
  {
    Scan = 0,      ///< default: components numbered by a scan, the table written dense on the device
    TreeMerge = 1, ///< Windisch 2023's tree merge kernel: only the valid feature nodes are copied
    None = 2       ///< the sparse table (one entry per labeling unit) copied whole (Windisch 2023's HA4 baseline)
  };

  /** Which input pixels are foreground. */
  enum class ForegroundRule : uint8_t
  {
    EqualToForegroundValue = 0,   ///< pixel == InputForegroundValue
    NotEqualToBackgroundValue = 1 ///< pixel != InputBackgroundValue
  };

  /** What the objects of the label map are (value for value cca::Objects). */
  enum class Objects : uint8_t
  {
    /** The connected components of the foreground, labeled in raster order
     *  of their first pixels (BinaryImageToShapeLabelMapFilter). */
    ForegroundComponents = 0,
    /** Each value of a label image (but InputBackgroundValue) is one object,
     *  connected or not, and keeps its value as label
     *  (LabelImageToShapeLabelMapFilter, LabelImageToStatisticsLabelMapFilter). */
    LabelValues = 1,
    /** The connected components of each value of a label image (neighbours
     *  of equal value only: ScalarConnectedComponentImageFilter with
     *  DistanceThreshold 0), labeled in raster order of their first pixels;
     *  GetInputLabelOfObject gives the value of each. */
    LabelValueComponents = 2
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

// One value per cca::Algorithm, in its order: the filter passes the value
// on as is, and the engine names it (the check names the last value).
static_assert(static_cast<std::size_t>(CudaLabelStatisticsEnums::Algorithm::TM_Late) + 1 ==
                sizeof(cca::AllAlgorithms) / sizeof(cca::AllAlgorithms[0]),
              "CudaLabelStatisticsEnums::Algorithm must mirror cca::Algorithm, value for value");

inline std::ostream &
operator<<(std::ostream & out, const CudaLabelStatisticsEnums::Algorithm value)
{
  const auto index = static_cast<std::size_t>(value);
  if (index < sizeof(cca::AllAlgorithms) / sizeof(cca::AllAlgorithms[0]))
  {
    return out << "itk::CudaLabelStatisticsEnums::Algorithm::"
               << cca::AlgorithmName(static_cast<cca::Algorithm>(index));
  }
  return out << "INVALID VALUE FOR itk::CudaLabelStatisticsEnums::Algorithm";
}

inline std::ostream &
operator<<(std::ostream & out, const CudaLabelStatisticsEnums::FeatureCompaction value)
{
  switch (value)
  {
    case CudaLabelStatisticsEnums::FeatureCompaction::Scan:
      return out << "itk::CudaLabelStatisticsEnums::FeatureCompaction::Scan";
    case CudaLabelStatisticsEnums::FeatureCompaction::TreeMerge:
      return out << "itk::CudaLabelStatisticsEnums::FeatureCompaction::TreeMerge";
    case CudaLabelStatisticsEnums::FeatureCompaction::None:
      return out << "itk::CudaLabelStatisticsEnums::FeatureCompaction::None";
  }
  return out << "INVALID VALUE FOR itk::CudaLabelStatisticsEnums::FeatureCompaction";
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

static_assert(static_cast<int>(CudaLabelStatisticsEnums::Objects::LabelValueComponents) ==
                static_cast<int>(cca::Objects::LabelValueComponents),
              "CudaLabelStatisticsEnums::Objects must mirror cca::Objects, value for value");

inline std::ostream &
operator<<(std::ostream & out, const CudaLabelStatisticsEnums::Objects value)
{
  switch (value)
  {
    case CudaLabelStatisticsEnums::Objects::ForegroundComponents:
    case CudaLabelStatisticsEnums::Objects::LabelValues:
    case CudaLabelStatisticsEnums::Objects::LabelValueComponents:
      return out << "itk::CudaLabelStatisticsEnums::Objects::" << cca::ObjectsName(static_cast<cca::Objects>(value));
  }
  return out << "INVALID VALUE FOR itk::CudaLabelStatisticsEnums::Objects";
}

} // end namespace itk

#endif
