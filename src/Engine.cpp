#include "cca/Engine.h"
#include "cca/HostImageMemory.h"

#include "BackendImplementation.h"
#include "EngineTesting.h"
#include "FirstWrites.h"
#include "HostImagePinning.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <utility>

namespace cca
{

namespace
{
/** Whether CUDA was started in this process (Engine::StartCuda, or a run
 *  that resolved to the CUDA backend). */
std::atomic<bool>              cudaStarted{ false };
std::atomic<LabelPagesWritten> labelPagesWritten{ LabelPagesWritten::Always };
} // namespace

void
SetLabelPagesWritten(LabelPagesWritten when)
{
  labelPagesWritten = when;
}

int
PixelTypeSize(PixelType type)
{
  switch (type)
  {
    case PixelType::UInt8:
    case PixelType::Int8:
      return 1;
    case PixelType::UInt16:
    case PixelType::Int16:
      return 2;
    case PixelType::UInt32:
    case PixelType::Int32:
      return 4;
    case PixelType::UInt64:
    case PixelType::Int64:
    case PixelType::Float64:
      return 8;
    case PixelType::Float32:
      return 4;
  }
  return 0;
}

const char *
PixelTypeName(PixelType type)
{
  switch (type)
  {
    case PixelType::UInt8:
      return "uint8";
    case PixelType::Int8:
      return "int8";
    case PixelType::UInt16:
      return "uint16";
    case PixelType::Int16:
      return "int16";
    case PixelType::UInt32:
      return "uint32";
    case PixelType::Int32:
      return "int32";
    case PixelType::UInt64:
      return "uint64";
    case PixelType::Int64:
      return "int64";
    case PixelType::Float32:
      return "float32";
    case PixelType::Float64:
      return "float64";
  }
  return "unknown";
}

HistogramOptions
StatisticsLabelMapHistogram(PixelType featureType, std::uint32_t bins)
{
  const int  size = PixelTypeSize(featureType);
  const bool integer = !IsRealPixelType(featureType);
  if (bins == 0)
  {
    bins = integer && size <= 2 ? (1u << (8 * size)) : 128u;
  }
  HistogramOptions h;
  h.bins = bins;
  h.median = true;
  h.keep = false;
  h.clipBinsAtEnds = false;
  h.rangeOfFeatureImage = true;
  if (integer && size <= 2 && bins == (1u << (8 * size)))
  {
    const bool   isSigned = featureType == PixelType::Int8 || featureType == PixelType::Int16;
    const double span = static_cast<double>(1u << (8 * size));
    const double lowest = isSigned ? -span / 2 : 0.0;
    h.rangeOfFeatureImage = false;
    h.lower = lowest - 0.5;
    h.upper = lowest + span - 1 + 0.5;
  }
  return h;
}

const char *
ObjectsName(Objects objects)
{
  switch (objects)
  {
    case Objects::ForegroundComponents:
      return "ForegroundComponents";
    case Objects::LabelValues:
      return "LabelValues";
    case Objects::LabelValueComponents:
      return "LabelValueComponents";
  }
  return "unknown";
}

const char *
BackendName(Backend backend)
{
  switch (backend)
  {
    case Backend::Auto:
      return "Auto";
    case Backend::Cpu:
      return "CPU";
    case Backend::Cuda:
      return "CUDA";
  }
  return "unknown";
}

const char *
AlgorithmName(Algorithm algorithm)
{
  switch (algorithm)
  {
    case Algorithm::Default:
      return "Default";
    case Algorithm::Naive:
      return "Naive";
    case Algorithm::HA:
      return "HA";
    case Algorithm::HA_CD:
      return "HA_CD";
    case Algorithm::HA_OTF:
      return "HA_OTF";
    case Algorithm::FLSL:
      return "FLSL";
    case Algorithm::FLSL_OTF:
      return "FLSL_OTF";
    case Algorithm::FLSL_CD:
      return "FLSL_CD";
    case Algorithm::DLP:
      return "DLP";
    case Algorithm::LE_Early:
      return "LE_Early";
    case Algorithm::LE_Late:
      return "LE_Late";
    case Algorithm::TM_Early:
      return "TM_Early";
    case Algorithm::TM_Late:
      return "TM_Late";
  }
  return "unknown";
}

const char *
FeatureCompactionName(FeatureCompaction compaction)
{
  switch (compaction)
  {
    case FeatureCompaction::Scan:
      return "Scan";
    case FeatureCompaction::TreeMerge:
      return "TreeMerge";
    case FeatureCompaction::None:
      return "None";
  }
  return "unknown";
}

const char *
MemorySpaceName(MemorySpace memory)
{
  switch (memory)
  {
    case MemorySpace::Host:
      return "host";
    case MemorySpace::CudaDevice:
      return "CUDA device";
  }
  return "unknown";
}

Engine::Engine() = default;
Engine::~Engine() = default;

bool
Engine::CudaCompiledIn()
{
  return CudaBackendCompiledIn();
}

bool
Engine::CudaAvailable()
{
  return CudaBackendCompiledIn() && CudaDeviceUsable();
}

bool
Engine::StartCuda(int device)
{
  if (!CudaAvailable())
  {
    return false;
  }
  StartCudaDevice(device);
  cudaStarted = true;
  return true;
}

void
Engine::ReleaseCachedMemory()
{
  HostImageMemory::Trim();
  if (CudaBackendCompiledIn())
  {
    ReleaseCudaCachedMemory();
  }
}

DeviceMemoryUse
Engine::DeviceMemoryInUse()
{
  return DeviceMemoryUse{ CudaDeviceBytesHeld(), CudaDeviceBytesPeak() };
}

void
Engine::ResetDeviceMemoryPeak()
{
  ResetCudaDeviceBytesPeak();
}

BackendImplementation &
Engine::BackendFor(Backend resolved, int cudaDevice)
{
  if (resolved == Backend::Cuda)
  {
    // A backend is bound to one device: another device needs a new one.
    if (!m_Cuda || m_CudaDevice != cudaDevice)
    {
      m_Cuda.reset();
      m_Cuda = MakeCudaBackend(cudaDevice);
      m_CudaDevice = cudaDevice;
    }
    return *m_Cuda;
  }
  if (!m_Cpu)
  {
    m_Cpu = MakeCpuBackend();
  }
  return *m_Cpu;
}

namespace
{
/** Resets a result for a new run. The feature table and the runs keep their
 *  size as well as their capacity: each backend sizes them exactly, and a
 *  vector that only changes size writes (zeroes) no more than its new tail,
 *  where a cleared one would zero every element again before the copy into
 *  it, and fresh pages are costlier to touch than the copy itself. */
void
Reset(Result & result)
{
  result.componentCount = 0;
  result.times = StageTimes{};
  result.warnings.clear();
  result.atomicFeatureUpdates = -1;
  result.estimatedConflicts = -1;
  result.bytesCopiedToHost = 0;
  result.bytesCopiedToDevice = -1;
  result.labelValues.clear();
  result.sourceNumbers.clear();
  result.objectsFound = 0;
  result.intensity.clear();
  result.histogramLower = 0;
  result.histogramUpper = 0;
  result.histogramOffsets.clear();
  result.histogramBins.clear();
  result.histogramCounts.clear();
}

/** True when the image, the feature image or the label image destination is in device memory. */
bool
UsesDeviceMemory(const ImageView & image, const Options & options)
{
  return image.memory == MemorySpace::CudaDevice ||
         (options.intensity.Requested() && options.intensity.featureImage.memory == MemorySpace::CudaDevice) ||
         (options.labelImageType != LabelImageType::None && options.labelImageMemory == MemorySpace::CudaDevice);
}
/** Whether [a, a + aBytes) and [b, b + bBytes) share a byte. */
bool
Overlap(const void * a, std::size_t aBytes, const void * b, std::size_t bBytes)
{
  const auto x = reinterpret_cast<std::uintptr_t>(a);
  const auto y = reinterpret_cast<std::uintptr_t>(b);
  return aBytes > 0 && bBytes > 0 && x < y + bBytes && y < x + aBytes;
}

/** The bytes from an image view's first pixel to past its last. */
std::size_t
ViewBytes(const ImageView & view, int pixelBytes)
{
  if (view.data == nullptr || view.NumberOfPixels() == 0)
  {
    return 0;
  }
  std::int64_t       last = 0;
  const std::int64_t dense[3] = { 1, view.size[0], view.size[0] * view.size[1] };
  for (int d = 0; d < 3; ++d)
  {
    const std::int64_t stride = view.stride[d] != 0 ? view.stride[d] : dense[d];
    last += (view.size[d] > 0 ? view.size[d] - 1 : 0) * (stride < 0 ? -stride : stride);
  }
  return static_cast<std::size_t>(last + 1) * static_cast<std::size_t>(pixelBytes);
}

/** The label image of a CUDA run whose pages are to be written before the
 *  run (FirstWrites.h: the GPU's copy into fresh memory waits on the
 *  kernel's mapping of each page, and its streaming stores on evicting the
 *  lines that mapping just zeroed): a host label image of 64 MiB or more
 *  that looks never written, in memory no input shares; else nothing. */
std::pair<void *, std::size_t>
LabelPagesToWrite(const ImageView & image, const Options & options, bool firstRun)
{
  const LabelPagesWritten when = labelPagesWritten;
  if (when == LabelPagesWritten::Never || (when == LabelPagesWritten::FirstRun && !firstRun) ||
      options.labelImage == nullptr || options.labelImageMemory != MemorySpace::Host ||
      options.labelImageType == LabelImageType::None)
  {
    return { nullptr, 0 };
  }
  const std::size_t bytes =
    static_cast<std::size_t>(image.NumberOfPixels()) * (options.labelImageType == LabelImageType::UInt32 ? 4 : 8);
  const ImageView & feature = options.intensity.featureImage;
  const bool        shared =
    (image.memory == MemorySpace::Host &&
     Overlap(options.labelImage, bytes, image.data, ViewBytes(image, PixelTypeSize(image.pixelType)))) ||
    (options.intensity.Requested() && feature.memory == MemorySpace::Host &&
     Overlap(options.labelImage, bytes, feature.data, ViewBytes(feature, PixelTypeSize(feature.pixelType))));
  if (bytes < HostImageMemory::MinimumBytes || shared || !PagesUnmapped(options.labelImage, bytes))
  {
    return { nullptr, 0 };
  }
  return { options.labelImage, bytes };
}

/** Before a CUDA run: the label image's first writes (LabelPagesToWrite)
 *  and, in a process's first CUDA run, CUDA's start-up (the context, the
 *  kernels' module, pools and staging: 0.2-0.3 s on the H200 machine) side
 *  by side: the start-up on this thread, the pages on others. A failure to
 *  write them changes nothing: the copy maps them then. */
void
PrepareCudaRun(const ImageView & image, const Options & options, bool firstRun, int cudaDevice)
{
  const auto pages = LabelPagesToWrite(image, options, firstRun);
  const auto write = [pages] {
    try
    {
      WritePagesOnThreads(pages.first, pages.second);
    }
    catch (...)
    {}
  };
  if (!firstRun)
  {
    if (pages.first != nullptr)
    {
      write();
    }
    return;
  }
  std::thread writer;
  if (pages.first != nullptr)
  {
    try
    {
      writer = std::thread(write);
    }
    catch (const std::system_error &)
    {
      // No thread: the copy maps the pages.
    }
  }
  StartCudaDevice(cudaDevice);
  if (writer.joinable())
  {
    writer.join();
  }
}

/** Every failure of the engine is a cca::Error: a host allocation that fails
 *  (std::bad_alloc, std::length_error from a vector) becomes Kind::OutOfMemory. */
void
RunTranslatingAllocationFailures(BackendImplementation & backend,
                                 const ImageView &       image,
                                 const Options &         options,
                                 Result &                result)
{
  try
  {
    backend.Run(image, options, result);
  }
  catch (const std::bad_alloc &)
  {
    throw Error(Error::Kind::OutOfMemory,
                "not enough host memory to analyse the " + std::to_string(image.size[0]) + " x " +
                  std::to_string(image.size[1]) + " x " + std::to_string(image.size[2]) + " image");
  }
  catch (const std::length_error &)
  {
    throw Error(Error::Kind::OutOfMemory,
                "a buffer for the " + std::to_string(image.size[0]) + " x " + std::to_string(image.size[1]) + " x " +
                  std::to_string(image.size[2]) + " image exceeds the largest possible allocation");
  }
}
} // namespace

Result
Engine::Run(const ImageView & image, const Options & options)
{
  Result result;
  Run(image, options, result);
  return result;
}

void
Engine::Run(const ImageView & image, const Options & options, Result & result)
{
  const auto                start = std::chrono::steady_clock::now();
  const EngineRunInProgress running; // the host image pool locks no memory meanwhile
  Reset(result);
  ValidateInput(image, options);

  // Device memory can only be read or written by the CUDA backend, on its device.
  const bool deviceMemory = UsesDeviceMemory(image, options);
  Backend    resolved = options.backend;
  if (resolved == Backend::Auto)
  {
    resolved = deviceMemory || CudaAvailable() ? Backend::Cuda : Backend::Cpu;
  }
  if (resolved == Backend::Cuda && !CudaBackendCompiledIn())
  {
    throw Error(Error::Kind::NoDevice,
                deviceMemory ? "the data is in CUDA device memory but this build has no "
                               "CUDA support"
                             : "the CUDA backend was requested but this build has no CUDA "
                               "support");
  }
  // The device that holds the data runs (cca::ValidateInput: the image's and the feature image's agree).
  const ImageView & feature = options.intensity.featureImage;
  const int         cudaDevice =
    image.memory == MemorySpace::CudaDevice
              ? image.deviceOrdinal
              : (options.intensity.Requested() && feature.memory == MemorySpace::CudaDevice ? feature.deviceOrdinal
                                                                                            : options.cudaDevice);

  if (resolved == Backend::Cuda && CudaAvailable())
  {
    PrepareCudaRun(image, options, !cudaStarted.exchange(true), cudaDevice);
  }

  // Once the caller was told that the objects are ready, it may be reading
  // them: no fallback may rewrite the result then.
  bool            announced = false;
  Options         announcing;
  const Options * run = &options;
  if (options.objectsReady)
  {
    announcing = options;
    announcing.objectsReady = [&announced, &options] {
      announced = true;
      options.objectsReady();
    };
    run = &announcing;
  }
  try
  {
    BackendImplementation & backend = BackendFor(resolved, cudaDevice);
    if (deviceMemory && !backend.SupportsDeviceMemory())
    {
      throw Error(Error::Kind::InvalidInput,
                  std::string("the ") + BackendName(resolved) +
                    " backend of this build cannot read or write CUDA device memory in "
                    "place yet: copy the data to host memory");
    }
    RunTranslatingAllocationFailures(backend, image, *run, result);
  }
  catch (const Error & error)
  {
    // With Auto, a GPU that runs out of memory is not fatal: the CPU gives the
    // same table, unless the data is in device memory, which the CPU cannot read.
    if (options.backend != Backend::Auto || resolved != Backend::Cuda || deviceMemory ||
        error.GetKind() != Error::Kind::OutOfMemory || announced)
    {
      throw;
    }
    Reset(result);
    resolved = Backend::Cpu;
    RunTranslatingAllocationFailures(BackendFor(resolved, cudaDevice), image, *run, result);
    result.warnings.push_back(std::string("the GPU ran out of memory; the CPU backend was used instead (") +
                              error.what() + ")");
  }
  if (resolved == Backend::Cpu)
  {
    result.bytesCopiedToDevice = 0;
  }
  result.backendUsed = resolved;
  result.times.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

} // namespace cca
