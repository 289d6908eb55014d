#include "StreamingStores.h"

#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#  include <immintrin.h>
#  define CCA_STREAMING_AVX2 1
#endif

namespace cca
{

namespace
{

#if defined(CCA_STREAMING_AVX2)
/** Bytes from p to the next 32-byte boundary (0 when aligned). */
std::size_t
ToBlockBoundary(const void * p)
{
  return (32 - (reinterpret_cast<std::uintptr_t>(p) & 31)) & 31;
}

__attribute__((target("avx2"))) void
CopyStreamingAvx2(unsigned char * to, const unsigned char * from, std::size_t bytes)
{
  const std::size_t head = ToBlockBoundary(to) < bytes ? ToBlockBoundary(to) : bytes;
  std::memcpy(to, from, head);
  to += head;
  from += head;
  bytes -= head;
  std::size_t i = 0;
  // Four blocks a step: four loads in flight before the stores.
  for (; i + 128 <= bytes; i += 128)
  {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(from + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(from + i + 32));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(from + i + 64));
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(from + i + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i *>(to + i), a);
    _mm256_stream_si256(reinterpret_cast<__m256i *>(to + i + 32), b);
    _mm256_stream_si256(reinterpret_cast<__m256i *>(to + i + 64), c);
    _mm256_stream_si256(reinterpret_cast<__m256i *>(to + i + 96), d);
  }
  for (; i + 32 <= bytes; i += 32)
  {
    _mm256_stream_si256(reinterpret_cast<__m256i *>(to + i),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(from + i)));
  }
  std::memcpy(to + i, from + i, bytes - i);
  _mm_sfence();
}

__attribute__((target("avx2"))) void
WidenLabelsStreamingAvx2(const std::uint32_t * in, std::uint64_t * out, std::size_t count)
{
  // Values before out's first 32-byte boundary (out is 8-byte aligned):
  // ordinary stores.
  std::size_t i = 0;
  for (; i < count && (reinterpret_cast<std::uintptr_t>(out + i) & 31) != 0; ++i)
  {
    out[i] = in[i];
  }
  for (; i + 4 <= count; i += 4)
  {
    _mm256_stream_si256(reinterpret_cast<__m256i *>(out + i),
                        _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + i))));
  }
  for (; i < count; ++i)
  {
    out[i] = in[i];
  }
  _mm_sfence();
}
#endif

} // namespace

bool
StreamingStoresAvailable()
{
#if defined(CCA_STREAMING_AVX2)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  return avx2;
#else
  return false;
#endif
}

void
CopyStreaming(void * to, const void * from, std::size_t bytes)
{
#if defined(CCA_STREAMING_AVX2)
  // Below a few blocks the head and tail are most of it.
  if (bytes >= 256 && StreamingStoresAvailable())
  {
    CopyStreamingAvx2(static_cast<unsigned char *>(to), static_cast<const unsigned char *>(from), bytes);
    return;
  }
#endif
  std::memcpy(to, from, bytes);
}

void
CopyBytes(void * to, const void * from, std::size_t bytes, HostStores stores)
{
  if (stores == HostStores::Streaming)
  {
    CopyStreaming(to, from, bytes);
  }
  else
  {
    std::memcpy(to, from, bytes);
  }
}

void
WidenLabels(const std::uint32_t * in, std::uint64_t * out, std::size_t count, HostStores stores)
{
#if defined(CCA_STREAMING_AVX2)
  if (stores == HostStores::Streaming && StreamingStoresAvailable() && (reinterpret_cast<std::uintptr_t>(out) & 7) == 0)
  {
    WidenLabelsStreamingAvx2(in, out, count);
    return;
  }
#else
  (void)stores;
#endif
  for (std::size_t i = 0; i < count; ++i)
  {
    out[i] = in[i];
  }
}

namespace detail
{
#if defined(CCA_STREAMING_AVX2)
__attribute__((target("avx2"))) void
StreamAlignedBlocks(void * to, const void * from, std::size_t bytes)
{
  auto *       o = static_cast<__m256i *>(to);
  const auto * in = static_cast<const __m256i *>(from);
  for (std::size_t k = 0; k < bytes / 32; ++k)
  {
    _mm256_stream_si256(o + k, _mm256_load_si256(in + k));
  }
}

void
StoreFence()
{
  _mm_sfence();
}
#else
void
StreamAlignedBlocks(void * to, const void * from, std::size_t bytes)
{
  std::memcpy(to, from, bytes);
}

void
StoreFence()
{}
#endif
} // namespace detail

} // namespace cca
