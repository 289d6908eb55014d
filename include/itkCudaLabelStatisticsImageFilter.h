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
#ifndef itkCudaLabelStatisticsImageFilter_h
#define itkCudaLabelStatisticsImageFilter_h

#include "itkCudaLabelStatisticsEnums.h"
#include "itkImageBase.h"
#include "itkImageToImageFilter.h"
#include "itkLabelMap.h"
#include "itkStatisticsLabelObject.h"

#include "cca/Engine.h"
#include "cca/Types.h"

#include <memory>
#include <type_traits>
#include <vector>

namespace itk
{

/** \class CudaLabelStatisticsImageFilter
 * \brief Labels the connected components of a binary image on the GPU (or the
 * CPU) and returns a LabelMap whose label objects carry ITK's shape attributes.
 *
 * The result equals BinaryImageToShapeLabelMapFilter's: the same objects,
 * numbered the same way (raster order of each object's first pixel), with the
 * same run-length lines and every ShapeLabelObject attribute (NumberOfPixels,
 * PhysicalSize, Centroid, BoundingBox, NumberOfPixelsOnBorder,
 * PerimeterOnBorder, FeretDiameter, PrincipalMoments, PrincipalAxes,
 * Elongation, Perimeter, Roundness, EquivalentSphericalRadius,
 * EquivalentSphericalPerimeter, EquivalentEllipsoidDiameter, Flatness,
 * PerimeterOnBorderRatio, OrientedBoundingBox).
 *
 * Labeling and the exact integer moments of each component are computed by
 * the cca engine (CUDA or CPU backend); this filter converts them with ITK's
 * formulas. The second output, the label image as ConnectedComponentImageFilter
 * gives it, is computed only when ComputeLabelImage is on.
 *
 * With a feature image (SetFeatureImage, any scalar pixel type, the input's
 * region and pixel grid) every object also gets StatisticsLabelMapFilter's
 * intensity attributes (Minimum, Maximum, Mean, Sum, StandardDeviation,
 * Variance, Median, Skewness, Kurtosis, MinimumIndex, MaximumIndex,
 * CenterOfGravity, WeightedPrincipalMoments, WeightedPrincipalAxes,
 * WeightedElongation, WeightedFlatness, Histogram), as
 * BinaryImageToStatisticsLabelMapFilter and LabelImageToStatisticsLabelMapFilter
 * compute them. With Objects LabelValues the input is a label image whose
 * values are the objects (LabelImageToShapeLabelMapFilter); with
 * LabelValueComponents, the connected components of each value. Objects can
 * be selected by size and numbered by decreasing size (MinimumObjectSize,
 * MaximumObjectSize, their physical twins, NumberOfObjectsToKeep,
 * SortObjectsBySize) on the device, before anything is copied.
 *
 * While it builds a map of 65536 objects or more, the filter has glibc's
 * malloc grow the heaps of threads 64 MiB at a time (its M_TOP_PAD), since
 * the default's page-by-page growth serializes the threads that make the
 * objects; cca::MallocHeapSteps says what that costs the process. Setting
 * CCA_KEEP_MALLOC_SETTINGS=1, or any glibc.malloc tunable in GLIBC_TUNABLES,
 * in the environment leaves the process's malloc as it is.
 *
 * \ingroup CudaLabelStatistics
 */
template <typename TInputImage,
          typename TOutputImage = LabelMap<StatisticsLabelObject<SizeValueType, TInputImage::ImageDimension>>>
class ITK_TEMPLATE_EXPORT CudaLabelStatisticsImageFilter : public ImageToImageFilter<TInputImage, TOutputImage>
{
public:
  ITK_DISALLOW_COPY_AND_MOVE(CudaLabelStatisticsImageFilter);

  using Self = CudaLabelStatisticsImageFilter;
  using Superclass = ImageToImageFilter<TInputImage, TOutputImage>;
  using Pointer = SmartPointer<Self>;
  using ConstPointer = SmartPointer<const Self>;

  static constexpr unsigned int ImageDimension = TInputImage::ImageDimension;

  using InputImageType = TInputImage;
  using InputImagePixelType = typename InputImageType::PixelType;
  using OutputImageType = TOutputImage;
  using OutputImagePixelType = typename OutputImageType::PixelType;
  using LabelObjectType = typename OutputImageType::LabelObjectType;
  using LabelType = typename OutputImageType::LabelType;
  using LabelImageType = Image<LabelType, ImageDimension>;
  using RegionType = typename InputImageType::RegionType;
  using IndexType = typename InputImageType::IndexType;

