// CCA_HOST_DEVICE: functions shared by the CPU backend and the CUDA kernels
// compile as plain C++ and as CUDA (host and device).
#ifndef cca_HostDevice_h
#define cca_HostDevice_h

#if defined(__CUDACC__)
#  define CCA_HOST_DEVICE __host__ __device__ __forceinline__
#else
#  define CCA_HOST_DEVICE inline
#endif

#endif
