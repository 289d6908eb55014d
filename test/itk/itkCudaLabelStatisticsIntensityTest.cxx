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
// CudaLabelStatisticsImageFilter's feature groups against ITK 5.2.1 itself,
// attribute by attribute, with region indices, spacings, directions and
// origins away from the defaults, both connectivities, Backend CPU and Auto:
//   binary2D, binary3D: a feature image of every kind (8-, 16-, 32-bit
//     integers with ITK's default bins, float, double) against
//     BinaryImageToStatisticsLabelMapFilter;
//   labels: label images against LabelImageToStatisticsLabelMapFilter and
//     LabelImageToShapeLabelMapFilter (each value one object);
//   components: the components of each value against
//     ScalarConnectedComponentImageFilter (DistanceThreshold 0) + LabelImageToShapeLabelMapFilter;
//   selection: RelabelComponentImageFilter (minimum size, sorted by size),
//     ShapeKeepNObjectsLabelMapFilter (NumberOfPixels) and
//     ShapeOpeningLabelMapFilter (PhysicalSize) against the size selection;
//   classic: CudaLabelIntensityStatisticsImageFilter against
//     LabelStatisticsImageFilter (every label value, histograms and median);
//   errors: the bad inputs of issue 12, each a clear exception.
#include "itkCudaLabelIntensityStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsIntensityTestUtilities.h"
#include "itkCudaLabelStatisticsTestUtilities.h"

