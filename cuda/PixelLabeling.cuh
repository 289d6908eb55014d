// Shared pieces of the pixel-labeling strategies (Cabaret 2017's DLP-GPU,
// Asad 2019's Label Equivalence and Tile Merging). They label a dense grid, one
// entry per pixel, as the papers do:
//   in:  label[p] = p (raster index) for foreground pixels, Background else;
//   out: label[p] = the smallest raster index of p's component.
// The smallest index is the component's first pixel, so the common back end
// (numbering by root flags, votes, run grouping, label image) sees the same
// roots as with the run-based strategies and numbers in ITK's raster order.
//
// The grid is prepared from the foreground pixels as units (PixelRuns), and
// turned back into the units' union-find parents afterwards. Early property
// computation (Asad 2019 section III-A..C) keeps one feature record per unit:
// a labeling that turns representative p into a child of q moves p's record
// to q's with EarlyMove (PixelSlot maps a pixel to its unit's record).
//
// A labeling is a struct with
//   static constexpr bool Supports3D;
//   template <class Index, bool Early, class Device>
//   static void Label(const PixelLabelingProblem<Index> &, Device &);
// Device is StreamDevice (CUDA) or the emulation test's CPU device: it
// launches kernels, fills and reads memory and hands out scratch buffers.
#ifndef cca_cuda_PixelLabeling_cuh
#define cca_cuda_PixelLabeling_cuh

#include "DeviceGeometry.cuh"
#include "OnTheFlyMerge.cuh"
#include "UnionFind.cuh"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** The grid value of background pixels (all bits set: larger than any index). */
template <class Index>
__host__ __device__ constexpr Index
BackgroundLabel()
{
  return ~Index{ 0 };
}

/** What a pixel labeling works on. */
template <class Index>
struct PixelLabelingProblem
{
  Geometry geometry;
  bool     full;   ///< Connectivity::Full (8 in 2D, 26 in 3D), else face (4 / 6)
  bool     volume; ///< a 3D image (depth may still be 1)
  Index *  label;  ///< geometry.rows * width entries, see the top of this file
  /** Early computation only (else null): one record per unit, initialised
   *  with the unit's own features; unitAt maps a foreground pixel to its unit. */
  ComponentFeatures * features;
  const Index *       unitAt;
  UpdateCounter       counter; ///< instrumentation: one count per record move

  __host__ __device__ std::int64_t
                      Pixels() const
  {
    return geometry.rows * geometry.width;
  }
};

/** Early computation: moves the record of representative from into that of
 *  to (Asad 2019 Eq. 1). Safe against concurrent moves of the same records. */
template <class Index>
__device__ __forceinline__ void
EarlyMove(const PixelLabelingProblem<Index> & problem, Index from, Index to)
{
  OnTheFlyUnionOf<PixelSlot<Index>>{ problem.features, problem.counter, PixelSlot<Index>{ problem.unitAt } }.Move(from,
                                                                                                                  to);
}

/** Before labeling: label[p] = p and unitAt[p] = u for the pixel p of every
 *  unit u (label filled with BackgroundLabel before). */
template <class Index>
__global__ void
PrelabelFromUnitsKernel(RunArrays<Index> units, Geometry geometry, Index * label, Index * unitAt)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index u = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; u < units.count; u += stride)
  {
    const Index p = static_cast<Index>(static_cast<std::int64_t>(units.row[u]) * geometry.width + units.x[u]);
    label[p] = p;
    unitAt[p] = u;
  }
}

/** After labeling: each unit's parent is the unit of its component's first
 *  pixel, and units of components with more than one unit are marked linked
 *  (linked must start all zero; null when no feature votes read it). */
template <class Index>
__global__ void
ParentsFromLabelsKernel(RunArrays<Index> units,
                        Geometry         geometry,
                        const Index * __restrict__ label,
                        const Index * __restrict__ unitAt,
                        Index *        parent,
                        std::uint8_t * linked)
{
  AwaitPrecedingKernel();
  const Index stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index u = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; u < units.count; u += stride)
  {
    const Index p = static_cast<Index>(static_cast<std::int64_t>(units.row[u]) * geometry.width + units.x[u]);
    const Index root = unitAt[label[p]];
    parent[u] = root;
    if (root != u && linked != nullptr)
    {
      linked[u] = 1;
      linked[root] = 1; // racing stores of the same value
    }
  }
}

