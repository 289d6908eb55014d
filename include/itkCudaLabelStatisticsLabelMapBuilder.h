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
#ifndef itkCudaLabelStatisticsLabelMapBuilder_h
#define itkCudaLabelStatisticsLabelMapBuilder_h

#include "itkCudaLabelStatisticsShapeAttributes.h"

#include "cca/Types.h"

#include "itkMultiThreaderBase.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace itk
{

/** \class CudaLabelStatisticsLabelMapBuilder
 * \brief Fills an ordinary LabelMap with one label object per component of
 * an engine result: its lines and its shape attributes.
 *
 * A LabelMap keeps its objects in one std::map, which only AddLabelObject
 * fills, one object at a time: a serial O(log n) insertion per object, which
 * for millions of components costs as much as making all the objects on
 * every core. So both run at once: the objects are made in chunks of
 * consecutive labels by the threader's work units, which take the chunks in
 * label order, and one more thread inserts each chunk as soon as it is made,
 * in label order, fetching the next objects ahead of the insertion. The
 * attributes reuse the eigensystems of earlier components with the same
 * central moments (CudaLabelStatisticsShapeAttributes::Memo).
 *
 * \ingroup CudaLabelStatistics
 */
template <typename TLabelMap>
class CudaLabelStatisticsLabelMapBuilder
{
public:
  using LabelObjectType = typename TLabelMap::LabelObjectType;
  using LabelType = typename TLabelMap::LabelType;
  using IndexType = typename TLabelMap::IndexType;
  using AttributesType = CudaLabelStatisticsShapeAttributes<TLabelMap>;
  static constexpr unsigned int Dimension = TLabelMap::ImageDimension;

  /** Objects per chunk at most: small enough that the insertion follows the
   *  making closely, large enough that taking a chunk costs nothing. */
  static constexpr SizeValueType ChunkObjects = 512;

  /** Objects per chunk for `components` objects and `makers` work units:
   *  at least four chunks per work unit, so that a few hundred costly objects
   *  (each with a histogram of 65536 bins) keep every work unit busy. */
  static SizeValueType
  ObjectsPerChunk(SizeValueType components, SizeValueType makers)
  {
    const SizeValueType share = (components + 4 * makers - 1) / (4 * makers);
    return std::max<SizeValueType>(1, std::min(ChunkObjects, share));
  }

  /** Takes no further attributes. */
  struct NoMoreAttributes
  {
    void
    operator()(SizeValueType, LabelObjectType &) const
    {}
  };

  /** Adds the components of result to map: component k (1-based) gets label
   *  labelOf(k), runs offset by regionIndex, its shape attributes, and then
   *  whatever more(k - 1, object) assigns (the intensity attributes). Uses
   *  the threader's work units and one more thread. */
  template <typename TLabelOf, typename TMoreAttributes = NoMoreAttributes>
  static void
  Build(const cca::Result &    result,
        const IndexType &      regionIndex,
        const AttributesType & attributes,
        TLabelOf               labelOf,
        MultiThreaderBase *    threader,
        TLabelMap *            map,
        TMoreAttributes        more = TMoreAttributes{})
  {
    const auto components = static_cast<SizeValueType>(result.componentCount);
    if (components == 0)
    {
      return;
    }
    const SizeValueType makers =
      std::max<SizeValueType>(1, static_cast<SizeValueType>(threader->GetMaximumNumberOfThreads()) - 1);
    const SizeValueType                            chunkObjects = ObjectsPerChunk(components, makers);
    const SizeValueType                            chunks = (components + chunkObjects - 1) / chunkObjects;
    std::vector<typename LabelObjectType::Pointer> objects(components);
    std::unique_ptr<std::atomic<bool>[]>           made(new std::atomic<bool>[chunks]);
    for (SizeValueType c = 0; c < chunks; ++c)
    {
      made[c].store(false, std::memory_order_relaxed);
    }
    std::atomic<SizeValueType> nextChunk{ 0 };
    std::atomic<bool>          failed{ false };
    std::exception_ptr         makerError;
    std::exception_ptr         inserterError;
    std::mutex                 errorMutex;

    std::thread inserter([&] {
      try
      {
        for (SizeValueType c = 0; c < chunks; ++c)
        {
          while (!made[c].load(std::memory_order_acquire))
          {
            if (failed.load(std::memory_order_relaxed))
            {
              return;
            }
            std::this_thread::yield();
          }
          const SizeValueType begin = c * chunkObjects;
          const SizeValueType end = std::min(components, begin + chunkObjects);
          for (SizeValueType k = begin; k < end; ++k)
          {
            // The objects were made on other cores: fetch them ahead.
            constexpr SizeValueType ahead = 8;
            if (k + ahead < end)
            {
              PrefetchForWrite(objects[k + ahead].GetPointer());
            }
            map->AddLabelObject(objects[k]);
            objects[k] = nullptr; // the map holds it now; released while it is in cache
          }
        }
      }
      catch (...)
      {
        inserterError = std::current_exception();
        failed = true;
      }
    });

    threader->ParallelizeArray(
      0,
      makers,
      [&](SizeValueType) {
        // No exception may leave a work unit: the others and the inserter use this frame.
        try
        {
          typename AttributesType::Memo memo;
          for (;;)
          {
            const SizeValueType c = nextChunk.fetch_add(1);
            if (c >= chunks || failed.load(std::memory_order_relaxed))
            {
              return;
            }
            const SizeValueType end = std::min(components, (c + 1) * chunkObjects);
            for (SizeValueType k = c * chunkObjects; k < end; ++k)
            {
              objects[k] = MakeObject(result, k, regionIndex, attributes, labelOf, memo);
              more(k, *objects[k]);
            }
            made[c].store(true, std::memory_order_release);
          }
        }
        catch (...)
        {
          std::lock_guard<std::mutex> lock(errorMutex);
          if (!makerError)
          {
            makerError = std::current_exception();
          }
          failed = true;
        }
      },
      nullptr);
    inserter.join();
    if (makerError)
    {
      std::rethrow_exception(makerError);
    }
    if (inserterError)
    {
      std::rethrow_exception(inserterError);
    }
  }

private:
  template <typename TLabelOf>
  static typename LabelObjectType::Pointer
  MakeObject(const cca::Result &             result,
             SizeValueType                   k,
             const IndexType &               regionIndex,
             const AttributesType &          attributes,
             TLabelOf &                      labelOf,
             typename AttributesType::Memo & memo)
  {
    typename LabelObjectType::Pointer object = LabelObjectType::New();
    object->SetLabel(static_cast<LabelType>(labelOf(static_cast<std::int64_t>(k) + 1)));
    const cca::Run *   runs = result.runs.data() + result.runOffsets[k];
    const std::int64_t runCount = result.runOffsets[k + 1] - result.runOffsets[k];
    for (std::int64_t i = 0; i < runCount; ++i)
    {
      IndexType index = regionIndex;
      index[0] += runs[i].x;
      index[1] += runs[i].y;
      if (Dimension == 3)
      {
        index[Dimension - 1] += runs[i].z;
      }
      object->AddLine(index, static_cast<SizeValueType>(runs[i].length));
    }
    attributes.Assign(result.features[k], runs, runCount, *object, memo);
    return object;
  }

  static void
  PrefetchForWrite(const void * address)
  {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(address, 1, 3);
#else
    (void)address;
#endif
  }
};

} // end namespace itk

#endif
