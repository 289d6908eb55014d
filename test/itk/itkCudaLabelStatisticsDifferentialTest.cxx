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
// CudaLabelStatisticsImageFilter against ITK 5.2.1 itself, on the same images:
// the label map against BinaryImageToShapeLabelMapFilter (perimeter, Feret
// diameter and oriented bounding box on for both), the label image against
// ConnectedComponentImageFilter. Random images of the papers' family
// (densities around the percolation thresholds, g = 1, 4, 16), degenerate and
// structured shapes, widths 1..130, 2D and 3D, both connectivities, with
// region indices, spacings, directions and origins away from the defaults.
// Every case runs with Backend CPU and Backend Auto (CUDA where a GPU exists).
//
// Argument: 2D | 3D | shapes (which list of cases to run).
#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsTestUtilities.h"

#include "itkBinaryImageToShapeLabelMapFilter.h"
#include "itkConnectedComponentImageFilter.h"

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

namespace
{

using ccaitktest::Checker;
using ccaitktest::Geometry;
/** Error margins with ExactMoments off (ITK's sums) and on (exact sums). */
struct Margins
{
  ccaitktest::Margins itk;
  ccaitktest::Margins exact;
};

using BackendEnum = itk::CudaLabelStatisticsEnums::Backend;

const char *
BackendText(BackendEnum b)
{
  return b == BackendEnum::CPU ? "CPU" : b == BackendEnum::CUDA ? "CUDA" : "Auto";
}

template <unsigned int D>
void
DifferentialCase(const ccatest::Mask & mask,
                 const Geometry &      geometry,
                 bool                  fullyConnected,
                 Checker &             check,
                 Margins &             margins)
{
  using ImageType = itk::Image<unsigned char, D>;
  using LabelImageType = itk::Image<itk::SizeValueType, D>;
  const auto        image = ccaitktest::MakeImage<ImageType>(mask, geometry, 255, 0);
  const std::string caseName =
    "[" + mask.name + ", " + geometry.name + ", " + (fullyConnected ? "fully connected" : "face connected") + "]";

  // The references, computed once per image.
  using ReferenceType = itk::BinaryImageToShapeLabelMapFilter<ImageType>;
  auto reference = ReferenceType::New();
  reference->SetInput(image);
  reference->SetFullyConnected(fullyConnected);
  reference->SetComputePerimeter(true);
  reference->SetComputeFeretDiameter(true);
  reference->SetComputeOrientedBoundingBox(true);
  using ConnectedType = itk::ConnectedComponentImageFilter<ImageType, LabelImageType>;
  auto connected = ConnectedType::New();
  connected->SetInput(image);
  connected->SetFullyConnected(fullyConnected);
  try
  {
    reference->Update();
    connected->Update();
  }
  catch (const itk::ExceptionObject & e)
  {
    check.Begin(caseName);
    check.Fail(std::string("an ITK reference filter threw: ") + e.GetDescription());
    return;
  }
  const double scale = ccaitktest::CoordinateScale(image.GetPointer());

  // ExactMoments off reproduces ITK's double sums (compared strictly); on, the
  // moments come from the engine's integer sums (compared with the noise
  // allowances of CompareLabelMaps), which also checks those sums on CUDA.
  struct Variant
  {
    BackendEnum backend;
    bool        exactMoments;
  };
  for (const Variant v : { Variant{ BackendEnum::CPU, false },
                           Variant{ BackendEnum::Auto, false },
                           Variant{ BackendEnum::CPU, true },
                           Variant{ BackendEnum::Auto, true } })
  {
    const BackendEnum backend = v.backend;
    check.Begin(caseName + " backend " + BackendText(backend) + (v.exactMoments ? " ExactMoments" : ""));
    using FilterType = itk::CudaLabelStatisticsImageFilter<ImageType>;
    auto filter = FilterType::New();
    filter->SetInput(image);
    filter->SetFullyConnected(fullyConnected);
    filter->SetComputePerimeter(true);
    filter->SetComputeFeretDiameter(true);
    filter->SetComputeOrientedBoundingBox(true);
    filter->SetComputeLabelImage(true);
    filter->SetBackend(backend);
    filter->SetExactMoments(v.exactMoments);
    try
    {
      filter->Update();
    }
    catch (const itk::ExceptionObject & e)
    {
      check.Fail(std::string("our filter threw: ") + e.GetDescription());
      continue;
    }
    const BackendEnum expectedBackend =
      backend == BackendEnum::Auto ? (FilterType::IsCudaAvailable() ? BackendEnum::CUDA : BackendEnum::CPU) : backend;
    check.Equal(BackendText(filter->GetBackendUsed()), std::string(BackendText(expectedBackend)), "BackendUsed");
    check.Equal(filter->GetNumberOfObjects(), reference->GetOutput()->GetNumberOfLabelObjects(), "NumberOfObjects");
    check.Equal(filter->GetNumberOfObjects(), connected->GetObjectCount(), "NumberOfObjects vs connected components");
    ccaitktest::CompareLabelMaps(reference->GetOutput(),
                                 filter->GetOutput(),
                                 scale,
                                 check,
                                 v.exactMoments ? margins.exact : margins.itk,
                                 v.exactMoments);
    ccaitktest::CompareLabelImages(filter->GetLabelImage(), connected->GetOutput(), check);
  }
}

/** Both connectivities of one mask; the geometry cycles with the case number. */
template <unsigned int D>
void
BothConnectivities(const ccatest::Mask & mask, int k, Checker & check, Margins & margins)
{
  static const std::vector<Geometry> geometries = ccaitktest::TestGeometries(D);
  DifferentialCase<D>(mask, geometries[k % geometries.size()], false, check, margins);
  DifferentialCase<D>(mask, geometries[(k + 1) % geometries.size()], true, check, margins);
}

const double Densities[] = { 0.1, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.8, 0.95, 1.0 };
const int    Granularities[] = { 1, 4, 16 };

void
Cases2D(Checker & check, Margins & margins)
{
  const std::int64_t heights[] = { 1, 2, 3, 7, 31, 32, 33, 64, 65, 97 };
  std::uint32_t      seed = 5000;
  int                k = 0;
  // Every width 1..130: multiples of 32, their neighbours and everything between.
  for (std::int64_t w = 1; w <= 130; ++w)
  {
    const std::int64_t h = heights[w % 10];
    BothConnectivities<2>(
      ccatest::RandomMask(2, w, h, 1, Densities[w % 11], Granularities[(w / 11) % 3], seed++), k++, check, margins);
  }
  // The percolation thresholds (0.4 for 8-, 0.6 for 4-connectivity) at every granularity.
  for (double d : { 0.4, 0.6 })
  {
    for (int g : Granularities)
    {
      BothConnectivities<2>(ccatest::RandomMask(2, 200, 150, 1, d, g, seed++), k++, check, margins);
    }
  }
}

void
Cases3D(Checker & check, Margins & margins)
{
  // Sizes stay small: ITK's Feret diameter is quadratic in the border pixels.
  const std::int64_t sizes[][3] = { { 1, 1, 1 },    { 1, 1, 9 },    { 9, 1, 1 },  { 1, 9, 1 },
                                    { 33, 2, 3 },   { 5, 33, 4 },   { 32, 3, 5 }, { 31, 9, 12 },
                                    { 20, 16, 14 }, { 24, 22, 20 }, { 65, 4, 6 }, { 3, 30, 21 } };
  // 3D thresholds are lower: about 0.31 for 6-, 0.1 for 26-connectivity.
  const double  densities[] = { 0.1, 0.2, 0.31, 0.4, 0.6, 0.9 };
  std::uint32_t seed = 7000;
  int           k = 0;
  for (const auto & s : sizes)
  {
    for (int g : Granularities)
    {
      BothConnectivities<3>(ccatest::RandomMask(3, s[0], s[1], s[2], densities[k % 6], g, seed++), k, check, margins);
      ++k;
    }
  }
  // Larger volumes at the 3D percolation thresholds, widths not multiples of 32.
  for (double d : { 0.12, 0.31 })
  {
    for (int g : { 1, 4 })
    {
      BothConnectivities<3>(ccatest::RandomMask(3, 34, 33, 31, d, g, seed++), k++, check, margins);
    }
  }
}

void
CasesShapes(Checker & check, Margins & margins)
{
  int k = 0;
  for (std::int64_t n : { 1, 2, 31, 32, 33, 65, 130 })
  {
    BothConnectivities<2>(ccatest::ConstantMask(2, 1, n, 1, true), k++, check, margins);
    BothConnectivities<2>(ccatest::ConstantMask(2, n, 1, 1, true), k++, check, margins);
    BothConnectivities<2>(
      ccatest::RandomMask(2, 1, n, 1, 0.5, 1, 100 + static_cast<std::uint32_t>(n)), k++, check, margins);
    BothConnectivities<2>(
      ccatest::RandomMask(2, n, 1, 1, 0.5, 1, 200 + static_cast<std::uint32_t>(n)), k++, check, margins);
  }
  for (std::int64_t w : { 1, 2, 7, 32, 33, 64, 97 })
  {
    BothConnectivities<2>(ccatest::Checkerboard(2, w, 29, 1, 0), k++, check, margins);
    BothConnectivities<2>(ccatest::Checkerboard(2, w, 30, 1, 1), k++, check, margins);
    BothConnectivities<2>(ccatest::Spiral(2, w, w + 5, 1), k++, check, margins);
    BothConnectivities<2>(ccatest::ConstantMask(2, w, 19, 1, true), k++, check, margins);
    BothConnectivities<2>(ccatest::ConstantMask(2, w, 19, 1, false), k++, check, margins);
  }
  BothConnectivities<2>(ccatest::Spiral(2, 130, 120, 1), k++, check, margins);
  for (int corner = 0; corner < 4; ++corner)
  {
    // One pixel: in the middle, at a corner, in a 1x1 image.
    BothConnectivities<2>(ccatest::OnePixel(2, 1, 1, 1, 0, 0, 0), corner, check, margins);
    BothConnectivities<2>(ccatest::OnePixel(2, 40, 30, 1, 17, 11, 0), corner, check, margins);
    BothConnectivities<2>(ccatest::OnePixel(2, 40, 30, 1, 39, 29, 0), corner, check, margins);
    BothConnectivities<3>(ccatest::OnePixel(3, 1, 1, 1, 0, 0, 0), corner, check, margins);
    BothConnectivities<3>(ccatest::OnePixel(3, 9, 8, 7, 4, 3, 2), corner, check, margins);
    BothConnectivities<3>(ccatest::OnePixel(3, 9, 8, 7, 8, 0, 6), corner, check, margins);
  }
  for (std::int64_t w : { 1, 2, 9, 33 })
  {
    BothConnectivities<3>(ccatest::Checkerboard(3, w, 6, 5, 0), k++, check, margins);
    BothConnectivities<3>(ccatest::ConstantMask(3, w, 6, 5, true), k++, check, margins);
    BothConnectivities<3>(ccatest::ConstantMask(3, w, 6, 5, false), k++, check, margins);
    BothConnectivities<3>(ccatest::ConstantMask(3, 1, 1, w, true), k++, check, margins);
    BothConnectivities<3>(
      ccatest::RandomMask(3, 1, 1, w + 10, 0.5, 1, 300 + static_cast<std::uint32_t>(w)), k++, check, margins);
  }
  BothConnectivities<3>(ccatest::Spiral(3, 23, 19, 5), k++, check, margins);
}

} // namespace

int
itkCudaLabelStatisticsDifferentialTest(int argc, char * argv[])
{
  if (argc < 2)
  {
    std::cerr << "usage: " << argv[0] << " 2D|3D|shapes\n";
    return EXIT_FAILURE;
  }
  const std::string which = argv[1];
  const auto        start = std::chrono::steady_clock::now();
  Checker           check;
  Margins           margins;
  if (which == "2D")
  {
    Cases2D(check, margins);
  }
  else if (which == "3D")
  {
    Cases3D(check, margins);
  }
  else if (which == "shapes")
  {
    CasesShapes(check, margins);
  }
  else
  {
    std::cerr << "unknown case list " << which << "\n";
    return EXIT_FAILURE;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << which << ": " << check.Cases() << " comparisons, " << check.FailedCases() << " failed, " << seconds
            << " s; CUDA available: "
            << itk::CudaLabelStatisticsImageFilter<itk::Image<unsigned char, 2>>::IsCudaAvailable() << "\n";
  std::cout << "ExactMoments off: ";
  margins.itk.Print(std::cout);
  std::cout << "ExactMoments on:  ";
  margins.exact.Print(std::cout);
  return check.FailedCases() == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
