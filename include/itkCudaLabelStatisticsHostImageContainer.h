/*=========================================================================
 *
 *  Copyright NumFOCUS
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
#ifndef itkCudaLabelStatisticsHostImageContainer_h
#define itkCudaLabelStatisticsHostImageContainer_h

#include "itkImportImageContainer.h"

#include "cca/HostImageMemory.h"

#include <type_traits>

namespace itk
{

/** \class CudaLabelStatisticsHostImageContainer
 * \brief An image's pixel container whose large buffers come from the
 * engine's host image pool (cca::HostImageMemory).
 *
 * CudaLabelStatisticsImageFilter gives its label image this container when
 * the labels come from the GPU: a buffer of at least
 * cca::HostImageMemory::MinimumBytes then comes from the pool, and goes back
 * to it when the image releases it, so that the label image of the next
 * filter of about that size reuses memory whose pages exist already, and
 * from its third use on is page-locked and filled by DMA at the bus's speed.
 * Smaller buffers, buffers asked zeroed, and any buffer the pool cannot give
 * come from `new[]` as in ImportImageContainer. The image is an ordinary
 * itk::Image to every filter.
 *
 * \ingroup CudaLabelStatistics
 */
template <typename TElementIdentifier, typename TElement>
class ITK_TEMPLATE_EXPORT CudaLabelStatisticsHostImageContainer
  : public ImportImageContainer<TElementIdentifier, TElement>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(CudaLabelStatisticsHostImageContainer);

  using Self = CudaLabelStatisticsHostImageContainer;
  using Superclass = ImportImageContainer<TElementIdentifier, TElement>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;
  using ElementIdentifier = TElementIdentifier;
  using Element = TElement;

  static_assert(std::is_arithmetic<TElement>::value, "the pool's memory holds pixels of arithmetic types");

  itkNewMacro(Self);
  itkTypeMacro(CudaLabelStatisticsHostImageContainer, ImportImageContainer);

protected:
  CudaLabelStatisticsHostImageContainer() = default;
  ~CudaLabelStatisticsHostImageContainer() override
  {
    // Here, not in ImportImageContainer's destructor, which would call its
    // own DeallocateManagedMemory (delete[]) on a block of the pool.
    DeallocateManagedMemory();
  }

  TElement *
  AllocateElements(ElementIdentifier size, bool useDefaultConstructor = false) const override
  {
    if (!useDefaultConstructor && size > 0)
    {
      if (void * memory = cca::HostImageMemory::Acquire(static_cast<std::size_t>(size) * sizeof(TElement)))
      {
        return static_cast<TElement *>(memory);
      }
    }
    return Superclass::AllocateElements(size, useDefaultConstructor);
  }

  void
  DeallocateManagedMemory() override
  {
    TElement * memory = this->GetImportPointer();
    // Release says whether memory was a block of the pool; a buffer from
    // new[] or imported goes ImportImageContainer's way.
    if (memory != nullptr && this->GetContainerManageMemory() && cca::HostImageMemory::Release(memory))
    {
      this->SetImportPointer(nullptr);
      this->SetCapacity(0);
      this->SetSize(0);
    }
    else
    {
      Superclass::DeallocateManagedMemory();
    }
  }
};

} // namespace itk

#endif
