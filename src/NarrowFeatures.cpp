#include "NarrowFeatures.h"

#include <cstddef>
#include <cstring>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#  include <immintrin.h>
#  define CCA_WIDEN_AVX2 1
#endif

namespace cca
{

// The vector path moves byte ranges: both layouts must be the ones it assumes.
static_assert(sizeof(NarrowFeatures) == 160 && sizeof(ComponentFeatures) == 216, "entry sizes");
static_assert(offsetof(NarrowFeatures, boundingBoxMin) == 4 && offsetof(ComponentFeatures, boundingBoxMin) == 8,
              "the bounding box follows the pixel count");
static_assert(offsetof(NarrowFeatures, coordinateSum) == 32 && offsetof(ComponentFeatures, coordinateSum) == 32 &&
                offsetof(NarrowFeatures, pixelsOnBorder) == 104 && offsetof(ComponentFeatures, pixelsOnBorder) == 104,
              "the sums lie at the same place in both entries");
static_assert(offsetof(NarrowFeatures, pixelsOnFace) == 108 && offsetof(NarrowFeatures, interceptCounts) == 132 &&
                offsetof(ComponentFeatures, pixelsOnFace) == 112 && offsetof(ComponentFeatures, interceptCounts) == 160,
              "the fourteen counts after the sums are contiguous in both entries");

namespace
{

void
WidenEntriesPlain(const unsigned char * in, ComponentFeatures * out, std::size_t count)
{
  for (std::size_t i = 0; i < count; ++i, in += sizeof(NarrowFeatures))
  {
    NarrowFeatures entry;
    std::memcpy(&entry, in, sizeof(entry));
    WidenFeatures(entry, out[i]);
  }
}

#if defined(CCA_WIDEN_AVX2)
__attribute__((target("avx2"))) void
WidenEntriesAvx2(const unsigned char * in, ComponentFeatures * out, std::size_t count)
{
  // Dwords of the first 32 bytes: the count, a dword for its high half
  // (cleared below), the six bounding-box values.
  const __m256i head = _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6);
  for (std::size_t i = 0; i < count; ++i, in += sizeof(NarrowFeatures))
  {
    auto *  o = reinterpret_cast<unsigned char *>(out + i);
    __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(in)), head);
    a = _mm256_blend_epi32(a, _mm256_setzero_si256(), 0x02);
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o), a);
    // The sums, bytes 32 to 104 of both.
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 32),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + 32)));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 64),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + 64)));
    std::memcpy(o + 96, in + 96, 8);
    // The fourteen counts, zero-extended.
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 104),
                        _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 104))));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 136),
                        _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 120))));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 168),
                        _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 136))));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(o + 200),
                     _mm_cvtepu32_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i *>(in + 152))));
  }
}
#endif

} // namespace

void
WidenFeatureEntries(const void * narrow, ComponentFeatures * wide, std::size_t count)
{
  const auto * in = static_cast<const unsigned char *>(narrow);
#if defined(CCA_WIDEN_AVX2)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2)
  {
    WidenEntriesAvx2(in, wide, count);
    return;
  }
#endif
  WidenEntriesPlain(in, wide, count);
}

void
WidenPlanarFeatureEntries(const void * planar, ComponentFeatures * wide, std::size_t count)
{
  // Field by field: a planar entry is 96 bytes, the 216 written dominate.
  const auto * in = static_cast<const unsigned char *>(planar);
  for (std::size_t i = 0; i < count; ++i, in += sizeof(PlanarFeatures))
  {
    PlanarFeatures entry;
    std::memcpy(&entry, in, sizeof(entry));
    WidenFeatures(entry, wide[i]);
  }
}

} // namespace cca
