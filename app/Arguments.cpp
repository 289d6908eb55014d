#include "Arguments.h"

#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <vector>

namespace ccaapp
{

std::string
ToString(WideInteger value)
{
  const bool negative = value < 0;
  // Work on the magnitude as unsigned: -(2^63) and 2^64 - 1 both fit.
  unsigned __int128 magnitude =
    negative ? static_cast<unsigned __int128>(-(value + 1)) + 1 : static_cast<unsigned __int128>(value);
  std::string digits;
  do
  {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  return negative ? "-" + digits : digits;
}

namespace
{

// Decimal only: "010" is ten (strtoll's base 0 would read it as octal), and
// "0x10", " 5", "5k" are refused. Values outside [minimum, maximum] are
// refused with the range in the message, never wrapped or clamped.
WideInteger
ParseDecimal(const std::string & option, const std::string & text, WideInteger minimum, WideInteger maximum)
{
  const std::string range = ToString(minimum) + " .. " + ToString(maximum);
  auto              fail = [&]() -> WideInteger {
    throw UsageError(option + " must be a decimal integer in " + range + ", not '" + text + "'");
  };
  std::size_t i = 0;
  bool        negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+'))
  {
    negative = text[i] == '-';
    ++i;
  }
  if (i == text.size())
  {
    return fail();
  }
  // 2^64 needs 20 digits; past 40 significant digits the value is out of range anyway.
  WideInteger magnitude = 0;
  for (; i < text.size(); ++i)
  {
    if (text[i] < '0' || text[i] > '9')
    {
      return fail();
    }
    if (magnitude > (WideInteger{ 1 } << 100))
    {
      return fail();
    }
    magnitude = magnitude * 10 + (text[i] - '0');
  }
  const WideInteger value = negative ? -magnitude : magnitude;
  if (value < minimum || value > maximum)
  {
    return fail();
  }
  return value;
}

// Plain decimal notation ("0.45", "1", "5e-1"); no hexadecimal, inf or nan.
double
ParseDecimalReal(const std::string & option, const std::string & text, double minimum, double maximum)
{
  std::ostringstream range;
  range << minimum << " .. " << maximum;
  const auto fail = [&]() {
    throw UsageError(option + " must be a decimal number in " + range.str() + ", not '" + text + "'");
  };
  const auto allowed = text.find_first_not_of("0123456789.eE+-");
  if (text.empty() || allowed != std::string::npos)
  {
    fail();
  }
  std::size_t used = 0;
  double      value = 0;
  try
  {
    value = std::stod(text, &used);
  }
  catch (const std::exception &)
  {
    fail();
  }
  if (used != text.size() || !std::isfinite(value) || value < minimum || value > maximum)
  {
    fail();
  }
  return value;
}

bool
ParseBool(const std::string & option, const std::string & text)
{
  if (text == "true" || text == "1" || text == "on" || text == "yes")
  {
    return true;
  }
  if (text == "false" || text == "0" || text == "off" || text == "no")
  {
    return false;
  }
  throw UsageError(option + " takes true or false, not '" + text + "'");
}

// "WxH" or "WxHxD".
void
ParseSize(const std::string & option, const std::string & text, AppOptions & options)
{
  std::vector<std::int64_t> parts;
  std::stringstream         stream(text);
  std::string               part;
  while (std::getline(stream, part, 'x'))
  {
    // Sizes past 2^31 - 2 do not fit the engine's 32-bit coordinates.
    parts.push_back(
      static_cast<std::int64_t>(ParseDecimal(option + " (each size)", part, 1, (WideInteger{ 1 } << 31) - 2)));
  }
  if (parts.size() < 2 || parts.size() > 3 || text.back() == 'x')
  {
    throw UsageError(option + " takes WxH or WxHxD, not '" + text + "'");
  }
  options.defaultDimension = static_cast<int>(parts.size());
  options.defaultSize[0] = parts[0];
  options.defaultSize[1] = parts[1];
  options.defaultSize[2] = parts.size() == 3 ? parts[2] : 1;
}

/** One option: its Slicer name (the one --xml declares), an optional dashed
 *  alias, and what it does with its value (flags get "true" or their =value). */
struct OptionSpec
{
  const char *                                                  name;
  const char *                                                  alias; // nullptr: none
  bool                                                          takesValue;
  std::function<void(const std::string &, const std::string &)> apply; // (how it was spelled, value)
};

/** Options that contradict each other, refused before any file is read. */
void
CheckCombinations(AppOptions & options, bool foregroundModeGiven)
{
  // Components of each label value are label objects too.
  options.labelInput = options.labelInput || options.splitLabels;
  // The not-background rule is what a label input means (and Slicer passes
  // every enumeration with its value, the default included); the equal rule
  // and a foreground value contradict it.
  if (options.labelInput &&
      (options.foregroundValue || (foregroundModeGiven && options.foregroundMode != ForegroundMode::NotBackground)))
  {
    throw UsageError("--labelInput takes every value but the background value as an object: --foregroundValue and "
                     "--foregroundRule equal do not apply (use --backgroundValue)");
  }
  if (options.maximumSize > 0 && options.minimumSize > options.maximumSize)
  {
    throw UsageError("--minimumSize " + std::to_string(options.minimumSize) + " exceeds --maximumSize " +
                     std::to_string(options.maximumSize) + ": no object could be kept");
  }
  if (options.maximumPhysicalSize > 0 && options.minimumPhysicalSize > options.maximumPhysicalSize)
  {
    std::ostringstream message;
    message << "--minimumPhysicalSize " << options.minimumPhysicalSize << " exceeds --maximumPhysicalSize "
            << options.maximumPhysicalSize << ": no object could be kept";
    throw UsageError(message.str());
  }
}

} // namespace

AppOptions
ParseArguments(int argc, char * argv[])
{
  AppOptions options;
  bool       foregroundModeGiven = false;

  constexpr WideInteger int64Min = std::numeric_limits<std::int64_t>::min();
  constexpr WideInteger uint64Max = std::numeric_limits<std::uint64_t>::max();
  constexpr WideInteger int64Max = std::numeric_limits<std::int64_t>::max();

  auto flag = [](bool & target) {
    return [&target](const std::string & spelled, const std::string & value) { target = ParseBool(spelled, value); };
  };
  auto text = [](std::string & target) {
    return [&target](const std::string &, const std::string & value) { target = value; };
  };

  const std::vector<OptionSpec> specs = {
    { "help", nullptr, false, [&](const std::string & s, const std::string & v) { options.help = ParseBool(s, v); } },
    { "version", nullptr, false, flag(options.version) },
    { "xml", nullptr, false, flag(options.xml) },
    { "labels", nullptr, true, text(options.labelsPath) },
    { "csv", nullptr, true, text(options.csvPath) },
    { "saveInput", "save-input", true, text(options.saveInputPath) },
    { "returnparameterfile", nullptr, true, text(options.returnParameterFile) },
    { "compression",
      nullptr,
      true,
      [&](const std::string & s, const std::string & v) {
        if (v == "auto")
          options.compression = Compression::Auto;
        else if (v == "none")
          options.compression = Compression::None;
        else if (v == "fast")
          options.compression = Compression::Fast;
        else if (v == "small")
          options.compression = Compression::Small;
        else
          throw UsageError(s + " takes auto, none, fast or small, not '" + v + "'");
      } },
    { "foregroundValue",
      "foreground-value",
      true,
      [&](const std::string & s, const std::string & v) {
        options.foregroundValue = ParseDecimal(s, v, int64Min, uint64Max);
        // A value alone means the equal rule; an explicit rule wins, whatever the order.
        if (!foregroundModeGiven)
        {
          options.foregroundMode = ForegroundMode::EqualTo;
        }
      } },
    { "backgroundValue",
      "background-value",
      true,
      [&](const std::string & s, const std::string & v) {
        options.backgroundValue = ParseDecimal(s, v, int64Min, uint64Max);
      } },
    { "foregroundRule",
      "foreground-rule",
      true,
      [&](const std::string & s, const std::string & v) {
        if (v == "not-background" || v == "notBackground")
          options.foregroundMode = ForegroundMode::NotBackground;
        else if (v == "equal")
          options.foregroundMode = ForegroundMode::EqualTo;
        else
          throw UsageError(s + " takes not-background or equal, not '" + v + "'");
        foregroundModeGiven = true;
      } },
    { "fullyConnected", "fully-connected", false, flag(options.fullyConnected) },
    { "backend",
      nullptr,
      true,
      [&](const std::string & s, const std::string & v) {
        if (v != "auto" && v != "cuda" && v != "cpu")
        {
          throw UsageError(s + " takes auto, cuda or cpu, not '" + v + "'");
        }
        options.backend = v;
      } },
    { "cudaDevice",
      "cuda-device",
      true,
      [&](const std::string & s, const std::string & v) {
        options.cudaDevice = static_cast<int>(ParseDecimal(s, v, -1, std::numeric_limits<int>::max()));
      } },
    { "perimeter", nullptr, false, flag(options.perimeter) },
    { "noPerimeter",
      "no-perimeter",
      false,
      [&](const std::string & s, const std::string & v) { options.perimeter = !ParseBool(s, v); } },
    { "feret", nullptr, false, flag(options.feret) },
    { "orientedBoundingBox", "oriented-bounding-box", false, flag(options.orientedBoundingBox) },
    { "featureImage", "feature-image", true, text(options.featureImage) },
    { "labelInput", "label-input", false, flag(options.labelInput) },
    { "splitLabels", "split-labels", false, flag(options.splitLabels) },
    { "minimumSize",
      "minimum-size",
      true,
      [&](const std::string & s, const std::string & v) {
        options.minimumSize = static_cast<std::int64_t>(ParseDecimal(s, v, 0, int64Max));
      } },
    { "maximumSize",
      "maximum-size",
      true,
      [&](const std::string & s, const std::string & v) {
        options.maximumSize = static_cast<std::int64_t>(ParseDecimal(s, v, 0, int64Max));
      } },
    { "minimumPhysicalSize",
      "minimum-physical-size",
      true,
      [&](const std::string & s, const std::string & v) {
        options.minimumPhysicalSize = ParseDecimalReal(s, v, 0.0, std::numeric_limits<double>::max());
      } },
    { "maximumPhysicalSize",
      "maximum-physical-size",
      true,
      [&](const std::string & s, const std::string & v) {
        options.maximumPhysicalSize = ParseDecimalReal(s, v, 0.0, std::numeric_limits<double>::max());
      } },
    { "keepLargest",
      "keep-largest",
      true,
      [&](const std::string & s, const std::string & v) {
        options.keepLargest = static_cast<std::int64_t>(ParseDecimal(s, v, 0, int64Max));
      } },
    { "sortBySize", "sort-by-size", false, flag(options.sortBySize) },
    { "progress", nullptr, false, flag(options.progress) },
    { "quiet", nullptr, false, flag(options.quiet) },
    { "defaultSize",
      "default-size",
      true,
      [&](const std::string & s, const std::string & v) { ParseSize(s, v, options); } },
    { "density",
      nullptr,
      true,
      [&](const std::string & s, const std::string & v) {
        options.defaultDensity = ParseDecimalReal(s, v, 0.0, 1.0);
      } },
    { "granularity",
      nullptr,
      true,
      [&](const std::string & s, const std::string & v) {
        options.defaultGranularity = static_cast<int>(ParseDecimal(s, v, 1, 1 << 20));
      } },
    { "seed",
      nullptr,
      true,
      [&](const std::string & s, const std::string & v) {
        options.defaultSeed =
          static_cast<std::uint32_t>(ParseDecimal(s, v, 0, std::numeric_limits<std::uint32_t>::max()));
      } },
  };

  std::set<const OptionSpec *> seen;
  for (int i = 1; i < argc; ++i)
  {
    const std::string argument = argv[i];
    if (argument == "-h")
    {
      options.help = true;
      continue;
    }
    if (argument.compare(0, 2, "--") != 0)
    {
      if (!argument.empty() && argument[0] == '-')
      {
        throw UsageError("unknown option " + argument +
                         (argument == "-" ? " (reading from stdin is not supported)" : ""));
      }
      if (argument.empty())
      {
        throw UsageError("the input file name is empty");
      }
      if (!options.input.empty())
      {
        throw UsageError("more than one input image given: '" + options.input + "' and '" + argument + "'");
      }
      options.input = argument;
      continue;
    }

    std::string       name = argument.substr(2);
    std::string       value;
    bool              hasInlineValue = false;
    const std::size_t equals = name.find('=');
    if (equals != std::string::npos)
    {
      value = name.substr(equals + 1);
      name = name.substr(0, equals);
      hasInlineValue = true;
    }
    const OptionSpec * spec = nullptr;
    for (const auto & candidate : specs)
    {
      if (name == candidate.name || (candidate.alias != nullptr && name == candidate.alias))
      {
        spec = &candidate;
      }
    }
    if (spec == nullptr)
    {
      throw UsageError("unknown option --" + name);
    }
    const std::string spelled = "--" + name;
    if (!seen.insert(spec).second)
    {
      throw UsageError(
        spelled + " is given twice" +
        (spec->alias ? std::string(" (--") + spec->name + " and --" + spec->alias + " are one option)" : ""));
    }
    if (spec->takesValue && !hasInlineValue)
    {
      if (i + 1 >= argc)
      {
        throw UsageError(spelled + " needs a value");
      }
      value = argv[++i];
      // "--csv --labels x" must not write a file named "--labels".
      if (value.compare(0, 2, "--") == 0)
      {
        throw UsageError(spelled + " needs a value but is followed by the option " + value + " (write " + spelled +
                         "=" + value + " for a value that starts with --)");
      }
    }
    else if (!spec->takesValue && !hasInlineValue)
    {
      value = "true";
    }
    if (value.empty())
    {
      throw UsageError(spelled + " is given an empty value");
    }
    spec->apply(spelled, value);
  }
  CheckCombinations(options, foregroundModeGiven);
  return options;
}

std::string
UsageText(const char * programName)
{
  std::ostringstream text;
  text << "Usage: " << programName << " [INPUT] [options]\n"
       << "\n"
       << "Labels the connected components of a 2D or 3D image (PNG, NRRD, NIfTI,\n"
       << "MetaImage, VTK or TIFF) and measures each one (ITK's ShapeLabelObject\n"
       << "attributes). With no INPUT it runs on a generated random binary image and\n"
       << "writes its outputs to the current directory. Each option also has a dashed\n"
       << "spelling (--fully-connected for --fullyConnected); numbers are decimal.\n"
       << "\n"
       << "Outputs (written completely or not at all):\n"
       << "  --labels FILE            label image, 0 = background, 1..N (.nrrd .nhdr .nii .nii.gz\n"
       << "                           .hdr .mha .mhd .vtk: uint32; .png: uint16, 2D only; .tif:\n"
       << "                           uint16 when the labels fit, else uint32)\n"
       << "  --csv FILE               one row per component, every attribute a column\n"
       << "  --saveInput FILE         also write the input image (useful with the default image)\n"
       << "  --returnparameterfile F  write 'numberOfComponents = N' (3D Slicer)\n"
       << "  --compression C          auto (default) | none | fast | small: zlib level 0, 1 or 6 for\n"
       << "                           the image outputs (.nrrd .nhdr .mha .mhd .nii.gz .tif .png;\n"
       << "                           .nii .hdr .vtk are always uncompressed); auto: fast (deflated\n"
       << "                           on all threads, as quick as raw)\n"
       << "\n"
       << "Foreground (NaN pixels are never foreground):\n"
       << "  (default)                every pixel different from the background value (0)\n"
       << "  --backgroundValue B      foreground = pixel != B\n"
       << "  --foregroundValue V      foreground = pixel == V\n"
       << "  --foregroundRule R       not-background | equal (which of the two values is used;\n"
       << "                           equal without a value: the pixel type's largest value)\n"
       << "\n"
       << "Analysis:\n"
       << "  --fullyConnected         8 (2D) / 26 (3D) neighbours instead of 4 / 6\n"
       << "  --backend B              auto (default: CUDA if a GPU is usable) | cuda | cpu\n"
       << "  --cudaDevice N           CUDA device ordinal (default -1: the current device)\n"
       << "  --perimeter, --noPerimeter  compute Perimeter, Roundness, PerimeterOnBorderRatio (default on)\n"
       << "  --feret                  compute FeretDiameter (slow for large components)\n"
       << "  --orientedBoundingBox    compute OrientedBoundingBoxOrigin/Size\n"
       << "  --featureImage FILE      also measure this image (any scalar type, the input's size and\n"
       << "                           pixel grid) in each object: Minimum, Maximum, Mean, Sum,\n"
       << "                           StandardDeviation, Variance, Median, Skewness, Kurtosis, their\n"
       << "                           indices, CenterOfGravity, weighted moments (ITK's\n"
       << "                           StatisticsLabelObject)\n"
       << "\n"
       << "Objects (default: the connected components of the foreground):\n"
       << "  --labelInput             the input is an integer label image: each value but the\n"
       << "                           background value is one object, connected or not (its label\n"
       << "                           is the value; the CSV's InputLabel column holds it)\n"
       << "  --splitLabels            each connected component of each label value is one object,\n"
       << "                           numbered in raster order (implies --labelInput)\n"
       << "  --minimumSize N          leave out objects of fewer than N pixels (default 0: none)\n"
       << "  --maximumSize N          leave out objects of more than N pixels (default 0: no bound)\n"
       << "  --minimumPhysicalSize S, --maximumPhysicalSize S  the same in physical units (0: none)\n"
       << "  --keepLargest K          keep only the K largest objects, ties to the lower label (0: all)\n"
       << "  --sortBySize             number the objects 1, 2, ... by decreasing size\n"
       << "\n"
       << "Default image (no INPUT): MT19937 random binary image, g x g blocks share one draw:\n"
       << "  --defaultSize WxH[xD]    default 2048x2048\n"
       << "  --density D              foreground probability in 0 .. 1, default 0.45\n"
       << "  --granularity G          block size in 1 .. 1048576, default 4\n"
       << "  --seed S                 in 0 .. 4294967295, default 5489\n"
       << "\n"
       << "Other:\n"
       << "  --progress               print <filter-progress> lines (on with --returnparameterfile)\n"
       << "  --quiet                  no summary (which gives the time of each stage)\n"
       << "  --xml                    print the 3D Slicer module description\n"
       << "  --version, --help\n"
       << "\n"
       << "Exit status: 0 when every requested output was written, 1 when the run failed\n"
       << "(nothing written or changed), 2 for an unusable command line.\n";
  return text.str();
}

} // namespace ccaapp
