// Label Equivalence (Asad 2019 section II, Kalentev's variant KLE as the
// paper implements it in section V-B): the equivalence chains live in the
// label grid itself (no separate table, no Update kernel). After the shared
// Prelabel (label[p] = p), the host iterates
//   Scan:     every foreground pixel takes the smallest label among its
//             neighbours and, if it is smaller than its own label l, lowers
//             label[l] (l is a representative) with atomicMin;
//   Analysis: every pixel follows its chain to the representative and
//             points straight at it;
// until a Scan changes nothing (a device flag read by the host). Labels
// only ever decrease and stay inside the component, so the representative
// left at the end is the component's smallest raster index, as the
// contract of PixelLabeling.cuh asks.
//
// Choices of section V-B: the first Scan is F4 (the preceding neighbours
// only, all of them read: right after the Prelabel the smallest label of a
// neighbourhood is its smallest foreground index, and the pass needs no
// flag because an Analysis always follows); later Scans are F8 (all
// neighbours) with a per-block shared change flag that one thread per block
// copies to the global flag. Both generalise to 3D and to face
// connectivity (F4 = the 2 / 4 / 3 / 13 preceding neighbours of
// PrecedingPixels, F8 = those and their mirror images). Scan uses atomicMin
// as the paper does (not KLE's plain stores): the outcome is exact either
// way, and the iteration count varies less. Labels are read with plain
// global loads, not the paper's texture fetches (the non-coherent path must
// not hold data written by the same kernel); the kernels are 1D grid-stride
// loops instead of the paper's 16 x 8 blocks.
//
// Early computation (section III-A, Eq. 1 on our whole record): records
// stay on representatives. Every Analysis moves the record of each pixel
// that the Scan before it turned from a representative into a child to its
// new representative with EarlyMove. Roots do not change during Analysis,
// so each record moves once per demotion and ends on a final root. The
// first Scan demotes every pixel it relinks; later Scans mark the pixels
// they demote (the thread whose atomicMin found label[l] == l) in a byte
// per pixel, which that pixel's Analysis reads and clears.
#ifndef cca_cuda_LabelEquivalence_cuh
#define cca_cuda_LabelEquivalence_cuh

#include "DependentLaunch.cuh"
#include "PixelLabeling.cuh"

#include <cstddef>
#include <cstdint>

