// An upload that the kernels read straight from page-locked host memory
// while the copy threads still produce it: the host writes the bytes piece
// by piece and raises each piece's flag as it is done; a kernel launched
// as they start reads each piece once its flag is up. No copy is
// queued per piece (each cudaMemcpyAsync cost 8-15 us beyond its bytes, and
// sixteen threads calling CUDA at once waited on each other), and the
// device's work on the first pieces overlaps the host's on the last ones.
// Plain C++: the host staging (HostStaging.h), the kernels
// (ForegroundBits.cuh) and the emulated device of the tests share it, in
// namespace cca, which the tests' emulated kernels share too.
#ifndef cca_cuda_StreamedUpload_h
#define cca_cuda_StreamedUpload_h

#include <cstdint>

namespace cca
{

/** Where a streamed upload's bytes and flags are, as the device addresses
 *  them. Piece k holds bytes [k * pieceBytes, min(size, (k + 1) *
 *  pieceBytes)); ready[k] goes from 0 to 1 once piece k's bytes are
 *  written. The copy threads take the pieces in increasing order from a
 *  shared counter, so they come up roughly in that order, and any thread
 *  may produce any of them: if a kernel launch returns only once the kernel
 *  has ended (CUDA_LAUNCH_BLOCKING, or a tool that serializes launches),
 *  the threads that did not launch it produce every piece it waits for. */
struct StreamedUpload
{
  const unsigned char * bytes = nullptr;
  const unsigned *      ready = nullptr;
  std::int64_t          size = 0;       ///< bytes in all
  std::int64_t          pieceBytes = 0; ///< a multiple of 16
  std::int64_t          pieces = 0;
};

} // namespace cca

#endif
