// How a host-device copy is cut into pieces (the image's upload slabs in
// HostSequence.cuh, the download chunks in HostStaging.cpp): from about
// 1 MiB doubling up to the largest piece, and halving again towards the end.
// At the start the bus idles until the first piece is staged in pinned
// memory (or, downloading, the host until the first piece has crossed); at
// the end the last piece's copy (or the host's copy out of it) overlaps with
// nothing. Small pieces at both ends shorten what is not overlapped: a 16 MiB
// first piece left about 1 ms of a 105 MB upload exposed.
#ifndef cca_cuda_RampedPieces_h
#define cca_cuda_RampedPieces_h

#include <algorithm>
#include <cstddef>
#include <vector>

namespace cca
{
namespace cuda
{

/** The piece the ramps start and end with (or the largest piece, if smaller). */
constexpr std::size_t RampPieceBytes = std::size_t{ 1 } << 20;

/** The ends of consecutive pieces that cover bytes: each a multiple of unit
 *  (whole rows, whole 8-byte words; at least one unit) but the last, at most
 *  largest (rounded down to units, at least one unit), at least
 *  RampPieceBytes (rounded likewise) but the last; doubling from the
 *  smallest, and at most half of what remains. */
inline std::vector<std::size_t>
RampedPieceEnds(std::size_t bytes, std::size_t unit, std::size_t largest)
{
  unit = std::max<std::size_t>(1, unit);
  const std::size_t        most = std::max(unit, largest / unit * unit);
  const std::size_t        least = std::min(most, std::max(unit, RampPieceBytes / unit * unit));
  std::vector<std::size_t> ends;
  std::size_t              next = least;
  for (std::size_t begin = 0; begin < bytes;)
  {
    const std::size_t remaining = bytes - begin;
    std::size_t       size = std::min({ next, most, remaining / 2 }) / unit * unit;
    size = std::min(remaining, std::max(size, least));
    begin += size;
    ends.push_back(begin);
    next = std::min(most, 2 * next);
  }
  return ends;
}

} // namespace cuda
} // namespace cca

#endif
