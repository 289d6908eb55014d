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
// CudaLabelStatisticsLabelObjectContainer<TLabelMap>::Of for the Listed label
// map types: the one translation unit of the program that names LabelMap's
// private container (the header says why).
#include "itkCudaLabelStatisticsLabelObjectContainer.h"

#include "itkVersion.h"

// The LabelMaps whose container was read: ITK 4 and 5 (checked against 4.x
// and 5.2's itkLabelMap.h), `std::map<LabelType, LabelObjectPointerType>
// m_LabelObjectContainer`. For another ITK Of() returns nullptr until its
// LabelMap has been checked and added here.
#if ITK_VERSION_MAJOR == 4 || ITK_VERSION_MAJOR == 5
#  define CCA_REACHES_LABEL_OBJECT_CONTAINER 1
#else
#  define CCA_REACHES_LABEL_OBJECT_CONTAINER 0
#endif

namespace itk
{
namespace
{
#if CCA_REACHES_LABEL_OBJECT_CONTAINER
template <typename TLabelMap>
using ContainerMemberPointer = typename CudaLabelStatisticsLabelObjectContainer<TLabelMap>::ContainerType TLabelMap::*;

// ContainerMember(ContainerMemberTag<M>{}) returns the pointer to M's private
// container. The tag declares the function (found by argument-dependent
// lookup); the explicit instantiation of ContainerMemberExposer for M below,
// the only place the member is named, defines it. Both are local to this
// file, which is why the friend declares a function and not a template.
#  if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wnon-template-friend"
#  endif
template <typename TLabelMap>
struct ContainerMemberTag
{
  friend ContainerMemberPointer<TLabelMap> ContainerMember(ContainerMemberTag);
};
#  if defined(__GNUC__) && !defined(__clang__)
#    pragma GCC diagnostic pop
#  endif

template <typename TLabelMap, ContainerMemberPointer<TLabelMap> VMember>
struct ContainerMemberExposer
{
  friend ContainerMemberPointer<TLabelMap>
  ContainerMember(ContainerMemberTag<TLabelMap>)
  {
    return VMember;
  }
};
#endif
} // namespace

template <typename TLabelMap>
typename CudaLabelStatisticsLabelObjectContainer<TLabelMap>::ContainerType *
CudaLabelStatisticsLabelObjectContainer<TLabelMap>::Of(TLabelMap & map)
{
  static_assert(Listed, "Of() is defined for the Listed label map types only");
#if CCA_REACHES_LABEL_OBJECT_CONTAINER
  return &(map.*ContainerMember(ContainerMemberTag<TLabelMap>{}));
#else
  (void)map;
  return nullptr;
#endif
}

#if CCA_REACHES_LABEL_OBJECT_CONTAINER
#  define CCA_EXPOSE_CONTAINER(TObject, TLabel, VDimension)                       \
    template struct ContainerMemberExposer<LabelMap<TObject<TLabel, VDimension>>, \
                                           &LabelMap<TObject<TLabel, VDimension>>::m_LabelObjectContainer>;
#else
#  define CCA_EXPOSE_CONTAINER(TObject, TLabel, VDimension)
#endif

// Every Listed type: both object types, the unsigned label types, 2D and 3D.
#define CCA_LABEL_OBJECT_CONTAINER(TObject, TLabel, VDimension) \
  CCA_EXPOSE_CONTAINER(TObject, TLabel, VDimension)             \
  template struct CudaLabelStatisticsLabelObjectContainer<LabelMap<TObject<TLabel, VDimension>>>;
#define CCA_LABEL_OBJECT_CONTAINERS(TObject, TLabel) \
  CCA_LABEL_OBJECT_CONTAINER(TObject, TLabel, 2)     \
  CCA_LABEL_OBJECT_CONTAINER(TObject, TLabel, 3)
#define CCA_LABEL_OBJECT_CONTAINERS_OF(TObject)        \
  CCA_LABEL_OBJECT_CONTAINERS(TObject, unsigned char)  \
  CCA_LABEL_OBJECT_CONTAINERS(TObject, unsigned short) \
  CCA_LABEL_OBJECT_CONTAINERS(TObject, unsigned int)   \
  CCA_LABEL_OBJECT_CONTAINERS(TObject, unsigned long)  \
  CCA_LABEL_OBJECT_CONTAINERS(TObject, unsigned long long)

CCA_LABEL_OBJECT_CONTAINERS_OF(ShapeLabelObject)
CCA_LABEL_OBJECT_CONTAINERS_OF(StatisticsLabelObject)

} // end namespace itk
