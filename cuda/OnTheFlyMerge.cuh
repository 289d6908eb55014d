// On-the-fly feature merge (OTF, Lemaitre 2021 Alg. 2; Alg. 10 of their GTC
// 2021 talk): every unit starts with its own features in a table indexed
// like the union-find; a union that makes root b point to root a also moves
// b's features into a.
// Votes then land on provisional labels spread over the whole component
// instead of piling up on its final root. Built from the union-find of
// UnionFind.cuh (FindRoot with path halving, atomicMin links to the smaller
// index) and the vote of RunVotes.cuh (PairVotes::Certain: the pairs
// known before labeling; the others are voted after labeling).
#ifndef cca_cuda_OnTheFlyMerge_cuh
#define cca_cuda_OnTheFlyMerge_cuh

#include "DeviceGeometry.cuh"
#include "FeatureUpdate.cuh"
#include "UnionFind.cuh"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Moves the features of entry from into entry to. Each field is taken with
 *  atomicExch (leaving the neutral value behind) and merged with the
 *  matching atomic, so a value is moved exactly once even when several
 *  threads move the same entry at the same time; every field is conserved. */
__device__ __forceinline__ void
MoveFeatures(ComponentFeatures & from, ComponentFeatures & to)
{
  auto move = [](auto & source, auto & target) {
    using Word = unsigned long long;
    const Word v = atomicExch(reinterpret_cast<Word *>(&source), Word{ 0 });
    if (v != 0)
    {
      atomicAdd(reinterpret_cast<Word *>(&target), v);
    }
  };
  move(from.pixelCount, to.pixelCount);
  for (int i = 0; i < 3; ++i)
  {
    const std::int32_t low = atomicExch(&from.boundingBoxMin[i], INT32_MAX);
    if (low != INT32_MAX)
    {
      atomicMin(&to.boundingBoxMin[i], low);
    }
    const std::int32_t high = atomicExch(&from.boundingBoxMax[i], -1);
    if (high != -1)
    {
      atomicMax(&to.boundingBoxMax[i], high);
    }
    move(from.coordinateSum[i], to.coordinateSum[i]);
  }
  for (int i = 0; i < 6; ++i)
  {
    move(from.coordinateProductSum[i], to.coordinateProductSum[i]);
    move(from.pixelsOnFace[i], to.pixelsOnFace[i]);
  }
  move(from.pixelsOnBorder, to.pixelsOnBorder);
  for (int i = 0; i < NumberOfInterceptSlots; ++i)
  {
    move(from.interceptCounts[i], to.interceptCounts[i]);
  }
}

/** Where the features of a union-find node live: UnitSlot for unions over
 *  units (the record of unit i is features[i]); PixelSlot for unions over a
 *  pixel label grid (Asad 2019's Early computation: the record of pixel p is
 *  that of its unit, features[unitAt[p]]). */
struct UnitSlot
{
  template <class Index>
  __device__ __forceinline__ Index
  operator()(Index i) const
  {
    return i;
  }
};
template <class Index>
struct PixelSlot
{
  const Index * unitAt; ///< raster pixel -> unit, foreground pixels only
  __device__ __forceinline__ Index
  operator()(Index p) const
  {
    return unitAt[p];
  }
};

/** The union of LinkRunsKernel for OTF (Alg. 2): joins the sets of a and b
 *  and moves features along. Whoever turns a root into a child moves that
 *  root's features to its new parent; whoever adds features to an entry
 *  then checks (after a fence) that the entry is still a root and otherwise
 *  moves them on. Either the linking thread's exchange comes after the add
 *  (it takes the features) or the adding thread sees the link (it moves
 *  them), so no features stay behind a non-root once all threads are done.
 *  Returns a node of the joined set that was a root when last looked at. */
template <class Slot = UnitSlot>
struct OnTheFlyUnionOf
{
  ComponentFeatures * features; ///< indexed through slot
  UpdateCounter       counter;
  Slot                slot = Slot{};

  template <class Index>
  __device__ __forceinline__ void
  Move(Index from, Index to) const
  {
    const Index target = slot(to);
    counter.Add(static_cast<std::int64_t>(target));
    MoveFeatures(features[slot(from)], features[target]);
  }

  template <class Index>
  __device__ __forceinline__ Index
  operator()(Index * parent, Index a, Index b) const
  {
    a = FindRoot(parent, a);
    b = FindRoot(parent, b);
    __threadfence();
    while (a != b)
    {
      if (b < a)
      {
        const Index t = a;
        a = b;
        b = t;
      }
      const Index old = atomicMin(parent + b, a); // label merge
      __threadfence();
      Move(b, a); // feature extraction and merge into the current root
      __threadfence();
      if (old == b)
      {
        break;
      }
      b = old; // b had another parent meanwhile: join that one with a too
    }
    // Make sure the features added to a reach an actual root.
    for (Index root = FindRoot(parent, a); root != a; root = FindRoot(parent, a))
    {
      __threadfence();
      Move(a, root);
      __threadfence();
      a = root;
    }
    return a;
  }
};
using OnTheFlyUnion = OnTheFlyUnionOf<UnitSlot>;

/** OTF initialisation: every unit's own features and the pairs it forms
 *  with the units of the following rows that are certainly in its
 *  component (raw pair counts, finalized after the gather). */
template <class Index, UnitSpan Span>
__global__ void
InitUnitFeaturesKernel(RunArrays<Index>    runs,
                       Geometry            geometry,
                       detail::ImageFaces  faces,
                       bool                full,
                       ComponentFeatures * features)
{
  AwaitPrecedingKernel();
  using Votes = VotePolicy<VoteFolding::None, SingleUnitComponents::Voted, Span, PairVotes::Certain>;
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index a = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; a < runs.count; a += stride)
  {
    ComponentFeatures f;
    RunVote<Index, Votes>(runs, nullptr, geometry, faces, a, f, full);
    features[a] = f;
  }
}

/** After the unions and the numbering: component c's features are those
 *  its root unit collected. */
template <class Index>
__global__ void
GatherRootFeaturesKernel(Index componentCount,
                         const Index * __restrict__ rootOf,
                         const ComponentFeatures * __restrict__ features,
                         ComponentFeatures * table)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c < componentCount; c += stride)
  {
    table[c] = features[rootOf[c]];
  }
}

} // namespace cuda
} // namespace cca

#endif
