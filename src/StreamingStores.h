// The host's writes of large downloads (table, runs, label images) with
// streaming (non-temporal) stores: an ordinary store first reads its cache
// line from memory, so copying staged bytes into their place moved each
// byte over the host's memory bus three times (read the staging buffer,
// read the line, write it back); streamed, twice, and none of it evicts
// what the caches hold. x86 with AVX2; elsewhere plain copies.
#ifndef cca_StreamingStores_h
#define cca_StreamingStores_h

#include <cstddef>
#include <cstdint>

namespace cca
{

/** How the host writes what a download brings: Cached, ordinary stores (a
 *  small download that the caller reads at once from the caches);
 *  Streaming, non-temporal stores where the CPU has them. */
enum class HostStores
{
  Cached,
  Streaming
};

/** Whether this CPU has the streaming stores used here, AVX2's (asked
 *  once); NarrowFeatures.cpp's vector widenings ask it too. */
bool
StreamingStoresAvailable();

/** std::memcpy(to, from, bytes), the whole 32-byte blocks of to written by
 *  streaming stores, then a store fence, so that whatever the caller
 *  stores next (a flag another thread waits on) is seen after these bytes.
 *  The ranges must not overlap. */
void
CopyStreaming(void * to, const void * from, std::size_t bytes);

/** CopyStreaming where stores is Streaming, else std::memcpy. */
void
CopyBytes(void * to, const void * from, std::size_t bytes, HostStores stores);

/** out[i] = in[i] for count values, with streaming stores and a fence as
 *  CopyStreaming (where stores is Streaming), else ordinary stores: 32-bit
 *  labels widened into a 64-bit label image. */
void
WidenLabels(const std::uint32_t * in, std::uint64_t * out, std::size_t count, HostStores stores);

namespace detail
{
/** Copies bytes (a multiple of 32) from 32-byte-aligned from to
 *  32-byte-aligned to by streaming stores, without a fence: for callers
 *  that build their output in a small buffer (NarrowFeatures.cpp) and fence
 *  once at their end (StoreFence). Needs StreamingStoresAvailable(). */
void
StreamAlignedBlocks(void * to, const void * from, std::size_t bytes);

/** Orders the streaming stores made so far before later stores. */
void
StoreFence();
} // namespace detail

} // namespace cca

#endif
