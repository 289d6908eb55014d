// The CUDA backend's runs of every algorithm but the fastest, with 32-bit
// unit indices: a module of their own (CudaHostSequence.cuh says why).
#include "CudaHostSequence.cuh"

#define CCA_CUDA_NARROW_RUN(AlgorithmName) CCA_CUDA_RUN_STRATEGY(, std::uint32_t, AlgorithmName)
CCA_EVERY_OTHER_ALGORITHM(CCA_CUDA_NARROW_RUN)
