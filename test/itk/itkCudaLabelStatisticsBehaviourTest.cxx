/*=========================================================================
 *
 *  Licensed under the Apache License, Version 2.0 (the "License");
 *  you may not use this file except in compliance with the License.
 *  You may obtain a copy of the License at
 *
 *         http://www.apache.org/licenses/LICENSE-2.0.txt
 *
 *  Unless required by applicable law or agreed to in writing, software
 *  distributed under the License is distributed on an "AS IS" BASIS,
 *  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 *  See the License for the specific language governing permissions and
 *  limitations under the License.
 *
 *=========================================================================*/
// CudaLabelStatisticsImageFilter's behaviour beyond the differential cases:
//   golden      perimeters and moments computed once with ITK 5.2.1
//   errors      label overflow, CUDA without a device, an empty region, a
//               region whose pixel count wraps 64 bits
//   memory      an address-space limit: itk::ExceptionObject, never std::bad_alloc
//   hostimages  the label image's buffer from the host image pool: the pixel
//               container alone, and on a GPU three filters in a row (the
//               third into a page-locked block) against the CPU backend
//   progress    ProgressEvent reaches 1.0
//   types       other pixel types, label types, foreground rules and
//               output background values, each against ITK's filters
//   labelimage  writes our label image and ConnectedComponentImageFilter's
//               to argv[2], argv[3]; the test driver's --compare checks them
#include "itkCudaLabelStatisticsHostImageContainer.h"
#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsTestUtilities.h"

#include "cca/HostImageMemory.h"

#include "itkBinaryImageToShapeLabelMapFilter.h"
#include "itkCastImageFilter.h"
#include "itkConnectedComponentImageFilter.h"
#include "itkImageFileWriter.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#if defined(__linux__)
#  include <sys/resource.h>
#endif

