// Making label objects on many threads, apart from the rest of a LabelMap
// build (issue 10): what ITK's object factories and glibc's heap growth add.
// T threads make N StatisticsLabelObject<SizeValueType, 3> between them, each
// with two lines, and keep them all until the end, as the filter's LabelMap
// builder does; the memory is fresh, as in a program's first Update(), so
// each configuration runs once per process.
//
// Usage: cca_label_objects_benchmark [--objects N] [--threads T] [--io-factories] [--new] [--grow-heaps]
//        [--insert [--add-label-object] [--block B] [--prefault-nodes]]
//   --objects: objects to make (default 4,000,000, about 5 GB)
//   --threads: threads making them (default: the host's cores)
//   --io-factories: registers ITK's NRRD, NIfTI, MetaImage, VTK and TIFF
//                   image IO factories first, as an application reading
//                   images through ITK has them
//   --new: LabelObjectType::New(), which asks every factory for every object,
//          instead of the builder's MakeLabelObject (asks once)
//   --grow-heaps: glibc's heaps grown 64 MiB at a time (a cca::MallocHeapSteps
//                 alive), as the builder has them for 65536 objects or more
//   --insert: then one more thread inserts them all into a LabelMap as the
//             builder's inserter does (InsertBlock: appended to the map's
//             container), timed apart: the serial part of a LabelMap build
//   --add-label-object: with --insert, through AddLabelObject in blocks in
//             BalancedOrder, as the builder inserts into maps whose container
//             it does not reach
//   --block B: with --insert, blocks of B objects (default: the builder's
//              InsertionBlockObjects)
//   --prefault-nodes: with --insert, the inserting thread first takes and
//                     frees one map node's worth of memory per object (timed
//                     apart), so that the map's nodes reuse memory already
//                     written: the insertion without its first page faults
// Prints one line: the configuration, the wall time and ns per object (and
// the insertion's).
#include "ImageIOFactories.h"
#include "WallClock.h"

#include "itkCudaLabelStatisticsLabelMapBuilder.h"
#include "itkLabelMap.h"
#include "itkStatisticsLabelObject.h"

#include "cca/MallocHeaps.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