/** The neighbours of a pixel that precede it in raster order, as offsets
 *  (dx, dy, dz): face 2 (2D) / 3 (3D), full 4 / 13. Each pair of
 *  neighbouring pixels is seen once, from its later pixel. */
struct PixelStep
{
  int dx;
  int dy;
  int dz;
};
__host__ __device__ inline int
PrecedingPixels(bool full, bool volume, PixelStep (&steps)[13])
{
  int       n = 0;
  const int lowestZ = volume ? -1 : 0;
  for (int dz = lowestZ; dz <= 0; ++dz)
  {
    for (int dy = -1; dy <= 1; ++dy)
    {
      for (int dx = -1; dx <= 1; ++dx)
      {
        const bool before = dz < 0 || (dz == 0 && (dy < 0 || (dy == 0 && dx < 0)));
        const int  nonZero = (dx != 0) + (dy != 0) + (dz != 0);
        if (before && (full || nonZero == 1))
        {
          steps[n++] = PixelStep{ dx, dy, dz };
        }
      }
    }
  }
  return n;
}

/** The raster index of p's neighbour at step s, or -1 outside the image. */
__host__ __device__ inline std::int64_t
         NeighbourPixel(const Geometry & g, std::int64_t x, std::int64_t y, std::int64_t z, const PixelStep & s)
{
  const std::int64_t nx = x + s.dx;
  const std::int64_t ny = y + s.dy;
  const std::int64_t nz = z + s.dz;
  if (nx < 0 || nx >= g.width || ny < 0 || ny >= g.height || nz < 0 || nz >= g.depth)
  {
    return -1;
  }
  return (nz * g.height + ny) * g.width + nx;
}

/** After the unions of a union-find labeling on the grid: every foreground
 *  pixel points straight at its root (background entries are skipped). */
template <class Index>
__global__ void
FlattenLabelsKernel(std::int64_t pixels, Index * label)
{
  AwaitPrecedingKernel();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < pixels; p += stride)
  {
    if (label[p] != BackgroundLabel<Index>())
    {
      label[p] = FindRoot(label, static_cast<Index>(p));
    }
  }
}

/** The union of a grid labeling: lock-free union-find on the label grid
 *  (UnionFind.cuh), moving Early records along (OnTheFlyMerge.cuh). */
template <class Index, bool Early>
struct PixelUnion
{
  PixelLabelingProblem<Index> problem;
  __device__ __forceinline__ Index
  operator()(Index * label, Index a, Index b) const
  {
    if constexpr (Early)
    {
      return OnTheFlyUnionOf<PixelSlot<Index>>{ problem.features, problem.counter, PixelSlot<Index>{ problem.unitAt } }(
        label, a, b);
    }
    else
    {
      return Merge(label, a, b);
    }
  }
};

/** Union-find over pixels: every foreground pixel for which linkHere(x, y, z)
 *  holds joins its foreground preceding neighbours. With linkHere always
 *  true this labels the image (then FlattenLabelsKernel); labelings that
 *  solve tiles first pass a test for the pixels on tile borders. */
template <class Index, bool Early, class LinkHere>
__global__ void
LinkPixelsKernel(PixelLabelingProblem<Index> problem, LinkHere linkHere)
{
  AwaitPrecedingKernel();
  const Geometry &               g = problem.geometry;
  const std::int64_t             pixels = problem.Pixels();
  const std::int64_t             stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  PixelStep                      steps[13];
  const int                      n = PrecedingPixels(problem.full, problem.volume, steps);
  const PixelUnion<Index, Early> join{ problem };
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < pixels; p += stride)
  {
    if (problem.label[p] == BackgroundLabel<Index>())
    {
      continue;
    }
    const std::int64_t x = p % g.width;
    const std::int64_t y = (p / g.width) % g.height;
    const std::int64_t z = p / (g.width * g.height);
    if (!linkHere(x, y, z))
    {
      continue;
    }
    for (int s = 0; s < n; ++s)
    {
      const std::int64_t q = NeighbourPixel(g, x, y, z, steps[s]);
      if (q >= 0 && problem.label[q] != BackgroundLabel<Index>())
      {
        join(problem.label, static_cast<Index>(p), static_cast<Index>(q));
      }
    }
  }
}

/** LinkPixelsKernel's test for labeling every pixel. */
struct EveryPixel
{
  __device__ __forceinline__ bool
  operator()(std::int64_t, std::int64_t, std::int64_t) const
  {
    return true;
  }
};

} // namespace cuda
} // namespace cca

#endif
