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
// Our output is an ordinary itk::LabelMap (its objects made in parallel and
// inserted by another thread): ITK 5.2.1's own label map filters take it and
// give what they give on BinaryImageToShapeLabelMapFilter's map of the same
// image: LabelMapToLabelImageFilter (and our label image), ShapeLabelMapFilter
// recomputing the attributes, ShapeOpeningLabelMapFilter,
// ShapeRelabelLabelMapFilter, ChangeLabelLabelMapFilter,
// AggregateLabelMapFilter, and a graft. Masks with thousands of objects (many
// chunks of the parallel build), 2D and 3D, with 1, 2 and 5 threads, the
// objects appended to the map's container (the builder's way for these map
// types) and, with 1 thread, added through AddLabelObject. The builder's
// insertion itself, both ways, on labels out of order and repeated, must
// leave the map AddLabelObject leaves. The
// objects, made without asking ITK's object factories, are label objects of
// the map's class to ITK (name, Clone(), CopyAllFrom()); and when a factory registered in
// the process overrides that class, every object comes from the factory.
#include "itkCudaLabelStatisticsImageFilter.h"
#include "itkCudaLabelStatisticsTestUtilities.h"

#include "itkAggregateLabelMapFilter.h"
#include "itkBinaryImageToShapeLabelMapFilter.h"
#include "itkChangeLabelLabelMapFilter.h"
#include "itkImageRegionConstIterator.h"
#include "itkLabelMapToLabelImageFilter.h"
#include "itkObjectFactoryBase.h"
#include "itkVersion.h"
#include "itkShapeLabelMapFilter.h"
#include "itkShapeOpeningLabelMapFilter.h"
#include "itkShapeRelabelLabelMapFilter.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <typeinfo>
#include <vector>

namespace
{

using ccaitktest::Checker;

/** Label, size and bounding box of every object, in label order, must agree. */
template <typename TGot, typename TExpected>
void
SameObjects(const TGot * got, const TExpected * expected, Checker & check, const std::string & what)
{
  check.Equal(got->GetNumberOfLabelObjects(), expected->GetNumberOfLabelObjects(), what + ": object count");
  typename TGot::ConstIterator      a(got);
  typename TExpected::ConstIterator b(expected);
  for (; !a.IsAtEnd() && !b.IsAtEnd() && !check.CaseFailed(); ++a, ++b)
  {
    const std::string label = what + ", label " + std::to_string(a.GetLabel());
    check.Equal(a.GetLabel(), b.GetLabel(), label + ": label");
    check.Equal(a.GetLabelObject()->GetNumberOfPixels(), b.GetLabelObject()->GetNumberOfPixels(), label + ": pixels");
    check.Equal(a.GetLabelObject()->GetBoundingBox(), b.GetLabelObject()->GetBoundingBox(), label + ": box");
    check.Equal(a.GetLabelObject()->GetNumberOfLines(), b.GetLabelObject()->GetNumberOfLines(), label + ": lines");
  }
}

/** Our objects are made without New(): to ITK they must still be objects of
 *  the map's class: its name, Clone() making one, and CopyAllFrom() (which
 *  ITK's label map filters use, through a dynamic_cast to the class) taking
 *  every attribute. */
template <typename TMap>
void
SameClassAndClones(const TMap * map, Checker & check)
{
  using ObjectType = typename TMap::LabelObjectType;
  const std::string expectedName = ObjectType::New()->GetNameOfClass();
  for (typename TMap::ConstIterator it(map); !it.IsAtEnd() && !check.CaseFailed(); ++it)
  {
    const ObjectType * object = it.GetLabelObject();
    const std::string  label = "label " + std::to_string(it.GetLabel());
    check.Equal(std::string(object->GetNameOfClass()), expectedName, label + ": class name");
    const itk::LightObject::Pointer clone = object->Clone();
    check.Equal(std::string(typeid(*clone).name()), std::string(typeid(ObjectType).name()), label + ": clone's class");
    const typename ObjectType::Pointer copy = ObjectType::New();
    copy->CopyAllFrom(object);
    check.Equal(copy->GetLabel(), object->GetLabel(), label + ": copy's label");
    check.Equal(copy->GetNumberOfLines(), object->GetNumberOfLines(), label + ": copy's lines");
    check.Equal(copy->GetNumberOfPixels(), object->GetNumberOfPixels(), label + ": copy's pixels");
    check.Equal(copy->GetBoundingBox(), object->GetBoundingBox(), label + ": copy's box");
    check.Equal(copy->GetCentroid(), object->GetCentroid(), label + ": copy's centroid");
    check.Equal(copy->GetPerimeter(), object->GetPerimeter(), label + ": copy's perimeter");
  }
}

/** A label object class that a factory puts in place of TBase. */
template <typename TBase>
class OverridingLabelObject : public TBase
{
public:
  using Self = OverridingLabelObject;
  using Pointer = itk::SmartPointer<Self>;
  itkNewMacro(Self);
};

/** The factory: overrides TBase with OverridingLabelObject<TBase>. */
template <typename TBase>
class LabelObjectOverrideFactory : public itk::ObjectFactoryBase
{
public:
  using Self = LabelObjectOverrideFactory;
  using Pointer = itk::SmartPointer<Self>;
  itkFactorylessNewMacro(Self);

