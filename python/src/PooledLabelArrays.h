// NumPy label images in blocks of the process's host image pool
// (cca::HostImageMemory), so that a label image the package makes for a call
// finds its pages made and, reused, page-locked (the engine then writes it by
// DMA); and what the pool holds.
#ifndef CudaLabelStatisticsPython_PooledLabelArrays_h
#define CudaLabelStatisticsPython_PooledLabelArrays_h

#include <nanobind/nanobind.h>

#include <cstddef>
#include <vector>

namespace ccapython
{

/** An uninitialised NumPy array of shape and an integer dtype (kind 'i' or
 *  'u', 4 or 8 bytes) whose memory is a block of the process's host image
 *  pool (cca::HostImageMemory); None when the image is below the pool's
 *  minimum, the pool is off or has no memory: the caller then allocates as
 *  usual. */
nanobind::object
PooledLabelArray(const std::vector<size_t> & shape, char kind, size_t itemsize);

/** What the pool holds, in bytes: in use, idle, pinned, and the idle limit. */
nanobind::dict
HostImageMemoryUse();

} // namespace ccapython

#endif
