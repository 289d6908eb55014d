// Ranks of set bits in a bitmap of 32-bit words: a bit's rank is the set
// bits of the words before it (an exclusive scan of the words' counts,
// BitsInWord) plus those below it in its own word. The numbering of the
// run union-find's roots (Compaction.cuh's RootRanks) and of the block and
// strip labelings' first pixels (FirstPixelRanks.cuh) rank bits this way.
#ifndef cca_cuda_BitRanks_cuh
#define cca_cuda_BitRanks_cuh

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Set bits of v, on the device and in the host code of a scan. */
__host__ __device__ inline int
SetBits(unsigned v)
{
#ifdef __CUDA_ARCH__
  return __popc(v);
#else
  return __builtin_popcount(v);
#endif
}

/** The set bits of word i of a bitmap of count words (0 past its end): the
 *  input of the scan that gives each word the set bits before it. */
template <class Index>
struct BitsInWord
{
  const unsigned * words;
  Index            count;
  __host__ __device__ Index
  operator()(Index i) const
  {
    return i < count ? static_cast<Index>(SetBits(words[i])) : Index{ 0 };
  }
};

/** RankOfBit from bit's word and the set bits before that word, where the
 *  caller has loaded them. */
template <class Index>
__device__ __forceinline__ Index
RankInWord(unsigned word, Index before, unsigned bit)
{
  return before + static_cast<Index>(__popc(word & ((1u << bit) - 1u)));
}

/** The set bits of bits before bit i, given wordRank, the set bits before
 *  each word. */
template <class Index>
__device__ __forceinline__ Index
RankOfBit(const unsigned * bits, const Index * wordRank, Index i)
{
  const Index word = i / 32;
  return RankInWord(bits[word], wordRank[word], static_cast<unsigned>(i % 32));
}

} // namespace cuda
} // namespace cca

#endif
