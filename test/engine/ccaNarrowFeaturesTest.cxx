// The CUDA backend's narrow table entries widened on the host
// (src/NarrowFeatures.h): WidenFeatureEntries, whose AVX2 path moves byte
// ranges, against WidenFeatures field by field, on random entries of random
// counts at every alignment of the staged bytes; and a 2D image's planar
// entries: random components of random runs, accumulated and finished as
// planar records by the formulas the kernels use (src/RunFeatures.h), then
// widened (WidenPlanarFeatureEntries), against the same components as
// ComponentFeatures; and its AVX2 path against WidenFeatures field by field
// on random planar bytes. Each widening also with streaming stores
// (HostStores::Streaming: batches of entries streamed from an L1 buffer),
// into wide entries at each 8-byte offset from a 32-byte boundary.
#include "NarrowFeatures.h"
#include "RunFeatures.h"

#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

namespace
{

/** A random 2D component's features as Features: runs in rows of a
 *  width x height image, each adding random pair counts of the x, y and xy
 *  classes (the votes add such counts). */
template <class Features>
Features
RandomComponent(std::uint64_t seed, std::int32_t width, std::int32_t height)
{
  std::mt19937_64               rng(seed);
  const cca::detail::ImageFaces faces{ width, height, 1, false };
  Features                      total;
  cca::detail::ClearFeatures(total);
  const int runs = 1 + static_cast<int>(rng() % 6);
  for (int r = 0; r < runs; ++r)
  {
    const auto x = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(width));
    const auto length = 1 + static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(width - x));
    const auto y = static_cast<std::int32_t>(rng() % static_cast<std::uint64_t>(height));
    Features   f;
    cca::detail::RunContribution(x, y, 0, length, faces, f);
    // At most what a real component's pixels allow, so that every
    // finished count stays >= 0 (2^(bits of the class) steps a pixel, a
    // pair removes two): x 1 more a run, y up to its length, xy twice it.
    const auto n = static_cast<std::uint64_t>(length);
    f.interceptCounts[0] += static_cast<std::uint32_t>(rng() % 2);
    f.interceptCounts[1] += static_cast<std::uint32_t>(rng() % (n + 1));
    f.interceptCounts[2] += static_cast<std::uint32_t>(rng() % (2 * n + 1));
    cca::detail::MergeFeatures(total, f);
  }
  cca::detail::FinalizeIntercepts(total);
  return total;
}

/** Planar entries widened against the wide records of the same components. */
int
CheckPlanarEntries(std::uint32_t seed)
{
  std::mt19937_64 rng(seed);
  int             failed = 0;
  for (int k = 0; k < 500; ++k)
  {
    const std::size_t count = 1 + rng() % 40;
    const std::size_t shift = rng() % 8;
    // Images of one pixel wide or high put runs on both faces at once.
    const auto                          width = 1 + static_cast<std::int32_t>(rng() % 300);
    const auto                          height = 1 + static_cast<std::int32_t>(rng() % 300);
    std::vector<std::uint64_t>          seeds(count);
    std::vector<unsigned char>          staged(count * sizeof(cca::PlanarFeatures) + shift);
    std::vector<cca::ComponentFeatures> expected(count);
    for (std::size_t i = 0; i < count; ++i)
    {
      seeds[i] = rng();
      const auto planar = RandomComponent<cca::PlanarFeatures>(seeds[i], width, height);
      std::memcpy(staged.data() + shift + i * sizeof(planar), &planar, sizeof(planar));
      expected[i] = RandomComponent<cca::ComponentFeatures>(seeds[i], width, height);
    }
    std::vector<cca::ComponentFeatures> wide(count);
    cca::WidenPlanarFeatureEntries(staged.data() + shift, wide.data(), count);
    for (std::size_t i = 0; i < count; ++i)
    {
      if (std::memcmp(&expected[i], &wide[i], sizeof(expected[i])) != 0 && failed++ < 10)
      {
        std::cout << "FAIL planar entry " << i << " of case " << k << " (" << width << " x " << height << ", seed "
                  << seed << ")" << std::endl;
      }
    }
  }
  std::cout << "planar entries widened: " << (failed == 0 ? "all match their wide records" : "FAILED") << std::endl;
  return failed;
}