  const char *
  GetITKSourceVersion() const override
  {
    return ITK_SOURCE_VERSION;
  }
  const char *
  GetDescription() const override
  {
    return "test: a label object class in place of ITK's";
  }

protected:
  LabelObjectOverrideFactory()
  {
    this->RegisterOverride(typeid(TBase).name(),
                           typeid(OverridingLabelObject<TBase>).name(),
                           "test override",
                           true,
                           itk::CreateObjectFunction<OverridingLabelObject<TBase>>::New());
  }
};

/** With a factory in the process that overrides the map's label object
 *  class, every one of our objects comes from it, as from ITK's own filter. */
template <unsigned int D>
void
FactoryOverride(const ccatest::Mask & mask, Checker & check)
{
  using ImageType = itk::Image<unsigned char, D>;
  using OursType = itk::CudaLabelStatisticsImageFilter<ImageType>;
  using MapType = typename OursType::OutputImageType;
  using ObjectType = typename MapType::LabelObjectType;
  check.Begin(std::to_string(D) + "D, a factory overrides the label object class");
  const auto image = ccaitktest::MakeImage<ImageType>(mask, ccaitktest::TestGeometries(D)[0], 255, 0);
  auto       factory = LabelObjectOverrideFactory<ObjectType>::New();
  itk::ObjectFactoryBase::RegisterFactory(factory);
  auto ours = OursType::New();
  ours->SetInput(image);
  ours->GetMultiThreader()->SetMaximumNumberOfThreads(3);
  auto reference = itk::BinaryImageToShapeLabelMapFilter<ImageType, MapType>::New();
  reference->SetInput(image);
  try
  {
    ours->Update();
    reference->Update();
  }
  catch (...)
  {
    itk::ObjectFactoryBase::UnRegisterFactory(factory);
    throw;
  }
  itk::ObjectFactoryBase::UnRegisterFactory(factory);
  SameObjects(ours->GetOutput(), reference->GetOutput(), check, "our map");
  itk::SizeValueType overridden = 0;
  for (typename MapType::ConstIterator it(ours->GetOutput()); !it.IsAtEnd(); ++it)
  {
    overridden += dynamic_cast<const OverridingLabelObject<ObjectType> *>(it.GetLabelObject()) != nullptr;
  }
  check.Equal(overridden, ours->GetOutput()->GetNumberOfLabelObjects(), "objects made by the factory");
  const typename ObjectType::Pointer after = ObjectType::New();
  check.Equal(dynamic_cast<OverridingLabelObject<ObjectType> *>(after.GetPointer()) == nullptr,
              true,
              "New() after the factory is unregistered");
}

template <typename TImage>
void
SameImages(const TImage * got, const TImage * expected, Checker & check, const std::string & what)
{
  check.Equal(got->GetBufferedRegion(), expected->GetBufferedRegion(), what + ": region");
  if (check.CaseFailed())
  {
    return;
  }
  itk::ImageRegionConstIterator<TImage> a(got, got->GetBufferedRegion());
  itk::ImageRegionConstIterator<TImage> b(expected, expected->GetBufferedRegion());
  std::int64_t                          differ = 0;
  for (; !a.IsAtEnd(); ++a, ++b)
  {
    differ += a.Get() != b.Get() ? 1 : 0;
  }
  check.Equal(differ, std::int64_t{ 0 }, what + ": differing pixels");
}

/** The builder's insertion (InsertBlock), appending to the container or
 *  through AddLabelObject, against AddLabelObject itself: labels out of
 *  order, a label repeated (the later object replaces the earlier), blocks
 *  shorter and longer than one: the same objects under the same labels, and
 *  the map modified. */
template <typename TMap>
void
InsertionAsAddLabelObject(bool append, Checker & check)
{
  using Builder = itk::CudaLabelStatisticsLabelMapBuilder<TMap>;
  using ObjectType = typename TMap::LabelObjectType;
  check.Begin(std::string("the builder's insertion, ") + (append ? "appended" : "AddLabelObject") + ", " +
              std::to_string(TMap::ImageDimension) + "D");
  const std::vector<typename TMap::LabelType> labels{ 3, 4, 9, 2, 9, 100, 50, 101, 102, 1, 7, 200 };
  std::vector<typename ObjectType::Pointer>   objects;
  for (const auto label : labels)
  {
    objects.push_back(ObjectType::New());
    objects.back()->SetLabel(label);
  }
  auto expected = TMap::New();
  for (const auto & object : objects)
  {
    expected->AddLabelObject(object);
  }

  Builder::SetAppendToContainer(append);
  auto got = TMap::New();
  check.Equal(Builder::AppendableContainer(got.GetPointer()) != nullptr, append, "the container is appended to");
  const auto                                before = got->GetMTime();
  std::vector<typename ObjectType::Pointer> block = objects;
  const auto                                fullOrder = Builder::BalancedOrder(5);
  for (std::size_t begin = 0; begin < block.size(); begin += 5)
  {
    const auto count = static_cast<itk::SizeValueType>(std::min<std::size_t>(5, block.size() - begin));
    Builder::InsertBlock(got.GetPointer(), block.data() + begin, count, fullOrder);
  }
  Builder::SetAppendToContainer(true);
  check.Equal(got->GetMTime() > before, true, "modified");
  check.Equal(got->GetNumberOfLabelObjects(), expected->GetNumberOfLabelObjects(), "object count");
  typename TMap::ConstIterator a(got);
  typename TMap::ConstIterator b(expected);
  for (; !a.IsAtEnd() && !b.IsAtEnd(); ++a, ++b)
  {
    check.Equal(a.GetLabel(), b.GetLabel(), "label");
    check.Equal(a.GetLabelObject() == b.GetLabelObject(), true, "label " + std::to_string(a.GetLabel()) + ": object");
  }
  for (const auto & object : block)
  {
    check.Equal(object.IsNull(), true, "the block's pointers released");
  }
  check.Equal(got->GetLabelObject(9) == objects[4].GetPointer(), true, "the repeated label's later object");
}

template <unsigned int D>
void
Case(const ccatest::Mask & mask, int threads, bool full, bool append, Checker & check)
{
  using ImageType = itk::Image<unsigned char, D>;
  using OursType = itk::CudaLabelStatisticsImageFilter<ImageType>;
  using MapType = typename OursType::OutputImageType;
  using LabelImageType = typename OursType::LabelImageType;
  using Builder = itk::CudaLabelStatisticsLabelMapBuilder<MapType>;
  const std::string context = std::to_string(D) + "D " + std::to_string(mask.size[0]) + "x" +
                              std::to_string(mask.size[1]) + "x" + std::to_string(mask.size[2]) + ", " +
                              std::to_string(threads) + " threads" + (full ? ", full" : ", face") +
                              (append ? ", appended" : ", AddLabelObject");
  check.Begin(context);
  const auto image = ccaitktest::MakeImage<ImageType>(mask, ccaitktest::TestGeometries(D)[1], 255, 0);

  auto ours = OursType::New();
  ours->SetInput(image);
  ours->SetFullyConnected(full);
  ours->SetComputeLabelImage(true);
  ours->GetMultiThreader()->SetMaximumNumberOfThreads(threads);
  Builder::SetAppendToContainer(append);
  check.Equal(Builder::AppendableContainer(ours->GetOutput()) != nullptr, append, "the container is appended to");
  try
  {
    ours->Update();
  }
  catch (...)
  {
    Builder::SetAppendToContainer(true);
    throw;
  }
  Builder::SetAppendToContainer(true);
  auto reference = itk::BinaryImageToShapeLabelMapFilter<ImageType, MapType>::New();
  reference->SetInput(image);
  reference->SetFullyConnected(full);
  reference->Update();
  const MapType * map = ours->GetOutput();
  const MapType * itkMap = reference->GetOutput();
  SameObjects(map, itkMap, check, "our map");
  if (map->GetNumberOfLabelObjects() < 2 * itk::CudaLabelStatisticsLabelMapBuilder<MapType>::ChunkObjects)
  {
    check.Fail("the mask has too few objects to fill several chunks of the parallel build");
  }
  SameClassAndClones(map, check);

  // Back to a label image: the same as our label image and as ITK's map's.
  using ToImage = itk::LabelMapToLabelImageFilter<MapType, LabelImageType>;
  auto fromOurs = ToImage::New();
  fromOurs->SetInput(map);
  fromOurs->Update();
  auto fromItk = ToImage::New();
  fromItk->SetInput(itkMap);
  fromItk->Update();
  SameImages(fromOurs->GetOutput(), fromItk->GetOutput(), check, "LabelMapToLabelImageFilter");
  SameImages(fromOurs->GetOutput(), ours->GetLabelImage(), check, "LabelMapToLabelImageFilter against our label image");

  // ShapeLabelMapFilter recomputes every attribute of our objects from their
  // lines, on a copy: they must be what we computed.
  auto shapes = itk::ShapeLabelMapFilter<MapType>::New();
  shapes->SetInput(map);
  shapes->SetInPlace(false);
  shapes->SetComputePerimeter(true);
  shapes->Update();
  typename MapType::ConstIterator recomputed(shapes->GetOutput());
  typename MapType::ConstIterator original(map);
  for (; !recomputed.IsAtEnd() && !original.IsAtEnd() && !check.CaseFailed(); ++recomputed, ++original)
  {
    const auto *      a = recomputed.GetLabelObject();
    const auto *      b = original.GetLabelObject();
    const std::string label = "ShapeLabelMapFilter on our map, label " + std::to_string(recomputed.GetLabel());
    check.Equal(a->GetNumberOfPixels(), b->GetNumberOfPixels(), label + ": pixels");
    check.Equal(a->GetNumberOfPixelsOnBorder(), b->GetNumberOfPixelsOnBorder(), label + ": pixels on border");
    check.Relative(a->GetPhysicalSize(), b->GetPhysicalSize(), 1e-9, label + ": physical size");
    check.Relative(a->GetPerimeter(), b->GetPerimeter(), 1e-9, label + ": perimeter");
    for (unsigned int i = 0; i < D; ++i)
    {
      check.Relative(a->GetCentroid()[i], b->GetCentroid()[i], 1e-9, label + ": centroid", 1e-6);
      check.Relative(
        a->GetPrincipalMoments()[i], b->GetPrincipalMoments()[i], 1e-9, label + ": principal moment", 1e-9);
    }
  }

  // Opening by size and relabeling by size: the same objects as on ITK's map.
  using Opening = itk::ShapeOpeningLabelMapFilter<MapType>;
  auto openOurs = Opening::New();
  openOurs->SetInput(map);
  openOurs->SetAttribute("NumberOfPixels");
  openOurs->SetLambda(4);
  openOurs->SetInPlace(false);
  openOurs->Update();
  auto openItk = Opening::New();
  openItk->SetInput(itkMap);
  openItk->SetAttribute("NumberOfPixels");
  openItk->SetLambda(4);
  openItk->SetInPlace(false);
  openItk->Update();
  SameObjects(openOurs->GetOutput(), openItk->GetOutput(), check, "ShapeOpeningLabelMapFilter");

  using Relabel = itk::ShapeRelabelLabelMapFilter<MapType>;
  auto relabelOurs = Relabel::New();
  relabelOurs->SetInput(map);
  relabelOurs->SetAttribute("NumberOfPixels");
  relabelOurs->SetInPlace(false);
  relabelOurs->Update();
  auto relabelItk = Relabel::New();
  relabelItk->SetInput(itkMap);
  relabelItk->SetAttribute("NumberOfPixels");
  relabelItk->SetInPlace(false);
  relabelItk->Update();
  SameObjects(relabelOurs->GetOutput(), relabelItk->GetOutput(), check, "ShapeRelabelLabelMapFilter");

  // A label changed, all objects aggregated into one.
  auto change = itk::ChangeLabelLabelMapFilter<MapType>::New();
  change->SetInput(map);
  change->SetChange(1, 1000000);
  change->SetInPlace(false);
  change->Update();
  check.Equal(change->GetOutput()->HasLabel(1000000), true, "ChangeLabelLabelMapFilter: the new label");
  check.Equal(change->GetOutput()->HasLabel(1), false, "ChangeLabelLabelMapFilter: the old label");
  check.Equal(change->GetOutput()->GetNumberOfLabelObjects(),
              map->GetNumberOfLabelObjects(),
              "ChangeLabelLabelMapFilter: object count");
  auto aggregate = itk::AggregateLabelMapFilter<MapType>::New();
  aggregate->SetInput(map);
  aggregate->SetInPlace(false);
  aggregate->Update();
  itk::SizeValueType foreground = 0;
  for (typename MapType::ConstIterator it(itkMap); !it.IsAtEnd(); ++it)
  {
    foreground += it.GetLabelObject()->GetNumberOfPixels();
  }
  check.Equal(aggregate->GetOutput()->GetNumberOfLabelObjects(),
              itk::SizeValueType{ 1 },
              "AggregateLabelMapFilter: object count");
  if (aggregate->GetOutput()->GetNumberOfLabelObjects() == 1)
  {
    check.Equal(aggregate->GetOutput()->GetNthLabelObject(0)->Size(), foreground, "AggregateLabelMapFilter: pixels");
  }

  // Grafted into another map, it stays whole once our filter is gone.
  auto grafted = MapType::New();
  grafted->Graft(map);
  ours = nullptr;
  SameObjects(grafted.GetPointer(), itkMap, check, "grafted map");
}

} // namespace

