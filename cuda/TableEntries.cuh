// The dense feature table's entries before and after the votes
// (FeatureUpdate.cuh) where they are merged into it: every entry written
// once before (a one-run component finished, the others seeded with the
// minima of their first run), and the raw pair counts of the voted ones
// turned into ITK's intercept counts after.
#ifndef cca_cuda_TableEntries_cuh
#define cca_cuda_TableEntries_cuh

#include "DependentLaunch.cuh"
#include "DeviceGeometry.cuh"
#include "RunDetection.cuh"
#include "RunFeatures.h"
#include "RunVotes.cuh"
#include "WholeComponents.cuh"

#include <cstdint>
#include <cstring>

namespace cca
{
namespace cuda
{

constexpr int PrepareThreads = 128;

/** Writes every table entry once: a component of one run gets its finished
 *  features (unless Singles is Voted: then it votes like any other);
 *  others get cleared entries, seeded with the minima their root
 *  (first run) determines, for the votes to accumulate into. One thread per
 *  component builds its entry in shared memory; the block then stores its
 *  consecutive entries as one contiguous stretch (216- or 160-byte entries written
 *  lane by lane would touch 32 sectors per store). Launch with PrepareThreads. */
template <class Index, SingleUnitComponents Singles = SingleUnitComponents::WrittenWhole, class Table>
__global__ void
__launch_bounds__(PrepareThreads) PrepareTableKernel(RunArrays<Index> runs,
                                                     Index            componentCount,
                                                     const Index * __restrict__ rootOf,
                                                     const std::uint8_t * __restrict__ linked,
                                                     Geometry           geometry,
                                                     detail::ImageFaces faces,
                                                     Table *            table)
{
  AwaitPrecedingKernel();
  constexpr bool WholeSingleUnits = Singles == SingleUnitComponents::WrittenWhole;
  static_assert(sizeof(Table) % 8 == 0, "entries are copied as 64-bit words");
  constexpr int Words = sizeof(Table) / 8;
  __shared__ std::uint64_t staged[PrepareThreads * Words];
  const bool               planar = geometry.depth == 1;
  const std::int64_t       total = static_cast<std::int64_t>(componentCount);
  for (std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * PrepareThreads; base < total;
       base += static_cast<std::int64_t>(gridDim.x) * PrepareThreads)
  {
    const std::int64_t c = base + threadIdx.x;
    if (c < total)
    {
      const Index        root = rootOf[c];
      const std::int64_t r = runs.row[root];
      const auto         y = static_cast<std::int32_t>(r % geometry.height);
      const auto         z = static_cast<std::int32_t>(r / geometry.height);
      Table              f;
      if (!WholeSingleUnits || linked[root])
      {
        SeedEntry(y, z, planar, f);
      }
      else
      {
        detail::RunContribution(runs.x[root], y, z, runs.end[root] - runs.x[root], faces, f);
        detail::FinalizeIntercepts(f);
      }
      std::memcpy(staged + threadIdx.x * Words, &f, sizeof(f));
    }
    __syncthreads();
    const std::int64_t n = total - base < PrepareThreads ? total - base : PrepareThreads;
    auto *             out = reinterpret_cast<std::uint64_t *>(table + base);
    for (std::int64_t w = threadIdx.x; w < n * Words; w += PrepareThreads)
    {
      out[w] = staged[w];
    }
    __syncthreads();
  }
}

/** Turns the raw pair counts of components of several runs into ITK's
 *  intercept counts (one-run components were written finished, unless
 *  Singles is Voted: then every entry holds raw counts). */
template <class Index, SingleUnitComponents Singles = SingleUnitComponents::WrittenWhole, class Table>
__global__ void
FinalizeTableKernel(Index componentCount,
                    const Index * __restrict__ rootOf,
                    const std::uint8_t * __restrict__ linked,
                    Table * table)
{
  AwaitPrecedingKernel();
  constexpr bool WholeSingleUnits = Singles == SingleUnitComponents::WrittenWhole;
  const Index    stride = static_cast<Index>(gridDim.x) * blockDim.x;
  for (Index c = static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x; c < componentCount; c += stride)
  {
    if (!WholeSingleUnits || linked[rootOf[c]])
    {
      detail::FinalizeIntercepts(table[c]);
    }
  }
}

} // namespace cuda
} // namespace cca

#endif
