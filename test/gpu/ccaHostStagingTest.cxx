// Downloads queued together (HostStaging::DownloadLater, FinishQueued): the
// bytes of several device buffers, with records of different sizes (8, 96,
// 160, 216 bytes: plain bytes and the narrow and wide feature entries),
// shared among the copy workers by regions and pieces of random sizes. Each
// byte must reach its place once, and every piece must hold whole records,
// against the bytes written to the device (a host copy is the reference).
// Also: an empty queue, a queue dropped unmade (a failed run's), and queues
// made one after another on one staging object. Exits 77 (skipped) where no
// CUDA device is usable.
#include "cca/Engine.h"

#include "HostStaging.h"
#include "ccaGpuTestTally.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{
using namespace ccaGpuTest;

/** One queued download: its device bytes, their host copy, where they go. */
struct Transfer
{
  std::size_t                         granule = 8;
  std::vector<unsigned char>          expected;
  std::vector<unsigned char>          host;
  std::unique_ptr<std::atomic<int>[]> writes; ///< per record: pieces that wrote it
  std::size_t                         records = 0;
  void *                              device = nullptr;
  std::atomic<int>                    misplaced{ 0 }; ///< pieces not of whole records
};

/** A case: count downloads of random granules and sizes, queued and made. */
void
Case(std::uint32_t seed, cca::cuda::HostStaging & staging, cudaStream_t stream, bool drop)
{
  std::mt19937                           random(seed);
  const std::size_t                      granules[] = { 8, 96, 160, 216 };
  const int                              count = 1 + static_cast<int>(random() % 5);
  std::vector<std::unique_ptr<Transfer>> transfers;
  for (int k = 0; k < count; ++k)
  {
    auto t = std::make_unique<Transfer>();
    t->granule = granules[random() % 4];
    // Mostly small, sometimes several megabytes (many pieces a region).
    const std::size_t most = random() % 4 == 0 ? (std::size_t{ 6 } << 20) : (std::size_t{ 200 } << 10);
    t->records = (random() % (most / t->granule + 1)) + (k == 0 ? 1 : 0);
    const std::size_t bytes = t->records * t->granule;
    t->expected.resize(bytes);
    for (auto & b : t->expected)
    {
      b = static_cast<unsigned char>(random());
    }
    t->host.assign(bytes, 0);
    t->writes.reset(new std::atomic<int>[t->records == 0 ? 1 : t->records]);
    for (std::size_t r = 0; r < t->records; ++r)
    {
      t->writes[r] = 0;
    }
    CheckCuda(cudaMalloc(&t->device, bytes == 0 ? 1 : bytes), "cudaMalloc");
    CheckCuda(cudaMemcpyAsync(t->device, t->expected.data(), bytes, cudaMemcpyHostToDevice, stream), "filling");
    transfers.push_back(std::move(t));
  }
  for (auto & owned : transfers)
  {
    Transfer * t = owned.get();
    staging.DownloadLater(
      t->device,
      t->expected.size(),
      [t](std::size_t offset, std::size_t n, const void * staged) {
        if (offset % t->granule != 0 || n % t->granule != 0 || n == 0)
        {
          ++t->misplaced;
          return;
        }
        std::memcpy(t->host.data() + offset, staged, n);
        for (std::size_t r = offset / t->granule; r < (offset + n) / t->granule; ++r)
        {
          ++t->writes[r];
        }
      },
      t->granule);
  }
  if (drop)
  {
    CheckCuda(cudaStreamSynchronize(stream), "waiting");
    staging.DropUnfinished();
  }
  staging.FinishQueued(stream); // after a drop: nothing left to make
  for (std::size_t k = 0; k < transfers.size(); ++k)
  {
    const Transfer & t = *transfers[k];
    std::size_t      wrongCount = 0;
    for (std::size_t r = 0; r < t.records; ++r)
    {
      wrongCount += t.writes[r] != (drop ? 0 : 1) ? 1 : 0;
    }
    const bool bytesOk =
      drop ? std::all_of(t.host.begin(), t.host.end(), [](unsigned char b) { return b == 0; }) : t.host == t.expected;
    Report(t.misplaced == 0 && wrongCount == 0 && bytesOk,
           "seed " + std::to_string(seed) + (drop ? " (dropped)" : "") + ", download " + std::to_string(k) + " of " +
             std::to_string(transfers.size()) + ": granule " + std::to_string(t.granule) + ", " +
             std::to_string(t.records) + " records, " + std::to_string(t.misplaced.load()) +
             " pieces not of whole records, " + std::to_string(wrongCount) + " records not written once, bytes " +
             (bytesOk ? "right" : "wrong"));
    cudaFree(t.device);
  }
}

} // namespace

int
main()
{
  if (!cca::Engine::CudaAvailable())
  {
    std::cout << "skipped: no CUDA device" << std::endl;
    return 77;
  }
  cudaStream_t stream = nullptr;
  CheckCuda(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  {
    cca::cuda::HostStaging staging;
    staging.FinishQueued(stream); // nothing queued: nothing to do
    Report(true, "empty queue");
    std::mt19937 pieces(7);
    for (std::uint32_t seed = 1; seed <= 60; ++seed)
    {
      // Pieces from 8 bytes to the default 2 MiB; the threshold does not
      // matter to DownloadLater (every queued download goes by regions).
      const std::size_t piece = seed % 5 == 0 ? 0 : 8 * (1 + pieces() % (seed % 2 == 0 ? 64 : 40000));
      staging.SetRegionCopies(0, 0, piece);
      Case(seed, staging, stream, seed % 10 == 3);
    }
  }
  CheckCuda(cudaStreamDestroy(stream), "cudaStreamDestroy");
  std::cout << "total: " << g_Passed << " passed, " << g_Failed << " failed" << std::endl;
  return g_Failed == 0 ? 0 : 1;
}
