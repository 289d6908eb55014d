// The host sequence the CUDA backend runs, compiled in three files, each a
// module of its own that CUDA loads (lazily) at the first launch of one of
// its kernels: CudaBackend.cu holds the runs with 32-bit unit indices of
// the fastest algorithm (Algorithm::Default, what the program, the filter
// and Python run unless asked otherwise), CudaBackendOtherAlgorithms.cu
// those of every other algorithm, CudaBackendWideIndex.cu every run with
// 64-bit unit indices (images of more than 2^32 units). A process that
// runs the default then loads about a third of the kernels, not all of
// them: the module's load had been most of CUDA's start-up after its
// context (benchmark/results/h200-module-loading). The three files also
// compile side by side.
#ifndef cca_cuda_CudaHostSequence_cuh
#define cca_cuda_CudaHostSequence_cuh

#include "HostSequence.cuh"
#include "StreamDevice.cuh"
#include "Strategies.cuh"

#include <cstdint>
#include <tuple>

/** Calls X(Algorithm) for every algorithm of StrategyTable but
 *  FastestAlgorithm (a static_assert below keeps the list whole). */
#define CCA_EVERY_OTHER_ALGORITHM(X) \
  X(Naive)                           \
  X(HA)                              \
  X(HA_CD)                           \
  X(HA_OTF)                          \
  X(FLSL)                            \
  X(FLSL_OTF)                        \
  X(DLP)                             \
  X(LE_Early)                        \
  X(LE_Late)                         \
  X(TM_Early)                        \
  X(TM_Late)

/** The run of one algorithm with unit indices Index, as an explicit
 *  instantiation declaration (Prefix extern) or definition (empty). */
#define CCA_CUDA_RUN_STRATEGY(Prefix, IndexType, AlgorithmName)                                                        \
  Prefix template void                                                                                                 \
  cca::cuda::HostSequence<cca::cuda::StreamDevice>::RunStrategy<IndexType,                                             \
                                                                cca::cuda::StrategyOf<cca::Algorithm::AlgorithmName>>( \
    cca::cuda::StreamDevice &, const cca::ImageView &, const cca::Options &, cca::Result &);

#define CCA_CUDA_EXTERN_NARROW_RUN(AlgorithmName) CCA_CUDA_RUN_STRATEGY(extern, std::uint32_t, AlgorithmName)
#define CCA_CUDA_EXTERN_WIDE_RUN(AlgorithmName) CCA_CUDA_RUN_STRATEGY(extern, unsigned long long, AlgorithmName)

namespace cca
{
namespace cuda
{

namespace algorithm_list_check
{
#define CCA_COUNT_ALGORITHM(AlgorithmName) +1
static_assert(FastestAlgorithm == Algorithm::FLSL_CD &&
                std::tuple_size<StrategyTable>::value == 1 CCA_EVERY_OTHER_ALGORITHM(CCA_COUNT_ALGORITHM),
              "CCA_EVERY_OTHER_ALGORITHM lists every row of StrategyTable but FastestAlgorithm's");
#undef CCA_COUNT_ALGORITHM
} // namespace algorithm_list_check

} // namespace cuda
} // namespace cca

// Compiled in CudaBackendOtherAlgorithms.cu and CudaBackendWideIndex.cu.
CCA_EVERY_OTHER_ALGORITHM(CCA_CUDA_EXTERN_NARROW_RUN)
CCA_EVERY_OTHER_ALGORITHM(CCA_CUDA_EXTERN_WIDE_RUN)
CCA_CUDA_EXTERN_WIDE_RUN(FLSL_CD)

#endif