int
itkCudaLabelStatisticsLabelMapFiltersTest(int, char *[])
{
  // The filter's maps are appended to; a map of signed labels is not.
  using Map2 = itk::CudaLabelStatisticsImageFilter<itk::Image<unsigned char, 2>>::OutputImageType;
  using Map3 = itk::CudaLabelStatisticsImageFilter<itk::Image<unsigned char, 3>>::OutputImageType;
  using SignedMap = itk::LabelMap<itk::ShapeLabelObject<int, 2>>;
  static_assert(
    itk::CudaLabelStatisticsLabelObjectContainer<Map2>::Listed &&
      itk::CudaLabelStatisticsLabelObjectContainer<Map3>::Listed &&
      itk::CudaLabelStatisticsLabelObjectContainer<itk::LabelMap<itk::ShapeLabelObject<unsigned, 3>>>::Listed,
    "the filter's label map types are appended to");
  static_assert(!itk::CudaLabelStatisticsLabelObjectContainer<SignedMap>::Listed, "signed labels are not listed");

  Checker check;
  for (const bool append : { true, false })
  {
    InsertionAsAddLabelObject<Map2>(append, check);
    InsertionAsAddLabelObject<Map3>(append, check);
    InsertionAsAddLabelObject<itk::LabelMap<itk::ShapeLabelObject<unsigned short, 2>>>(append, check);
  }
  for (int threads : { 1, 2, 5 })
  {
    const bool append = threads != 1;
    // Thousands of small objects: the parallel build takes many chunks.
    Case<2>(ccatest::RandomMask(2, 300, 200, 1, 0.35, 1, 70 + threads), threads, threads == 2, append, check);
    // Sparser with full connectivity, which joins more pixels.
    const bool full = threads != 2;
    Case<3>(ccatest::RandomMask(3, 48, 40, 30, full ? 0.08 : 0.2, 1, 90 + threads), threads, full, append, check);
  }
  FactoryOverride<2>(ccatest::RandomMask(2, 200, 150, 1, 0.35, 1, 80), check);
  FactoryOverride<3>(ccatest::RandomMask(3, 30, 30, 20, 0.2, 1, 81), check);
  std::cout << check.Cases() - check.FailedCases() << " of " << check.Cases() << " cases passed" << std::endl;
  return check.FailedCases() == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
