// Device-memory input and output of the CUDA backend (MemorySpace::CudaDevice,
// Options::useCallerStream), against the CPU backend on a host copy of the
// same view: dense images read in place, strided ones (transposed, reversed,
// padded) packed on the device, label images written to device memory, the
// caller's streams (its own, the legacy default stream, the per-thread
// stream) with the input still being copied on that stream when Run is
// called, feature images in device memory (the intensity group equal to
// the CPU backend's), and pointers that are not device memory refused; and the count of
// the device memory that engines hold (Engine::DeviceMemoryInUse), the
// device states that engines leave to the next, byte
// planes for the strip labeling aligned and not, and the
// process's pinned blocks that the copies stage through. Exits 77 (skipped)
// where no CUDA device is usable.
#include "cca/Engine.h"
#include "cca/RandomImages.h"

#include "CudaBackendTesting.h"
#include "ccaGpuTestTally.h"
#include "DeviceMemory.h"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace
{
using namespace ccaGpuTest;

/** Device memory owned for the length of a case. */
struct DeviceArray
{
  void * pointer = nullptr;
  explicit DeviceArray(std::size_t bytes) { CheckCuda(cudaMalloc(&pointer, bytes == 0 ? 1 : bytes), "cudaMalloc"); }
  ~DeviceArray() { cudaFree(pointer); }
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &
  operator=(const DeviceArray &) = delete;
};

/** A strided layout of a logical x-fastest image inside a storage array. */
struct Layout
{
  std::int64_t stride[3];
  std::int64_t origin; ///< storage index of pixel (0, 0, 0)
  std::int64_t storage;
  const char * name;
};

Layout
MakeLayout(int kind, const std::int64_t (&size)[3])
{
  const std::int64_t pad = kind == 3 ? 7 : 0;
  Layout             l{ { 1, size[0] + pad, (size[0] + pad) * size[1] }, 0, (size[0] + pad) * size[1] * size[2], "" };
  switch (kind)
  {
    case 0:
      l.name = "dense";
      break;
    case 1: // y fastest in memory
      l.stride[0] = size[1];
      l.stride[1] = 1;
      l.name = "transposed";
      break;
    case 2:
      l.origin = size[0] - 1;
      l.stride[0] = -1;
      l.name = "x reversed";
      break;
    default:
      l.origin = l.stride[2] * (size[2] - 1);
      l.stride[2] = -l.stride[2];
      l.name = "padded rows, z reversed";
      break;
  }
  return l;
}

/** The storage of layout l holding value(i) at the pixel of dense index i (x fastest). */
template <class T, class Value>
std::vector<T>
StoreValues(const std::int64_t (&size)[3], const Layout & l, Value value)
{
  std::vector<T> storage(static_cast<std::size_t>(l.storage), T{ 0 });
  for (std::int64_t z = 0; z < size[2]; ++z)
    for (std::int64_t y = 0; y < size[1]; ++y)
      for (std::int64_t x = 0; x < size[0]; ++x)
        storage[static_cast<std::size_t>(l.origin + x * l.stride[0] + y * l.stride[1] + z * l.stride[2])] =
          static_cast<T>(value(static_cast<std::size_t>(x + size[0] * (y + size[1] * z))));
  return storage;
}

template <class T>
std::vector<T>
Store(const std::vector<std::uint8_t> & mask, const std::int64_t (&size)[3], const Layout & l)
{
  return StoreValues<T>(size, l, [&](std::size_t i) { return mask[i] ? 3 : 0; });
}

bool
SameTables(const cca::Result & a, const cca::Result & b, std::string & why)
{
  if (a.componentCount != b.componentCount || a.features.size() != b.features.size())
  {
    why = "component counts " + std::to_string(a.componentCount) + " and " + std::to_string(b.componentCount);
    return false;
  }
  for (std::size_t i = 0; i < a.features.size(); ++i)
  {
    if (std::memcmp(&a.features[i], &b.features[i], sizeof(cca::ComponentFeatures)) != 0)
    {
      why = "features of label " + std::to_string(i + 1);
      return false;
    }
  }
  if (a.runOffsets != b.runOffsets || a.runs.size() != b.runs.size() ||
      (!a.runs.empty() && std::memcmp(a.runs.data(), b.runs.data(), a.runs.size() * sizeof(cca::Run)) != 0))
  {
    why = "runs";
    return false;
  }
  return true;
}

/** One image, one layout, one stream choice: device input (and a device or
 *  host label image) against the CPU backend. stream: -1 the engine's own,
 *  0 legacy default, 1 a stream made here, 2 cudaStreamPerThread. */
template <class T>
void
Case(cca::Engine & engine, std::uint32_t seed, int layoutKind, int stream, bool deviceLabels, cca::PixelType type)
{
  std::mt19937       rng(seed);
  auto               pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  const int          dimension = pick(2) == 0 ? 3 : 2;
  const std::int64_t size[3] = { 1 + pick(300), 1 + pick(120), dimension == 3 ? 1 + pick(20) : 1 };
  const double       density = pick(11) / 10.0;
  const auto         mask = cca::RandomBlockImage(size[0], size[1], size[2], density, 1 + pick(4), seed);
  const Layout       layout = MakeLayout(layoutKind, size);
  const auto         host = Store<T>(mask, size, layout);
  const std::size_t  pixels = mask.size();

  cca::ImageView view;
  view.pixelType = type;
  view.dimension = dimension;
  for (int i = 0; i < 3; ++i)
  {
    view.size[i] = size[i];
    view.stride[i] = layout.stride[i];
  }
  view.data = host.data() + layout.origin;
  cca::Options options;
  options.connectivity = pick(2) ? cca::Connectivity::Full : cca::Connectivity::Face;
  options.labelImageType = pick(2) ? cca::LabelImageType::UInt32 : cca::LabelImageType::UInt64;
  const std::size_t          labelBytes = options.labelImageType == cca::LabelImageType::UInt64 ? 8 : 4;
  std::vector<unsigned char> cpuLabels(pixels * labelBytes, 0xAB);
  cca::Options               cpuOptions = options;
  cpuOptions.backend = cca::Backend::Cpu;
  cpuOptions.labelImage = cpuLabels.data();
  const cca::Result cpu = engine.Run(view, cpuOptions);

  cudaStream_t made = nullptr;
  if (stream == 1)
  {
    CheckCuda(cudaStreamCreate(&made), "cudaStreamCreate");
  }
  const cudaStream_t callerStream =
    stream == 1 ? made : (stream == 2 ? cudaStreamPerThread : static_cast<cudaStream_t>(nullptr));
  DeviceArray image(host.size() * sizeof(T));
  DeviceArray labels(pixels * labelBytes);
  // Poison the device label image, then (with a caller stream) copy the input
  // on that stream without waiting: the engine must queue after the copy.
  CheckCuda(cudaMemset(labels.pointer, 0xAB, pixels * labelBytes), "cudaMemset");
  if (stream >= 0)
  {
    CheckCuda(
      cudaMemcpyAsync(image.pointer, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice, callerStream),
      "cudaMemcpyAsync");
    options.useCallerStream = true;
    options.cudaStream = reinterpret_cast<std::uintptr_t>(callerStream);
  }
  else
  {
    // The engine's own stream does not wait for other streams
    // (Options::useCallerStream): the input and the poisoned labels must be
    // complete before Run, as its documentation asks. cudaMemset is
    // asynchronous, and a cudaMemcpy from pageable memory may return before
    // its DMA ends: one such run on the H100 read part of the image early.
    CheckCuda(cudaMemcpy(image.pointer, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
    CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  cca::ImageView deviceView = view;
  deviceView.memory = cca::MemorySpace::CudaDevice;
  deviceView.data = static_cast<const T *>(image.pointer) + layout.origin;
  std::vector<unsigned char> gpuLabels(pixels * labelBytes, 0xCD);
  options.backend = cca::Backend::Auto; // device memory: CUDA
  options.labelImage = deviceLabels ? labels.pointer : gpuLabels.data();
  options.labelImageMemory = deviceLabels ? cca::MemorySpace::CudaDevice : cca::MemorySpace::Host;
  std::string name = std::string("seed ") + std::to_string(seed) + " " + layout.name + " " + std::to_string(size[0]) +
                     "x" + std::to_string(size[1]) + "x" + std::to_string(size[2]) + " stream " +
                     std::to_string(stream) + (deviceLabels ? " device labels" : " host labels");
  try
  {
    const cca::Result gpu = engine.Run(deviceView, options);
    if (deviceLabels)
    {
      CheckCuda(cudaMemcpy(gpuLabels.data(), labels.pointer, gpuLabels.size(), cudaMemcpyDeviceToHost), "cudaMemcpy");
    }
    std::string why;
    bool        ok = gpu.backendUsed == cca::Backend::Cuda && SameTables(cpu, gpu, why);
    if (ok && gpuLabels != cpuLabels)
    {
      ok = false;
      why = "label images differ";
    }
    if (ok && gpu.bytesCopiedToDevice != 0)
    {
      ok = false;
      why = std::to_string(gpu.bytesCopiedToDevice) + " bytes counted as uploaded";
    }
    Report(ok, name + (why.empty() ? "" : ": " + why));
  }
  catch (const std::exception & e)
  {
    Report(false, name + ": " + e.what());
  }
  if (made != nullptr)
  {
    cudaStreamDestroy(made);
  }
}

bool
SameIntensity(const cca::Result & a, const cca::Result & b, std::string & why)
{
  if (a.intensity.size() != b.intensity.size())
  {
    why = "intensity entries " + std::to_string(a.intensity.size()) + " and " + std::to_string(b.intensity.size());
    return false;
  }
  for (std::size_t i = 0; i < a.intensity.size(); ++i)
  {
    const cca::ObjectIntensity & p = a.intensity[i];
    const cca::ObjectIntensity & q = b.intensity[i];
    bool same = p.minimum == q.minimum && p.maximum == q.maximum && p.sum == q.sum && p.median == q.median;
    for (int k = 0; k < 3; ++k)
    {
      same = same && p.minimumIndex[k] == q.minimumIndex[k] && p.maximumIndex[k] == q.maximumIndex[k] &&
             p.centralMoments[k] == q.centralMoments[k] && p.weightedCentroid[k] == q.weightedCentroid[k];
    }
    for (int k = 0; k < 6; ++k)
    {
      same = same && p.weightedCovariance[k] == q.weightedCovariance[k];
    }
    if (!same)
    {
      why = "intensity of label " + std::to_string(i + 1);
      return false;
    }
  }
  return true;
}

/** A feature image in device memory (any layout; the image in host or
 *  device memory) against the CPU backend on host copies: integer values,
 *  so the exact sums make every intensity attribute and the histogram
 *  median equal; only the image itself (if on the host) is uploaded. */
template <class F>
void
FeatureCase(cca::Engine & engine, std::uint32_t seed, int layoutKind, bool deviceMask, cca::PixelType featureType)
{
  std::mt19937       rng(seed);
  auto               pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  const int          dimension = pick(2) == 0 ? 3 : 2;
  const std::int64_t size[3] = { 1 + pick(300), 1 + pick(120), dimension == 3 ? 1 + pick(20) : 1 };
  const auto         mask = cca::RandomBlockImage(size[0], size[1], size[2], pick(10) / 10.0 + 0.05, 1 + pick(4), seed);
  const Layout       layout = MakeLayout(layoutKind, size);
  std::vector<F>     values(mask.size());
  for (F & v : values)
  {
    v =
      static_cast<F>(std::is_signed<F>::value ? static_cast<int>(rng() % 4000) - 1000 : static_cast<int>(rng() % 256));
  }
  const auto     hostFeature = StoreValues<F>(size, layout, [&](std::size_t i) { return values[i]; });
  cca::ImageView view;
  view.dimension = dimension;
  cca::ImageView feature;
  feature.pixelType = featureType;
  feature.dimension = dimension;
  for (int i = 0; i < 3; ++i)
  {
    view.size[i] = feature.size[i] = size[i];
    feature.stride[i] = layout.stride[i];
  }
  view.data = mask.data();
  feature.data = hostFeature.data() + layout.origin;
  cca::Options options;
  options.connectivity = pick(2) ? cca::Connectivity::Full : cca::Connectivity::Face;
  options.intensity.featureImage = feature;
  options.intensity.histogram = cca::StatisticsLabelMapHistogram(featureType);
  options.intensity.weightedMoments = pick(4) != 0;
  cca::Options cpuOptions = options;
  cpuOptions.backend = cca::Backend::Cpu;
  const cca::Result cpu = engine.Run(view, cpuOptions);

  int device = 0;
  CheckCuda(cudaGetDevice(&device), "cudaGetDevice");
  DeviceArray featureStorage(hostFeature.size() * sizeof(F));
  DeviceArray maskStorage(mask.size());
  CheckCuda(
    cudaMemcpy(featureStorage.pointer, hostFeature.data(), hostFeature.size() * sizeof(F), cudaMemcpyHostToDevice),
    "cudaMemcpy");
  CheckCuda(cudaMemcpy(maskStorage.pointer, mask.data(), mask.size(), cudaMemcpyHostToDevice), "cudaMemcpy");
  CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); // complete before Run (see Case)
  options.intensity.featureImage.memory = cca::MemorySpace::CudaDevice;
  options.intensity.featureImage.deviceOrdinal = device;
  options.intensity.featureImage.data = static_cast<const F *>(featureStorage.pointer) + layout.origin;
  options.backend = cca::Backend::Auto; // device memory: CUDA
  cca::ImageView deviceView = view;
  if (deviceMask)
  {
    deviceView.memory = cca::MemorySpace::CudaDevice;
    deviceView.deviceOrdinal = device;
    deviceView.data = maskStorage.pointer;
  }
  const std::string name = std::string("feature image in device memory, seed ") + std::to_string(seed) + " " +
                           layout.name + " " + std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" +
                           std::to_string(size[2]) + (deviceMask ? ", image on the device" : ", image on the host");
  try
  {
    const cca::Result gpu = engine.Run(deviceView, options);
    std::string       why;
    bool ok = gpu.backendUsed == cca::Backend::Cuda && SameTables(cpu, gpu, why) && SameIntensity(cpu, gpu, why);
    // A host mask crosses the bus as foreground bits: a byte per 8 pixels of a row.
    const std::int64_t uploaded = deviceMask ? 0 : (size[0] + 7) / 8 * size[1] * size[2];
    if (ok && gpu.bytesCopiedToDevice != uploaded)
    {
      ok = false;
      why = std::to_string(gpu.bytesCopiedToDevice) + " bytes counted as uploaded, not " + std::to_string(uploaded);
    }
    Report(ok, name + (why.empty() ? "" : ": " + why));
  }
  catch (const std::exception & e)
  {
    Report(false, name + ": " + e.what());
  }
}

/** Pointers said to be device memory that are not: a clear InvalidInput. */
void
RefusedPointers(cca::Engine & engine)
{
  std::vector<std::uint8_t> host(64 * 64, 1);
  cca::ImageView            view;
  view.data = host.data();
  view.size[0] = 64;
  view.size[1] = 64;
  view.memory = cca::MemorySpace::CudaDevice;
  try
  {
    engine.Run(view, cca::Options{});
    Report(false, "a host pointer taken as a device image");
  }
  catch (const cca::Error & e)
  {
    Report(e.GetKind() == cca::Error::Kind::InvalidInput, std::string("host pointer as device image: ") + e.what());
  }
  DeviceArray                image(64 * 64);
  cca::Options               options;
  std::vector<std::uint32_t> labels(64 * 64);
  view.data = image.pointer;
  options.labelImageType = cca::LabelImageType::UInt32;
  options.labelImage = labels.data();
  options.labelImageMemory = cca::MemorySpace::CudaDevice;
  try
  {
    engine.Run(view, options);
    Report(false, "a host pointer taken as a device label image");
  }
  catch (const cca::Error & e)
  {
    Report(e.GetKind() == cca::Error::Kind::InvalidInput, std::string("host pointer as device labels: ") + e.what());
  }
  std::vector<std::int16_t> hostFeature(64 * 64, 5);
  cca::Options              withFeature;
  withFeature.intensity.featureImage = view;
  withFeature.intensity.featureImage.pixelType = cca::PixelType::Int16;
  withFeature.intensity.featureImage.data = hostFeature.data();
  try
  {
    engine.Run(view, withFeature);
    Report(false, "a host pointer taken as a device feature image");
  }
  catch (const cca::Error & e)
  {
    Report(e.GetKind() == cca::Error::Kind::InvalidInput,
           std::string("host pointer as device feature image: ") + e.what());
  }
}
/** Engine::DeviceMemoryInUse: a new engine's run raises the peak by at least
 *  the image it uploads, the engine holds its buffers until it goes, and
 *  then the count is back where it was. */
void
DeviceMemoryCount()
{
  for (const int dimension : { 2, 3 })
  {
    const std::int64_t         side = dimension == 3 ? 96 : 1024;
    const auto                 image = cca::RandomBlockImage(side, side, dimension == 3 ? side : 1, 0.5, 1, 4005);
    std::vector<std::uint32_t> labels(image.size());
    cca::ImageView             view;
    view.data = image.data();
    view.dimension = dimension;
    view.size[0] = side;
    view.size[1] = side;
    view.size[2] = dimension == 3 ? side : 1;
    cca::Options options;
    options.backend = cca::Backend::Cuda;
    options.labelImageType = cca::LabelImageType::UInt32;
    options.labelImage = labels.data();
    cca::Engine::ResetDeviceMemoryPeak();
    const cca::DeviceMemoryUse before = cca::Engine::DeviceMemoryInUse();
    cca::DeviceMemoryUse       during;
    {
      cca::Engine engine;
      engine.Run(view, options);
      during = cca::Engine::DeviceMemoryInUse();
    }
    const cca::DeviceMemoryUse after = cca::Engine::DeviceMemoryInUse();
    const std::string name = "device memory count, " + std::to_string(dimension) + "D " + std::to_string(image.size()) +
                             " pixels: held " + std::to_string(before.heldBytes) + " / " +
                             std::to_string(during.heldBytes) + " / " + std::to_string(after.heldBytes) + ", peak " +
                             std::to_string(before.peakBytes) + " / " + std::to_string(during.peakBytes) + " / " +
                             std::to_string(after.peakBytes);
    Report(before.peakBytes == before.heldBytes, name + ": the reset peak is the bytes held");
    Report(during.peakBytes - before.heldBytes >= static_cast<std::int64_t>(image.size()),
           name + ": the run's peak is at least the image");
    Report(during.heldBytes > before.heldBytes, name + ": the engine keeps its buffers after the run");
    Report(after.heldBytes == before.heldBytes, name + ": the engine's buffers are counted off when it goes");
    Report(after.peakBytes == during.peakBytes && during.peakBytes >= during.heldBytes,
           name + ": the peak stays the high-water mark");
  }
}

/** Bytes of the device pool allocated now (buffers held by engines or by
 *  the idle device states), once the frees queued so far are done. */
std::int64_t
PoolBytesInUse(int device)
{
  CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::uint64_t used = 0;
  CheckCuda(cudaMemPoolGetAttribute(cca::cuda::DeviceMemoryPool(device), cudaMemPoolAttrUsedMemCurrent, &used),
            "reading the pool's memory in use");
  return static_cast<std::int64_t>(used);
}

/** The idle device states (CudaBackend.cu): an engine that goes leaves its
 *  streams and buffers to the next, which allocates nothing for an image
 *  of the same size, while Engine::DeviceMemoryInUse counts them off; a
 *  new engine's results stay the CPU backend's whatever engine, thread,
 *  image or options the state served before (engines made and destroyed
 *  on four threads at once, images from 1 to 10^6 pixels); and
 *  Engine::ReleaseCachedMemory destroys the idle states. */
void
IdleDeviceStates(int device)
{
  cca::Engine::ReleaseCachedMemory();
  const auto     image = cca::RandomBlockImage(700, 500, 1, 0.4, 2, 4100);
  cca::ImageView view;
  view.data = image.data();
  view.size[0] = 700;
  view.size[1] = 500;
  cca::Options options;
  options.backend = cca::Backend::Cuda;
  const std::int64_t held = cca::Engine::DeviceMemoryInUse().heldBytes;
  const std::int64_t used = PoolBytesInUse(device);
  cca::Result        first;
  {
    cca::Engine engine;
    engine.Run(view, options, first);
  }
  const std::int64_t usedIdle = PoolBytesInUse(device);
  Report(usedIdle > used,
         "idle device state: the engine that went left its buffers (pool " + std::to_string(used) + " -> " +
           std::to_string(usedIdle) + " bytes)");
  Report(cca::Engine::DeviceMemoryInUse().heldBytes == held, "idle device state: its buffers are not counted as held");
  {
    cca::Engine engine;
    cca::Result again;
    engine.Run(view, options, again);
    Report(PoolBytesInUse(device) == usedIdle, "idle device state: the next engine allocated nothing");
    Report(cca::Engine::DeviceMemoryInUse().heldBytes == held + (usedIdle - used),
           "idle device state: counted as held again by the engine that took it");
    std::string why;
    Report(SameTables(first, again, why), "idle device state: the next engine's table is the first's " + why);
  }
  cca::Engine::ReleaseCachedMemory();
  Report(PoolBytesInUse(device) == used, "idle device state: destroyed by Engine::ReleaseCachedMemory");

  constexpr int            threads = 4;
  constexpr int            runsEach = 8;
  std::vector<char>        ok(threads * runsEach, 0);
  std::vector<std::string> names(threads * runsEach);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
  {
    workers.emplace_back([t, &ok, &names] {
      for (int k = 0; k < runsEach; ++k)
      {
        const std::uint32_t seed = 4200 + static_cast<std::uint32_t>(t * runsEach + k);
        std::mt19937        rng(seed);
        auto                pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
        // Sizes from a few pixels to a million, so that a state taken from
        // another engine has buffers both larger and smaller than needed.
        const int          dimension = pick(2) == 0 ? 3 : 2;
        const std::int64_t side = dimension == 3 ? 1 + pick(100) : 1 + pick(1000);
        const std::int64_t size[3] = { side, 1 + pick(static_cast<int>(side)), dimension == 3 ? 1 + pick(100) : 1 };
        const auto     mask = cca::RandomBlockImage(size[0], size[1], size[2], 0.1 + pick(8) / 10.0, 1 + pick(4), seed);
        cca::ImageView maskView;
        maskView.dimension = dimension;
        maskView.data = mask.data();
        for (int i = 0; i < 3; ++i)
        {
          maskView.size[i] = size[i];
        }
        cca::Options runOptions;
        runOptions.connectivity = pick(2) ? cca::Connectivity::Full : cca::Connectivity::Face;
        runOptions.computeRuns = pick(3) != 0;
        runOptions.labelImageType = pick(2) ? cca::LabelImageType::UInt32 : cca::LabelImageType::UInt64;
        const std::size_t          labelBytes = runOptions.labelImageType == cca::LabelImageType::UInt32 ? 4 : 8;
        std::vector<unsigned char> cpuLabels(mask.size() * labelBytes, 0xAB);
        std::vector<unsigned char> gpuLabels(mask.size() * labelBytes, 0xCD);
        const std::size_t          index = static_cast<std::size_t>(t * runsEach + k);
        names[index] = "idle device states, thread " + std::to_string(t) + " seed " + std::to_string(seed) + " " +
                       std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" + std::to_string(size[2]);
        try
        {
          cca::Engine  engine; // new each time: a state that another thread's engine may have left
          cca::Options cpuOptions = runOptions;
          cpuOptions.backend = cca::Backend::Cpu;
          cpuOptions.labelImage = cpuLabels.data();
          const cca::Result cpu = engine.Run(maskView, cpuOptions);
          runOptions.backend = cca::Backend::Cuda;
          runOptions.labelImage = gpuLabels.data();
          const cca::Result gpu = engine.Run(maskView, runOptions);
          std::string       why;
          ok[index] = SameTables(cpu, gpu, why) && cpuLabels == gpuLabels;
          if (!ok[index])
          {
            names[index] += why.empty() ? ": label images differ" : ": " + why;
          }
        }
        catch (const std::exception & e)
        {
          names[index] += std::string(": ") + e.what();
        }
      }
    });
  }
  for (auto & worker : workers)
  {
    worker.join();
  }
  for (std::size_t i = 0; i < ok.size(); ++i)
  {
    Report(ok[i] != 0, names[i]);
  }
  Report(cca::Engine::DeviceMemoryInUse().heldBytes == held,
         "idle device states: nothing counted as held once every engine went");
  cca::Engine::ReleaseCachedMemory();
  Report(PoolBytesInUse(device) == used,
         "idle device states: the four threads' states destroyed by ReleaseCachedMemory");
}

} // namespace

/** The process's pinned blocks (cuda::PinnedBuffer, the copies' staging):
 *  page-locked for CUDA whatever their size and mapped, their bytes carried both ways
 *  by DMA, a block given back handed out again, and new ones locked after
 *  Engine::ReleaseCachedMemory emptied the cache. */
void
PinnedBlocks()
{
  const auto locked = [](const void * p) {
    cudaPointerAttributes attributes{};
    return cudaPointerGetAttributes(&attributes, p) == cudaSuccess && attributes.type == cudaMemoryTypeHost;
  };
  // Idle blocks that engines gave back (their 16 MiB staging buffers) would
  // be handed out before the test's own: start from an empty cache.
  cca::Engine::ReleaseCachedMemory();
  const std::size_t sizes[] = {
    8, 4096 + 3, std::size_t{ 2 } << 20, (std::size_t{ 3 } << 20) + 5, std::size_t{ 16 } << 20
  };
  for (const std::size_t bytes : sizes)
  {
    const std::string what = "pinned block of " + std::to_string(bytes) + " bytes";
    void *            first = nullptr;
    {
      cca::cuda::PinnedBuffer buffer;
      auto *                  p = static_cast<unsigned char *>(buffer.Reserve(bytes, "a test block"));
      first = p;
      Report(locked(p), what + " is page-locked");
      void * mapped = nullptr;
      Report(cudaHostGetDevicePointer(&mapped, p, 0) == cudaSuccess && mapped != nullptr,
             what + " is mapped into the device's address space");
      for (std::size_t i = 0; i < bytes; ++i)
      {
        p[i] = static_cast<unsigned char>(i * 131 + 7);
      }
      DeviceArray device(bytes);
      CheckCuda(cudaMemcpy(device.pointer, p, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
      std::memset(p, 0, bytes);
      CheckCuda(cudaMemcpy(p, device.pointer, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
      bool same = true;
      for (std::size_t i = 0; i < bytes && same; ++i)
      {
        same = p[i] == static_cast<unsigned char>(i * 131 + 7);
      }
      Report(same, what + " carried both ways");
    }
    {
      cca::cuda::PinnedBuffer again;
      Report(again.Reserve(bytes, "a test block") == first, what + " handed out again from the cache");
    }
  }
  cca::Engine::ReleaseCachedMemory();
  cca::cuda::PinnedBuffer fresh;
  Report(locked(fresh.Reserve(std::size_t{ 2 } << 20, "a test block")), "a pinned block after the cache was emptied");
}

/** The host's reads of device values (cuda::StreamDevice::Read): taken
 *  from page-locked host memory that a kernel writes, each after the
 *  kernels queued before it, also by a second device that reuses the
 *  first's host block (cuda::CheckDeviceReads). */
void
DeviceReads()
{
  cca::Engine::ReleaseCachedMemory(); // the second device then takes the first's block
  const cca::cuda::DeviceReadsChecked checked = cca::cuda::CheckDeviceReads(64);
  Report(checked.fromMappedMemory, "reads of device values take them from mapped host memory");
  Report(checked.reads == 2 * 64 * 4 && checked.wrong == 0,
         "device values read after late kernels: " + std::to_string(checked.wrong) + " wrong of " +
           std::to_string(checked.reads));
}

/** Labels only of a byte plane in device memory under full connectivity,
 *  which the strips label (cuda/StripLabeling.cuh) when the image and the
 *  label image are 16-byte aligned: aligned, the image one byte off (the
 *  rows' runs, counted after the upload) and the label image 4 bytes off
 *  (the rows' runs throughout), against the CPU backend. */
void
StripCase(cca::Engine & engine, std::uint32_t seed, int imageOffset, int labelOffset)
{
  std::mt19937       rng(seed);
  auto               pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint32_t>(n)); };
  const std::int64_t width = 16 * (1 + pick(20));
  const std::int64_t height = 1 + pick(90);
  const auto         mask = cca::RandomBlockImage(width, height, 1, 0.3 + pick(5) / 10.0, 1 + pick(2), seed);
  const std::size_t  pixels = mask.size();
  cca::ImageView     view;
  view.pixelType = cca::PixelType::UInt8;
  view.dimension = 2;
  view.size[0] = width;
  view.size[1] = height;
  view.data = mask.data();
  cca::Options options;
  options.connectivity = cca::Connectivity::Full;
  options.computeFeatures = false;
  options.computeRuns = false;
  options.labelImageType = cca::LabelImageType::UInt32;
  std::vector<std::uint32_t> cpuLabels(pixels, 0xABABABABu);
  cca::Options               cpuOptions = options;
  cpuOptions.backend = cca::Backend::Cpu;
  cpuOptions.labelImage = cpuLabels.data();
  const cca::Result cpu = engine.Run(view, cpuOptions);

  DeviceArray image(pixels + 16);
  DeviceArray labels((pixels + 4) * sizeof(std::uint32_t));
  auto *      deviceImage = static_cast<std::uint8_t *>(image.pointer) + imageOffset;
  auto *      deviceLabels = reinterpret_cast<std::uint32_t *>(static_cast<char *>(labels.pointer) + labelOffset);
  CheckCuda(cudaMemcpy(deviceImage, mask.data(), pixels, cudaMemcpyHostToDevice), "cudaMemcpy");
  CheckCuda(cudaMemset(labels.pointer, 0xAB, (pixels + 4) * sizeof(std::uint32_t)), "cudaMemset");
  CheckCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  cca::ImageView deviceView = view;
  deviceView.memory = cca::MemorySpace::CudaDevice;
  deviceView.data = deviceImage;
  options.backend = cca::Backend::Cuda;
  options.labelImage = deviceLabels;
  options.labelImageMemory = cca::MemorySpace::CudaDevice;
  const std::string name = "strips seed " + std::to_string(seed) + " " + std::to_string(width) + "x" +
                           std::to_string(height) + " image +" + std::to_string(imageOffset) + " labels +" +
                           std::to_string(labelOffset);
  try
  {
    const cca::Result          gpu = engine.Run(deviceView, options);
    std::vector<std::uint32_t> gpuLabels(pixels);
    CheckCuda(cudaMemcpy(gpuLabels.data(), deviceLabels, pixels * sizeof(std::uint32_t), cudaMemcpyDeviceToHost),
              "cudaMemcpy");
    std::string why;
    if (gpu.componentCount != cpu.componentCount)
    {
      why = "count " + std::to_string(gpu.componentCount) + " against " + std::to_string(cpu.componentCount);
    }
    else if (gpuLabels != cpuLabels)
    {
      why = "label images differ";
    }
    Report(why.empty(), name + (why.empty() ? "" : ": " + why));
  }
  catch (const std::exception & e)
  {
    Report(false, name + ": " + e.what());
  }
}

int
main()
{
  if (!cca::Engine::CudaAvailable())
  {
    std::cout << "skipped: no CUDA device" << std::endl;
    return 77;
  }
  int device = -1;
  CheckCuda(cudaGetDevice(&device), "cudaGetDevice");
  cca::Engine   engine;
  std::uint32_t seed = 1;
  for (int layout = 0; layout < 4; ++layout)
  {
    for (int stream = -1; stream <= 2; ++stream)
    {
      for (int k = 0; k < 6; ++k, ++seed)
      {
        const bool deviceLabels = k % 2 == 0;
        switch (k % 3)
        {
          case 0:
            Case<std::uint8_t>(engine, seed, layout, stream, deviceLabels, cca::PixelType::UInt8);
            break;
          case 1:
            Case<std::int16_t>(engine, seed, layout, stream, deviceLabels, cca::PixelType::Int16);
            break;
          default:
            Case<std::uint64_t>(engine, seed, layout, stream, deviceLabels, cca::PixelType::UInt64);
            break;
        }
      }
    }
  }
  for (int layout = 0; layout < 4; ++layout)
  {
    for (int k = 0; k < 4; ++k, ++seed)
    {
      if (k % 2 == 0)
      {
        FeatureCase<std::int16_t>(engine, seed, layout, k < 2, cca::PixelType::Int16);
      }
      else
      {
        FeatureCase<std::uint8_t>(engine, seed, layout, k < 2, cca::PixelType::UInt8);
      }
    }
  }
  for (int k = 0; k < 12; ++k, ++seed)
  {
    StripCase(engine, seed, k % 3 == 1 ? 1 : 0, k % 3 == 2 ? 4 : 0);
  }
  RefusedPointers(engine);
  DeviceMemoryCount();
  IdleDeviceStates(device);
  PinnedBlocks();
  DeviceReads();
  int after = -1;
  CheckCuda(cudaGetDevice(&after), "cudaGetDevice");
  Report(after == device, "the caller's current device is kept");
  std::cout << "device memory: " << g_Passed << " passed, " << g_Failed << " failed" << std::endl;
  return g_Failed == 0 ? 0 : 1;
}
