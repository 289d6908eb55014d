// Just enough of CUDA to run the backend's kernels on the CPU, for checking
// the logic of the strategies where no GPU is present. The threads of a
// block are fibres (Fibres.h) on one OS thread, switched where a CUDA thread
// waits for others: __syncthreads, the warp intrinsics (__ballot_sync,
// __shfl_sync, __match_any_sync, ...), and at random atomics, so that the
// lock-free unions of one block interleave at their atomic steps. Blocks run
// on a few OS threads at once (CCA_EMULATION_THREADS, default 2 to 4), so the
// unions of different blocks interleave for real too. Atomics go through
// std::atomic_ref. This is x86's memory model, not the GPU's: GPU-only
// effects still need the GPU tests. Include before the .cuh headers.
//
// CCA_EMULATION_PREEMPT=N: on average one atomic in N switches to another
// thread of the block (default 4; 0: never, each thread then runs from one
// barrier or warp intrinsic to the next alone).
#ifndef cca_CudaEmulation_h
#define cca_CudaEmulation_h

#include "BlockScheduler.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#define __device__
// inline: a kernel that is not a template (UpdateTotalsKernel) is then defined
// once across the translation units that include the sequence.
#define __global__ inline
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static thread_local // one block at a time per OS thread

namespace emulation
{

/** Every lane publishes value; returns all 32 (all lanes must call it). */
inline void
Gather(std::uint64_t value, std::uint64_t (&all)[32])
{
  BlockRunner::OfThisThread().Gather(value, all);
}

template <class T>
std::uint64_t
Bits(T value)
{
  static_assert(sizeof(T) <= 8, "at most 64-bit values");
  std::uint64_t u = 0;
  std::memcpy(&u, &value, sizeof(T));
  return u;
}

template <class T>
T
FromBits(std::uint64_t u)
{
  T value;
  std::memcpy(&value, &u, sizeof(T));
  return value;
}

/** Runs kernel() as a grid of blocks x threads. */
template <class Kernel>
void
Launch(unsigned blocks, unsigned threads, Kernel kernel)
{
  gridDim.x = blocks;
  blockDim.x = threads;
  BlockThreads::Instance().Run(
    blocks, threads, [](const void * k) { (*static_cast<const Kernel *>(k))(); }, &kernel);
}
} // namespace emulation