#include "itkBinaryImageToShapeLabelMapFilter.h"
#include "itkBinaryImageToStatisticsLabelMapFilter.h"
#include "itkConnectedComponentImageFilter.h"
#include "itkLabelImageToShapeLabelMapFilter.h"
#include "itkLabelImageToStatisticsLabelMapFilter.h"
#include "itkLabelMapToLabelImageFilter.h"
#include "itkLabelStatisticsImageFilter.h"
#include "itkRelabelComponentImageFilter.h"
#include "itkScalarConnectedComponentImageFilter.h"
#include "itkShapeKeepNObjectsLabelMapFilter.h"
#include "itkShapeOpeningLabelMapFilter.h"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <functional>
#include <iostream>
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace
{

using ccaitktest::Checker;
using ccaitktest::Geometry;
using ccaitktest::Margins;
using BackendEnum = itk::CudaLabelStatisticsEnums::Backend;
using ObjectsEnum = itk::CudaLabelStatisticsEnums::Objects;

const BackendEnum Backends[] = { BackendEnum::CPU, BackendEnum::Auto };

const char *
BackendText(BackendEnum b)
{
  return b == BackendEnum::CPU ? "CPU" : b == BackendEnum::CUDA ? "CUDA" : "Auto";
}

template <typename T>
const char *
TypeText()
{
  return std::is_same<T, unsigned char>::value    ? "uint8"
         : std::is_same<T, short>::value          ? "int16"
         : std::is_same<T, unsigned short>::value ? "uint16"
         : std::is_same<T, int>::value            ? "int32"
         : std::is_same<T, float>::value          ? "float"
         : std::is_same<T, double>::value         ? "double"
                                                  : "other";
}

/** Runs update, reporting an exception as a failure of the case. */
bool
Updated(const std::function<void()> & update, const char * who, Checker & check)
{
  try
  {
    update();
    return true;
  }
  catch (const itk::ExceptionObject & e)
  {
    check.Fail(std::string(who) + " threw: " + e.GetDescription());
    return false;
  }
}

// ---- a feature image with a binary mask ----------------------------------------

/** The filter on image and feature against BinaryImageToStatisticsLabelMapFilter,
 *  every attribute, Backend CPU and Auto; name: the case, seed included. */
template <typename TImage, typename TFeatureImage>
void
CompareWithBinaryStatistics(const TImage *        image,
                            const TFeatureImage * feature,
                            bool                  full,
                            const std::string &   name,
                            Checker &             check,
                            Margins &             margins)
{
  auto reference = itk::BinaryImageToStatisticsLabelMapFilter<TImage, TFeatureImage>::New();
  reference->SetInput(image);
  reference->SetFeatureImage(feature);
  reference->SetFullyConnected(full);
  reference->SetComputePerimeter(true);
  check.Begin(name + " reference");
  if (!Updated([&] { reference->Update(); }, "BinaryImageToStatisticsLabelMapFilter", check))
  {
    return;
  }
  const double scale = ccaitktest::CoordinateScale(image);
  for (const BackendEnum backend : Backends)
  {
    check.Begin(name + " backend " + BackendText(backend));
    auto filter = itk::CudaLabelStatisticsImageFilter<TImage>::New();
    filter->SetInput(image);
    filter->SetFeatureImage(feature);
    filter->SetFullyConnected(full);
    filter->SetBackend(backend);
    if (Updated([&] { filter->Update(); }, "our filter", check))
    {
      ccaitktest::CompareLabelMaps(reference->GetOutput(), filter->GetOutput(), scale, check, margins);
      ccaitktest::CompareIntensity(reference->GetOutput(), filter->GetOutput(), scale, true, check, margins);
    }
  }
}

template <unsigned int D, typename TFeature>
void
BinaryCase(const ccatest::Mask & mask,
           const Geometry &      geometry,
           bool                  full,
           double                low,
           double                high,
           std::uint32_t         seed,
           Checker &             check,
           Margins &             margins)
{
  using ImageType = itk::Image<unsigned char, D>;
  using FeatureType = itk::Image<TFeature, D>;
  const auto        image = ccaitktest::MakeImage<ImageType>(mask, geometry, 255, 0);
  const auto        feature = ccaitktest::RandomValueImage<FeatureType>(mask, geometry, low, high, seed);
  const std::string name = "[" + mask.name + ", " + geometry.name + ", " + (full ? "full" : "face") + ", feature " +
                           TypeText<TFeature>() + " in [" + std::to_string(low) + ", " + std::to_string(high) +
                           "] seed " + std::to_string(seed) + "]";
  CompareWithBinaryStatistics(image.GetPointer(), feature.GetPointer(), full, name, check, margins);
}

template <unsigned int D>
void
BinaryCases(Checker & check, Margins & margins)
{
  static const std::vector<Geometry> geometries = ccaitktest::TestGeometries(D);
  const std::int64_t                 sizes2D[][3] = { { 1, 1, 1 }, { 37, 23, 1 }, { 64, 33, 1 }, { 130, 7, 1 } };
  const std::int64_t                 sizes3D[][3] = { { 1, 1, 1 }, { 9, 7, 5 }, { 33, 6, 4 }, { 17, 13, 11 } };
  std::uint32_t                      seed = D == 2 ? 12000 : 13000;
  int                                k = 0;
  for (const auto & s : (D == 2 ? sizes2D : sizes3D))
  {
    for (const double density : { 0.3, 0.6 })
    {
      const ccatest::Mask mask = ccatest::RandomMask(D, s[0], s[1], s[2], density, 1 + (k % 2) * 2, seed++);
      const Geometry &    g = geometries[k % geometries.size()];
      const bool          full = k % 2 == 1;
      // Every feature type at least once per shape: ITK's default bins of each.
      BinaryCase<D, unsigned char>(mask, g, full, 0, 255, seed++, check, margins);
      BinaryCase<D, short>(mask, g, !full, -1024, 3071, seed++, check, margins);
      BinaryCase<D, short>(mask, g, full, -2, 2, seed++, check, margins); // ties for the extremes' indices
      BinaryCase<D, int>(mask, g, !full, -100000, 100000, seed++, check, margins);
      BinaryCase<D, float>(mask, g, full, -3.5, 17.25, seed++, check, margins);
      BinaryCase<D, double>(mask, g, !full, 1000, 1000.5, seed++, check, margins);
      ++k;
    }
  }
}

// ---- label images ----------------------------------------------------------------

template <unsigned int D, typename TLabel, typename TFeature>
void
LabelCase(const ccatest::Mask &          shape,
          const Geometry &               geometry,
          const std::vector<long long> & palette,
          int                            g,
          std::uint32_t                  seed,
          Checker &                      check,
          Margins &                      margins)
{
  using LabelImageType = itk::Image<TLabel, D>;
  using FeatureType = itk::Image<TFeature, D>;
  const auto        labels = ccaitktest::BlockLabelImage<LabelImageType>(shape, geometry, palette, g, seed);
  const auto        feature = ccaitktest::RandomValueImage<FeatureType>(shape, geometry, -50, 200, seed + 1);
  const std::string name = "[labels " + ccatest::SizeText(D, shape.size[0], shape.size[1], shape.size[2]) +
                           " g=" + std::to_string(g) + " seed " + std::to_string(seed) + ", " + geometry.name +
                           ", feature " + TypeText<TFeature>() + "]";
  const double scale = ccaitktest::CoordinateScale(labels.GetPointer());

  // Label 0 is the background of both (ITK's default is the label type's
  // NonpositiveMin, which makes 0 an object of signed label images).
  auto statistics = itk::LabelImageToStatisticsLabelMapFilter<LabelImageType, FeatureType>::New();
  statistics->SetBackgroundValue(0);
  statistics->SetInput(labels);
  statistics->SetFeatureImage(feature);
  statistics->SetComputePerimeter(true);
  auto shapes = itk::LabelImageToShapeLabelMapFilter<LabelImageType>::New();
  shapes->SetBackgroundValue(0);
  shapes->SetInput(labels);
  shapes->SetComputePerimeter(true);
  shapes->SetComputeFeretDiameter(true);
  shapes->SetComputeOrientedBoundingBox(true);
  check.Begin(name + " references");
  if (!Updated([&] { statistics->Update(); }, "LabelImageToStatisticsLabelMapFilter", check) ||
      !Updated([&] { shapes->Update(); }, "LabelImageToShapeLabelMapFilter", check))
  {
    return;
  }
  for (const BackendEnum backend : Backends)
  {
    check.Begin(name + " statistics, backend " + BackendText(backend));
    auto filter = itk::CudaLabelStatisticsImageFilter<LabelImageType>::New();
    filter->SetInput(labels);
    filter->SetFeatureImage(feature);
    filter->SetObjects(ObjectsEnum::LabelValues);
    filter->SetInputBackgroundValue(0);
    filter->SetOutputBackgroundValue(0);
    filter->SetBackend(backend);
    if (Updated([&] { filter->Update(); }, "our filter", check))
    {
      ccaitktest::CompareLabelMaps(statistics->GetOutput(), filter->GetOutput(), scale, check, margins);
      ccaitktest::CompareIntensity(statistics->GetOutput(), filter->GetOutput(), scale, true, check, margins);
      for (itk::SizeValueType i = 0; i < filter->GetOutput()->GetNumberOfLabelObjects() && !check.CaseFailed(); ++i)
      {
        const auto label = filter->GetOutput()->GetNthLabelObject(i)->GetLabel();
        check.Equal(static_cast<long long>(filter->GetInputLabelOfObject(label)),
                    static_cast<long long>(label),
                    "GetInputLabelOfObject");
      }
    }
    check.Begin(name + " shapes, backend " + BackendText(backend));
    auto shapeFilter = itk::CudaLabelStatisticsImageFilter<LabelImageType>::New();
    shapeFilter->SetInput(labels);
    shapeFilter->SetObjects(ObjectsEnum::LabelValues);
    shapeFilter->SetInputBackgroundValue(0);
    shapeFilter->SetOutputBackgroundValue(0);
    shapeFilter->SetComputeFeretDiameter(true);
    shapeFilter->SetComputeOrientedBoundingBox(true);
    shapeFilter->SetBackend(backend);
    if (Updated([&] { shapeFilter->Update(); }, "our filter", check))
    {
      ccaitktest::CompareLabelMaps(shapes->GetOutput(), shapeFilter->GetOutput(), scale, check, margins);
    }
  }
}

void
LabelCases(Checker & check, Margins & margins)
{
  const std::vector<long long> small = { 0, 1, 2, 3 };
  const std::vector<long long> sparse = { 0, 7, 300, 20000, 1000000 };
  int                          k = 0;
  std::uint32_t                seed = 14000;
  for (const auto & s : { std::vector<std::int64_t>{ 2, 1, 1, 1 },
                          std::vector<std::int64_t>{ 2, 41, 29, 1 },
                          std::vector<std::int64_t>{ 2, 97, 33, 1 },
                          std::vector<std::int64_t>{ 3, 9, 8, 7 },
                          std::vector<std::int64_t>{ 3, 21, 14, 9 } })
  {
    const ccatest::Mask shape(static_cast<int>(s[0]), s[1], s[2], s[3], "");
    if (s[0] == 2)
    {
      static const std::vector<Geometry> geometries = ccaitktest::TestGeometries(2);
      LabelCase<2, unsigned short, short>(
        shape, geometries[k % geometries.size()], small, 1 + k % 3, seed++, check, margins);
      LabelCase<2, int, float>(shape, geometries[(k + 1) % geometries.size()], sparse, 2, seed++, check, margins);
      LabelCase<2, unsigned char, unsigned char>(
        shape, geometries[(k + 2) % geometries.size()], small, 3, seed++, check, margins);
    }
    else
    {
      static const std::vector<Geometry> geometries = ccaitktest::TestGeometries(3);
      LabelCase<3, unsigned short, short>(
        shape, geometries[k % geometries.size()], small, 1 + k % 3, seed++, check, margins);
      LabelCase<3, int, double>(shape, geometries[(k + 1) % geometries.size()], sparse, 2, seed++, check, margins);
    }
    ++k;
  }
}

// ---- components of each label value ------------------------------------------------

template <unsigned int D>
void
ComponentCase(const ccatest::Mask & shape,
              const Geometry &      geometry,
              bool                  full,
              int                   g,
              std::uint32_t         seed,
              Checker &             check,
              Margins &             margins)
{
  using LabelImageType = itk::Image<short, D>;
  using OutputLabelImage = itk::Image<itk::SizeValueType, D>;
  const std::vector<long long> palette = { 0, -3, 1, 2, 9 };
  const auto                   labels = ccaitktest::BlockLabelImage<LabelImageType>(shape, geometry, palette, g, seed);
  const std::string name = "[label components " + ccatest::SizeText(D, shape.size[0], shape.size[1], shape.size[2]) +
                           " g=" + std::to_string(g) + " seed " + std::to_string(seed) + ", " + geometry.name + ", " +
                           (full ? "full" : "face") + "]";
  // ITK: equal neighbours joined where the mask (label != 0) is on, numbered
  // in raster order, then each number an object.
  using MaskType = itk::Image<unsigned char, D>;
  auto mask = MaskType::New();
  mask->CopyInformation(labels);
  mask->SetRegions(labels->GetLargestPossibleRegion());
  mask->Allocate();
  itk::ImageRegionConstIterator<LabelImageType> in(labels, labels->GetLargestPossibleRegion());
  itk::ImageRegionIterator<MaskType>            out(mask, mask->GetLargestPossibleRegion());
  for (; !in.IsAtEnd(); ++in, ++out)
  {
    out.Set(in.Get() != 0 ? 1 : 0);
  }
  auto components = itk::ScalarConnectedComponentImageFilter<LabelImageType, OutputLabelImage, MaskType>::New();
  components->SetInput(labels);
  components->SetMaskImage(mask);
  components->SetDistanceThreshold(0);
  components->SetFullyConnected(full);
  check.Begin(name + " references");
  if (!Updated([&] { components->Update(); }, "ScalarConnectedComponentImageFilter", check))
  {
    return;
  }
  // Its labels are the classes of its equivalence table: renumber them in
  // raster order of their first pixels.
  auto numbered = OutputLabelImage::New();
  numbered->CopyInformation(labels);
  numbered->SetRegions(labels->GetLargestPossibleRegion());
  numbered->Allocate();
  {
    std::map<itk::SizeValueType, itk::SizeValueType> order;
    itk::ImageRegionConstIterator<OutputLabelImage>  from(components->GetOutput(), labels->GetLargestPossibleRegion());
    itk::ImageRegionIterator<OutputLabelImage>       to(numbered, labels->GetLargestPossibleRegion());
    for (; !from.IsAtEnd(); ++from, ++to)
    {
      const itk::SizeValueType label = from.Get();
      to.Set(label == 0 ? 0 : order.emplace(label, order.size() + 1).first->second);
    }
  }
  auto shapes = itk::LabelImageToShapeLabelMapFilter<OutputLabelImage>::New();
  shapes->SetInput(numbered);
  shapes->SetComputePerimeter(true);
  if (!Updated([&] { shapes->Update(); }, "LabelImageToShapeLabelMapFilter", check))
  {
    return;
  }
  const double scale = ccaitktest::CoordinateScale(labels.GetPointer());
  for (const BackendEnum backend : Backends)
  {
    check.Begin(name + " backend " + BackendText(backend));
    auto filter = itk::CudaLabelStatisticsImageFilter<LabelImageType>::New();
    filter->SetInput(labels);
    filter->SetObjects(ObjectsEnum::LabelValueComponents);
    filter->SetInputBackgroundValue(0);
    filter->SetOutputBackgroundValue(0);
    filter->SetFullyConnected(full);
    filter->SetComputeLabelImage(true);
    filter->SetBackend(backend);
    if (Updated([&] { filter->Update(); }, "our filter", check))
    {
      ccaitktest::CompareLabelMaps(shapes->GetOutput(), filter->GetOutput(), scale, check, margins);
      ccaitktest::CompareLabelImages(filter->GetLabelImage(), numbered.GetPointer(), check);
      for (itk::SizeValueType i = 0; i < filter->GetOutput()->GetNumberOfLabelObjects() && !check.CaseFailed(); ++i)
      {
        const auto * object = filter->GetOutput()->GetNthLabelObject(i);
        check.Equal(filter->GetInputLabelOfObject(object->GetLabel()),
                    labels->GetPixel(object->GetIndex(0)),
                    "GetInputLabelOfObject(" + std::to_string(object->GetLabel()) + ")");
      }
    }
  }
}

void
ComponentCases(Checker & check, Margins & margins)
{
  static const std::vector<Geometry> geometries2 = ccaitktest::TestGeometries(2);
  static const std::vector<Geometry> geometries3 = ccaitktest::TestGeometries(3);
  std::uint32_t                      seed = 15000;
  int                                k = 0;
  for (const auto & s : { std::vector<std::int64_t>{ 2, 1, 1, 1 },
                          std::vector<std::int64_t>{ 2, 45, 31, 1 },
                          std::vector<std::int64_t>{ 2, 66, 20, 1 } })
  {
    const ccatest::Mask shape(2, s[1], s[2], 1, "");
    for (const bool full : { false, true })
    {
      ComponentCase<2>(shape, geometries2[k % geometries2.size()], full, 1 + k % 2, seed++, check, margins);
      ++k;
    }
  }
  for (const auto & s : { std::vector<std::int64_t>{ 3, 9, 8, 7 }, std::vector<std::int64_t>{ 3, 19, 12, 10 } })
  {
    const ccatest::Mask shape(3, s[1], s[2], s[3], "");
    for (const bool full : { false, true })
    {
      ComponentCase<3>(shape, geometries3[k % geometries3.size()], full, 1 + k % 2, seed++, check, margins);
      ++k;
    }
  }
}

// ---- selection --------------------------------------------------------------------

template <unsigned int D>
void
SelectionCase(const ccatest::Mask & mask, const Geometry & geometry, bool full, Checker & check, Margins & margins)
{
  using ImageType = itk::Image<unsigned char, D>;
  using LabelImageType = itk::Image<itk::SizeValueType, D>;
  using MapType = itk::LabelMap<itk::StatisticsLabelObject<itk::SizeValueType, D>>;
  const auto        image = ccaitktest::MakeImage<ImageType>(mask, geometry, 255, 0);
  const std::string name = "[" + mask.name + ", " + geometry.name + ", " + (full ? "full" : "face") + "]";
  const double      scale = ccaitktest::CoordinateScale(image.GetPointer());

  auto connected = itk::ConnectedComponentImageFilter<ImageType, LabelImageType>::New();
  connected->SetInput(image);
  connected->SetFullyConnected(full);
  auto binary = itk::BinaryImageToShapeLabelMapFilter<ImageType, MapType>::New();
  binary->SetInput(image);
  binary->SetFullyConnected(full);
  check.Begin(name + " references");
  if (!Updated([&] { binary->Update(); }, "BinaryImageToShapeLabelMapFilter", check))
  {
    return;
  }
  for (const BackendEnum backend : Backends)
  {
    // RelabelComponentImageFilter: at least 3 pixels, numbered by decreasing size.
    {
      check.Begin(name + " RelabelComponentImageFilter, backend " + BackendText(backend));
      auto relabel = itk::RelabelComponentImageFilter<LabelImageType, LabelImageType>::New();
      relabel->SetInput(connected->GetOutput());
      relabel->SetMinimumObjectSize(3);
      auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
      filter->SetInput(image);
      filter->SetFullyConnected(full);
      filter->SetMinimumObjectSize(3);
      filter->SetSortObjectsBySize(true);
      filter->SetComputeLabelImage(true);
      filter->SetOutputBackgroundValue(0);
      filter->SetBackend(backend);
      if (Updated([&] { relabel->Update(); }, "RelabelComponentImageFilter", check) &&
          Updated([&] { filter->Update(); }, "our filter", check))
      {
        ccaitktest::CompareLabelImages(filter->GetLabelImage(), relabel->GetOutput(), check);
        check.Equal(filter->GetNumberOfObjects(), relabel->GetNumberOfObjects(), "NumberOfObjects");
        check.Equal(
          filter->GetOriginalNumberOfObjects(), relabel->GetOriginalNumberOfObjects(), "OriginalNumberOfObjects");
        for (itk::SizeValueType i = 0; i < filter->GetNumberOfObjects() && !check.CaseFailed(); ++i)
        {
          check.Equal(filter->GetOutput()->GetLabelObject(i + 1)->GetNumberOfPixels(),
                      relabel->GetSizeOfObjectsInPixels()[i],
                      "size of object " + std::to_string(i + 1));
        }
      }
    }
    // ShapeKeepNObjectsLabelMapFilter: the 4 largest keep their labels. Ties
    // at the cut are std::nth_element's choice in ITK (unspecified); ours
    // keeps the lower labels: compare the kept sizes, and the objects where
    // the cut has no tie.
    {
      check.Begin(name + " ShapeKeepNObjectsLabelMapFilter, backend " + BackendText(backend));
      auto keep = itk::ShapeKeepNObjectsLabelMapFilter<MapType>::New();
      keep->SetInput(binary->GetOutput());
      keep->SetNumberOfObjects(4);
      keep->SetAttribute("NumberOfPixels");
      auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
      filter->SetInput(image);
      filter->SetFullyConnected(full);
      filter->SetNumberOfObjectsToKeep(4);
      filter->SetBackend(backend);
      if (Updated([&] { keep->Update(); }, "ShapeKeepNObjectsLabelMapFilter", check) &&
          Updated([&] { filter->Update(); }, "our filter", check))
      {
        const auto * ref = keep->GetOutput();
        const auto * ours = filter->GetOutput();
        check.Equal(ours->GetNumberOfLabelObjects(), ref->GetNumberOfLabelObjects(), "number of objects");
        std::multiset<itk::SizeValueType> refSizes;
        std::multiset<itk::SizeValueType> ourSizes;
        itk::SizeValueType                smallest = itk::NumericTraits<itk::SizeValueType>::max();
        for (itk::SizeValueType i = 0; i < ref->GetNumberOfLabelObjects(); ++i)
        {
          refSizes.insert(ref->GetNthLabelObject(i)->GetNumberOfPixels());
          smallest = std::min(smallest, ref->GetNthLabelObject(i)->GetNumberOfPixels());
        }
        for (itk::SizeValueType i = 0; i < ours->GetNumberOfLabelObjects(); ++i)
        {
          ourSizes.insert(ours->GetNthLabelObject(i)->GetNumberOfPixels());
        }
        check.Equal(ourSizes == refSizes, true, "the kept sizes");
        for (itk::SizeValueType i = 0; i < ref->GetNumberOfLabelObjects(); ++i)
        {
          const auto * object = ref->GetNthLabelObject(i);
          if (object->GetNumberOfPixels() > smallest || refSizes.count(smallest) == 1)
          {
            check.Equal(
              ours->HasLabel(object->GetLabel()), true, "label " + std::to_string(object->GetLabel()) + " kept");
          }
        }
        for (itk::SizeValueType i = 0; i < ours->GetNumberOfLabelObjects(); ++i)
        {
          // Ours: the lowest labels among the tied sizes.
          const auto * object = ours->GetNthLabelObject(i);
          for (itk::SizeValueType j = 0; j < binary->GetOutput()->GetNumberOfLabelObjects(); ++j)
          {
            const auto * other = binary->GetOutput()->GetNthLabelObject(j);
            if (other->GetNumberOfPixels() == object->GetNumberOfPixels() && other->GetLabel() < object->GetLabel())
            {
              check.Equal(ours->HasLabel(other->GetLabel()),
                          true,
                          "a lower label of the same size (" + std::to_string(other->GetLabel()) + ") kept");
            }
          }
        }
      }
    }
    // ShapeOpeningLabelMapFilter on PhysicalSize: objects of at least 2.5 pixels' volume.
    {
      check.Begin(name + " ShapeOpeningLabelMapFilter, backend " + BackendText(backend));
      double pixel = 1;
      for (unsigned int d = 0; d < D; ++d)
      {
        pixel *= image->GetSpacing()[d];
      }
      auto opening = itk::ShapeOpeningLabelMapFilter<MapType>::New();
      opening->SetInput(binary->GetOutput());
      opening->SetAttribute("PhysicalSize");
      opening->SetLambda(2.5 * pixel);
      auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
      filter->SetInput(image);
      filter->SetFullyConnected(full);
      filter->SetMinimumPhysicalSize(2.5 * pixel);
      filter->SetBackend(backend);
      if (Updated([&] { opening->Update(); }, "ShapeOpeningLabelMapFilter", check) &&
          Updated([&] { filter->Update(); }, "our filter", check))
      {
        ccaitktest::CompareLabelMaps(opening->GetOutput(), filter->GetOutput(), scale, check, margins);
      }
    }
  }
}

void
SelectionCases(Checker & check, Margins & margins)
{
  static const std::vector<Geometry> geometries2 = ccaitktest::TestGeometries(2);
  static const std::vector<Geometry> geometries3 = ccaitktest::TestGeometries(3);
  std::uint32_t                      seed = 16000;
  int                                k = 0;
  for (const auto & s : { std::vector<std::int64_t>{ 40, 30 }, std::vector<std::int64_t>{ 70, 45 } })
  {
    for (const double d : { 0.3, 0.55 })
    {
      SelectionCase<2>(ccatest::RandomMask(2, s[0], s[1], 1, d, 1 + k % 2, seed++),
                       geometries2[k % geometries2.size()],
                       k % 2 == 0,
                       check,
                       margins);
      ++k;
    }
  }
  SelectionCase<3>(ccatest::RandomMask(3, 15, 12, 9, 0.25, 1, seed++), geometries3[1], false, check, margins);
  SelectionCase<3>(ccatest::RandomMask(3, 15, 12, 9, 0.2, 2, seed++), geometries3[2], true, check, margins);
}

// ---- LabelStatisticsImageFilter ------------------------------------------------------

template <unsigned int D, typename TIntensity, typename TLabel>
void
ClassicCase(const ccatest::Mask &          shape,
            const Geometry &               geometry,
            const std::vector<long long> & palette,
            int                            g,
            double                         low,
            double                         high,
            bool                           histograms,
            std::uint32_t                  seed,
            Checker &                      check)
{
  using IntensityType = itk::Image<TIntensity, D>;
  using LabelImageType = itk::Image<TLabel, D>;
  const auto        labels = ccaitktest::BlockLabelImage<LabelImageType>(shape, geometry, palette, g, seed);
  const auto        intensity = ccaitktest::RandomValueImage<IntensityType>(shape, geometry, low, high, seed + 1);
  const std::string name = "[classic " + ccatest::SizeText(D, shape.size[0], shape.size[1], shape.size[2]) +
                           " g=" + std::to_string(g) + " seed " + std::to_string(seed) + ", " + geometry.name +
                           ", intensity " + TypeText<TIntensity>() + (histograms ? ", histograms" : "") + "]";
  // Bounds inside the values' range: some values fall outside and are left out.
  const int    bins = 17;
  const double lower = low + (high - low) * 0.1;
  const double upper = high - (high - low) * 0.2;
  auto         reference = itk::LabelStatisticsImageFilter<IntensityType, LabelImageType>::New();
  reference->SetInput(intensity);
  reference->SetLabelInput(labels);
  if (histograms)
  {
    reference->SetHistogramParameters(bins, lower, upper);
  }
  check.Begin(name + " reference");
  if (!Updated([&] { reference->Update(); }, "LabelStatisticsImageFilter", check))
  {
    return;
  }
  for (const BackendEnum backend : Backends)
  {
    check.Begin(name + " backend " + BackendText(backend));
    auto filter = itk::CudaLabelIntensityStatisticsImageFilter<IntensityType, LabelImageType>::New();
    filter->SetInput(intensity);
    filter->SetLabelInput(labels);
    filter->SetBackend(backend);
    if (histograms)
    {
      filter->SetHistogramParameters(bins, lower, upper);
    }
    if (!Updated([&] { filter->Update(); }, "our filter", check))
    {
      continue;
    }
    check.Equal(filter->GetNumberOfLabels(), reference->GetNumberOfLabels(), "GetNumberOfLabels");
    std::vector<TLabel> expected = reference->GetValidLabelValues();
    std::sort(expected.begin(), expected.end());
    check.Equal(filter->GetValidLabelValues() == expected, true, "GetValidLabelValues (sorted)");
    const double eps = std::numeric_limits<double>::epsilon();
    for (const TLabel label : expected)
    {
      const std::string p = "label " + std::to_string(static_cast<long long>(label)) + " ";
      check.Equal(filter->HasLabel(label), true, p + "HasLabel");
      const double n = static_cast<double>(reference->GetCount(label));
      const double m = std::max(std::abs(reference->GetMinimum(label)), std::abs(reference->GetMaximum(label)));
      const double grow = (n + 8) * eps;
      check.Equal(filter->GetCount(label), reference->GetCount(label), p + "GetCount");
      check.Equal(filter->GetMinimum(label), reference->GetMinimum(label), p + "GetMinimum");
      check.Equal(filter->GetMaximum(label), reference->GetMaximum(label), p + "GetMaximum");
      check.Near(filter->GetSum(label), reference->GetSum(label), grow * n * m + 1e-300, p + "GetSum");
      check.Near(filter->GetMean(label), reference->GetMean(label), grow * m + 1e-300, p + "GetMean");
      const double varianceError = n > 1 ? 8 * grow * n * m * m / (n - 1) : 0;
      check.Near(filter->GetVariance(label), reference->GetVariance(label), varianceError + 1e-300, p + "GetVariance");
      if (reference->GetVariance(label) > 4 * varianceError)
      {
        check.Near(filter->GetSigma(label),
                   reference->GetSigma(label),
                   varianceError / reference->GetSigma(label),
                   p + "GetSigma");
      }
      check.Equal(filter->GetBoundingBox(label) == reference->GetBoundingBox(label), true, p + "GetBoundingBox");
      check.Equal(filter->GetRegion(label), reference->GetRegion(label), p + "GetRegion");
      check.Equal(filter->GetMedian(label), reference->GetMedian(label), p + "GetMedian");
      if (histograms)
      {
        const auto hr = reference->GetHistogram(label);
        const auto ho = filter->GetHistogram(label);
        if (!hr || !ho)
        {
          check.Fail(p + "GetHistogram: missing");
          continue;
        }
        check.Equal(ho->Size(), hr->Size(), p + "histogram size");
        for (itk::SizeValueType b = 0; b < hr->Size() && b < ho->Size(); ++b)
        {
          check.Equal(ho->GetFrequency(b), hr->GetFrequency(b), p + "histogram bin " + std::to_string(b));
          check.Equal(ho->GetBinMin(0, b), hr->GetBinMin(0, b), p + "histogram bin min " + std::to_string(b));
        }
      }
    }
    // An absent label gets ITK's defaults.
    TLabel absent = 0;
    while (reference->HasLabel(absent))
    {
      ++absent;
    }
    check.Equal(filter->HasLabel(absent), false, "HasLabel(absent)");
    check.Equal(filter->GetMinimum(absent), reference->GetMinimum(absent), "GetMinimum(absent)");
    check.Equal(filter->GetMaximum(absent), reference->GetMaximum(absent), "GetMaximum(absent)");
    check.Equal(filter->GetMean(absent), reference->GetMean(absent), "GetMean(absent)");
    check.Equal(filter->GetCount(absent), reference->GetCount(absent), "GetCount(absent)");
    check.Equal(filter->GetMedian(absent), reference->GetMedian(absent), "GetMedian(absent)");
    // The output is the input.
    check.Equal(filter->GetOutput()->GetBufferPointer() == intensity->GetBufferPointer(), true, "output buffer");
  }
}

void
ClassicCases(Checker & check)
{
  static const std::vector<Geometry> geometries2 = ccaitktest::TestGeometries(2);
  static const std::vector<Geometry> geometries3 = ccaitktest::TestGeometries(3);
  const std::vector<long long>       small = { 0, 1, 2, 3, 4 };
  const std::vector<long long>       sparse = { 0, -70000, 5, 1LL << 30, 2000000000 };
  std::uint32_t                      seed = 17000;
  int                                k = 0;
  for (const bool histograms : { false, true })
  {
    const ccatest::Mask flat(2, 53, 37, 1, "");
    ClassicCase<2, short, unsigned char>(flat, geometries2[k++ % 5], small, 3, -1000, 3000, histograms, seed++, check);
    ClassicCase<2, float, int>(flat, geometries2[k++ % 5], sparse, 2, -2.5, 7.75, histograms, seed++, check);
    ClassicCase<2, unsigned char, long long>(flat, geometries2[k++ % 5], sparse, 1, 0, 255, histograms, seed++, check);
    const ccatest::Mask deep(3, 17, 12, 9, "");
    ClassicCase<3, double, unsigned short>(deep, geometries3[k++ % 5], small, 2, 100, 101, histograms, seed++, check);
    ClassicCase<3, int, short>(deep, geometries3[k++ % 5], { 0, -3, 8 }, 3, -1e6, 1e6, histograms, seed++, check);
  }
  // The filters of the module reuse one engine result between updates: after
  // CudaLabelStatisticsImageFilter's result of many components, with runs,
  // lines and intensities, the next classic statistics must still be ITK's.
  {
    using ImageType = itk::Image<unsigned char, 3>;
    using FeatureType = itk::Image<float, 3>;
    const ccatest::Mask many = ccatest::RandomMask(3, 60, 50, 40, 0.3, 1, 17100);
    check.Begin("reuse: CudaLabelStatisticsImageFilter first [random 60x50x40 d=0.3 seed 17100]");
    for (const BackendEnum backend : Backends)
    {
      auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
      filter->SetInput(ccaitktest::MakeImage<ImageType>(many, geometries3[0], 255, 0));
      filter->SetFeatureImage(ccaitktest::RandomValueImage<FeatureType>(many, geometries3[0], -5, 5, 17101));
      filter->SetBackend(backend);
      if (Updated([&] { filter->Update(); }, "CudaLabelStatisticsImageFilter", check))
      {
        check.Equal(filter->GetOutput()->GetNumberOfLabelObjects() > 1000u, true, "many components first");
      }
      const ccatest::Mask flat(2, 41, 29, 1, "");
      ClassicCase<2, short, unsigned char>(flat, geometries2[1], small, 4, -100, 300, true, 17102, check);
    }
  }
  // Progress as ITK's filters report it: events that never go back, ending at 1.
  using IntensityType = itk::Image<short, 2>;
  using LabelType = itk::Image<unsigned char, 2>;
  const ccatest::Mask flat(2, 31, 23, 1, "");
  for (const BackendEnum backend : Backends)
  {
    check.Begin(std::string("progress, backend ") + BackendText(backend));
    auto filter = itk::CudaLabelIntensityStatisticsImageFilter<IntensityType, LabelType>::New();
    filter->SetInput(ccaitktest::RandomValueImage<IntensityType>(flat, geometries2[0], 0, 100, 17103));
    filter->SetLabelInput(ccaitktest::BlockLabelImage<LabelType>(flat, geometries2[0], small, 3, 17104));
    filter->SetBackend(backend);
    auto recorder = ccaitktest::ProgressRecorder::New();
    recorder->m_Filter = filter.GetPointer();
    filter->AddObserver(itk::ProgressEvent(), recorder);
    if (Updated([&] { filter->Update(); }, "our filter", check))
    {
      check.Equal(recorder->m_Events > 0, true, "ProgressEvent observed");
      check.Equal(recorder->m_Last, 1.0f, "last progress");
      check.Equal(recorder->m_Monotonic, true, "progress never decreases");
    }
  }
}

// ---- NaN feature values ----------------------------------------------------------

/** A real feature image with NaN values (a resampled image's "no data").
 *  In the background (the first pixel always, where the histogram's range
 *  once started, then the given share of the others) against
 *  BinaryImageToStatisticsLabelMapFilter: the range passes NaN over, so
 *  every attribute is ITK's. Inside objects ITK 5.2 cannot be the
 *  reference (vnl's eigensystem aborts the process on the NaN weighted
 *  moments): our filter must still run and leave NaN out of the extremes
 *  (the engine's tests check every value against ITK's rules). */
template <unsigned int D, typename TFeature>
void
NanCase(ccatest::Mask mask, double share, bool full, std::uint32_t seed, Checker & check, Margins & margins)
{
  using ImageType = itk::Image<unsigned char, D>;
  using FeatureType = itk::Image<TFeature, D>;
  mask.on[0] = 0; // the first pixel is background
  const Geometry              identity = ccaitktest::IdentityGeometry();
  const auto                  image = ccaitktest::MakeImage<ImageType>(mask, identity, 255, 0);
  const auto                  feature = ccaitktest::RandomValueImage<FeatureType>(mask, identity, -5, 20, seed);
  const auto                  inside = ccaitktest::RandomValueImage<FeatureType>(mask, identity, -5, 20, seed);
  std::mt19937_64             rng(seed + 1);
  std::bernoulli_distribution isNan(share);
  TFeature *                  background = feature->GetBufferPointer();
  TFeature *                  anywhere = inside->GetBufferPointer();
  for (std::size_t p = 0; p < mask.on.size(); ++p)
  {
    const bool nan = p == 0 || isNan(rng);
    if (nan && mask.on[p] == 0)
    {
      background[p] = std::numeric_limits<TFeature>::quiet_NaN();
    }
    if (nan)
    {
      anywhere[p] = std::numeric_limits<TFeature>::quiet_NaN();
    }
  }
  const std::string name = "[NaN, " + mask.name + ", feature " + TypeText<TFeature>() + ", share " +
                           std::to_string(share) + (full ? ", full" : ", face") + " seed " + std::to_string(seed) + "]";
  CompareWithBinaryStatistics(
    image.GetPointer(), feature.GetPointer(), full, name + " in the background", check, margins);
  for (const BackendEnum backend : Backends)
  {
    auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
    filter->SetInput(image);
    filter->SetFullyConnected(full);
    filter->SetBackend(backend);
    check.Begin(name + " inside objects, backend " + BackendText(backend));
    filter->SetFeatureImage(inside);
    if (Updated([&] { filter->Update(); }, "our filter", check))
    {
      for (const auto & object : filter->GetOutput()->GetLabelObjects())
      {
        const std::string p = "label " + std::to_string(static_cast<long long>(object->GetLabel())) + " ";
        check.Equal(std::isnan(object->GetMinimum()) || std::isnan(object->GetMaximum()), false, p + "NaN extreme");
        check.Equal(object->GetMinimum() <= object->GetMaximum() ||
                      object->GetMinimum() == static_cast<double>(std::numeric_limits<TFeature>::max()),
                    true,
                    p + "extremes in order (or ITK's starting values)");
      }
    }
  }
}

void
NanCases(Checker & check, Margins & margins)
{
  std::uint32_t seed = 17000;
  for (const double share : { 0.05, 0.6 })
  {
    for (int k = 0; k < 3; ++k)
    {
      const ccatest::Mask plane = ccatest::RandomMask(2, 37 + 20 * k, 23, 1, 0.4, 1, seed++);
      NanCase<2, float>(plane, share, k % 2 == 1, seed++, check, margins);
      NanCase<2, double>(plane, share, k % 2 == 0, seed++, check, margins);
      const ccatest::Mask volume = ccatest::RandomMask(3, 9 + 4 * k, 7, 5, 0.4, 1, seed++);
      NanCase<3, float>(volume, share, k % 2 == 0, seed++, check, margins);
      NanCase<3, double>(volume, share, k % 2 == 1, seed++, check, margins);
    }
  }
}

// ---- errors ----------------------------------------------------------------------

void
ExpectException(Checker &                     check,
                const std::string &           what,
                const std::function<void()> & update,
                const std::string &           expected)
{
  check.Begin("errors: " + what);
  try
  {
    update();
    check.Fail("no exception");
  }
  catch (const itk::ExceptionObject & e)
  {
    const std::string description = e.GetDescription();
    if (description.find(expected) == std::string::npos)
    {
      check.Fail("the message \"" + description + "\" does not say \"" + expected + "\"");
    }
  }
}

void
ErrorCases(Checker & check)
{
  using ImageType = itk::Image<unsigned char, 2>;
  using FeatureType = itk::Image<float, 2>;
  const ccatest::Mask mask = ccatest::RandomMask(2, 20, 15, 1, 0.5, 1, 1);
  const ccatest::Mask other = ccatest::RandomMask(2, 20, 16, 1, 0.5, 1, 1);
  const Geometry      identity = ccaitktest::IdentityGeometry();
  const auto          image = ccaitktest::MakeImage<ImageType>(mask, identity, 255, 0);
  auto                filterWith = [&](const itk::ImageBase<2> * feature) {
    auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
    filter->SetInput(image);
    filter->SetFeatureImage(feature);
    filter->SetBackend(BackendEnum::CPU);
    return filter;
  };
  const auto wrongSize = ccaitktest::RandomValueImage<FeatureType>(other, identity, 0, 1, 1);
  ExpectException(
    check, "a feature image of another size", [&] { filterWith(wrongSize)->Update(); }, "region");
  Geometry shifted = identity;
  shifted.index[0] = 3;
  const auto wrongRegion = ccaitktest::RandomValueImage<FeatureType>(mask, shifted, 0, 1, 1);
  ExpectException(
    check, "a feature image of another region", [&] { filterWith(wrongRegion)->Update(); }, "region");
  Geometry spaced = identity;
  spaced.spacing[1] = 2;
  const auto wrongSpacing = ccaitktest::RandomValueImage<FeatureType>(mask, spaced, 0, 1, 1);
  ExpectException(
    check, "a feature image of another spacing", [&] { filterWith(wrongSpacing)->Update(); }, "physical space");
  Geometry moved = identity;
  moved.origin[0] = 0.75;
  const auto wrongOrigin = ccaitktest::RandomValueImage<FeatureType>(mask, moved, 0, 1, 1);
  ExpectException(
    check, "a feature image of another origin", [&] { filterWith(wrongOrigin)->Update(); }, "physical space");
  Geometry turned = identity;
  ccaitktest::RotationMatrix(0.3, std::vector<double>{ 0, 0, 1 }.data(), turned.direction);
  const auto wrongDirection = ccaitktest::RandomValueImage<FeatureType>(mask, turned, 0, 1, 1);
  ExpectException(
    check, "a feature image of another direction", [&] { filterWith(wrongDirection)->Update(); }, "physical space");
  const auto good = ccaitktest::RandomValueImage<FeatureType>(mask, identity, 0, 1, 1);
  ExpectException(
    check,
    "NumberOfBins 0",
    [&] {
      auto filter = filterWith(good);
      filter->SetNumberOfBins(0);
      filter->Update();
    },
    "NumberOfBins");
  using VectorFeature = itk::Image<itk::Vector<float, 2>, 2>;
  auto vectors = VectorFeature::New();
  vectors->CopyInformation(image);
  vectors->SetRegions(image->GetLargestPossibleRegion());
  vectors->Allocate();
  ExpectException(
    check, "a vector feature image", [&] { filterWith(vectors)->Update(); }, "scalar");
  // Label values beyond the output's label type: 300 into unsigned char labels, -2 into unsigned ones.
  using WideLabels = itk::Image<short, 2>;
  const auto wide = ccaitktest::BlockLabelImage<WideLabels>(mask, identity, { 0, 5, 300 }, 2, 3);
  ExpectException(
    check,
    "a label beyond the output label type",
    [&] {
      using SmallMap = itk::LabelMap<itk::StatisticsLabelObject<unsigned char, 2>>;
      auto filter = itk::CudaLabelStatisticsImageFilter<WideLabels, SmallMap>::New();
      filter->SetInput(wide);
      filter->SetObjects(ObjectsEnum::LabelValues);
      filter->SetInputBackgroundValue(0);
      filter->SetOutputBackgroundValue(0);
      filter->SetBackend(BackendEnum::CPU);
      filter->Update();
    },
    "cannot be a label");
  // The same with the label image: its objects are then built while the
  // engine copies the label image (Options::objectsReady), and their error
  // still reaches the caller, the label image emptied.
  for (const auto backend : { BackendEnum::CPU, BackendEnum::Auto })
  {
    using SmallMap = itk::LabelMap<itk::StatisticsLabelObject<unsigned char, 2>>;
    auto filter = itk::CudaLabelStatisticsImageFilter<WideLabels, SmallMap>::New();
    ExpectException(
      check,
      std::string("a label beyond the output label type, with the label image, backend ") +
        (backend == BackendEnum::CPU ? "CPU" : "Auto"),
      [&] {
        filter->SetInput(wide);
        filter->SetObjects(ObjectsEnum::LabelValues);
        filter->SetInputBackgroundValue(0);
        filter->SetOutputBackgroundValue(0);
        filter->SetBackend(backend);
        filter->ComputeLabelImageOn();
        filter->Update();
      },
      "cannot be a label");
    check.Begin("errors: the label image emptied after an error of the objects");
    if (filter->GetLabelImage()->GetBufferPointer() != nullptr)
    {
      check.Fail("the label image still holds a buffer");
    }
  }
  const auto negative = ccaitktest::BlockLabelImage<WideLabels>(mask, identity, { 0, 5, -2 }, 2, 3);
  ExpectException(
    check,
    "a negative label into unsigned labels",
    [&] {
      auto filter = itk::CudaLabelStatisticsImageFilter<WideLabels>::New();
      filter->SetInput(negative);
      filter->SetObjects(ObjectsEnum::LabelValues);
      filter->SetInputBackgroundValue(0);
      filter->SetOutputBackgroundValue(0);
      filter->SetBackend(BackendEnum::CPU);
      filter->Update();
    },
    "cannot be a label");
  ExpectException(
    check,
    "label values with a pixel labeling",
    [&] {
      auto filter = itk::CudaLabelStatisticsImageFilter<WideLabels>::New();
      filter->SetInput(wide);
      filter->SetObjects(ObjectsEnum::LabelValues);
      filter->SetAlgorithm(itk::CudaLabelStatisticsEnums::Algorithm::DLP);
      filter->Update();
    },
    "full-run");
  ExpectException(
    check,
    "size limits that remove everything",
    [&] {
      auto filter = itk::CudaLabelStatisticsImageFilter<ImageType>::New();
      filter->SetInput(image);
      filter->SetMinimumObjectSize(10);
      filter->SetMaximumObjectSize(5);
      filter->Update();
    },
    "remove every object");
  // CudaLabelIntensityStatisticsImageFilter on CUDA where none can be used:
  // the message says so (with a device, on one that does not exist).
  {
    using IntensityFilter = itk::CudaLabelIntensityStatisticsImageFilter<FeatureType, ImageType>;
    const bool cuda = IntensityFilter::IsCudaAvailable();
    ExpectException(
      check,
      cuda ? "LabelStatistics on CUDA device 97, which does not exist" : "LabelStatistics on CUDA without a device",
      [&] {
        auto filter = IntensityFilter::New();
        filter->SetInput(good);
        filter->SetLabelInput(image);
        filter->SetBackend(BackendEnum::CUDA);
        filter->SetCudaDevice(cuda ? 97 : -1);
        filter->Update();
      },
      cuda ? "97" : "no CUDA device");
  }
  // A feature image on a label map without intensity attributes.
  ExpectException(
    check,
    "a feature image with shape label objects",
    [&] {
      using ShapeMap = itk::LabelMap<itk::ShapeLabelObject<itk::SizeValueType, 2>>;
      auto filter = itk::CudaLabelStatisticsImageFilter<ImageType, ShapeMap>::New();
      filter->SetInput(image);
      filter->SetFeatureImage(good);
      filter->Update();
    },
    "no intensity attributes");
}

} // namespace