int
main(int argc, char * argv[])
{
  using ObjectType = itk::StatisticsLabelObject<itk::SizeValueType, 3>;
  using MapType = itk::LabelMap<ObjectType>;
  using Builder = itk::CudaLabelStatisticsLabelMapBuilder<MapType>;

  long long objects = 4000000;
  unsigned  threads = std::max(1u, std::thread::hardware_concurrency());
  bool      ioFactories = false;
  bool      useNew = false;
  bool      growHeaps = false;
  bool      insert = false;
  bool      prefault = false;
  long long blockObjects = static_cast<long long>(Builder::InsertionBlockObjects);
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    if (arg == "--objects" && i + 1 < argc)
      objects = std::max(1LL, std::stoll(argv[++i]));
    else if (arg == "--threads" && i + 1 < argc)
      threads = static_cast<unsigned>(std::max(1, std::stoi(argv[++i])));
    else if (arg == "--io-factories")
      ioFactories = true;
    else if (arg == "--new")
      useNew = true;
    else if (arg == "--grow-heaps")
      growHeaps = true;
    else if (arg == "--insert")
      insert = true;
    else if (arg == "--block" && i + 1 < argc)
      blockObjects = std::max(1LL, std::stoll(argv[++i]));
    else if (arg == "--prefault-nodes")
      prefault = true;
    else if (arg == "--add-label-object")
      Builder::SetAppendToContainer(false);
    else
    {
      std::cerr
        << "usage: " << argv[0]
        << " [--objects N] [--threads T] [--io-factories] [--new] [--grow-heaps] [--insert] [--add-label-object]"
           " [--block B]"
           " [--prefault-nodes]\n";
      return 2;
    }
  }
  if (ioFactories)
  {
    cca::benchmark::RegisterImageIOFactories();
  }
  std::optional<cca::MallocHeapSteps> heapSteps;
  if (growHeaps)
  {
    heapSteps.emplace();
  }
  const bool grown = heapSteps && heapSteps->Active();

  const auto                                    start = cca::benchmark::Clock::now();
  const bool                                    factoryMade = useNew || Builder::FactoryOverridesLabelObjects();
  std::vector<std::vector<ObjectType::Pointer>> made(threads);
  std::vector<std::thread>                      workers;
  for (unsigned t = 0; t < threads; ++t)
  {
    workers.emplace_back([&, t] {
      const long long first = objects * t / threads;
      const long long last = objects * (t + 1) / threads;
      made[t].reserve(static_cast<std::size_t>(last - first));
      for (long long k = first; k < last; ++k)
      {
        ObjectType::Pointer object = Builder::MakeLabelObject(factoryMade);
        object->SetLabel(static_cast<ObjectType::LabelType>(k + 1));
        ObjectType::IndexType index{ { k % 1000, k / 1000 % 1000, k / 1000000 } };
        object->AddLine(index, 3);
        index[1] += 1;
        object->AddLine(index, 2);
        made[t].push_back(object);
      }
    });
  }
  for (auto & w : workers)
  {
    w.join();
  }
  const double ms = cca::benchmark::MillisecondsSince(start);
  std::printf("objects %lld threads %u factories %zu maker %s heaps %s: %.1f ms, %.1f ns an object\n",
              objects,
              threads,
              itk::ObjectFactoryBase::GetRegisteredFactories().size(),
              useNew ? "New()" : "MakeLabelObject",
              grown ? "grown-64MiB" : "glibc-default",
              ms,
              ms * 1e6 / static_cast<double>(objects));
  if (insert)
  {
    // In label order, as the builder's chunks arrive; the map is released
    // after the timing, as the filter's output outlives the build.
    std::vector<ObjectType::Pointer> all;
    all.reserve(static_cast<std::size_t>(objects));
    for (auto & list : made)
    {
      all.insert(all.end(), list.begin(), list.end());
      list.clear();
    }
    MapType::Pointer                  map = MapType::New();
    cca::benchmark::Clock::time_point insertStart;
    std::thread                       inserter([&] {
      if (prefault)
      {
        // glibc keeps freed chunks of a map node's size (libstdc++: the
        // pair and 32 bytes of tree links) on this thread's lists, and the
        // map's node allocations take them back.
        const auto          prefaultStart = cca::benchmark::Clock::now();
        std::vector<void *> nodes(all.size());
        for (auto & node : nodes)
        {
          node = std::malloc(sizeof(std::pair<const ObjectType::LabelType, ObjectType::Pointer>) + 32);
        }
        for (std::size_t k = nodes.size(); k-- > 0;)
        {
          std::free(nodes[k]);
        }
        std::printf("  prefaulted %zu map nodes on the inserting thread: %.1f ms\n",
                    nodes.size(),
                    cca::benchmark::MillisecondsSince(prefaultStart));
      }
      insertStart = cca::benchmark::Clock::now();
      const auto block = static_cast<std::size_t>(blockObjects);
      const auto full = Builder::BalancedOrder(block);
      for (std::size_t begin = 0; begin < all.size(); begin += block)
      {
        const std::size_t count = std::min(block, all.size() - begin);
        Builder::InsertBlock(map.GetPointer(), all.data() + begin, count, full);
      }
    });
    inserter.join();
    const double insertMs = cca::benchmark::MillisecondsSince(insertStart);
    std::printf(
      "  inserted %zu objects into a LabelMap on one thread (%s), blocks of %lld: %.1f ms, %.1f ns an object\n",
      static_cast<std::size_t>(map->GetNumberOfLabelObjects()),
      Builder::AppendableContainer(map.GetPointer()) ? "appended" : "AddLabelObject",
      blockObjects,
      insertMs,
      insertMs * 1e6 / static_cast<double>(objects));
  }
  return 0;
}
