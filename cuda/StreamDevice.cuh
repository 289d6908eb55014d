// The CUDA device of the host sequence (HostSequence.cuh says what a device
// does): everything runs in order on one stream the device owns; scans and
// sorts are CUB's, copies to and from the host go through pinned staging
// buffers (HostStaging.h), and stage times come from CUDA events. The
// emulation tests have a CPU twin with the same members
// (test/gpu/emulation/EmulatedDevice.h). Include from .cu files only (CUB).
#ifndef cca_cuda_StreamDevice_cuh
#define cca_cuda_StreamDevice_cuh

#include "CudaCheck.h"
#include "DeviceGeometry.cuh"
#include "DeviceMemory.h"
#include "HostStaging.h"
#include "Milestones.h"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace cca
{
namespace cuda
{

class StreamDevice
{
public:
  /** Device memory kept across runs (it only grows). */
  using Buffer = DeviceBuffer;
  static constexpr int ScratchSlots = 6;

  /** On the current CUDA device. */
  StreamDevice()
  {
    for (auto & mark : m_Milestones)
    {
      mark = std::make_unique<Event>(true);
    }
  }

  cudaStream_t
  Stream() const
  {
    return m_Stream.Get();
  }

  /** Before a run: work still in flight (a run that threw may have left
   *  some on buffers about to be reused) is finished, the byte count cleared. */
  void
  Begin()
  {
    m_BytesToHost = 0;
    m_Stream.Synchronize("finishing earlier work");
  }

  /** kernel<<<blocks, threads>>>(args...) on the stream; what names it in errors. */
  template <class... Params, class... Args>
  void
  Launch(const char * what, unsigned blocks, unsigned threads, void (*kernel)(Params...), Args &&... args)
  {
    kernel<<<blocks, threads, 0, m_Stream.Get()>>>(std::forward<Args>(args)...);
    CheckLaunch(what);
  }

  /** Blocks of threads threads of kernel that fit on the device at once
   *  (the grid of kernels that keep their blocks resident). */
  template <class... Params>
  unsigned
  ResidentBlocks(void (*kernel)(Params...), unsigned threads)
  {
    int device = 0;
    int processors = 0;
    int perProcessor = 0;
    Check(cudaGetDevice(&device), "querying the current CUDA device");
    Check(cudaDeviceGetAttribute(&processors, cudaDevAttrMultiProcessorCount, device), "querying the device");
    Check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perProcessor, kernel, static_cast<int>(threads), 0),
          "querying kernel occupancy");
    return static_cast<unsigned>(std::max(1, processors * std::max(1, perProcessor)));
  }

  void
  Fill(void * destination, int byte, std::size_t bytes, const char * what)
  {
    Check(cudaMemsetAsync(destination, byte, bytes, m_Stream.Get()), what);
  }

  /** Waits for the work so far and returns *source. */
  template <class T>
  T
  Read(const T * source, const char * what)
  {
    auto * host = static_cast<T *>(m_HostScalar.Reserve(sizeof(T) < 16 ? 16 : sizeof(T), what));
    Check(cudaMemcpyAsync(host, source, sizeof(T), cudaMemcpyDeviceToHost, m_Stream.Get()), what);
    m_Stream.Synchronize(what);
    m_BytesToHost += static_cast<std::int64_t>(sizeof(T));
    return *host;
  }

  /** Scratch slot 0 .. ScratchSlots - 1: count elements of T, contents undefined. */
  template <class T>
  T *
  Scratch(int slot, std::size_t count, const char * what)
  {
    return m_Scratch[slot].Reserve<T>(count, what);
  }

  /** out[i] = in[0] + ... + in[i - 1] for i < count (CUB). */
  template <class T>
  void
  ExclusiveSum(const char * what, const T * in, T * out, std::int64_t count)
  {
    ExclusiveSumOver(what, in, out, count);
  }

  /** out[i] = f(0) + ... + f(i - 1) for i < count (CUB over a transform of the indices). */
  template <class T, class F>
  void
  ExclusiveSumOf(const char * what, F f, T * out, std::int64_t count)
  {
    ExclusiveSumOver(what, thrust::make_transform_iterator(thrust::counting_iterator<T>(0), f), out, count);
  }

  /** The count (key, value) pairs ordered by key, stably; keys are below
   *  2^endBit (CUB's radix sort of bits [0, endBit)). */
  template <class Key, class Value>
  void
  SortPairs(const char * what, const Key * keysIn, Key * keysOut, const Value * valuesIn, Value * valuesOut,
            std::int64_t count, int endBit)
  {
    std::size_t bytes = 0;
    Check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keysIn, keysOut, valuesIn, valuesOut, count, 0, endBit,
                                          m_Stream.Get()),
          what);
    void * temp = m_Temp.Reserve(bytes, "sort workspace");
    Check(cub::DeviceRadixSort::SortPairs(temp, bytes, keysIn, keysOut, valuesIn, valuesOut, count, 0, endBit,
                                          m_Stream.Get()),
          what);
  }

  /** The count keys in increasing order (CUB's radix sort of bits [0, endBit)). */
  template <class Key>
  void
  SortKeys(const char * what, const Key * keysIn, Key * keysOut, std::int64_t count, int endBit)
  {
    std::size_t bytes = 0;
    Check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, keysIn, keysOut, count, 0, endBit, m_Stream.Get()), what);
    void * temp = m_Temp.Reserve(bytes, "sort workspace");
    Check(cub::DeviceRadixSort::SortKeys(temp, bytes, keysIn, keysOut, count, 0, endBit, m_Stream.Get()), what);
  }

  /** Copies bytes made on the host by produce to device memory, in order
   *  with the work on the stream. */
  void
  Upload(void * device, std::size_t bytes, const BytesProducer & produce)
  {
    m_Staging.Upload(device, bytes, produce, m_Stream.Get());
  }

  /** Copies device memory to the host; returns when host holds it. */
  void
  Download(void * host, const void * device, std::size_t bytes)
  {
    m_Staging.Download(host, device, bytes, m_Stream.Get());
    m_BytesToHost += static_cast<std::int64_t>(bytes);
  }

  /** Marks the point the work on the stream has reached, for Milliseconds. */
  void
  Record(Milestone milestone)
  {
    m_Milestones[static_cast<int>(milestone)]->Record(m_Stream.Get());
  }

  /** Waits until the work enqueued so far is done. */
  void
  Wait()
  {
    m_Stream.Synchronize("waiting for the device");
  }

  /** Between two recorded milestones, once the later one is done. */
  double
  Milliseconds(Milestone from, Milestone to) const
  {
    return m_Milestones[static_cast<int>(to)]->MillisecondsSince(*m_Milestones[static_cast<int>(from)]);
  }

  /** Device-to-host bytes since Begin. */
  std::int64_t
  BytesToHost() const
  {
    return m_BytesToHost;
  }

private:
  template <class In, class T>
  void
  ExclusiveSumOver(const char * what, In in, T * out, std::int64_t count)
  {
    std::size_t bytes = 0;
    Check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, count, m_Stream.Get()), what);
    void * temp = m_Temp.Reserve(bytes, "scan workspace");
    Check(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, count, m_Stream.Get()), what);
  }

  cuda::Stream           m_Stream;
  std::unique_ptr<Event> m_Milestones[NumberOfMilestones];
  HostStaging            m_Staging;
  PinnedBuffer           m_HostScalar;
  DeviceBuffer           m_Temp; ///< CUB's workspace
  DeviceBuffer           m_Scratch[ScratchSlots];
  std::int64_t           m_BytesToHost = 0;
};

} // namespace cuda
} // namespace cca

#endif
