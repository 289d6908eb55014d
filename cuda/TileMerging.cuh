// PLACEHOLDER: TileMerging is not implemented yet. This stand-in labels the grid by
// union-find over pixels so that the pipeline around it can be tested; it is
// replaced by the paper's algorithm.
#ifndef cca_cuda_TileMerging_cuh
#define cca_cuda_TileMerging_cuh

#include "PixelLabeling.cuh"

namespace cca
{
namespace cuda
{

struct TileMerging
{
  static constexpr bool Supports3D = true;

  template <class Index, bool Early, class Device>
  static void
  Label(const PixelLabelingProblem<Index> & problem, Device & device)
  {
    const unsigned blocks = BlocksFor(problem.Pixels(), BlockThreads);
    device.Launch("pixel link kernel", blocks, BlockThreads, LinkPixelsKernel<Index, Early, EveryPixel>, problem,
                  EveryPixel{});
    device.Launch("label flatten kernel", blocks, BlockThreads, FlattenLabelsKernel<Index>, problem.Pixels(),
                  problem.label);
  }
};

} // namespace cuda
} // namespace cca

#endif
