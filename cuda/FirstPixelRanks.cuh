// The numbering that the block and strip labelings share (BlockLabeling.cuh,
// StripLabeling.cuh): each component's first pixel in raster order has a
// key that keeps that order, a bitmap marks the keys of the components'
// first pixels, and a component's label is the rank of its bit (BitRanks.cuh).
// The labels are ITK's, 1..N in raster order.
#ifndef cca_cuda_FirstPixelRanks_cuh
#define cca_cuda_FirstPixelRanks_cuh

#include "BitRanks.cuh"
#include "DeviceGeometry.cuh"
#include "Frame.cuh"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** A bitmap of first pixel keys and, once ranked, the set bits before each word. */
template <class Index>
struct FirstPixelBitmap
{
  unsigned * bits;     ///< a bit per key
  Index *    wordRank; ///< per word, the set bits before it; after the last word, all of them
  Index      words;
};

/** The labels of a ranked bitmap: what the label image writers read, and
 *  the count, read now or left on the device (deferred: count holds an
 *  upper bound until read). */
template <class Index>
struct FirstPixelLabels
{
  const Index *    firstKey;    ///< per root, its component's first pixel key
  const unsigned * bits;        ///< the bitmap of the first pixel keys
  const Index *    wordRank;    ///< per bitmap word, the first pixels before it
  Index            count;       ///< components; an upper bound until read when deferred
  const Index *    deviceCount; ///< where the count waits when its read is deferred, else null
};

/** The label (1-based) of the component whose root is root. */
template <class Index>
__device__ __forceinline__ Index
FirstPixelLabel(const FirstPixelLabels<Index> & l, Index root)
{
  return RankOfBit(l.bits, l.wordRank, l.firstKey[root]) + 1;
}

/** The buffers of the bitmap and its ranks, kept across runs. */
template <class Device>
class FirstPixelRanks
{
public:
  /** A cleared bitmap of keys bits. */
  template <class Index>
  FirstPixelBitmap<Index>
  Clear(Device & device, std::uint64_t keys)
  {
    FirstPixelBitmap<Index> b{};
    b.words = static_cast<Index>((keys + 31) / 32);
    const auto words = static_cast<std::size_t>(b.words);
    b.bits = Reserve<unsigned>(m_Bits, words, "first pixel bitmap");
    b.wordRank = Reserve<Index>(m_WordRank, words + 1, "first pixels before each word");
    device.Fill(b.bits, 0, words * sizeof(unsigned), "clearing the first pixel bitmap");
    return b;
  }

  /** Ranks the marked bits of the roots' keys firstKey; the count is read
   *  now, or with deferCount left on the device, bound standing in for it. */
  template <class Index>
  FirstPixelLabels<Index>
  Rank(Device & device, const FirstPixelBitmap<Index> & b, const Index * firstKey, bool deferCount, Index bound)
  {
    device.ExclusiveSumOf(
      "scan", BitsInWord<Index>{ b.bits, b.words }, b.wordRank, static_cast<std::int64_t>(b.words) + 1);
    FirstPixelLabels<Index> l{ firstKey, b.bits, b.wordRank, bound, b.wordRank + b.words };
    if (!deferCount)
    {
      l.count = device.Read(l.deviceCount, "reading a count from the device");
      l.deviceCount = nullptr;
    }
    return l;
  }

private:
  typename Device::Buffer m_Bits;
  typename Device::Buffer m_WordRank;
};

} // namespace cuda
} // namespace cca

#endif