  using BackendEnum = CudaLabelStatisticsEnums::Backend;
  using ForegroundRuleEnum = CudaLabelStatisticsEnums::ForegroundRule;
  using AlgorithmEnum = CudaLabelStatisticsEnums::Algorithm;
  using FeatureCompactionEnum = CudaLabelStatisticsEnums::FeatureCompaction;
  using ObjectsEnum = CudaLabelStatisticsEnums::Objects;
  /** The feature image: an itk::Image of any scalar pixel type (integer or
   *  real) of this dimension, read as its runtime type. */
  using FeatureImageType = ImageBase<ImageDimension>;

  static_assert(ImageDimension == 2 || ImageDimension == 3,
                "CudaLabelStatisticsImageFilter supports 2D and 3D images only");
  static_assert(std::is_integral<InputImagePixelType>::value && sizeof(InputImagePixelType) <= 8,
                "CudaLabelStatisticsImageFilter needs an integer input pixel type of 8, 16, 32 or 64 bits");
  static_assert(OutputImageType::ImageDimension == ImageDimension,
                "the output LabelMap must have the input image's dimension");

  itkNewMacro(Self);
  itkTypeMacro(CudaLabelStatisticsImageFilter, ImageToImageFilter);

  /** Foreground = pixels equal to InputForegroundValue (default: the pixel
   *  type's maximum, as BinaryImageToShapeLabelMapFilter), or, with the
   *  NotEqualToBackgroundValue rule, pixels different from InputBackgroundValue. */
  itkSetMacro(InputForegroundValue, InputImagePixelType);
  itkGetConstMacro(InputForegroundValue, InputImagePixelType);
  itkSetMacro(InputBackgroundValue, InputImagePixelType);
  itkGetConstMacro(InputBackgroundValue, InputImagePixelType);
  itkSetEnumMacro(ForegroundRule, ForegroundRuleEnum);
  itkGetEnumMacro(ForegroundRule, ForegroundRuleEnum);

  /** Background value of the LabelMap and the label image; labels skip it. */
  itkSetMacro(OutputBackgroundValue, OutputImagePixelType);
  itkGetConstMacro(OutputBackgroundValue, OutputImagePixelType);

  /** Face connectivity (false, default) or edges and corners too (true). */
  itkSetMacro(FullyConnected, bool);
  itkGetConstReferenceMacro(FullyConnected, bool);
  itkBooleanMacro(FullyConnected);

  itkSetMacro(ComputePerimeter, bool);
  itkGetConstReferenceMacro(ComputePerimeter, bool);
  itkBooleanMacro(ComputePerimeter);

  itkSetMacro(ComputeFeretDiameter, bool);
  itkGetConstReferenceMacro(ComputeFeretDiameter, bool);
  itkBooleanMacro(ComputeFeretDiameter);

  itkSetMacro(ComputeOrientedBoundingBox, bool);
  itkGetConstReferenceMacro(ComputeOrientedBoundingBox, bool);
  itkBooleanMacro(ComputeOrientedBoundingBox);

  /** Also produce output 1, the label image (off by default: it costs a copy). */
  itkSetMacro(ComputeLabelImage, bool);
  itkGetConstReferenceMacro(ComputeLabelImage, bool);
  itkBooleanMacro(ComputeLabelImage);

  /** Off (default): centroid and second moments are summed in double line by
   *  line exactly as ShapeLabelMapFilter does, so every attribute, including
   *  the signs of the principal axes and its rounding noise, equals ITK's. On:
   *  they come from the engine's exact integer sums (no cancellation; a moment
   *  that is 0 is exactly 0), which may differ from ITK in the last digits and
   *  in the sign of a principal axis. */
  itkSetMacro(ExactMoments, bool);
  itkGetConstReferenceMacro(ExactMoments, bool);
  itkBooleanMacro(ExactMoments);

  /** Auto (default) takes CUDA when a device is present, else the CPU. */
  itkSetEnumMacro(Backend, BackendEnum);
  itkGetEnumMacro(Backend, BackendEnum);
  /** The backend the last Update() ran on. */
  itkGetEnumMacro(BackendUsed, BackendEnum);

  /** The CUDA backend's labeling and feature-accumulation strategy: units
   *  (pixels, HA sub-runs, FLSL runs) joined by union-find with plain, CD or
   *  OTF feature merges, or the pixel labelings DLP, LE and TM (Early or Late
   *  properties); CudaLabelStatisticsEnums::Algorithm lists them. All give
   *  the same output, Default is the fastest. The CPU backend has a single
   *  algorithm and ignores it. */
  itkSetEnumMacro(Algorithm, AlgorithmEnum);
  itkGetEnumMacro(Algorithm, AlgorithmEnum);

