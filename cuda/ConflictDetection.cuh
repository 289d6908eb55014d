// Conflict detection (Lemaitre 2021 Alg. 3): before voting into a shared table,
// the lanes of a warp that hold the same key find each other with
// __match_any_sync and fold their values into the lowest such lane with a
// masked tree reduction, so only one lane per key and warp touches memory.
#ifndef cca_cuda_ConflictDetection_cuh
#define cca_cuda_ConflictDetection_cuh

#include "DeviceGeometry.cuh"

#include <cstring>
#include <type_traits>

namespace cca
{
namespace cuda
{

/** __shfl_sync of any trivially copyable value, 32 bits at a time. */
template <class T>
__device__ __forceinline__ T
ShuffleValue(const T & value, int sourceLane)
{
  static_assert(std::is_trivially_copyable<T>::value && sizeof(T) % 4 == 0, "shuffled values are 32-bit words");
  constexpr int Words = sizeof(T) / 4;
  unsigned      words[Words];
  std::memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int w = 0; w < Words; ++w)
  {
    words[w] = __shfl_sync(FullWarp, words[w], sourceLane);
  }
  T result;
  std::memcpy(&result, words, sizeof(T));
  return result;
}

/** All 32 lanes must call this, with peers = __match_any_sync(FullWarp, key).
 *  Folds the values of lanes with equal keys into the lowest of those lanes
 *  and returns true there (the leader); the others return false. Each round
 *  of the tree calls foldFrom(source, fold) on every lane: foldFrom reads
 *  the value of lane source with ShuffleValue (every lane, as __shfl_sync
 *  requires) and adds it to its own where fold is true. A large value can
 *  so be shuffled part by part, holding one part twice at a time, not the
 *  whole value. The fold must be associative and commutative. */
template <class FoldFrom>
__device__ __forceinline__ bool
WarpFoldPeers(unsigned peers, FoldFrom && foldFrom)
{
  unsigned   rank = __popc(peers & LanesBelow());
  const bool leader = rank == 0;
  peers &= LanesAbove();
  // Each round, every surviving lane adds the next surviving peer above it;
  // lanes of odd rank then drop out (a tree over non-contiguous lanes).
  while (__any_sync(FullWarp, peers != 0))
  {
    const int next = __ffs(peers); // 1-based; 0 when no peer is left above
    foldFrom(next == 0 ? static_cast<int>(LaneId()) : next - 1, next != 0);
    peers &= __ballot_sync(FullWarp, (rank & 1) == 0);
    rank >>= 1;
  }
  return leader;
}

/** WarpFoldPeers for a whole value: combine(value, other) adds other. */
template <class Key, class Value, class Combine>
__device__ __forceinline__ bool
WarpCombineByKey(Key key, Value & value, Combine && combine)
{
  return WarpFoldPeers(__match_any_sync(FullWarp, key), [&](int source, bool fold) {
    const Value other = ShuffleValue(value, source);
    if (fold)
    {
      combine(value, other);
    }
  });
}

} // namespace cuda
} // namespace cca

#endif
