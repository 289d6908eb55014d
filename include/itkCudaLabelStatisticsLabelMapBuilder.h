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

#include "itkCudaLabelStatisticsLabelObjectContainer.h"
#include "itkCudaLabelStatisticsShapeAttributes.h"

#include "cca/MallocHeaps.h"
#include "cca/Types.h"

#include "itkMultiThreaderBase.h"
#include "itkObjectFactory.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace itk
{

/** \class CudaLabelStatisticsLabelMapBuilder
 * \brief Fills an ordinary LabelMap with one label object per component of
 * an engine result: its lines and its shape attributes.
 *
 * A LabelMap keeps its objects in one std::map, filled one object at a
 * time: a serial insertion per object, which for millions of components
 * costs as much as making all the objects on every core. So both run at
 * once: the objects are made in chunks of consecutive labels by the
 * threader's work units, which take the chunks in label order, and one more
 * thread inserts them as soon as a block of chunks is made.
 *
 * For the LabelMap types whose container the module reaches
 * (CudaLabelStatisticsLabelObjectContainer: ShapeLabelObject and
 * StatisticsLabelObject maps of unsigned labels, with ITK 4 or 5) the
 * inserter appends each object at the end of the map with the end as the
 * hint, in constant time, since the labels arrive in increasing order (a
 * label below the last one is placed by a search, as AddLabelObject places
 * it).
 *
 * Other maps get AddLabelObject, which finds the place of each label from the
 * root of the tree (std::map::operator[]; the container takes no hint). With
 * labels inserted in increasing order that walk runs down the tree's right
 * spine, about 2 log2(n) nodes, each load waiting for the one before: some
 * 170 ns an object at ten million objects, most of the insertion. A block's
 * objects are inserted in BalancedOrder instead (the middle label first, then
 * the middles of the halves): each block becomes a balanced subtree, the
 * walks are shorter and stay on nodes still in cache. That halves the
 * insertion (std::map of 10^7 keys: 170 -> 80 ns a key; the LabelMap of 4.4
 * million objects on 2 cores: 240..360 -> 150..170 ns an object), and the map
 * holds the same objects under the same (distinct) labels in any order.
 *
 * Either way the inserter fetches the two cache lines of each object that
 * the insertion touches ahead, since another core made it.
 *
 * The attributes reuse the eigensystems of earlier components with the same
 * central moments (CudaLabelStatisticsShapeAttributes::Memo).
 *
 * Two costs of making millions of objects lie outside ITK's objects
 * themselves. LabelObjectType::New() asks every object factory registered in
 * the process whether it overrides the class, a string lookup per factory
 * per object (about 45 ns a factory: an application with ITK's image IO
 * factories registered spends more asking than making); the factories are
 * asked once per Build, and when none overrides the class the objects are
 * constructed directly, as New() would then construct them (MakeLabelObject).
 * And glibc's malloc makes the heaps of the threads writable page by page,
 * each step a system call that stops every other thread's page faults; for
 * ManyObjects objects or more Build has it grow them in 64 MiB steps while it
 * runs (cca::MallocHeapSteps, which says what that costs the process).
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

  /** Objects the inserter takes at a time at most, in BalancedOrder. */
  static constexpr SizeValueType InsertionBlockObjects = 4096;

  /** Objects (about 80 MiB of them) from which Build has glibc's malloc grow
   *  heaps in large steps while it runs (cca::MallocHeapSteps). */
  static constexpr SizeValueType ManyObjects = 65536;

  /** Chunks per work unit at least, where the objects allow: objects differ
   *  in cost by orders of magnitude (a ball of 4000 voxels and one of 30, or
   *  a histogram of 65536 bins each), and the work units that take the cheap
   *  chunks must be able to take more while one makes an expensive one. H100
   *  machine, 16 threads, LabelMap of 60000 small balls (53,640 objects),
   *  three rounds: 12.3 ms with 4 chunks a work unit, 10.3-11.1 with 64; the
   *  CT-like masks (2,600 objects) and 8192^2 g = 16 unchanged
   *  (benchmark/results/h100-labelmap-append/chunks). */
  static constexpr SizeValueType ChunksPerMaker = 64;

  /** Objects per chunk for `components` objects and `makers` work units. */
  static SizeValueType
  ObjectsPerChunk(SizeValueType components, SizeValueType makers)
  {
    const SizeValueType share = (components + ChunksPerMaker * makers - 1) / (ChunksPerMaker * makers);
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
    std::optional<cca::MallocHeapSteps> heapSteps; // for this Build only
    if (components >= ManyObjects)
    {
      heapSteps.emplace();
    }
    const bool          factoryMade = FactoryOverridesLabelObjects();
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

    // Insertion blocks: whole chunks, at most InsertionBlockObjects objects,
    // and at least 16 blocks where there are enough chunks, so that the
    // insertion follows the making closely.
    const SizeValueType chunksPerBlock =
      std::max<SizeValueType>(1, std::min(InsertionBlockObjects / chunkObjects, chunks / 16));
    const SizeValueType blockObjects = chunksPerBlock * chunkObjects;

    std::thread inserter([&] {
      try
      {
        // The order of a full block, for maps filled through AddLabelObject only.
        const std::vector<SizeValueType> fullBlockOrder = AppendableContainer(map) != nullptr
                                                            ? std::vector<SizeValueType>{}
                                                            : BalancedOrder(std::min(components, blockObjects));
        for (SizeValueType firstChunk = 0; firstChunk < chunks; firstChunk += chunksPerBlock)
        {
          const SizeValueType endChunk = std::min(chunks, firstChunk + chunksPerBlock);
          for (SizeValueType c = firstChunk; c < endChunk; ++c)
          {
            while (!made[c].load(std::memory_order_acquire))
            {
              if (failed.load(std::memory_order_relaxed))
              {
                return;
              }
              std::this_thread::yield();
            }
          }
          const SizeValueType begin = firstChunk * chunkObjects;
          const SizeValueType count = std::min(components, endChunk * chunkObjects) - begin;
          InsertBlock(map, objects.data() + begin, count, fullBlockOrder);
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
              objects[k] = MakeObject(result, k, regionIndex, attributes, labelOf, memo, factoryMade);
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

  /** Whether a factory registered in the process overrides LabelObjectType
   *  (asked once per Build). */
  static bool
  FactoryOverridesLabelObjects()
  {
    return ObjectFactory<LabelObjectType>::Create().IsNotNull();
  }

  /** A new label object: from New() when a registered factory overrides the
   *  class (factoryMade, from FactoryOverridesLabelObjects), else constructed
   *  directly. */
  static typename LabelObjectType::Pointer
  MakeLabelObject(bool factoryMade)
  {
    if constexpr (std::is_final_v<LabelObjectType>)
    {
      return LabelObjectType::New();
    }
    else
    {
      return factoryMade ? LabelObjectType::New() : DirectlyMadeLabelObject::Make();
    }
  }

  /** Whether Build and InsertBlock append to the map's container where the
   *  module reaches it (the default), or insert every object through
   *  AddLabelObject: for the tests and benchmarks that compare the two. */
  static void
  SetAppendToContainer(bool append)
  {
    s_AppendToContainer.store(append, std::memory_order_relaxed);
  }
  static bool
  GetAppendToContainer()
  {
    return s_AppendToContainer.load(std::memory_order_relaxed);
  }

  /** The container InsertBlock appends to, or nullptr where objects go
   *  through AddLabelObject. */
  static typename CudaLabelStatisticsLabelObjectContainer<TLabelMap>::ContainerType *
  AppendableContainer(TLabelMap * map)
  {
    if constexpr (CudaLabelStatisticsLabelObjectContainer<TLabelMap>::Listed)
    {
      if (GetAppendToContainer())
      {
        return CudaLabelStatisticsLabelObjectContainer<TLabelMap>::Of(*map);
      }
    }
    return nullptr;
  }

  /** Adds block[0 .. count) to map, releasing each pointer of block once the
   *  map holds the object: the inserter's work. Appended in label order
   *  where the container is reached (AppendableContainer), else through
   *  AddLabelObject in BalancedOrder(count) (explained above). fullOrder, the
   *  order of a full block, serves every block of its size; a shorter one
   *  gets its own. */
  static void
  InsertBlock(TLabelMap *                         map,
              typename LabelObjectType::Pointer * block,
              SizeValueType                       count,
              const std::vector<SizeValueType> &  fullOrder)
  {
    if (auto * container = AppendableContainer(map))
    {
      AppendBlock(*map, *container, block, count);
      return;
    }
    if (count != fullOrder.size())
    {
      InsertBlock(map, block, count, BalancedOrder(count));
      return;
    }
    InsertInOrder(
      block,
      count,
      [&fullOrder](SizeValueType i) { return fullOrder[i]; },
      [map](typename LabelObjectType::Pointer & object) { map->AddLabelObject(object); });
  }

  /** 0 .. count - 1 in the order a breadth-first walk of the balanced binary
   *  search tree over them visits them: the middle first, then the middles
   *  of the halves, and so on. */
  static std::vector<SizeValueType>
  BalancedOrder(SizeValueType count)
  {
    std::vector<SizeValueType>                           order;
    std::vector<std::pair<SizeValueType, SizeValueType>> ranges{ { 0, count } };
    order.reserve(count);
    ranges.reserve(2 * count + 1);
    for (std::size_t r = 0; r < ranges.size(); ++r)
    {
      const auto [first, last] = ranges[r];
      if (first < last)
      {
        const SizeValueType middle = first + (last - first) / 2;
        order.push_back(middle);
        ranges.emplace_back(first, middle);
        ranges.emplace_back(middle + 1, last);
      }
    }
    return order;
  }

private:
  inline static std::atomic<bool> s_AppendToContainer{ true };

  /** insert(block[order(i)]) for i = 0 .. count - 1, then the block's
   *  pointer released (the map holds the object now) while it is in cache.
   *  The objects were made on other cores: the two cache lines the insertion
   *  touches (reference count, label) are fetched ahead. */
  template <typename TOrder, typename TInsert>
  static void
  InsertInOrder(typename LabelObjectType::Pointer * block, SizeValueType count, TOrder order, TInsert insert)
  {
    for (SizeValueType i = 0; i < count; ++i)
    {
      constexpr SizeValueType ahead = 16;
      if (i + ahead < count)
      {
        PrefetchObject(block[order(i + ahead)].GetPointer());
      }
      auto & object = block[order(i)];
      insert(object);
      object = nullptr; // moved from where SmartPointer moves (ITK 5), still held where it copies (ITK 4)
    }
  }

  /** What AddLabelObject does for each object of block, in constant time for
   *  a label above the map's last: the same key, the object replacing one
   *  already there under it, and Modified(). */
  static void
  AppendBlock(TLabelMap &                                                                  map,
              typename CudaLabelStatisticsLabelObjectContainer<TLabelMap>::ContainerType & container,
              typename LabelObjectType::Pointer *                                          block,
              SizeValueType                                                                count)
  {
    InsertInOrder(
      block,
      count,
      [](SizeValueType i) { return i; },
      [&container](typename LabelObjectType::Pointer & object) {
        const LabelType label = object->GetLabel();
        if (container.empty() || container.rbegin()->first < label)
        {
          container.emplace_hint(container.end(), label, std::move(object));
        }
        else
        {
          container[label] = std::move(object);
        }
      });
    map.Modified();
  }

  /** LabelObjectType, made as by New() but without asking the factories. It
   *  adds nothing to the class: ITK's filters, Clone() and the name of the
   *  class see a LabelObjectType. */
  class DirectlyMadeLabelObject final : public LabelObjectType
  {
  public:
    static typename LabelObjectType::Pointer
    Make()
    {
      typename LabelObjectType::Pointer object = new DirectlyMadeLabelObject;
      object->UnRegister(); // as New(): the returned pointer holds the only reference
      return object;
    }
  };

  template <typename TLabelOf>
  static typename LabelObjectType::Pointer
  MakeObject(const cca::Result &             result,
             SizeValueType                   k,
             const IndexType &               regionIndex,
             const AttributesType &          attributes,
             TLabelOf &                      labelOf,
             typename AttributesType::Memo & memo,
             bool                            factoryMade)
  {
    typename LabelObjectType::Pointer object = MakeLabelObject(factoryMade);
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

  /** Fetches the cache lines of the object's reference count (written by
   *  the map's SmartPointer) and of its label (read), which follows the
   *  line container in LabelObject; a hint only. */
  static void
  PrefetchObject(const LabelObjectType * object)
  {
#if defined(__GNUC__) || defined(__clang__)
    constexpr std::size_t labelOffset = sizeof(LightObject) + sizeof(std::deque<typename LabelObjectType::LineType>);
    __builtin_prefetch(object, 1, 3);
    __builtin_prefetch(reinterpret_cast<const char *>(object) + labelOffset, 0, 3);
#else
    (void)object;
#endif
  }
};

} // end namespace itk

#endif