namespace
{

using ccaitktest::Checker;
using ccaitktest::Geometry;
using ccaitktest::Margins;
using BackendEnum = itk::CudaLabelStatisticsEnums::Backend;
using RuleEnum = itk::CudaLabelStatisticsEnums::ForegroundRule;

// ---- golden values ------------------------------------------------------------------

/** Golden values from itk-facts.md (Debian's ITK 5.2.1, spacing 1). */
template <unsigned int D>
void
GoldenCase(const ccatest::Mask & mask, double perimeter, double moment, Checker & check)
{
  using ImageType = itk::Image<unsigned char, D>;
  const auto image = ccaitktest::MakeImage<ImageType>(mask, ccaitktest::IdentityGeometry(), 255, 0);
  for (BackendEnum backend : { BackendEnum::CPU, BackendEnum::Auto })
  {
    check.Begin("golden " + mask.name + (backend == BackendEnum::CPU ? " CPU" : " Auto"));
    auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
    filter->SetInput(image);
    filter->SetBackend(backend);
    filter->Update();
    const auto * map = filter->GetOutput();
    check.Equal(map->GetNumberOfLabelObjects(), 1u, "number of objects");
    if (map->GetNumberOfLabelObjects() != 1)
    {
      continue;
    }
    const auto * object = map->GetNthLabelObject(0);
    check.Equal(static_cast<double>(object->GetLabel()), 1.0, "label");
    check.Near(object->GetPerimeter(), perimeter, 1e-6, "Perimeter");
    for (unsigned int d = 0; d < D; ++d)
    {
      check.Near(object->GetPrincipalMoments()[d], moment, 1e-4, "PrincipalMoments[" + std::to_string(d) + "]");
    }
    const auto on = std::count(mask.on.begin(), mask.on.end(), 1);
    check.Near(object->GetPhysicalSize(), static_cast<double>(on), 1e-12, "PhysicalSize");
  }
}

void
GoldenSuite(Checker & check)
{
  GoldenCase<2>(ccatest::ConstantMask(2, 1, 1, 1, true), 2.681517, 0.0, check);
  GoldenCase<3>(ccatest::ConstantMask(3, 1, 1, 1, true), 3.004080, 0.0, check);
  GoldenCase<2>(ccatest::ConstantMask(2, 3, 3, 1, true), 10.265993, 2.0 / 3.0, check);
  GoldenCase<3>(ccatest::ConstantMask(3, 3, 3, 3, true), 41.070175, 2.0 / 3.0, check);
  // A 2D pixel's perimeter is pi/4 (2 + sqrt 2) exactly.
  GoldenCase<2>(ccatest::OnePixel(2, 5, 4, 1, 2, 2, 0), 0.25 * itk::Math::pi * (2 + std::sqrt(2.0)), 0.0, check);
  // The 3x3 square's moments: 0.6667, as in itk-facts.md.
  GoldenCase<2>(ccatest::ConstantMask(2, 3, 3, 1, true), 10.265993, 0.6667, check);
}

// ---- errors -------------------------------------------------------------------------

template <typename TFilter>
bool
Throws(TFilter * filter, std::string & message)
{
  try
  {
    filter->Update();
  }
  catch (const itk::ExceptionObject & e)
  {
    message = e.GetDescription();
    return true;
  }
  return false;
}

/** A row of alternating pixels: n isolated objects in 1 x (2n - 1). */
ccatest::Mask
Dots(std::int64_t n)
{
  ccatest::Mask m(2, 2 * n - 1, 1, 1, std::to_string(n) + " dots");
  for (std::int64_t x = 0; x < 2 * n - 1; x += 2)
  {
    m.Set(x, 0, 0, true);
  }
  return m;
}

void
ErrorSuite(Checker & check)
{
  using ImageType = itk::Image<unsigned char, 2>;
  using SmallMapType = itk::LabelMap<itk::StatisticsLabelObject<unsigned char, 2>>;
  using SmallFilterType = itk::CudaLabelStatisticsImageFilter<ImageType, SmallMapType>;
  using SmallReferenceType = itk::BinaryImageToShapeLabelMapFilter<ImageType, SmallMapType>;
  const Geometry identity = ccaitktest::IdentityGeometry();
  std::string    message;

  // 255 objects fit in unsigned char labels (background 0), 256 do not; ITK agrees.
  for (unsigned char background : { 0, 5, 255 })
  {
    for (std::int64_t n : { 255, 256 })
    {
      const auto image = ccaitktest::MakeImage<ImageType>(Dots(n), identity, 255, 0);
      check.Begin("label overflow: " + std::to_string(n) + " objects, unsigned char labels, background " +
                  std::to_string(background));
      auto reference = SmallReferenceType::New();
      reference->SetInput(image);
      reference->SetOutputBackgroundValue(background);
      const bool referenceThrows = Throws(reference.GetPointer(), message);
      auto       filter = SmallFilterType::New();
      filter->SetInput(image);
      filter->SetOutputBackgroundValue(background);
      filter->SetComputeLabelImage(true);
      filter->SetBackend(BackendEnum::CPU);
      const bool ours = Throws(filter.GetPointer(), message);
      check.Equal(ours, referenceThrows, "throws (as BinaryImageToShapeLabelMapFilter does)");
      check.Equal(referenceThrows, n == 256, "ITK throws exactly for 256 objects");
      if (!ours && !referenceThrows)
      {
        Margins margins;
        ccaitktest::CompareLabelMaps(reference->GetOutput(), filter->GetOutput(), 1e3, check, margins);
      }
    }
  }

  // Signed char labels: ITK counts the objects against 127 even where a
  // skipped negative background would leave room for one more label.
  {
    using SignedMapType = itk::LabelMap<itk::StatisticsLabelObject<signed char, 2>>;
    for (const signed char background : { -1, -128, 0 })
    {
      for (std::int64_t n : { 127, 128 })
      {
        const auto image = ccaitktest::MakeImage<ImageType>(Dots(n), identity, 255, 0);
        check.Begin("label overflow: " + std::to_string(n) + " objects, signed char labels, background " +
                    std::to_string(background));
        auto reference = itk::BinaryImageToShapeLabelMapFilter<ImageType, SignedMapType>::New();
        reference->SetInput(image);
        reference->SetOutputBackgroundValue(background);
        const bool referenceThrows = Throws(reference.GetPointer(), message);
        auto       filter = itk::CudaLabelStatisticsImageFilter<ImageType, SignedMapType>::New();
        filter->SetInput(image);
        filter->SetOutputBackgroundValue(background);
        filter->SetBackend(BackendEnum::CPU);
        check.Equal(
          Throws(filter.GetPointer(), message), referenceThrows, "throws as BinaryImageToShapeLabelMapFilter");
      }
    }
  }

  // A pipeline that consumes output 1 (the label image) gets it computed,
  // whatever ComputeLabelImage says (before, it read a buffer never allocated).
  {
    using FilterType = itk::CudaLabelStatisticsImageFilter<ImageType>;
    auto filter = FilterType::New();
    filter->SetInput(ccaitktest::MakeImage<ImageType>(Dots(3), identity, 255, 0));
    filter->SetBackend(BackendEnum::CPU);
    auto cast = itk::CastImageFilter<FilterType::LabelImageType, ImageType>::New();
    cast->SetInput(filter->GetLabelImage());
    const auto consumed = [&](const std::string & what) {
      check.Begin("a consumer of the label image, " + what);
      const bool threw = Throws(cast.GetPointer(), message);
      check.Equal(threw, false, "updates (" + message + ")");
      const auto * out = cast->GetOutput();
      if (!threw && out->GetBufferPointer() != nullptr &&
          out->GetBufferedRegion().GetNumberOfPixels() == out->GetLargestPossibleRegion().GetNumberOfPixels())
      {
        check.Equal(static_cast<int>(out->GetPixel({ { 4, 0 } })), 3, "the third object's label");
        check.Equal(static_cast<int>(out->GetPixel({ { 3, 0 } })), 0, "the background");
      }
      else
      {
        check.Fail("the consumer's output has no buffer");
      }
    };
    consumed("ComputeLabelImage off");
    filter->SetComputeLabelImage(true);
    consumed("ComputeLabelImage on");
    filter->SetComputeLabelImage(false);
    filter->Update(); // the label map alone: output 1 is emptied
    consumed("ComputeLabelImage turned off again");
    check.Equal(filter->GetOutput()->GetNumberOfLabelObjects(), 3u, "the label map beside it");
  }

  // A checkerboard has 512 objects: the update throws and leaves no half-written output.
  {
    check.Begin("label overflow on a 32x32 checkerboard after a successful update");
    auto filter = SmallFilterType::New();
    filter->SetComputeLabelImage(true);
    filter->SetBackend(BackendEnum::CPU);
    filter->SetInput(ccaitktest::MakeImage<ImageType>(Dots(10), identity, 255, 0));
    filter->Update();
    check.Equal(filter->GetOutput()->GetNumberOfLabelObjects(), 10u, "objects before");
    filter->SetInput(ccaitktest::MakeImage<ImageType>(ccatest::Checkerboard(2, 32, 32, 1, 0), identity, 255, 0));
    const bool threw = Throws(filter.GetPointer(), message);
    check.Equal(threw, true, "throws itk::ExceptionObject");
    if (threw)
    {
      std::cout << "overflow message: " << message << "\n";
      check.Equal(filter->GetOutput()->GetNumberOfLabelObjects(), 0u, "label objects left in the output");
      const auto * labels = filter->GetLabelImage();
      const bool   labelBufferLeft =
        labels->GetBufferPointer() != nullptr && labels->GetBufferedRegion().GetNumberOfPixels() > 0;
      check.Equal(labelBufferLeft, false, "label image buffer left in the output");
    }
    // The filter recovers: a later valid input works.
    filter->SetInput(ccaitktest::MakeImage<ImageType>(Dots(3), identity, 255, 0));
    filter->Update();
    check.Equal(filter->GetOutput()->GetNumberOfLabelObjects(), 3u, "objects after recovering");
  }

  // Backend CUDA where no device is usable.
  {
    check.Begin("Backend CUDA without a usable device");
    using FilterType = itk::CudaLabelStatisticsImageFilter<ImageType>;
    if (FilterType::IsCudaAvailable())
    {
      std::cout << "a CUDA device is usable: the no-device check is skipped\n";
    }
    else
    {
      auto filter = FilterType::New();
      filter->SetInput(ccaitktest::MakeImage<ImageType>(Dots(3), identity, 255, 0));
      filter->SetBackend(BackendEnum::CUDA);
      const bool threw = Throws(filter.GetPointer(), message);
      check.Equal(threw, true, "throws itk::ExceptionObject");
      if (threw)
      {
        std::cout << "no-device message: " << message << "\n";
      }
    }
  }

  // A CUDA device that does not exist.
  {
    using FilterType = itk::CudaLabelStatisticsImageFilter<ImageType>;
    if (FilterType::IsCudaAvailable())
    {
      check.Begin("Backend CUDA on device 97, which does not exist");
      auto filter = FilterType::New();
      filter->SetInput(ccaitktest::MakeImage<ImageType>(Dots(3), identity, 255, 0));
      filter->SetBackend(BackendEnum::CUDA);
      filter->SetCudaDevice(97);
      const bool threw = Throws(filter.GetPointer(), message);
      check.Equal(threw, true, "throws itk::ExceptionObject");
      if (threw)
      {
        std::cout << "bad-device message: " << message << "\n";
      }
      // Device 0 then works with the same filter.
      filter->SetCudaDevice(0);
      filter->Update();
      check.Equal(filter->GetOutput()->GetNumberOfLabelObjects(), 3u, "objects on device 0 after the failure");
    }
  }

  // An empty region.
  {
    check.Begin("empty input region");
    auto image = ImageType::New();
    image->SetRegions(ImageType::RegionType(ImageType::IndexType{ { 3, 4 } }, ImageType::SizeType{ { 0, 7 } }));
    image->Allocate();
    auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
    filter->SetInput(image);
    filter->SetBackend(BackendEnum::CPU);
    const bool threw = Throws(filter.GetPointer(), message);
    check.Equal(threw, true, "throws itk::ExceptionObject");
    if (threw)
    {
      std::cout << "empty-region message: " << message << "\n";
    }
  }

  // Regions whose pixel count leaves 64 bits (ITK's GetNumberOfPixels() wraps:
  // to 0 for 2^32 x 2^32, to 2^32 for (2^32 + 1) x 2^32). A 16-pixel buffer
  // stands behind them; the filter must refuse before reading or allocating.
  for (const itk::SizeValueType first : { itk::SizeValueType{ 1 } << 32, (itk::SizeValueType{ 1 } << 32) + 1 })
  {
    check.Begin("region of " + std::to_string(first) + " x 2^32 pixels");
    auto image = ImageType::New();
    image->SetRegions(ImageType::SizeType{ { first, itk::SizeValueType{ 1 } << 32 } });
    auto container = ImageType::PixelContainer::New();
    container->Reserve(16);
    image->SetPixelContainer(container);
    auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
    filter->SetInput(image);
    filter->SetBackend(BackendEnum::CPU);
    filter->SetComputeLabelImage(true);
    const bool threw = Throws(filter.GetPointer(), message);
    check.Equal(threw, true, "throws itk::ExceptionObject");
    if (threw)
    {
      std::cout << "wrapping-region message: " << message << "\n";
      check.Equal(message.find("64 bits") != std::string::npos, true, "the message names the overflow");
    }
  }
}

// ---- memory -------------------------------------------------------------------------

/** Under an address-space limit too small for the analysis, Update() throws an
 *  itk::ExceptionObject (never std::bad_alloc), and works again once memory is
 *  available. Linux only (RLIMIT_AS and /proc). */
void
MemorySuite(Checker & check)
{
#if defined(__linux__)
  using ImageType = itk::Image<unsigned char, 2>;
  // An 8192 x 8192 checkerboard: 33.5 million runs and components, far more
  // working memory than the limit leaves after the 64 MB input.
  const auto image = ccaitktest::MakeImage<ImageType>(
    ccatest::Checkerboard(2, 8192, 8192, 1, 0), ccaitktest::IdentityGeometry(), 255, 0);
  auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
  filter->SetInput(image);
  filter->SetBackend(BackendEnum::CPU);
  filter->SetNumberOfWorkUnits(2);
  filter->GetMultiThreader()->SetMaximumNumberOfThreads(2);

  std::ifstream status("/proc/self/status");
  std::string   line;
  long long     virtualKiB = -1;
  while (std::getline(status, line))
  {
    if (line.compare(0, 7, "VmSize:") == 0)
    {
      virtualKiB = std::stoll(line.substr(7));
    }
  }
  check.Begin("Update() under an address-space limit 256 MiB above the current size");
  if (virtualKiB <= 0)
  {
    check.Fail("cannot read VmSize from /proc/self/status");
    return;
  }
  rlimit previous{};
  getrlimit(RLIMIT_AS, &previous);
  rlimit limited = previous;
  limited.rlim_cur = static_cast<rlim_t>(virtualKiB + 256 * 1024) * 1024;
  if (previous.rlim_cur != RLIM_INFINITY && previous.rlim_cur < limited.rlim_cur)
  {
    limited.rlim_cur = previous.rlim_cur;
  }
  setrlimit(RLIMIT_AS, &limited);
  std::string message;
  bool        threwItk = false;
  bool        threwOther = false;
  try
  {
    filter->Update();
  }
  catch (const itk::ExceptionObject & e)
  {
    threwItk = true;
    message = e.GetDescription();
  }
  catch (const std::exception & e)
  {
    threwOther = true;
    message = e.what();
  }
  setrlimit(RLIMIT_AS, &previous);
  std::cout << "out-of-memory message: " << message << "\n";
  check.Equal(threwOther, false, "no exception other than itk::ExceptionObject");
  check.Equal(threwItk, true, "throws itk::ExceptionObject");
  check.Equal(message.find("memory") != std::string::npos, true, "the message says memory ran out");
  check.Equal(filter->GetOutput()->GetNumberOfLabelObjects(), 0u, "label objects left in the output");

  check.Begin("the same filter once the limit is lifted, on a small input");
  filter->SetInput(
    ccaitktest::MakeImage<ImageType>(ccatest::Checkerboard(2, 8, 8, 1, 0), ccaitktest::IdentityGeometry(), 255, 0));
  filter->Update();
  check.Equal(filter->GetOutput()->GetNumberOfLabelObjects(), 32u, "objects of an 8 x 8 checkerboard");
#else
  check.Begin("memory suite (Linux only)");
  std::cout << "not Linux: the address-space limit check is skipped\n";
#endif
}


// ---- host images --------------------------------------------------------------------

/** The pixel container alone: large buffers from the pool and back to it on
 *  Initialize, growth and destruction; small ones and zeroed ones from new[]. */
void
HostImageContainerCases(Checker & check)
{
  using LabelImage = itk::Image<std::uint32_t, 2>;
  using Container = itk::CudaLabelStatisticsHostImageContainer<itk::SizeValueType, std::uint32_t>;
  const std::size_t inUse = cca::HostImageMemory::Use().inUseBytes;
  const std::size_t large = 4096 * 4096 * sizeof(std::uint32_t); // 64 MiB: the pool's smallest

  check.Begin("a 4096 x 4096 label image's buffer from the pool");
  auto image = LabelImage::New();
  image->SetRegions(LabelImage::RegionType(LabelImage::SizeType{ { 4096, 4096 } }));
  image->SetPixelContainer(Container::New());
  image->Allocate();
  check.Equal(cca::HostImageMemory::Use().inUseBytes, inUse + large, "pool bytes in use");
  image->FillBuffer(7);
  image->SetPixel({ { 4095, 4095 } }, 9);
  check.Equal(image->GetPixel({ { 4095, 4095 } }), 9u, "the last pixel");
  check.Equal(image->GetPixel({ { 17, 3000 } }), 7u, "a filled pixel");
  image->Initialize();
  check.Equal(cca::HostImageMemory::Use().inUseBytes, inUse, "pool bytes in use after Initialize()");

  check.Begin("small and zeroed buffers from new[]");
  image = LabelImage::New();
  image->SetRegions(LabelImage::RegionType(LabelImage::SizeType{ { 1000, 1000 } }));
  image->SetPixelContainer(Container::New());
  image->Allocate();
  check.Equal(cca::HostImageMemory::Use().inUseBytes, inUse, "pool bytes in use, 1000 x 1000");
  image->SetRegions(LabelImage::RegionType(LabelImage::SizeType{ { 4096, 4096 } }));
  image->SetPixelContainer(Container::New());
  image->Allocate(true);
  check.Equal(cca::HostImageMemory::Use().inUseBytes, inUse, "pool bytes in use, zeroed 4096 x 4096");
  check.Equal(image->GetPixel({ { 4000, 4000 } }), 0u, "a zeroed pixel");

  check.Begin("growth from new[] to the pool and back to the pool on destruction");
  auto container = Container::New();
  container->Reserve(1000, false);
  container->GetBufferPointer()[999] = 5;
  container->Reserve(large / sizeof(std::uint32_t), false); // copies the old elements over
  check.Equal(container->GetBufferPointer()[999], 5u, "an element kept on growth");
  check.Equal(cca::HostImageMemory::Use().inUseBytes, inUse + large, "pool bytes in use after growth");
  container->Reserve(large / sizeof(std::uint32_t) + 1024 * 1024, false); // a larger block, the first one back
  check.Equal(
    cca::HostImageMemory::Use().inUseBytes, inUse + large + 4 * 1024 * 1024, "pool bytes after a second growth");
  container = nullptr;
  check.Equal(cca::HostImageMemory::Use().inUseBytes, inUse, "pool bytes in use after destruction");
}

/** The filter: a label image of 64 MiB or more comes from the pool on the
 *  GPU, and three filters in a row (fresh block, reused block, page-locked
 *  block) give the CPU backend's labels; without a GPU it is not taken. */
void
HostImageSuite(Checker & check)
{
  HostImageContainerCases(check);

  using MaskImage = itk::Image<unsigned char, 2>;
  using Filter = itk::CudaLabelStatisticsImageFilter<MaskImage>;
  const auto mask = ccaitktest::MakeImage<MaskImage>(
    ccatest::RandomMask(2, 4096, 4100, 1, 0.45, 1, 2911), ccaitktest::IdentityGeometry(), 1, 0);
  auto reference = Filter::New();
  reference->SetInput(mask);
  reference->SetBackend(BackendEnum::CPU);
  reference->SetComputeLabelImage(true);
  reference->Update();
  const auto *      expected = reference->GetLabelImage()->GetBufferPointer();
  const std::size_t pixels = 4096 * 4100;

  const bool gpu = cca::Engine::CudaAvailable();
  for (int use = 1; use <= 3; ++use)
  {
    check.Begin("label image " + std::to_string(use) + " of three filters in a row (" + (gpu ? "CUDA" : "no GPU") +
                ")");
    const std::size_t inUse = cca::HostImageMemory::Use().inUseBytes;
    auto              filter = Filter::New();
    filter->SetInput(mask);
    filter->SetComputeLabelImage(true);
    filter->Update();
    const auto * labels = filter->GetLabelImage()->GetBufferPointer();
    const bool   fromPool = cca::HostImageMemory::Use().inUseBytes > inUse;
    check.Equal(fromPool, gpu, "the label image's buffer from the pool");
    check.Equal(
      cca::HostImageMemory::Pinned(labels, pixels * sizeof(*labels)), gpu && use == 3, "the label image page-locked");
    std::size_t differences = 0;
    for (std::size_t i = 0; i < pixels; ++i)
    {
      differences += labels[i] != expected[i];
    }
    check.Equal(differences, std::size_t{ 0 }, "labels differing from the CPU backend's (mask seed 2911)");
    filter = nullptr; // gives the block back; the second time it is locked
    cca::HostImageMemory::WaitForPinning();
  }
  cca::HostImageMemory::Trim();
}

// ---- progress -----------------------------------------------------------------------

void
ProgressSuite(Checker & check)
{
  using ImageType = itk::Image<unsigned char, 3>;
  {
    // The recorder itself, on ITK's filter: it ends at 1.0.
    check.Begin("progress of BinaryImageToShapeLabelMapFilter (the recorder's own check)");
    auto reference = itk::BinaryImageToShapeLabelMapFilter<ImageType>::New();
    reference->SetInput(ccaitktest::MakeImage<ImageType>(
      ccatest::RandomMask(3, 30, 20, 10, 0.5, 1, 11), ccaitktest::IdentityGeometry(), 255, 0));
    auto recorder = ccaitktest::ProgressRecorder::New();
    recorder->m_Filter = reference.GetPointer();
    reference->AddObserver(itk::ProgressEvent(), recorder);
    reference->Update();
    check.Equal(recorder->m_Last, 1.0f, "last progress of ITK's filter");
  }
  for (BackendEnum backend : { BackendEnum::CPU, BackendEnum::Auto })
  {
    check.Begin(std::string("progress, backend ") + (backend == BackendEnum::CPU ? "CPU" : "Auto"));
    auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
    filter->SetInput(ccaitktest::MakeImage<ImageType>(
      ccatest::RandomMask(3, 30, 20, 10, 0.5, 1, 11), ccaitktest::IdentityGeometry(), 255, 0));
    filter->SetBackend(backend);
    auto recorder = ccaitktest::ProgressRecorder::New();
    recorder->m_Filter = filter.GetPointer();
    filter->AddObserver(itk::ProgressEvent(), recorder);
    filter->Update();
    check.Equal(recorder->m_Events > 0, true, "ProgressEvent observed");
    check.Equal(recorder->m_Last, 1.0f, "last progress");
    check.Equal(recorder->m_Monotonic, true, "progress never decreases");
    std::cout << recorder->m_Events << " progress events\n";
  }
}

// ---- pixel types, label types, rules ------------------------------------------------

/** One pixel type: ours with EqualToForegroundValue (a non-default value)
 *  against BinaryImageToShapeLabelMapFilter with the same value, and ours with
 *  NotEqualToBackgroundValue against ConnectedComponentImageFilter (whose
 *  foreground is != 0) on an image of many values. */
template <typename TPixel, unsigned int D>
void
PixelTypeCase(const std::string & typeName, TPixel foreground, Checker & check)
{
  using ImageType = itk::Image<TPixel, D>;
  using LabelImageType = itk::Image<itk::SizeValueType, D>;
  const auto         geometries = ccaitktest::TestGeometries(D);
  std::mt19937       rng(1234);
  const std::int64_t nz = D == 3 ? 9 : 1;
  for (int k = 0; k < 4; ++k)
  {
    const ccatest::Mask mask = ccatest::RandomMask(
      D, 37 + 13 * k, 21 + k, nz, 0.35 + 0.1 * k, 1 + 3 * (k % 2), 900 + static_cast<std::uint32_t>(k));
    const Geometry & geometry = geometries[k % geometries.size()];
    const bool       full = k % 2 == 1;
    // Background pixels hold values that differ from the foreground in various ways.
    auto image = ccaitktest::MakeImage<ImageType>(mask, geometry, foreground, 0);
    {
      itk::ImageRegionIterator<ImageType> it(image, image->GetLargestPossibleRegion());
      for (; !it.IsAtEnd(); ++it)
      {
        if (it.Get() != foreground)
        {
          const TPixel choices[] = { 0,
                                     static_cast<TPixel>(foreground - 1),
                                     static_cast<TPixel>(foreground + 1),
                                     itk::NumericTraits<TPixel>::NonpositiveMin(),
                                     1 };
          TPixel       v = choices[rng() % 5];
          it.Set(v == foreground ? TPixel{ 0 } : v);
        }
      }
    }
    const std::string name = typeName + " " + std::to_string(D) + "D " + mask.name + ", " + geometry.name;

    check.Begin(name + ", EqualToForegroundValue");
    auto reference = itk::BinaryImageToShapeLabelMapFilter<ImageType>::New();
    reference->SetInput(image);
    reference->SetInputForegroundValue(foreground);
    reference->SetFullyConnected(full);
    reference->SetComputeFeretDiameter(true);
    reference->SetComputeOrientedBoundingBox(true);
    reference->Update();
    auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
    filter->SetInput(image);
    filter->SetInputForegroundValue(foreground);
    filter->SetFullyConnected(full);
    filter->SetComputeFeretDiameter(true);
    filter->SetComputeOrientedBoundingBox(true);
    filter->SetBackend(k < 2 ? BackendEnum::CPU : BackendEnum::Auto);
    filter->Update();
    Margins margins;
    ccaitktest::CompareLabelMaps(
      reference->GetOutput(), filter->GetOutput(), ccaitktest::CoordinateScale(image.GetPointer()), check, margins);

    // The same image with "anything but 0 is foreground", as ConnectedComponentImageFilter sees it.
    check.Begin(name + ", NotEqualToBackgroundValue 0");
    auto connected = itk::ConnectedComponentImageFilter<ImageType, LabelImageType>::New();
    connected->SetInput(image);
    connected->SetFullyConnected(full);
    connected->Update();
    auto notEqual = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
    notEqual->SetInput(image);
    notEqual->SetForegroundRule(RuleEnum::NotEqualToBackgroundValue);
    notEqual->SetInputBackgroundValue(0);
    notEqual->SetFullyConnected(full);
    notEqual->SetComputeLabelImage(true);
    notEqual->SetBackend(k < 2 ? BackendEnum::Auto : BackendEnum::CPU);
    notEqual->Update();
    check.Equal(
      notEqual->GetNumberOfObjects(), static_cast<itk::SizeValueType>(connected->GetObjectCount()), "NumberOfObjects");
    ccaitktest::CompareLabelImages(notEqual->GetLabelImage(), connected->GetOutput(), check);
  }
}

/** Label types and output background values: the label map against ITK with
 *  the same label map type and background, the label image against
 *  ConnectedComponentImageFilter with the same background. */
template <typename TLabel>
void
LabelTypeCase(const std::string & typeName, TLabel background, Checker & check)
{
  constexpr unsigned int D = 2;
  using ImageType = itk::Image<unsigned char, D>;
  using MapType = itk::LabelMap<itk::StatisticsLabelObject<TLabel, D>>;
  using LabelImageType = itk::Image<TLabel, D>;
  const ccatest::Mask mask = ccatest::RandomMask(2, 61, 43, 1, 0.3, 1, 4321);
  const auto          image = ccaitktest::MakeImage<ImageType>(mask, ccaitktest::TestGeometries(D)[1], 255, 0);
  check.Begin("label type " + typeName + " background " + std::to_string(static_cast<long long>(background)) + ", " +
              mask.name);
  auto reference = itk::BinaryImageToShapeLabelMapFilter<ImageType, MapType>::New();
  reference->SetInput(image);
  reference->SetOutputBackgroundValue(background);
  reference->Update();
  auto connected = itk::ConnectedComponentImageFilter<ImageType, LabelImageType>::New();
  connected->SetInput(image);
  connected->SetBackgroundValue(background);
  connected->Update();
  for (BackendEnum backend : { BackendEnum::CPU, BackendEnum::Auto })
  {
    auto filter = itk::CudaLabelStatisticsImageFilter<ImageType, MapType>::New();
    filter->SetInput(image);
    filter->SetOutputBackgroundValue(background);
    filter->SetComputeLabelImage(true);
    filter->SetBackend(backend);
    filter->Update();
    Margins margins;
    ccaitktest::CompareLabelMaps(
      reference->GetOutput(), filter->GetOutput(), ccaitktest::CoordinateScale(image.GetPointer()), check, margins);
    ccaitktest::CompareLabelImages(filter->GetLabelImage(), connected->GetOutput(), check);
  }
}

/** One filter object updated on changing inputs and settings: nothing stale. */
void
ReuseCase(Checker & check)
{
  using ImageType = itk::Image<unsigned char, 3>;
  auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
  filter->SetComputeLabelImage(true);
  const auto geometries = ccaitktest::TestGeometries(3);
  for (int k = 0; k < 4; ++k)
  {
    const ccatest::Mask mask = ccatest::RandomMask(3, 20 - 3 * k, 11 + 5 * k, 7, 0.3, 1 + k, 60 + k);
    const auto          image = ccaitktest::MakeImage<ImageType>(mask, geometries[k], 255, 0);
    const bool          full = k % 2 == 0;
    check.Begin("one filter reused, update " + std::to_string(k) + ": " + mask.name);
    auto reference = itk::BinaryImageToShapeLabelMapFilter<ImageType>::New();
    reference->SetInput(image);
    reference->SetFullyConnected(full);
    reference->Update();
    filter->SetInput(image);
    filter->SetFullyConnected(full);
    filter->SetBackend(k == 2 ? BackendEnum::CPU : BackendEnum::Auto);
    filter->Update();
    Margins margins;
    ccaitktest::CompareLabelMaps(
      reference->GetOutput(), filter->GetOutput(), ccaitktest::CoordinateScale(image.GetPointer()), check, margins);
  }
}

void
TypesSuite(Checker & check)
{
  PixelTypeCase<unsigned char, 2>("unsigned char", 17, check);
  PixelTypeCase<short, 2>("short", -300, check);
  PixelTypeCase<unsigned int, 3>("unsigned int", 4000000000u, check);
  PixelTypeCase<signed char, 3>("signed char", -128, check);
  // 64 bits: a foreground value above 2^63 (the engine compares bit patterns).
  PixelTypeCase<unsigned long long, 2>("unsigned long long", itk::NumericTraits<unsigned long long>::max() - 2, check);
  LabelTypeCase<unsigned int>("unsigned int", 0, check);
  LabelTypeCase<unsigned int>("unsigned int", 3, check);
  LabelTypeCase<unsigned short>("unsigned short", 65535, check);
  LabelTypeCase<itk::SizeValueType>("unsigned long", 7, check);
  // A negative background: ITK then numbers objects from 0.
  LabelTypeCase<short>("short", itk::NumericTraits<short>::NonpositiveMin(), check);
  LabelTypeCase<short>("short", -1, check);
  ReuseCase(check);
}

// ---- every CUDA strategy through the filter --------------------------------------------

/** Each Algorithm (the ITK enum mirrors cca::Algorithm value for value),
 *  with Backend Auto (CUDA on a GPU machine; the CPU, which has one
 *  algorithm, elsewhere), against ITK on 2D and 3D random masks; each prints
 *  as the engine names it. */
void
AlgorithmSuite(Checker & check)
{
  using AlgorithmEnum = itk::CudaLabelStatisticsEnums::Algorithm;
  std::vector<AlgorithmEnum> algorithms;
  for (const cca::Algorithm a : cca::AllAlgorithms)
  {
    const auto algorithm = static_cast<AlgorithmEnum>(a);
    algorithms.push_back(algorithm);
    std::ostringstream printed;
    printed << algorithm;
    check.Begin(std::string("the name of ") + cca::AlgorithmName(a));
    check.Equal(
      printed.str(), std::string("itk::CudaLabelStatisticsEnums::Algorithm::") + cca::AlgorithmName(a), "operator<<");
  }
  auto runAll = [&](auto image, const std::string & name) {
    using ImageType = typename decltype(image)::ObjectType;
    for (const bool full : { false, true })
    {
      auto reference = itk::BinaryImageToShapeLabelMapFilter<ImageType>::New();
      reference->SetInput(image);
      reference->SetFullyConnected(full);
      reference->SetComputeFeretDiameter(true);
      reference->Update();
      for (const AlgorithmEnum algorithm : algorithms)
      {
        std::ostringstream label;
        label << name << (full ? ", full" : ", face") << ", " << algorithm;
        check.Begin(label.str());
        auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
        filter->SetInput(image);
        filter->SetFullyConnected(full);
        filter->SetComputeFeretDiameter(true);
        filter->SetAlgorithm(algorithm);
        filter->Update();
        Margins margins;
        ccaitktest::CompareLabelMaps(
          reference->GetOutput(), filter->GetOutput(), ccaitktest::CoordinateScale(image.GetPointer()), check, margins);
      }
      // The feature compaction option, passed on to the engine: on a GPU
      // machine the CUDA backend runs each mode (same output required); here
      // Backend Auto runs on the CPU, which ignores the option, so only the
      // plumbing (Set/Get, PrintSelf, an unchanged output) is checked.
      using CompactionEnum = itk::CudaLabelStatisticsEnums::FeatureCompaction;
      for (const CompactionEnum compaction : { CompactionEnum::TreeMerge, CompactionEnum::None })
      {
        std::ostringstream label;
        label << name << (full ? ", full" : ", face") << ", " << compaction;
        check.Begin(label.str());
        auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
        filter->SetInput(image);
        filter->SetFullyConnected(full);
        filter->SetComputeFeretDiameter(true);
        filter->SetFeatureCompaction(compaction);
        check.Equal(filter->GetFeatureCompaction(), compaction, "GetFeatureCompaction");
        std::ostringstream printed;
        filter->Print(printed);
        std::ostringstream expected;
        expected << "FeatureCompaction: " << compaction;
        if (printed.str().find(expected.str()) == std::string::npos)
        {
          check.Fail("PrintSelf does not show " + expected.str());
        }
        filter->Update();
        Margins margins;
        ccaitktest::CompareLabelMaps(
          reference->GetOutput(), filter->GetOutput(), ccaitktest::CoordinateScale(image.GetPointer()), check, margins);
      }
    }
  };
  const auto geometries2 = ccaitktest::TestGeometries(2);
  const auto geometries3 = ccaitktest::TestGeometries(3);
  for (std::uint32_t seed = 0; seed < 3; ++seed)
  {
    const ccatest::Mask mask2 =
      ccatest::RandomMask(2, 97 + 31 * seed, 45, 1, 0.4 + 0.1 * seed, 1 + 3 * seed, 700 + seed);
    runAll(ccaitktest::MakeImage<itk::Image<unsigned char, 2>>(mask2, geometries2[seed], 255, 0), mask2.name);
    const ccatest::Mask mask3 = ccatest::RandomMask(3, 33 + seed, 19, 11, 0.3 + 0.1 * seed, 1 + seed, 800 + seed);
    runAll(ccaitktest::MakeImage<itk::Image<unsigned char, 3>>(mask3, geometries3[seed], 255, 0), mask3.name);
  }
}

// ---- label image files for the driver's --compare -----------------------------------

int
WriteLabelImages(const std::string & oursFile, const std::string & referenceFile)
{
  using ImageType = itk::Image<unsigned char, 3>;
  using LabelImageType = itk::Image<itk::SizeValueType, 3>;
  const auto image = ccaitktest::MakeImage<ImageType>(
    ccatest::RandomMask(3, 40, 33, 17, 0.3, 1, 2024), ccaitktest::TestGeometries(3)[1], 255, 0);
  auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
  filter->SetInput(image);
  filter->SetComputeLabelImage(true);
  filter->Update();
  auto connected = itk::ConnectedComponentImageFilter<ImageType, LabelImageType>::New();
  connected->SetInput(image);
  connected->Update();
  itk::WriteImage(filter->GetLabelImage(), oursFile);
  itk::WriteImage(connected->GetOutput(), referenceFile);
  std::cout << filter->GetNumberOfObjects() << " objects; label images written\n";
  return EXIT_SUCCESS;
}

} // namespace

