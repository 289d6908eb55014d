// What the CUDA-only tests of this folder share: a tally of checks that
// prints each failure, and CUDA errors turned into exceptions.
#ifndef ccaGpuTestTally_h
#define ccaGpuTestTally_h

#include <cuda_runtime.h>

#include <iostream>
#include <stdexcept>
#include <string>

namespace ccaGpuTest
{

inline int g_Passed = 0;
inline int g_Failed = 0;

/** Counts a check; prints what failed. */
inline void
Report(bool ok, const std::string & what)
{
  if (ok)
  {
    ++g_Passed;
  }
  else
  {
    ++g_Failed;
    std::cout << "FAIL " << what << std::endl;
  }
}

/** Throws std::runtime_error, naming what was done, where CUDA failed. */
inline void
CheckCuda(cudaError_t status, const char * what)
{
  if (status != cudaSuccess)
  {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

} // namespace ccaGpuTest

#endif
