// Refuses work that cannot fit in memory before anything is allocated for it.
#ifndef CudaLabelStatisticsApp_MemoryBudget_h
#define CudaLabelStatisticsApp_MemoryBudget_h

#include <cstdint>
#include <string>

namespace ccaapp
{

/** Throws std::runtime_error ("... needs about X of memory, Y is available")
 *  when `bytes` more cannot fit: above what the address-space limit
 *  (ulimit -v) leaves, or above physical memory plus swap. */
void
RequireMemory(std::uint64_t bytes, const std::string & what);

/** a * b, saturating at 2^64 - 1 (a need that large is refused anyway). */
std::uint64_t
SaturatingProduct(std::uint64_t a, std::uint64_t b);

} // namespace ccaapp

#endif