int
itkCudaLabelStatisticsBehaviourTest(int argc, char * argv[])
{
  if (argc < 2)
  {
    std::cerr << "usage: " << argv[0]
              << " golden|errors|progress|types|algorithms|memory|hostimages|labelimage [ours reference]\n";
    return EXIT_FAILURE;
  }
  const std::string suite = argv[1];
  if (suite == "labelimage")
  {
    if (argc < 4)
    {
      std::cerr << "labelimage needs two output file names\n";
      return EXIT_FAILURE;
    }
    return WriteLabelImages(argv[2], argv[3]);
  }
  Checker check;
  try
  {
    if (suite == "golden")
    {
      GoldenSuite(check);
    }
    else if (suite == "errors")
    {
      ErrorSuite(check);
    }
    else if (suite == "progress")
    {
      ProgressSuite(check);
    }
    else if (suite == "types")
    {
      TypesSuite(check);
    }
    else if (suite == "algorithms")
    {
      AlgorithmSuite(check);
    }
    else if (suite == "memory")
    {
      MemorySuite(check);
    }
    else if (suite == "hostimages")
    {
      HostImageSuite(check);
    }
    else
    {
      std::cerr << "unknown suite " << suite << "\n";
      return EXIT_FAILURE;
    }
  }
  catch (const itk::ExceptionObject & e)
  {
    check.Fail(std::string("unexpected exception: ") + e.GetDescription());
  }
  std::cout << suite << ": " << check.Cases() << " checks, " << check.FailedCases() << " failed\n";
  return check.FailedCases() == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
