// The host's streaming stores for large downloads (src/StreamingStores.h):
// CopyStreaming (and CopyBytes streaming) against std::memcpy, and WidenLabels (32-bit labels into a
// 64-bit image, streamed and not) against the values, on random bytes of
// random sizes at every offset of source and destination from a 32-byte
// boundary (the head and tail that ordinary stores write), with nothing
// written before or past the destination.
#include "StreamingStores.h"

#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <vector>

namespace
{

constexpr unsigned char Guard = 0x5a;

/** Whether bytes [begin, end) of memory still hold Guard. */
bool
Untouched(const std::vector<unsigned char> & memory, std::size_t begin, std::size_t end)
{
  for (std::size_t i = begin; i < end; ++i)
  {
    if (memory[i] != Guard)
    {
      return false;
    }
  }
  return true;
}

/** 32-byte aligned place in memory (which has 64 bytes to spare) plus offset. */
unsigned char *
AlignedPlus(std::vector<unsigned char> & memory, std::size_t offset)
{
  const auto misalignment = reinterpret_cast<std::uintptr_t>(memory.data()) % 32;
  return memory.data() + (32 - misalignment) % 32 + offset;
}

int
CheckCopies(std::uint32_t seed)
{
  std::mt19937_64 rng(seed);
  int             failed = 0;
  for (int k = 0; k < 3000; ++k)
  {
    // Mostly a few blocks, sometimes below the streamed size, sometimes a megabyte.
    const std::size_t          bytes = k % 100 == 0 ? (std::size_t{ 1 } << 20) + rng() % 4096 : rng() % 3000;
    const std::size_t          from = rng() % 32;
    const std::size_t          to = rng() % 32;
    std::vector<unsigned char> source(bytes + 64);
    for (unsigned char & b : source)
    {
      b = static_cast<unsigned char>(rng());
    }
    std::vector<unsigned char> target(bytes + 128, Guard);
    unsigned char *            destination = AlignedPlus(target, 32 + to);
    const auto                 begin = static_cast<std::size_t>(destination - target.data());
    // CopyBytes in every tenth case: its streaming branch is CopyStreaming's.
    if (k % 10 == 1)
    {
      cca::CopyBytes(destination, AlignedPlus(source, from), bytes, cca::HostStores::Streaming);
    }
    else
    {
      cca::CopyStreaming(destination, AlignedPlus(source, from), bytes);
    }
    const bool same = std::memcmp(destination, AlignedPlus(source, from), bytes) == 0;
    if ((!same || !Untouched(target, 0, begin) || !Untouched(target, begin + bytes, target.size())) && failed++ < 10)
    {
      std::cout << "FAIL copy case " << k << ": " << bytes << " bytes, source offset " << from
                << ", destination offset " << to << (same ? " wrote outside its bytes" : " differs") << " (seed "
                << seed << ")" << std::endl;
    }
  }
  std::cout << "streamed copies: " << (failed == 0 ? "all match memcpy" : "FAILED") << std::endl;
  return failed;
}

int
CheckWidenedLabels(std::uint32_t seed, cca::HostStores stores, const char * what)
{
  std::mt19937_64 rng(seed);
  int             failed = 0;
  for (int k = 0; k < 2000; ++k)
  {
    const std::size_t          count = k % 100 == 0 ? 100000 + rng() % 100 : rng() % 300;
    const std::size_t          from = 4 * (rng() % 8); // staged labels are 4-byte aligned
    const std::size_t          to = 8 * (rng() % 4);   // the image's are 8-byte aligned
    std::vector<unsigned char> staged(count * 4 + 64);
    for (unsigned char & b : staged)
    {
      b = static_cast<unsigned char>(rng());
    }
    const auto *               in = reinterpret_cast<const std::uint32_t *>(AlignedPlus(staged, from));
    std::vector<unsigned char> image(count * 8 + 128, Guard);
    auto *                     out = reinterpret_cast<std::uint64_t *>(AlignedPlus(image, 32 + to));
    const auto                 begin = static_cast<std::size_t>(reinterpret_cast<unsigned char *>(out) - image.data());
    cca::WidenLabels(in, out, count, stores);
    std::size_t wrong = count;
    for (std::size_t i = 0; i < count && wrong == count; ++i)
    {
      wrong = out[i] == in[i] ? count : i;
    }
    const bool inside = Untouched(image, 0, begin) && Untouched(image, begin + 8 * count, image.size());
    if ((wrong != count || !inside) && failed++ < 10)
    {
      std::cout << "FAIL " << what << " case " << k << ": " << count << " labels, destination offset " << to
                << (wrong != count ? ", first wrong label " + std::to_string(wrong) : ", wrote outside them")
                << " (seed " << seed << ")" << std::endl;
    }
  }
  std::cout << what << ": " << (failed == 0 ? "all match" : "FAILED") << std::endl;
  return failed;
}

} // namespace

int
main()
{
  constexpr std::uint32_t seed = 20261204;
  std::cout << "streaming stores on this CPU: " << (cca::StreamingStoresAvailable() ? "yes" : "no (plain copies)")
            << std::endl;
  int failed = CheckCopies(seed);
  failed += CheckWidenedLabels(seed, cca::HostStores::Streaming, "labels widened, streamed");
  failed += CheckWidenedLabels(seed, cca::HostStores::Cached, "labels widened");
  return failed == 0 ? 0 : 1;
}
