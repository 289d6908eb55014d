// The CUDA backend's runs with 64-bit unit indices (images of more than
// 2^32 units), every algorithm: a module of their own (CudaHostSequence.cuh
// says why).
#include "CudaHostSequence.cuh"

#define CCA_CUDA_WIDE_RUN(AlgorithmName) CCA_CUDA_RUN_STRATEGY(, unsigned long long, AlgorithmName)
CCA_EVERY_OTHER_ALGORITHM(CCA_CUDA_WIDE_RUN)
CCA_CUDA_WIDE_RUN(FLSL_CD)