namespace cca
{
namespace cuda
{
namespace le
{

/** x, y, z of raster pixel p. */
__host__ __device__ inline void
PixelCoordinates(const Geometry & g, std::int64_t p, std::int64_t & x, std::int64_t & y, std::int64_t & z)
{
  x = p % g.width;
  const std::int64_t row = p / g.width;
  y = row % g.height;
  z = row / g.height;
}

/** First Scan, policy F4: every foreground pixel links to its smallest
 *  foreground preceding neighbour. Right after the Prelabel a neighbour's
 *  label is its index, so only the foreground test is read (it does not
 *  change while the pass overwrites labels). A pixel writes only its own
 *  label: no atomics, and the result does not depend on timing. */
template <class Index>
__global__ void
FirstScanKernel(PixelLabelingProblem<Index> problem)
{
  AwaitPrecedingKernel();
  const Geometry &   g = problem.geometry;
  const std::int64_t pixels = problem.Pixels();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  PixelStep          steps[13];
  const int          n = PrecedingPixels(problem.full, problem.volume, steps);
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < pixels; p += stride)
  {
    if (problem.label[p] == BackgroundLabel<Index>())
    {
      continue;
    }
    std::int64_t x, y, z;
    PixelCoordinates(g, p, x, y, z);
    std::int64_t smallest = p;
    // F4, not P4: every step is read (the paper measured the early exit's
    // divergence to cost more than the reads it saves).
    for (int s = 0; s < n; ++s)
    {
      const std::int64_t q = NeighbourPixel(g, x, y, z, steps[s]);
      if (q >= 0 && q < smallest && problem.label[q] != BackgroundLabel<Index>())
      {
        smallest = q;
      }
    }
    if (smallest != p)
    {
      problem.label[p] = static_cast<Index>(smallest);
    }
  }
}

/** Later Scans, policy F8: the smallest label among all neighbours lowers
 *  the representative of the pixel's own label. After an Analysis every
 *  label names a representative, and the pass only writes labels it read,
 *  so every label l read here is a representative of the pass's start:
 *  atomicMin keeps the smallest of the racing proposals for it, and the
 *  thread that finds label[l] still equal to l is the one that demoted l
 *  (recorded for Early). Background is the largest label: it never wins
 *  the minimum, so neighbours need no foreground test. */
template <class Index, bool Early>
__global__ void
ScanKernel(PixelLabelingProblem<Index> problem, std::uint8_t * demoted, unsigned * changed)
{
  AwaitPrecedingKernel();
  __shared__ int changedInBlock; // section V-B: one global store per block, not per change
  if (threadIdx.x == 0)
  {
    changedInBlock = 0;
  }
  __syncthreads();
  const Geometry &   g = problem.geometry;
  const std::int64_t pixels = problem.Pixels();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  PixelStep          steps[13];
  const int          n = PrecedingPixels(problem.full, problem.volume, steps);
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < pixels; p += stride)
  {
    const Index own = problem.label[p];
    if (own == BackgroundLabel<Index>())
    {
      continue;
    }
    std::int64_t x, y, z;
    PixelCoordinates(g, p, x, y, z);
    Index smallest = own;
    for (int s = 0; s < n; ++s)
    {
      const PixelStep    before = steps[s];
      const PixelStep    after{ -before.dx, -before.dy, -before.dz };
      const std::int64_t q = NeighbourPixel(g, x, y, z, before);
      const std::int64_t r = NeighbourPixel(g, x, y, z, after);
      const Index        labelBefore = q >= 0 ? problem.label[q] : BackgroundLabel<Index>();
      const Index        labelAfter = r >= 0 ? problem.label[r] : BackgroundLabel<Index>();
      smallest = labelBefore < smallest ? labelBefore : smallest;
      smallest = labelAfter < smallest ? labelAfter : smallest;
    }
    if (smallest < own)
    {
      const Index old = atomicMin(problem.label + own, smallest);
      if constexpr (Early)
      {
        if (old == own)
        {
          demoted[own] = 1;
        }
      }
      changedInBlock = 1; // racing stores of the same value
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && changedInBlock != 0)
  {
    *changed = 1; // racing stores of the same value
  }
}

/** Analysis: every foreground pixel points straight at its representative.
 *  The chains are followed with the path halving of UnionFind.cuh (KLE
 *  follows them without shortening; halving keeps the long chains of
 *  spirals from costing chain length per pixel). Only non-representatives
 *  are written, so the representatives stay fixed through the pass and the
 *  records moved to them (Early) are not moved again in it. afterFirstScan:
 *  every non-representative was a representative before the first Scan. */
template <class Index, bool Early>
__global__ void
AnalysisKernel(PixelLabelingProblem<Index> problem, std::uint8_t * demoted, bool afterFirstScan)
{
  AwaitPrecedingKernel();
  const std::int64_t pixels = problem.Pixels();
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t p = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < pixels; p += stride)
  {
    const Index own = problem.label[p];
    const Index self = static_cast<Index>(p);
    if (own == BackgroundLabel<Index>() || own == self)
    {
      continue; // background, or a representative (stays one through the pass)
    }
    const Index root = FindRoot(problem.label, self);
    problem.label[p] = root;
    if constexpr (Early)
    {
      bool wasRepresentative = afterFirstScan;
      if (!afterFirstScan && demoted[p] != 0)
      {
        demoted[p] = 0;
        wasRepresentative = true;
      }
      if (wasRepresentative)
      {
        EarlyMove(problem, self, root); // Asad 2019 Eq. 1
      }
    }
  }
}

} // namespace le

struct LabelEquivalence
{
  static constexpr bool Supports3D = true;

  template <class Index, bool Early, class Device>
  static void
  Label(const PixelLabelingProblem<Index> & problem, Device & device)
  {
    const std::int64_t pixels = problem.Pixels();
    if (pixels == 0)
    {
      return;
    }
    const unsigned blocks = BlocksFor(pixels, BlockThreads);
    std::uint8_t * demoted = nullptr;
    if constexpr (Early)
    {
      demoted = device.template Scratch<std::uint8_t>(0, static_cast<std::size_t>(pixels), "LE demotion marks");
      device.Fill(demoted, 0, static_cast<std::size_t>(pixels), "clearing LE demotion marks");
    }
    auto * changed = device.template Scratch<unsigned>(1, 1, "LE change flag");

    device.Launch("LE first scan kernel", blocks, BlockThreads, le::FirstScanKernel<Index>, problem);
    device.Launch("LE analysis kernel", blocks, BlockThreads, le::AnalysisKernel<Index, Early>, problem, demoted, true);
    // Host-checked iterations (section IV): each Scan that changed a label
    // is followed by an Analysis; a Scan that changed none ends the labeling.
    for (;;)
    {
      device.Fill(changed, 0, sizeof(unsigned), "clearing the LE change flag");
      device.Launch("LE scan kernel", blocks, BlockThreads, le::ScanKernel<Index, Early>, problem, demoted, changed);
      if (device.Read(changed, "reading the LE change flag") == 0)
      {
        break;
      }
      device.Launch(
        "LE analysis kernel", blocks, BlockThreads, le::AnalysisKernel<Index, Early>, problem, demoted, false);
    }
  }
};

} // namespace cuda
} // namespace cca

#endif
