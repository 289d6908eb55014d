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
#ifndef itkCudaLabelStatisticsLabelObjectContainer_h
#define itkCudaLabelStatisticsLabelObjectContainer_h

#include "itkLabelMap.h"
#include "itkShapeLabelObject.h"
#include "itkStatisticsLabelObject.h"

#include <map>
#include <type_traits>

namespace itk
{

/** \class CudaLabelStatisticsLabelObjectContainer
 * \brief The std::map in which a LabelMap keeps its label objects, reached so
 * that the LabelMap builder can append objects at its end.
 *
 * LabelMap::AddLabelObject, the only insertion of LabelMap's interface, finds
 * the place of every label by a search from the root of the tree
 * (std::map::operator[]): some 40 dependent loads at ten million objects, 150
 * to 300 ns an object on one thread, which bounds the LabelMap of millions of
 * components however many threads make the objects. Labels arriving in
 * increasing order need no search: std::map::emplace_hint with the end as the
 * hint inserts in constant time (about 30 ns). LabelMap offers neither a
 * hinted nor a bulk insertion, and keeps the map private.
 *
 * Of() returns that private map. The library CudaLabelStatisticsLabelMaps
 * defines it, in one translation unit, for the LabelMap types that Listed
 * names: there a pointer to the member is taken inside explicit
 * instantiations, where C++ does not check access ([temp.explicit]: "the
 * usual access checking rules do not apply to names used to specify explicit
 * instantiations"), once per type in the program as the rule for explicit
 * instantiations asks. The map so filled is the one AddLabelObject fills: the
 * same objects under the same keys; the builder calls Modified() as
 * AddLabelObject does.
 *
 * Of() returns nullptr when that library was built against an ITK whose
 * LabelMap it does not know (ITK 4 and 5 keep the objects in
 * `std::map<LabelType, LabelObjectPointerType> m_LabelObjectContainer`; other
 * major versions are not assumed to), and is not defined for types outside
 * Listed: for those the builder inserts through AddLabelObject.
 *
 * \ingroup CudaLabelStatistics
 */
template <typename TLabelMap>
struct CudaLabelStatisticsLabelObjectContainer
{
  using LabelType = typename TLabelMap::LabelType;
  using LabelObjectType = typename TLabelMap::LabelObjectType;
  using ContainerType = std::map<LabelType, typename LabelObjectType::Pointer>;

private:
  template <typename TLabel>
  static constexpr bool ListedLabel = std::is_same_v<TLabel, unsigned char> || std::is_same_v<TLabel, unsigned short> ||
                                      std::is_same_v<TLabel, unsigned int> || std::is_same_v<TLabel, unsigned long> ||
                                      std::is_same_v<TLabel, unsigned long long>;

  static constexpr bool ListedObject =
    std::is_same_v<LabelObjectType, ShapeLabelObject<LabelType, TLabelMap::ImageDimension>> ||
    std::is_same_v<LabelObjectType, StatisticsLabelObject<LabelType, TLabelMap::ImageDimension>>;

public:
  /** Whether the library defines Of() for TLabelMap: a LabelMap of
   *  ShapeLabelObject or StatisticsLabelObject of an unsigned label type, in
   *  2 or 3 dimensions (the types of src/labelmaps/). */
  static constexpr bool Listed = std::is_same_v<TLabelMap, LabelMap<LabelObjectType>> && ListedLabel<LabelType> &&
                                 ListedObject && (TLabelMap::ImageDimension == 2 || TLabelMap::ImageDimension == 3);

  /** The map's container, or nullptr where the library does not reach it.
   *  Defined for the Listed types only. */
  static ContainerType *
  Of(TLabelMap & map);
};

} // end namespace itk

#endif