template <class T>
T
__shfl_sync(unsigned, T value, int source)
{
  std::uint64_t all[32];
  emulation::Gather(emulation::Bits(value), all);
  return emulation::FromBits<T>(all[source & 31]);
}
template <class T>
T
__shfl_up_sync(unsigned, T value, unsigned delta)
{
  std::uint64_t all[32];
  emulation::Gather(emulation::Bits(value), all);
  const unsigned lane = threadIdx.x & 31;
  return emulation::FromBits<T>(all[lane >= delta ? lane - delta : lane]);
}
template <class T>
T
__shfl_xor_sync(unsigned, T value, int laneMask)
{
  std::uint64_t all[32];
  emulation::Gather(emulation::Bits(value), all);
  return emulation::FromBits<T>(all[(threadIdx.x & 31) ^ static_cast<unsigned>(laneMask)]);
}
inline unsigned
__ballot_sync(unsigned, int predicate)
{
  std::uint64_t all[32];
  emulation::Gather(predicate != 0 ? 1 : 0, all);
  unsigned mask = 0;
  for (int i = 0; i < 32; ++i)
  {
    mask |= all[i] != 0 ? 1u << i : 0u;
  }
  return mask;
}
inline bool
__all_sync(unsigned, int predicate)
{
  return __ballot_sync(0, predicate) == 0xffffffffu;
}
inline bool
__any_sync(unsigned, int predicate)
{
  return __ballot_sync(0, predicate) != 0;
}
template <class T>
unsigned
__match_any_sync(unsigned, T key)
{
  std::uint64_t       all[32];
  const std::uint64_t mine = emulation::Bits(key);
  emulation::Gather(mine, all);
  unsigned mask = 0;
  for (int i = 0; i < 32; ++i)
  {
    mask |= all[i] == mine ? 1u << i : 0u;
  }
  return mask;
}
inline int
__popc(unsigned v)
{
  return __builtin_popcount(v);
}
/** Per byte: 0xff where a and b agree, 0 elsewhere. */
inline unsigned
__vcmpeq4(unsigned a, unsigned b)
{
  unsigned r = 0;
  for (int k = 0; k < 4; ++k)
  {
    r |= ((a >> (8 * k)) & 0xffu) == ((b >> (8 * k)) & 0xffu) ? 0xffu << (8 * k) : 0u;
  }
  return r;
}
/** CUDA's vector types that the kernels store whole. */
struct alignas(8) uint2
{
  unsigned x, y;
};
inline uint2
make_uint2(unsigned x, unsigned y)
{
  return uint2{ x, y };
}
struct alignas(16) uint4
{
  unsigned x, y, z, w;
};
inline uint4
make_uint4(unsigned x, unsigned y, unsigned z, unsigned w)
{
  return uint4{ x, y, z, w };
}
/** A load that CUDA fetches again from memory (no cached line): a plain load here. */
template <class T>
inline T
__ldcv(const T * address)
{
  return *address;
}
/** A load with CUDA's evict-first cache hint: a plain load here. */
template <class T>
inline T
__ldcs(const T * address)
{
  return *address;
}
struct alignas(16) ulonglong2
{
  unsigned long long x, y;
};
inline ulonglong2
make_ulonglong2(unsigned long long x, unsigned long long y)
{
  return ulonglong2{ x, y };
}
inline int
__clz(unsigned v)
{
  return v == 0 ? 32 : __builtin_clz(v);
}
inline int
__ffs(unsigned v)
{
  return __builtin_ffs(static_cast<int>(v));
}
inline void
__syncthreads()
{
  emulation::BlockRunner::OfThisThread().SyncThreads();
}
/** Every lane of the warp meets the others (a gather of nothing). */
inline void
__syncwarp(unsigned = 0xffffffffu)
{
  std::uint64_t all[32];
  emulation::Gather(0, all);
}
inline void
__threadfence()
{
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

/** A load through the L1 (ld.ca): on the GPU it may return an older value
 *  that another multiprocessor has since replaced; here it reads the
 *  current one, with a chance for the other threads to run first. */
template <class T>
T
__ldca(const T * p)
{
  emulation::BlockRunner::OfThisThread().MaybePreempt();
  return std::atomic_ref<T>(*const_cast<T *>(p)).load(std::memory_order_relaxed);
}

template <class T>
T
atomicAdd(T * p, T v)
{
  emulation::BlockRunner::OfThisThread().MaybePreempt();
  return std::atomic_ref<T>(*p).fetch_add(v);
}
template <class T>
T
atomicExch(T * p, T v)
{
  emulation::BlockRunner::OfThisThread().MaybePreempt();
  return std::atomic_ref<T>(*p).exchange(v);
}
template <class T>
T
atomicCAS(T * p, T expected, T desired)
{
  emulation::BlockRunner::OfThisThread().MaybePreempt();
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired);
  return expected; // the old value, whether or not it was replaced
}
template <class T>
T
atomicMin(T * p, T v)
{
  emulation::BlockRunner::OfThisThread().MaybePreempt();
  std::atomic_ref<T> a(*p);
  T                  old = a.load();
  while (v < old && !a.compare_exchange_weak(old, v))
  {}
  return old;
}
template <class T>
T
atomicMax(T * p, T v)
{
  emulation::BlockRunner::OfThisThread().MaybePreempt();
  std::atomic_ref<T> a(*p);
  T                  old = a.load();
  while (v > old && !a.compare_exchange_weak(old, v))
  {}
  return old;
}
template <class T>
T
atomicOr(T * p, T v)
{
  emulation::BlockRunner::OfThisThread().MaybePreempt();
  return std::atomic_ref<T>(*p).fetch_or(v);
}
template <class T>
T
atomicXor(T * p, T v)
{
  emulation::BlockRunner::OfThisThread().MaybePreempt();
  return std::atomic_ref<T>(*p).fetch_xor(v);
}
inline int
min(int a, int b)
{
  return a < b ? a : b;
}
inline int
max(int a, int b)
{
  return a > b ? a : b;
}

#endif