  /** How the CUDA backend compacts the feature table before copying it to
   *  the host: Scan (default), TreeMerge (Windisch 2023's tree merge kernel) or
   *  None (the sparse table copied whole). All give the same output; the CPU
   *  backend ignores it. */
  itkSetEnumMacro(FeatureCompaction, FeatureCompactionEnum);
  itkGetEnumMacro(FeatureCompaction, FeatureCompactionEnum);

  /** CUDA device ordinal; -1 uses the current device. */
  itkSetMacro(CudaDevice, int);
  itkGetConstMacro(CudaDevice, int);

  /** What an object is: a connected component of the foreground (default),
   *  a value of a label image, or a connected component of one value. In the
   *  label modes object pixels are those different from InputBackgroundValue
   *  (ForegroundRule is not used), and only the full-run algorithms (Default,
   *  FLSL, FLSL_CD) and the Scan compaction apply. */
  itkSetEnumMacro(Objects, ObjectsEnum);
  itkGetEnumMacro(Objects, ObjectsEnum);

  /** The feature image (optional): same largest possible region, spacing,
   *  origin and direction as the input; any scalar pixel type. Without it
   *  the intensity attributes stay 0. */
  void
  SetFeatureImage(const FeatureImageType * image);
  const FeatureImageType *
  GetFeatureImage() const;

  /** StatisticsLabelMapFilter's histogram: ComputeHistogram (default on, as
   *  ITK) sets each object's Histogram attribute; NumberOfBins defaults to
   *  ITK's rule for the feature image's type (256 and 65536 bins for 8- and
   *  16-bit integers, else 128): a set value of 0 is refused at Update(). */
  itkSetMacro(ComputeHistogram, bool);
  itkGetConstReferenceMacro(ComputeHistogram, bool);
  itkBooleanMacro(ComputeHistogram);
  void
  SetNumberOfBins(unsigned int bins);
  /** The set value, or ITK's default for the current feature image's type. */
  unsigned int
  GetNumberOfBins() const;

  /** The Median attribute (default on: ITK always computes it). Off, and
   *  with ComputeHistogram off, the pixels are not sorted into bins at all. */
  itkSetMacro(ComputeMedian, bool);
  itkGetConstReferenceMacro(ComputeMedian, bool);
  itkBooleanMacro(ComputeMedian);

  /** Objects with fewer (more) pixels than MinimumObjectSize
   *  (MaximumObjectSize), or a physical size below MinimumPhysicalSize (above
   *  MaximumPhysicalSize), are left out. Defaults keep everything. */
  itkSetMacro(MinimumObjectSize, SizeValueType);
  itkGetConstMacro(MinimumObjectSize, SizeValueType);
  itkSetMacro(MaximumObjectSize, SizeValueType);
  itkGetConstMacro(MaximumObjectSize, SizeValueType);
  itkSetMacro(MinimumPhysicalSize, double);
  itkGetConstMacro(MinimumPhysicalSize, double);
  itkSetMacro(MaximumPhysicalSize, double);
  itkGetConstMacro(MaximumPhysicalSize, double);

  /** > 0: only the NumberOfObjectsToKeep largest objects stay
   *  (ShapeKeepNObjectsLabelMapFilter on NumberOfPixels; among equal sizes the
   *  lower label stays). 0 (default): all. */
  itkSetMacro(NumberOfObjectsToKeep, SizeValueType);
  itkGetConstMacro(NumberOfObjectsToKeep, SizeValueType);

  /** On: objects are labeled 1, 2, ... (skipping OutputBackgroundValue) by
   *  decreasing size, ties by label (RelabelComponentImageFilter). Off
   *  (default): objects keep their labels, and removed ones leave gaps. */
  itkSetMacro(SortObjectsBySize, bool);
  itkGetConstReferenceMacro(SortObjectsBySize, bool);
  itkBooleanMacro(SortObjectsBySize);

  /** Number of objects in the output of the last Update(). */
  itkGetConstMacro(NumberOfObjects, SizeValueType);
  /** Number of objects before the size selection (RelabelComponentImageFilter's name). */
  itkGetConstMacro(OriginalNumberOfObjects, SizeValueType);
  /** The largest label of the last Update()'s objects (the
   *  OutputBackgroundValue without objects): labels are not always
   *  1..NumberOfObjects (label values, a selection's gaps), and a file
   *  format of narrow labels must hold this one. */
  itkGetConstMacro(LargestLabel, LabelType);