/** A staged widening (WidenFeatureEntries, WidenPlanarFeatureEntries: their
 *  AVX2 paths where the CPU has them) against WidenFeatures field by field
 *  on random Entry bytes, at every alignment of the staged bytes, and
 *  nothing written before or past the entries. With streaming stores the
 *  wide entries start at each 8-byte offset from a 32-byte boundary (the
 *  batches start at the first entry on one), and the counts reach past
 *  three batches. */
template <class Entry>
int
CheckWidenedBytes(std::uint32_t seed,
                  void (*widen)(const void *, cca::ComponentFeatures *, std::size_t, cca::HostStores),
                  cca::HostStores stores,
                  const char *    what)
{
  std::mt19937_64 rng(seed);
  int             failed = 0;
  const bool      streaming = stores == cca::HostStores::Streaming;
  for (int k = 0; k < 2000; ++k)
  {
    const std::size_t          count = rng() % (streaming ? 140 : 70);
    const std::size_t          shift = rng() % 8; // staged bytes need not be aligned
    std::vector<unsigned char> staged(count * sizeof(Entry) + shift);
    for (unsigned char & b : staged)
    {
      b = static_cast<unsigned char>(rng());
    }
    // The wide entries from the 32-byte boundary plus 0, 8, 16 or 24 bytes,
    // one guard entry before and after them.
    constexpr std::size_t      wideBytes = sizeof(cca::ComponentFeatures);
    const std::size_t          offset = 8 * (rng() % 4);
    std::vector<unsigned char> memory((count + 2) * wideBytes + 64);
    std::memset(memory.data(), 0xa5, memory.size());
    unsigned char * aligned = memory.data() + (32 - reinterpret_cast<std::uintptr_t>(memory.data()) % 32) % 32;
    auto *          wide = reinterpret_cast<cca::ComponentFeatures *>(aligned + offset + wideBytes);
    widen(staged.data() + shift, wide, count, stores);
    for (std::size_t i = 0; i < count; ++i)
    {
      Entry entry;
      std::memcpy(&entry, staged.data() + shift + i * sizeof(entry), sizeof(entry));
      cca::ComponentFeatures expected;
      cca::WidenFeatures(entry, expected);
      if (std::memcmp(&expected, &wide[i], sizeof(expected)) != 0 && failed++ < 10)
      {
        std::cout << "FAIL " << what << ", entry " << i << " of " << count << " in case " << k << " (offset " << offset
                  << ", seed " << seed << ")" << std::endl;
      }
    }
    const auto untouched = [](const unsigned char * b) {
      for (std::size_t j = 0; j < wideBytes; ++j)
      {
        if (b[j] != 0xa5)
        {
          return false;
        }
      }
      return true;
    };
    const auto * before = reinterpret_cast<const unsigned char *>(wide - 1);
    const auto * after = reinterpret_cast<const unsigned char *>(wide + count);
    if ((!untouched(before) || !untouched(after)) && failed++ < 10)
    {
      std::cout << "FAIL " << what << ", case " << k << " wrote outside its entries (offset " << offset << ", seed "
                << seed << ")" << std::endl;
    }
  }
  std::cout << what << " widened: " << (failed == 0 ? "all match" : "FAILED") << std::endl;
  return failed;
}

} // namespace

int
main()
{
  constexpr std::uint32_t seed = 20261130;
  constexpr auto          cached = cca::HostStores::Cached;
  constexpr auto          streaming = cca::HostStores::Streaming;
  int failed = CheckWidenedBytes<cca::NarrowFeatures>(seed, cca::WidenFeatureEntries, cached, "narrow entries");
  failed +=
    CheckWidenedBytes<cca::NarrowFeatures>(seed, cca::WidenFeatureEntries, streaming, "narrow entries, streamed");
  failed += CheckPlanarEntries(seed);
  failed += CheckWidenedBytes<cca::PlanarFeatures>(seed, cca::WidenPlanarFeatureEntries, cached, "planar bytes");
  failed +=
    CheckWidenedBytes<cca::PlanarFeatures>(seed, cca::WidenPlanarFeatureEntries, streaming, "planar bytes, streamed");
  return failed == 0 ? 0 : 1;
}
