// The rows whose foreground the run count samples (ForegroundSample,
// cuda/RunDetection.cuh), written out plainly as the GPU test and the
// emulation test check the sample: in each block of 2^k rows (64 rows or
// more, so that at most about 512 blocks remain), block b's row b mod 2^k.
#ifndef ccaSampledRows_h
#define ccaSampledRows_h

#include <cstdint>

namespace ccatest
{

/** Whether row r of an image of rows rows is sampled. */
inline bool
IsSampledRow(std::int64_t r, std::int64_t rows)
{
  std::int64_t block = 64;
  while (rows / block > 512)
  {
    block *= 2;
  }
  return r % block == (r / block) % block;
}

} // namespace ccatest

#endif