  /** In the label modes: the input label value of the object labeled label
   *  (throws when there is none). */
  InputImagePixelType
  GetInputLabelOfObject(LabelType label) const;

  /** Engine stage times of the last Update(), in milliseconds. */
  const cca::StageTimes &
  GetStageTimes() const
  {
    return m_StageTimes;
  }

  /** Milliseconds the last Update() spent building the label map (objects,
   *  lines, attributes, insertion), after the engine. */
  double
  GetLabelMapMilliseconds() const
  {
    return m_LabelMapMilliseconds;
  }

  /** Output 1: the label image, computed with ComputeLabelImage on or when
   *  a consumer of this output updates it through the pipeline. */
  LabelImageType *
  GetLabelImage();

  /** True when this build has the CUDA backend and a device is usable. */
  static bool
  IsCudaAvailable();

  /** Gives back the memory the process keeps so that a new filter per image
   *  allocates nothing: the last engine result (host), device memory and
   *  pinned host memory (cca::Engine::ReleaseCachedMemory). */
  static void
  ReleaseCachedMemory();

protected:
  CudaLabelStatisticsImageFilter();
  ~CudaLabelStatisticsImageFilter() override = default;

  void
  PrintSelf(std::ostream & os, Indent indent) const override;

  using DataObjectPointerArraySizeType = ProcessObject::DataObjectPointerArraySizeType;
  using Superclass::MakeOutput;
  DataObject::Pointer
  MakeOutput(DataObjectPointerArraySizeType idx) override;

  /** The whole input is needed: components can span any region. */
  void
  GenerateInputRequestedRegion() override;
  void
  EnlargeOutputRequestedRegion(DataObject *) override;

  void
  GenerateData() override;

private:
  /** GenerateData's work (computeLabelImage: output 1 too); GenerateData
   *  turns its allocation failures into an itk::ExceptionObject, so
   *  std::bad_alloc never escapes Update(). */
  void
  AnalyseInput(bool computeLabelImage);

  InputImagePixelType   m_InputForegroundValue;
  InputImagePixelType   m_InputBackgroundValue;
  ForegroundRuleEnum    m_ForegroundRule{ ForegroundRuleEnum::EqualToForegroundValue };
  OutputImagePixelType  m_OutputBackgroundValue;
  bool                  m_FullyConnected{ false };
  bool                  m_ComputePerimeter{ true };
  bool                  m_ComputeFeretDiameter{ false };
  bool                  m_ComputeOrientedBoundingBox{ false };
  bool                  m_ComputeLabelImage{ false };
  bool                  m_LabelImageRequested{ false }; ///< by a consumer of output 1, for the next update
  bool                  m_ExactMoments{ false };
  BackendEnum           m_Backend{ BackendEnum::Auto };
  BackendEnum           m_BackendUsed{ BackendEnum::Auto };
  AlgorithmEnum         m_Algorithm{ AlgorithmEnum::Default };
  FeatureCompactionEnum m_FeatureCompaction{ FeatureCompactionEnum::Scan };
  int                   m_CudaDevice{ -1 };
  ObjectsEnum           m_Objects{ ObjectsEnum::ForegroundComponents };
  bool                  m_ComputeHistogram{ true };
  bool                  m_ComputeMedian{ true };
  unsigned int          m_NumberOfBins{ 0 };
  bool                  m_NumberOfBinsSet{ false };
  SizeValueType         m_MinimumObjectSize{ 0 };
  SizeValueType         m_MaximumObjectSize{ NumericTraits<SizeValueType>::max() };
  double                m_MinimumPhysicalSize{ 0.0 };
  double                m_MaximumPhysicalSize{ NumericTraits<double>::infinity() };
  SizeValueType         m_NumberOfObjectsToKeep{ 0 };
  bool                  m_SortObjectsBySize{ false };
  SizeValueType         m_NumberOfObjects{ 0 };
  LabelType             m_LargestLabel{};
  SizeValueType         m_OriginalNumberOfObjects{ 0 };
  /** Label modes: the objects' labels (increasing) and their input values. */
  std::vector<LabelType>           m_ObjectLabels;
  std::vector<InputImagePixelType> m_InputLabels;
  cca::StageTimes                  m_StageTimes{};
  double                           m_LabelMapMilliseconds{ 0 };
  /** Kept across updates so the backend reuses its device buffers. */
  std::unique_ptr<cca::Engine> m_Engine;
};

} // end namespace itk

#ifndef ITK_MANUAL_INSTANTIATION
#  include "itkCudaLabelStatisticsImageFilter.hxx"
#endif

#endif
