// Runs the program with a feature image, label-image input and size selection
// (issue 12) and checks its table and label image against ITK's own filters
// computed here: BinaryImageToStatisticsLabelMapFilter,
// LabelImageToStatisticsLabelMapFilter, ConnectedComponentImageFilter per
// label value, RelabelComponentImageFilter and ShapeKeepNObjectsLabelMapFilter.
// Inputs are random with fixed seeds (printed with the scenario).
//
// Usage: StatisticsAppCheck PROGRAM WORKDIR SCENARIO
#include "AppTestSupport.h"

#include "itkBinaryImageToShapeLabelMapFilter.h"
#include "itkBinaryImageToStatisticsLabelMapFilter.h"
#include "itkBinaryThresholdImageFilter.h"
#include "itkLabelImageToStatisticsLabelMapFilter.h"
#include "itkRelabelComponentImageFilter.h"
#include "itkShapeKeepNObjectsLabelMapFilter.h"

#include <limits>
#include <set>

namespace
{

using namespace ccaapptest;

/** The program's table: column names, then one row of cells per object. */
struct Table
{
  std::vector<std::string>              header;
  std::vector<std::vector<std::string>> rows;

  std::size_t
  Column(const std::string & name) const
  {
    const auto at = std::find(header.begin(), header.end(), name);
    Require(at != header.end(), "the table lacks the column " + name);
    return static_cast<std::size_t>(at - header.begin());
  }
  bool
  Has(const std::string & name) const
  {
    return std::find(header.begin(), header.end(), name) != header.end();
  }
  double
  Number(std::size_t row, const std::string & name) const
  {
    return std::stod(rows[row][Column(name)]);
  }
  long long
  Integer(std::size_t row, const std::string & name) const
  {
    return std::stoll(rows[row][Column(name)]);
  }
};

Table
ReadTable(const std::string & path)
{
  Table      table;
  const auto lines = Lines(ReadText(path));
  Require(!lines.empty(), path + " is empty");
  table.header = SplitCsvLine(lines[0]);
  for (std::size_t i = 1; i < lines.size(); ++i)
  {
    table.rows.push_back(SplitCsvLine(lines[i]));
    Require(table.rows.back().size() == table.header.size(),
            path + ": row " + std::to_string(i) + " has a wrong number of cells");
  }
  return table;
}

void
RequireNear(double ours, double itk, const std::string & what)
{
  const bool bothNan = std::isnan(ours) && std::isnan(itk);
  Require(bothNan || std::abs(ours - itk) <= 1e-7 * (1.0 + std::abs(itk)),
          what + ": the program wrote " + std::to_string(ours) + ", ITK computes " + std::to_string(itk));
}

/** Every intensity column of row `row` against ITK's StatisticsLabelObject. */
template <typename TLabelObject>
void
CheckIntensityRow(const Table & table, std::size_t row, const TLabelObject & object)
{
  constexpr unsigned int D = TLabelObject::ImageDimension;
  const char * const     axes[] = { "x", "y", "z" };
  const std::string      where = "label " + table.rows[row][0] + " ";
  RequireNear(table.Number(row, "NumberOfPixels"), object.GetNumberOfPixels(), where + "NumberOfPixels");
  const std::pair<const char *, double> scalars[] = {
    { "Minimum", object.GetMinimum() },
    { "Maximum", object.GetMaximum() },
    { "Mean", object.GetMean() },
    { "Sum", object.GetSum() },
    { "StandardDeviation", object.GetStandardDeviation() },
    { "Variance", object.GetVariance() },
    { "Median", object.GetMedian() },
    { "Skewness", object.GetSkewness() },
    { "Kurtosis", object.GetKurtosis() },
    { "WeightedElongation", object.GetWeightedElongation() },
    { "WeightedFlatness", object.GetWeightedFlatness() },
  };
  for (const auto & scalar : scalars)
  {
    RequireNear(table.Number(row, scalar.first), scalar.second, where + scalar.first);
  }
  for (unsigned int d = 0; d < D; ++d)
  {
    const std::string axis = axes[d];
    Require(table.Integer(row, "MinimumIndex_" + axis) == object.GetMinimumIndex()[d], where + "MinimumIndex_" + axis);
    Require(table.Integer(row, "MaximumIndex_" + axis) == object.GetMaximumIndex()[d], where + "MaximumIndex_" + axis);
    RequireNear(
      table.Number(row, "CenterOfGravity_" + axis), object.GetCenterOfGravity()[d], where + "CenterOfGravity");
    RequireNear(table.Number(row, "WeightedPrincipalMoments_" + std::to_string(d)),
                object.GetWeightedPrincipalMoments()[d],
                where + "WeightedPrincipalMoments");
    // The axes' signs are a convention; each entry's magnitude is not.
    for (unsigned int c = 0; c < D; ++c)
    {
      RequireNear(std::abs(table.Number(row, "WeightedPrincipalAxes_" + std::to_string(d) + "_" + axes[c])),
                  std::abs(object.GetWeightedPrincipalAxes()[d][c]),
                  where + "WeightedPrincipalAxes");
    }
  }
}

template <typename TPixel, unsigned int D>
typename itk::Image<TPixel, D>::Pointer
ReadImage(const std::string & path)
{
  auto reader = itk::ImageFileReader<itk::Image<TPixel, D>>::New();
  reader->SetFileName(path);
  reader->Update();
  return reader->GetOutput();
}

// ---- scenarios ------------------------------------------------------------------------

/** Components of a binary mask, measured in an int16 (3D) and a float (2D) feature image. */
template <unsigned int D, typename TFeature>
void
CheckFeatureOfMask(const std::string &         program,
                   const std::string &         dir,
                   const itk::Size<D> &        size,
                   unsigned                    seed,
                   const std::vector<double> & featureValues)
{
  using MaskType = itk::Image<unsigned char, D>;
  using FeatureType = itk::Image<TFeature, D>;
  const std::string name = std::to_string(D) + "d";
  const auto        mask = RandomImage<unsigned char, D>(size, { 0, 0, 1 }, seed);
  const auto        feature = RandomImage<TFeature, D>(size, featureValues, seed + 1);
  WriteImage(mask.GetPointer(), dir + "/mask" + name + ".nrrd");
  WriteImage(feature.GetPointer(), dir + "/feature" + name + ".nrrd");
  RequireSuccess(RunIn(program,
                       dir,
                       { "mask" + name + ".nrrd",
                         "--feature-image",
                         "feature" + name + ".nrrd",
                         "--csv",
                         "table" + name + ".csv",
                         "--quiet" }));

  auto reference = itk::BinaryImageToStatisticsLabelMapFilter<MaskType, FeatureType>::New();
  reference->SetInput(mask);
  reference->SetFeatureImage(feature);
  reference->SetInputForegroundValue(1);
  reference->SetFullyConnected(false);
  reference->Update();
  const auto * map = reference->GetOutput();

  const Table table = ReadTable(dir + "/table" + name + ".csv");
  Require(table.rows.size() == map->GetNumberOfLabelObjects(),
          "the table has " + std::to_string(table.rows.size()) + " rows, ITK finds " +
            std::to_string(map->GetNumberOfLabelObjects()) + " components");
  for (std::size_t row = 0; row < table.rows.size(); ++row)
  {
    const auto label = static_cast<itk::SizeValueType>(table.Integer(row, "Label"));
    Require(map->HasLabel(label), "ITK has no component " + std::to_string(label));
    CheckIntensityRow(table, row, *map->GetLabelObject(label));
  }
  std::cout << name << ": " << table.rows.size() << " components, every intensity column equals ITK's\n";
}

int
FeatureScenario(const std::string & program, const std::string & dir)
{
  CheckFeatureOfMask<3, short>(program, dir, itk::Size<3>{ { 31, 23, 9 } }, 41, { -1000, -80, 0, 35, 40, 700, 1200 });
  CheckFeatureOfMask<2, float>(program, dir, itk::Size<2>{ { 57, 43 } }, 42, { -2.5, 0.125, 3.75, 10.5, 99.25 });
  return 0;
}

/** Label input: each value an object (LabelImageToStatisticsLabelMapFilter), then numbered by size. */
int
LabelInputScenario(const std::string & program, const std::string & dir)
{
  constexpr unsigned int D = 3;
  using LabelType = itk::Image<short, D>;
  using FeatureType = itk::Image<float, D>;
  const itk::Size<D> size{ { 29, 19, 7 } };
  // Sparse values, every object scattered (not connected).
  const auto labels = RandomImage<short, D>(size, { 0, 0, 5, 7, 7, 1000, 30000 }, 51);
  const auto feature = RandomImage<float, D>(size, { -3.5, 0.25, 7.75, 100.5, 1000 }, 52);
  WriteImage(labels.GetPointer(), dir + "/labels.nrrd");
  WriteImage(feature.GetPointer(), dir + "/feature.nrrd");
  RequireSuccess(
    RunIn(program,
          dir,
          { "labels.nrrd", "--labelInput", "--featureImage", "feature.nrrd", "--csv", "values.csv", "--quiet" }));
  RequireSuccess(
    RunIn(program, dir, { "labels.nrrd", "--label-input", "--sort-by-size", "--csv", "sorted.csv", "--quiet" }));

  auto reference = itk::LabelImageToStatisticsLabelMapFilter<LabelType, FeatureType>::New();
  reference->SetInput(labels);
  reference->SetFeatureImage(feature);
  reference->SetBackgroundValue(0);
  reference->Update();
  const auto * map = reference->GetOutput();

  const Table values = ReadTable(dir + "/values.csv");
  Require(values.rows.size() == map->GetNumberOfLabelObjects(), "one row per label value");
  for (std::size_t row = 0; row < values.rows.size(); ++row)
  {
    const auto value = values.Integer(row, "InputLabel");
    Require(values.Integer(row, "Label") == value, "the label of a label value is the value");
    CheckIntensityRow(values, row, *map->GetLabelObject(static_cast<itk::SizeValueType>(value)));
  }

  // Sorted: labels 1..N by decreasing size (ties by value), InputLabel naming each.
  const Table sorted = ReadTable(dir + "/sorted.csv");
  Require(sorted.rows.size() == values.rows.size(), "sorting keeps every object");
  std::vector<std::pair<long long, long long>> bySize; // (-size, value)
  for (std::size_t row = 0; row < values.rows.size(); ++row)
  {
    bySize.emplace_back(-values.Integer(row, "NumberOfPixels"), values.Integer(row, "InputLabel"));
  }
  std::sort(bySize.begin(), bySize.end());
  for (std::size_t row = 0; row < sorted.rows.size(); ++row)
  {
    Require(sorted.Integer(row, "Label") == static_cast<long long>(row + 1) &&
              sorted.Integer(row, "InputLabel") == bySize[row].second &&
              sorted.Integer(row, "NumberOfPixels") == -bySize[row].first,
            "row " + std::to_string(row + 1) + " of the table sorted by size");
  }
  std::cout << values.rows.size() << " label values, intensities equal ITK's; numbered by size as expected\n";
  return 0;
}

/** --splitLabels: each connected component of each value, in raster order of first pixels. */
int
SplitLabelsScenario(const std::string & program, const std::string & dir)
{
  constexpr unsigned int D = 2;
  using LabelType = itk::Image<unsigned char, D>;
  using ComponentType = itk::Image<unsigned int, D>;
  const itk::Size<D> size{ { 41, 33 } };
  const auto         labels = RandomImage<unsigned char, D>(size, { 0, 1, 2, 3 }, 61);
  WriteImage(labels.GetPointer(), dir + "/labels.nrrd");
  RequireSuccess(RunIn(program, dir, { "labels.nrrd", "--split-labels", "--csv", "split.csv", "--quiet" }));

  // (first pixel's raster index, value, pixels) of every component of every value.
  std::vector<std::tuple<std::size_t, int, std::size_t>> expected;
  for (int value = 1; value <= 3; ++value)
  {
    auto threshold = itk::BinaryThresholdImageFilter<LabelType, LabelType>::New();
    threshold->SetInput(labels);
    threshold->SetLowerThreshold(static_cast<unsigned char>(value));
    threshold->SetUpperThreshold(static_cast<unsigned char>(value));
    auto components = itk::ConnectedComponentImageFilter<LabelType, ComponentType>::New();
    components->SetInput(threshold->GetOutput());
    components->Update();
    std::map<unsigned int, std::pair<std::size_t, std::size_t>> found; // label -> (first, count)
    std::size_t                                                 raster = 0;
    for (itk::ImageRegionConstIterator<ComponentType> it(components->GetOutput(),
                                                         components->GetOutput()->GetLargestPossibleRegion());
         !it.IsAtEnd();
         ++it, ++raster)
    {
      if (it.Get() != 0)
      {
        auto & entry = found.emplace(it.Get(), std::make_pair(raster, std::size_t{ 0 })).first->second;
        ++entry.second;
      }
    }
    for (const auto & entry : found)
    {
      expected.emplace_back(entry.second.first, value, entry.second.second);
    }
  }
  std::sort(expected.begin(), expected.end());

  const Table table = ReadTable(dir + "/split.csv");
  Require(table.rows.size() == expected.size(),
          "the table has " + std::to_string(table.rows.size()) + " rows, ITK finds " + std::to_string(expected.size()) +
            " components");
  for (std::size_t row = 0; row < expected.size(); ++row)
  {
    Require(table.Integer(row, "Label") == static_cast<long long>(row + 1) &&
              table.Integer(row, "InputLabel") == std::get<1>(expected[row]) &&
              table.Integer(row, "NumberOfPixels") == static_cast<long long>(std::get<2>(expected[row])),
            "component " + std::to_string(row + 1) + " of the split label image");
  }
  std::cout << expected.size() << " components of 3 label values, as ConnectedComponentImageFilter finds them\n";
  return 0;
}

/** Size bounds, keep-largest and numbering by size on the components of a mask. */
int
SelectionScenario(const std::string & program, const std::string & dir)
{
  constexpr unsigned int D = 3;
  using MaskType = itk::Image<unsigned char, D>;
  using LabelType = itk::Image<unsigned int, D>;
  const itk::Size<D> size{ { 37, 29, 11 } };
  const auto         mask = RandomImage<unsigned char, D>(size, { 0, 0, 1 }, 71); // spacing 0.5 x 1.5 x 2.5
  WriteImage(mask.GetPointer(), dir + "/mask.nrrd");

  auto components = itk::ConnectedComponentImageFilter<MaskType, LabelType>::New();
  components->SetInput(mask);
  components->Update();
  std::map<long long, long long> counts; // raster-order label -> pixels
  for (itk::ImageRegionConstIterator<LabelType> it(components->GetOutput(),
                                                   components->GetOutput()->GetLargestPossibleRegion());
       !it.IsAtEnd();
       ++it)
  {
    if (it.Get() != 0)
      ++counts[it.Get()];
  }
  auto tableCounts = [&](const std::string & csv) {
    std::map<long long, long long> result;
    const Table                    table = ReadTable(dir + "/" + csv);
    for (std::size_t row = 0; row < table.rows.size(); ++row)
      result[table.Integer(row, "Label")] = table.Integer(row, "NumberOfPixels");
    return result;
  };

  // --sortBySize --minimumSize: RelabelComponentImageFilter's label image, pixel for pixel.
  RequireSuccess(RunIn(program,
                       dir,
                       { "mask.nrrd",
                         "--sortBySize",
                         "--minimumSize",
                         "4",
                         "--labels",
                         "relabel.nrrd",
                         "--csv",
                         "relabel.csv",
                         "--quiet" }));
  auto relabel = itk::RelabelComponentImageFilter<LabelType, LabelType>::New();
  relabel->SetInput(components->GetOutput());
  relabel->SetMinimumObjectSize(4);
  relabel->Update();
  const auto                               ours = ReadImage<unsigned int, D>(dir + "/relabel.nrrd");
  itk::ImageRegionConstIterator<LabelType> a(ours, ours->GetLargestPossibleRegion());
  itk::ImageRegionConstIterator<LabelType> b(relabel->GetOutput(), ours->GetLargestPossibleRegion());
  for (; !a.IsAtEnd(); ++a, ++b)
  {
    Require(a.Get() == b.Get(),
            "the label image differs from RelabelComponentImageFilter's at " + std::to_string(a.GetIndex()[0]) + "," +
              std::to_string(a.GetIndex()[1]) + "," + std::to_string(a.GetIndex()[2]));
  }
  Require(tableCounts("relabel.csv").size() == relabel->GetNumberOfObjects(), "one row per relabeled object");

  // --minimumSize and --maximumSize (dashed): the components in the range keep their labels.
  RequireSuccess(RunIn(
    program, dir, { "mask.nrrd", "--minimum-size", "3", "--maximum-size", "9", "--csv", "range.csv", "--quiet" }));
  std::map<long long, long long> inRange;
  for (const auto & entry : counts)
    if (entry.second >= 3 && entry.second <= 9)
      inRange.insert(entry);
  Require(tableCounts("range.csv") == inRange, "the size range keeps other components than ITK's counts say");

  // --minimumPhysicalSize: 1.875 per voxel, so 7.4 means at least 4 voxels.
  RequireSuccess(
    RunIn(program, dir, { "mask.nrrd", "--minimumPhysicalSize", "7.4", "--csv", "physical.csv", "--quiet" }));
  std::map<long long, long long> physical;
  for (const auto & entry : counts)
    if (entry.second >= 4)
      physical.insert(entry);
  Require(tableCounts("physical.csv") == physical, "the physical size bound keeps other components");

  // --keepLargest K with a K whose boundary is not a tie: ShapeKeepNObjectsLabelMapFilter's objects.
  std::vector<long long> sizes;
  for (const auto & entry : counts)
    sizes.push_back(entry.second);
  std::sort(sizes.rbegin(), sizes.rend());
  std::size_t keep = 3;
  while (keep < sizes.size() && sizes[keep - 1] == sizes[keep])
    ++keep;
  RequireSuccess(
    RunIn(program, dir, { "mask.nrrd", "--keep-largest", std::to_string(keep), "--csv", "keep.csv", "--quiet" }));
  auto shapes = itk::BinaryImageToShapeLabelMapFilter<MaskType>::New();
  shapes->SetInput(mask);
  shapes->SetInputForegroundValue(1);
  using ShapeMapType = itk::BinaryImageToShapeLabelMapFilter<MaskType>::OutputImageType;
  auto keepN = itk::ShapeKeepNObjectsLabelMapFilter<ShapeMapType>::New();
  keepN->SetInput(shapes->GetOutput());
  keepN->SetNumberOfObjects(keep);
  keepN->SetAttribute("NumberOfPixels");
  keepN->Update();
  std::map<long long, long long> kept;
  for (typename ShapeMapType::ConstIterator it(keepN->GetOutput()); !it.IsAtEnd(); ++it)
    kept[static_cast<long long>(it.GetLabel())] = static_cast<long long>(it.GetLabelObject()->GetNumberOfPixels());
  Require(tableCounts("keep.csv") == kept, "--keepLargest keeps other objects than ShapeKeepNObjectsLabelMapFilter");
  std::cout << counts.size() << " components; relabel, size range, physical bound and keep " << keep
            << " equal ITK's\n";
  return 0;
}

/** Bad input: a clean failure (exit 1, one line) or a usage error (exit 2), nothing written. */
int
ErrorScenario(const std::string & program, const std::string & dir)
{
  const itk::Size<3> size{ { 12, 10, 4 } };
  MakeImage<unsigned char, 3>(dir + "/mask.nrrd", size, { 0, 1 }, 81);
  MakeImage<short, 3>(dir + "/other-size.nrrd", itk::Size<3>{ { 12, 10, 5 } }, { 0, 100 }, 82);
  MakeImage<float, 3>(dir + "/real.nrrd", size, { 0, 1.5 }, 83);
  auto shifted = RandomImage<short, 3>(size, { 0, 100 }, 84);
  auto spacing = shifted->GetSpacing();
  spacing[0] = 0.75;
  shifted->SetSpacing(spacing);
  WriteImage(shifted.GetPointer(), dir + "/other-grid.nrrd");

  const std::pair<std::vector<std::string>, std::string> failures[] = {
    { { "mask.nrrd", "--featureImage", "other-size.nrrd" },
      "the feature image is 12 x 10 x 5 pixels and the input 12 x 10 x 4" },
    { { "mask.nrrd", "--featureImage", "other-grid.nrrd" }, "another pixel grid" },
    { { "mask.nrrd", "--featureImage", "missing.nrrd" }, "missing.nrrd" },
    { { "real.nrrd", "--labelInput" }, "--labelInput needs an integer label image" },
    { { "mask.nrrd", "--labelInput", "--backgroundValue", "1" },
      "the input's value 0 is an object (--backgroundValue 1); use --sortBySize to number the objects 1..N, or "
      "--backgroundValue 0" },
  };
  for (const auto & failure : failures)
  {
    std::vector<std::string> arguments = failure.first;
    arguments.insert(arguments.end(), { "--csv", "out.csv", "--labels", "out.nrrd" });
    const auto before = ListDirectory(dir);
    const auto result = RunIn(program, dir, arguments);
    RequireCleanFailure(result, failure.second);
    Require(result.err.find(failure.second) != std::string::npos,
            "the message must say '" + failure.second + "': " + result.err);
    Require(result.err.find("ITK ERROR") == std::string::npos, "the message names ITK's internals: " + result.err);
    Require(ListDirectory(dir) == before, "a failed run wrote files: " + result.command);
  }
  const std::pair<std::vector<std::string>, std::string> usage[] = {
    { { "--minimumSize", "-1" }, "--minimumSize must be a decimal integer in 0 .. 9223372036854775807, not '-1'" },
    { { "--maximum-size", "0x10" }, "--maximum-size must be a decimal integer" },
    { { "--keepLargest", "1.5" }, "--keepLargest must be a decimal integer" },
    { { "--keepLargest", "99999999999999999999" }, "--keepLargest must be a decimal integer" },
    { { "--minimumPhysicalSize", "-2" }, "--minimumPhysicalSize must be a decimal number" },
    { { "--maximumPhysicalSize", "nan" }, "--maximumPhysicalSize must be a decimal number" },
    { { "--minimumSize", "5", "--maximumSize", "4" }, "--minimumSize 5 exceeds --maximumSize 4" },
    { { "--minimumPhysicalSize", "5", "--maximumPhysicalSize", "4.5" }, "exceeds --maximumPhysicalSize" },
    { { "--labelInput", "--foregroundValue", "1" }, "--foregroundValue and --foregroundRule equal do not apply" },
    { { "--splitLabels", "--foregroundRule", "equal" }, "--foregroundValue and --foregroundRule equal do not apply" },
    { { "--featureImage" }, "--featureImage needs a value" },
    { { "--sortBySize", "--sort-by-size" }, "is given twice" },
  };
  for (const auto & entry : usage)
  {
    std::vector<std::string> arguments = { "mask.nrrd" };
    arguments.insert(arguments.end(), entry.first.begin(), entry.first.end());
    RequireUsageError(program, dir, arguments, entry.second);
  }
  std::cout << std::size(failures) << " bad inputs and " << std::size(usage) << " bad command lines refused cleanly\n";
  return 0;
}

} // namespace

int
main(int argc, char * argv[])
{
  if (argc != 4)
  {
    std::cerr << "Usage: " << argv[0] << " PROGRAM WORKDIR feature|label-input|split-labels|selection|errors\n";
    return 2;
  }
  const std::string program = argv[1];
  const std::string dir = argv[2];
  const std::string scenario = argv[3];
  try
  {
    FreshDirectory(dir);
    if (scenario == "feature")
      return FeatureScenario(program, dir);
    if (scenario == "label-input")
      return LabelInputScenario(program, dir);
    if (scenario == "split-labels")
      return SplitLabelsScenario(program, dir);
    if (scenario == "selection")
      return SelectionScenario(program, dir);
    if (scenario == "errors")
      return ErrorScenario(program, dir);
    std::cerr << "unknown scenario " << scenario << "\n";
    return 2;
  }
  catch (const std::exception & error)
  {
    std::cerr << "FAILED (" << scenario << ", files kept in " << dir << "): " << error.what() << "\n";
    return 1;
  }
}