int
itkCudaLabelStatisticsIntensityTest(int argc, char * argv[])
{
  if (argc < 2)
  {
    std::cerr << "usage: " << argv[0] << " binary2D|binary3D|labels|components|selection|classic|nan|errors\n";
    return EXIT_FAILURE;
  }
  const std::string which = argv[1];
  const auto        start = std::chrono::steady_clock::now();
  Checker           check;
  Margins           margins;
  if (which == "binary2D")
  {
    BinaryCases<2>(check, margins);
  }
  else if (which == "binary3D")
  {
    BinaryCases<3>(check, margins);
  }
  else if (which == "labels")
  {
    LabelCases(check, margins);
  }
  else if (which == "components")
  {
    ComponentCases(check, margins);
  }
  else if (which == "selection")
  {
    SelectionCases(check, margins);
  }
  else if (which == "classic")
  {
    ClassicCases(check);
  }
  else if (which == "errors")
  {
    ErrorCases(check);
  }
  else if (which == "nan")
  {
    NanCases(check, margins);
  }
  else
  {
    std::cerr << "unknown case list " << which << "\n";
    return EXIT_FAILURE;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << which << ": " << check.Cases() << " comparisons, " << check.FailedCases() << " failed, " << seconds
            << " s\n";
  margins.Print(std::cout);
  return check.FailedCases() == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
