#include "NarrowFeatures.h"
#include "StreamingStores.h"

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

/** Field by field: where the CPU lacks AVX2. Entry: NarrowFeatures or
 *  PlanarFeatures. */
template <class Entry>
void
WidenEntriesPlain(const unsigned char * in, ComponentFeatures * out, std::size_t count)
{
  for (std::size_t i = 0; i < count; ++i, in += sizeof(Entry))
  {
    Entry entry;
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

// A planar entry's dwords: the count, two minima, two maxima, the border
// count (bytes 0-24); the sums from byte 24, the four face counts from 64,
// the three intercept classes from 80. Field by field, the host's widening
// bounded a plane's staged download (H200 host, 8192^2 g = 1, 4.4 M
// entries: 29.3-32.0 ms, 26.5-27.0 with these moves;
// benchmark/results/h200-whole-components-threshold call 4).
static_assert(sizeof(PlanarFeatures) == 96 && offsetof(PlanarFeatures, pixelsOnBorder) == 20 &&
                offsetof(PlanarFeatures, coordinateSum) == 24 && offsetof(PlanarFeatures, pixelsOnFace) == 64 &&
                offsetof(PlanarFeatures, interceptCounts) == 80,
              "the planar layout the vector path reads");
static_assert(offsetof(ComponentFeatures, coordinateProductSum) == 56 && InterceptSlot(false, false, true) == 3 &&
                InterceptSlot(true, false, true) == 4 && InterceptSlot(false, true, true) == 5 &&
                InterceptSlot(true, true, true) == 6,
              "the wide layout the vector path writes");

__attribute__((target("avx2"))) void
WidenPlanarEntriesAvx2(const unsigned char * in, ComponentFeatures * out, std::size_t count)
{
  // The wide entry's first 32 bytes as dwords: the count and its high
  // half, the three minima, the three maxima (z ones 0).
  const __m256i head = _mm256_setr_epi32(0, 0, 1, 2, 0, 3, 4, 0);
  const __m256i zero = _mm256_setzero_si256();
  for (std::size_t i = 0; i < count; ++i, in += sizeof(PlanarFeatures))
  {
    auto *        o = reinterpret_cast<unsigned char *>(out + i);
    const __m256i first = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in));
    const __m256i sums = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + 24));  // x, y, xx, yy
    const __m256i later = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + 48)); // yy, xy, faces
    const __m256i faces = _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 64)));
    const __m256i classes = _mm256_cvtepu32_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i *>(in + 80)));
    const auto    pixels = static_cast<long long>(static_cast<std::uint32_t>(_mm256_cvtsi256_si32(first)));
    const auto    border = static_cast<long long>(static_cast<std::uint32_t>(_mm256_extract_epi32(first, 5)));
    // Bytes 0-32: count, bounding box.
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o),
                        _mm256_blend_epi32(_mm256_permutevar8x32_epi32(first, head), zero, 0x92));
    // 32-64: sums x, y, z = 0, xx.
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 32),
                        _mm256_blend_epi32(_mm256_permute4x64_epi64(sums, 0x84), zero, 0x30));
    // 64-96: products yy, zz = 0, xy, xz = 0.
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 64),
                        _mm256_blend_epi32(_mm256_permute4x64_epi64(later, 0x10), zero, 0xcc));
    // 96-128: yz = 0, the border count, faces x = 0 and x = max.
    _mm256_storeu_si256(
      reinterpret_cast<__m256i *>(o + 96),
      _mm256_blend_epi32(_mm256_permute4x64_epi64(faces, 0x40), _mm256_set_epi64x(0, 0, border, 0), 0x0f));
    // 128-160: faces y = 0 and y = max, the z faces 0.
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 128), _mm256_permute2x128_si256(faces, zero, 0x21));
    // 160-216: the intercept classes x, y, xy, then those with a z step,
    // which a plane's component leaves at every step: 2, 4, 4 and 8 a pixel.
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(o + 160),
                        _mm256_blend_epi32(classes, _mm256_set1_epi64x(2 * pixels), 0xc0));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(o + 192), _mm_set1_epi64x(4 * pixels));
    const long long xyz = 8 * pixels;
    std::memcpy(o + 208, &xyz, sizeof(xyz));
  }
}

/** Widen (one of the AVX2 paths above) with streaming stores
 *  (StreamingStores.h): the entries up to the first whose wide place
 *  starts a 32-byte block (216 bytes are 24 mod 32, so one of every four
 *  does) as usual, then batches of 32 entries (6,912 bytes, whole blocks)
 *  widened into a buffer that stays in the L1 cache and streamed to their
 *  place, the rest as usual; one fence at the end. */
template <void (*Widen)(const unsigned char *, ComponentFeatures *, std::size_t), std::size_t EntryBytes>
__attribute__((target("avx2"))) void
WidenStreamingAvx2(const unsigned char * in, ComponentFeatures * out, std::size_t count)
{
  std::size_t head = 0;
  while (head < count && head < 4 && (reinterpret_cast<std::uintptr_t>(out + head) & 31) != 0)
  {
    ++head;
  }
  Widen(in, out, head);
  constexpr std::size_t         Batch = 32;
  alignas(32) ComponentFeatures scratch[Batch];
  static_assert(sizeof(scratch) % 32 == 0, "a batch is whole 32-byte blocks");
  std::size_t i = head;
  if ((reinterpret_cast<std::uintptr_t>(out + i) & 31) == 0) // else out is not 8-byte aligned: no batches
  {
    for (; i + Batch <= count; i += Batch)
    {
      Widen(in + i * EntryBytes, scratch, Batch);
      detail::StreamAlignedBlocks(out + i, scratch, sizeof(scratch));
    }
  }
  Widen(in + i * EntryBytes, out + i, count - i);
  detail::StoreFence();
}
#endif

} // namespace

void
WidenFeatureEntries(const void * narrow, ComponentFeatures * wide, std::size_t count, HostStores stores)
{
  const auto * in = static_cast<const unsigned char *>(narrow);
#if defined(CCA_WIDEN_AVX2)
  if (StreamingStoresAvailable()) // AVX2, as the vector paths need
  {
    stores == HostStores::Streaming ? WidenStreamingAvx2<WidenEntriesAvx2, sizeof(NarrowFeatures)>(in, wide, count)
                                    : WidenEntriesAvx2(in, wide, count);
    return;
  }
#endif
  WidenEntriesPlain<NarrowFeatures>(in, wide, count);
}

void
WidenPlanarFeatureEntries(const void * planar, ComponentFeatures * wide, std::size_t count, HostStores stores)
{
  const auto * in = static_cast<const unsigned char *>(planar);
#if defined(CCA_WIDEN_AVX2)
  if (StreamingStoresAvailable()) // AVX2, as the vector paths need
  {
    stores == HostStores::Streaming
      ? WidenStreamingAvx2<WidenPlanarEntriesAvx2, sizeof(PlanarFeatures)>(in, wide, count)
      : WidenPlanarEntriesAvx2(in, wide, count);
    return;
  }
#endif
  WidenEntriesPlain<PlanarFeatures>(in, wide, count);
}

} // namespace cca
