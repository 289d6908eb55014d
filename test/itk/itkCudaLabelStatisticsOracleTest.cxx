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
// The filter against the engine tests' flood-fill oracle
// (test/engine/ccaFloodFillOracle.h), with no ITK filter as the reference:
// every object's lines, the label image, and a feature image's minimum,
// maximum and sum per object, added up pixel by pixel over the oracle's
// labels; with a label image as input, each value one object. Masks of
// thousands of objects, 2D and 3D, face and full connectivity, 1 and 4
// threads (the LabelMap made in parallel), Backend CPU and Auto.
//
// It instantiates no ITK filter but ours, so it compiles quickly: the
// sanitizer builds (scripts/sanitizer-tests.sh) run the ITK adapter under
// ASan+UBSan and TSan with it. The differential tests compare every
// attribute with ITK's own filters.
#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsIntensityTestUtilities.h"

#include "ccaFloodFillOracle.h"

#include "itkImageRegionConstIterator.h"
#include "itkImageRegionIterator.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace
{

using ccaitktest::Checker;
using BackendEnum = itk::CudaLabelStatisticsEnums::Backend;

/** Components of a mask: lines, label image and feature statistics against the oracle. */
template <unsigned int D>
void
ComponentsCase(const ccatest::Mask & mask, bool full, int threads, BackendEnum backend, Checker & check)
{
  using ImageType = itk::Image<std::uint8_t, D>;
  using FilterType = itk::CudaLabelStatisticsImageFilter<ImageType>;
  using MapType = typename FilterType::OutputImageType;
  check.Begin(mask.name + (full ? ", full" : ", face") + ", " + std::to_string(threads) + " threads, backend " +
              (backend == BackendEnum::CPU ? "CPU" : "Auto"));
  const ccaitktest::Geometry geometry = ccaitktest::TestGeometries(D)[1]; // region index off the origin
  const auto                 image = ccaitktest::MakeImage<ImageType>(mask, geometry, 255, 0);
  const auto                 feature = ccaitktest::RandomValueImage<itk::Image<std::int16_t, D>>(
    mask, geometry, -32768, 32767, 7 + static_cast<std::uint32_t>(mask.on.size()));

  auto filter = FilterType::New();
  filter->SetInput(image);
  filter->SetFeatureImage(feature);
  filter->SetComputeHistogram(false); // int16's rule gives each object 65536 bins (512 KB)
  filter->SetFullyConnected(full);
  filter->SetComputeLabelImage(true);
  filter->SetComputePerimeter(true);
  filter->SetComputeFeretDiameter(true);
  filter->SetComputeOrientedBoundingBox(true);
  filter->SetBackend(backend);
  filter->GetMultiThreader()->SetMaximumNumberOfThreads(threads);
  filter->Update();

  const ccatest::OracleResult oracle = ccatest::FloodFill(mask, full);
  const MapType *             map = filter->GetOutput();
  check.Equal(static_cast<std::int64_t>(map->GetNumberOfLabelObjects()), oracle.componentCount, "object count");
  if (check.CaseFailed())
  {
    return;
  }

  // Each object's lines, relative to the region's index, against the oracle's runs.
  const auto start = image->GetLargestPossibleRegion().GetIndex();
  for (std::int64_t k = 0; k < oracle.componentCount && !check.CaseFailed(); ++k)
  {
    const std::string label = "label " + std::to_string(k + 1);
    const auto *      object = map->GetLabelObject(static_cast<typename MapType::LabelType>(k + 1));
    const auto &      runs = oracle.runs[static_cast<std::size_t>(k)];
    check.Equal(object->GetNumberOfLines(), runs.size(), label + ": lines");
    for (std::size_t i = 0; i < std::min<std::size_t>(runs.size(), object->GetNumberOfLines()); ++i)
    {
      const auto & line = object->GetLine(i);
      const long   at[3] = { runs[i].x, runs[i].y, runs[i].z };
      for (unsigned int d = 0; d < D; ++d)
      {
        check.Equal(line.GetIndex()[d] - start[d], at[d], label + ", line " + std::to_string(i) + ": index");
      }
      check.Equal(static_cast<long>(line.GetLength()), static_cast<long>(runs[i].length), label + ": line length");
    }
  }

  // The label image, and per object the feature's extremes and exact sum.
  std::vector<std::int64_t> sum(static_cast<std::size_t>(oracle.componentCount), 0);
  std::vector<std::int16_t> minimum(sum.size(), std::numeric_limits<std::int16_t>::max());
  std::vector<std::int16_t> maximum(sum.size(), std::numeric_limits<std::int16_t>::min());
  std::int64_t              differ = 0;
  itk::ImageRegionConstIterator<typename FilterType::LabelImageType> labels(
    filter->GetLabelImage(), filter->GetLabelImage()->GetBufferedRegion());
  itk::ImageRegionConstIterator<itk::Image<std::int16_t, D>> values(feature, feature->GetBufferedRegion());
  for (std::size_t p = 0; !labels.IsAtEnd(); ++labels, ++values, ++p)
  {
    const std::int64_t expected = oracle.labels[p];
    differ += static_cast<std::int64_t>(labels.Get()) != expected ? 1 : 0;
    if (expected > 0)
    {
      const auto k = static_cast<std::size_t>(expected - 1);
      sum[k] += values.Get();
      minimum[k] = std::min(minimum[k], values.Get());
      maximum[k] = std::max(maximum[k], values.Get());
    }
  }
  check.Equal(differ, std::int64_t{ 0 }, "label image pixels differing from the oracle's");
  for (std::size_t k = 0; k < sum.size() && !check.CaseFailed(); ++k)
  {
    const std::string label = "label " + std::to_string(k + 1);
    const auto *      object = map->GetLabelObject(static_cast<typename MapType::LabelType>(k + 1));
    check.Equal(object->GetSum(), static_cast<double>(sum[k]), label + ": Sum");
    check.Equal(object->GetMinimum(), static_cast<double>(minimum[k]), label + ": Minimum");
    check.Equal(object->GetMaximum(), static_cast<double>(maximum[k]), label + ": Maximum");
  }
}

/** A label image whose values (1..7, 0 background) are the objects, connected or not. */
template <unsigned int D>
void
LabelValuesCase(const ccatest::Mask & mask, int threads, Checker & check)
{
  using ImageType = itk::Image<std::uint8_t, D>;
  using FilterType = itk::CudaLabelStatisticsImageFilter<ImageType>;
  check.Begin(mask.name + ", label values 1-7, " + std::to_string(threads) + " threads");
  const ccatest::OracleResult oracle = ccatest::FloodFill(mask, false);
  const auto                  image = ccaitktest::MakeImage<ImageType>(mask, ccaitktest::IdentityGeometry(), 1, 0);
  std::vector<std::int64_t>   count(8, 0);
  std::size_t                 p = 0;
  for (itk::ImageRegionIterator<ImageType> it(image, image->GetBufferedRegion()); !it.IsAtEnd(); ++it, ++p)
  {
    const std::int64_t component = oracle.labels[p];
    const auto         value = static_cast<std::uint8_t>(component == 0 ? 0 : 1 + component % 7);
    it.Set(value);
    ++count[value];
  }

  auto filter = FilterType::New();
  filter->SetInput(image);
  filter->SetObjects(FilterType::ObjectsEnum::LabelValues);
  filter->SetForegroundRule(FilterType::ForegroundRuleEnum::NotEqualToBackgroundValue);
  filter->SetInputBackgroundValue(0);
  filter->SetBackend(BackendEnum::CPU);
  filter->GetMultiThreader()->SetMaximumNumberOfThreads(threads);
  filter->Update();
  const auto * map = filter->GetOutput();
  std::size_t  present = 0;
  for (std::size_t value = 1; value < count.size(); ++value)
  {
    if (count[value] == 0)
    {
      continue;
    }
    ++present;
    const std::string what = "value " + std::to_string(value);
    if (!map->HasLabel(value))
    {
      check.Fail(what + ": no object");
      continue;
    }
    check.Equal(static_cast<std::int64_t>(map->GetLabelObject(value)->Size()), count[value], what + ": pixels");
  }
  check.Equal(map->GetNumberOfLabelObjects(), present, "object count");
}

} // namespace

int
itkCudaLabelStatisticsOracleTest(int, char *[])
{
  Checker check;
  for (int threads : { 1, 4 })
  {
    for (BackendEnum backend : { BackendEnum::CPU, BackendEnum::Auto })
    {
      // Thousands of small objects: the parallel LabelMap build takes many chunks.
      ComponentsCase<2>(
        ccatest::RandomMask(2, 240, 180, 1, 0.4, 1, 11 + threads), threads == 4, threads, backend, check);
      ComponentsCase<3>(
        ccatest::RandomMask(3, 40, 36, 30, 0.15, 1, 21 + threads), threads == 1, threads, backend, check);
    }
    LabelValuesCase<2>(ccatest::RandomMask(2, 120, 90, 1, 0.5, 2, 31 + threads), threads, check);
    LabelValuesCase<3>(ccatest::RandomMask(3, 30, 24, 20, 0.5, 2, 41 + threads), threads, check);
  }
  std::cout << check.Cases() - check.FailedCases() << " of " << check.Cases() << " cases passed" << std::endl;
  return check.FailedCases() == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
