// The instrumentation of Options::countAtomicUpdates (Lemaitre 2021 section
// 4.1): per table entry, the number of atomic record merges it received,
// summed into Result::atomicFeatureUpdates and estimatedConflicts at the end
// of a run. An update is one atomic merge of a feature record into an entry
// (a vote that reaches global or shared memory, the final merge of a block's
// shared entry, an on-the-fly move); writes of whole entries
// (PrepareTableKernel) are not updates.
#ifndef cca_cuda_UpdateCounts_cuh
#define cca_cuda_UpdateCounts_cuh

#include "DeviceGeometry.cuh"
#include "FeatureUpdate.cuh"
#include "Frame.cuh"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** totals[0] += sum of counts, totals[1] += sum of squares. */
static __global__ void
UpdateTotalsKernel(std::int64_t n, const unsigned long long * __restrict__ counts, unsigned long long * totals)
{
  AwaitPrecedingKernel();
  unsigned long long sum = 0;
  unsigned long long squares = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
  {
    const unsigned long long u = counts[i];
    sum += u;
    squares += u * u;
  }
  if (sum != 0)
  {
    atomicAdd(totals, sum);
    atomicAdd(totals + 1, squares);
  }
}

/** The counters of one run: one per unit (on-the-fly moves land on units),
 *  then one per table entry (votes; there are at most as many as units). */
template <class Device>
class UpdateCounts
{
public:
  /** Counting on or off for a run of units units; clears the counters. */
  void
  Prepare(Device & device, bool on, std::int64_t units)
  {
    m_Units = units;
    m_Entries = on ? 2 * units : 0;
    m_Counts = nullptr;
    if (on)
    {
      m_Counts = Reserve<unsigned long long>(m_Buffer, static_cast<std::size_t>(m_Entries), "update counts");
      device.Fill(
        m_Counts, 0, static_cast<std::size_t>(m_Entries) * sizeof(unsigned long long), "clearing update counts");
    }
  }

  UpdateCounter
  Moves() const
  {
    return UpdateCounter{ m_Counts };
  }
  UpdateCounter
  Votes() const
  {
    return UpdateCounter{ m_Counts != nullptr ? m_Counts + m_Units : nullptr };
  }

  /** sum_l U_l and sum_l U_l^2 over the entries, into result. */
  void
  Total(Device & device, Result & result)
  {
    auto * totals = Reserve<unsigned long long>(m_TotalsBuffer, 2, "update totals");
    device.Fill(totals, 0, 2 * sizeof(unsigned long long), "clearing update totals");
    if (m_Entries > 0)
    {
      device.Launch("update totals kernel",
                    BlocksFor(m_Entries, BlockThreads),
                    BlockThreads,
                    UpdateTotalsKernel,
                    m_Entries,
                    m_Counts,
                    totals);
    }
    const Totals t = device.Read(reinterpret_cast<const Totals *>(totals), "reading update totals");
    result.atomicFeatureUpdates = static_cast<std::int64_t>(t.sum);
    result.estimatedConflicts = t.sum == 0 ? 0.0 : static_cast<double>(t.squares) / static_cast<double>(t.sum);
  }

private:
  struct Totals
  {
    unsigned long long sum;
    unsigned long long squares;
  };

  typename Device::Buffer m_Buffer;
  typename Device::Buffer m_TotalsBuffer;
  unsigned long long *    m_Counts = nullptr;
  std::int64_t            m_Units = 0;
  std::int64_t            m_Entries = 0;
};

} // namespace cuda
} // namespace cca

#endif
