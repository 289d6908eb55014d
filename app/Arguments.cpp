#include "Arguments.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace ccaapp
{
namespace
{

std::int64_t
ParseInteger(const std::string & name, const std::string & text)
{
  errno = 0;
  char *          end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 0);
  if (text.empty() || *end != '\0' || errno == ERANGE)
  {
    throw UsageError("--" + name + ": '" + text + "' is not an integer");
  }
  return value;
}

double
ParseReal(const std::string & name, const std::string & text)
{
  char *       end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0')
  {
    throw UsageError("--" + name + ": '" + text + "' is not a number");
  }
  return value;
}

bool
ParseBool(const std::string & name, const std::string & text)
{
  if (text == "true" || text == "1" || text == "on" || text == "yes")
  {
    return true;
  }
  if (text == "false" || text == "0" || text == "off" || text == "no")
  {
    return false;
  }
  throw UsageError("--" + name + ": '" + text + "' is not a boolean");
}

// "WxH" or "WxHxD".
void
ParseSize(const std::string & text, AppOptions & options)
{
  std::vector<std::int64_t> parts;
  std::stringstream         stream(text);
  std::string               part;
  while (std::getline(stream, part, 'x'))
  {
    parts.push_back(ParseInteger("default-size", part));
  }
  if (parts.size() < 2 || parts.size() > 3)
  {
    throw UsageError("--default-size: expected WxH or WxHxD, got '" + text + "'");
  }
  for (const auto value : parts)
  {
    if (value < 1 || value > (std::int64_t{ 1 } << 31) - 1)
    {
      throw UsageError("--default-size: each size must be in 1 .. 2^31-1");
    }
  }
  options.defaultDimension = static_cast<int>(parts.size());
  options.defaultSize[0] = parts[0];
  options.defaultSize[1] = parts[1];
  options.defaultSize[2] = parts.size() == 3 ? parts[2] : 1;
}

} // namespace

AppOptions
ParseArguments(int argc, char * argv[])
{
  AppOptions options;
  bool       foregroundModeGiven = false;

  for (int i = 1; i < argc; ++i)
  {
    std::string argument = argv[i];
    if (argument.size() < 2 || argument.compare(0, 2, "--") != 0)
    {
      if (argument == "-h")
      {
        options.help = true;
        continue;
      }
      if (!options.input.empty())
      {
        throw UsageError("more than one input image given: '" + options.input + "' and '" + argument + "'");
      }
      options.input = argument;
      continue;
    }

    std::string name = argument.substr(2);
    std::string inlineValue;
    bool        hasInlineValue = false;
    const auto  equals = name.find('=');
    if (equals != std::string::npos)
    {
      inlineValue = name.substr(equals + 1);
      name = name.substr(0, equals);
      hasInlineValue = true;
    }
    auto value = [&]() -> std::string {
      if (hasInlineValue)
      {
        return inlineValue;
      }
      if (i + 1 >= argc)
      {
        throw UsageError("--" + name + " needs a value");
      }
      return argv[++i];
    };
    // A flag that may also be given a value (--fully-connected=false).
    auto flag = [&]() -> bool { return hasInlineValue ? ParseBool(name, inlineValue) : true; };

    if (name == "help")
      options.help = true;
    else if (name == "version")
      options.version = true;
    else if (name == "xml")
      options.xml = true;
    else if (name == "labels")
      options.labelsPath = value();
    else if (name == "csv")
      options.csvPath = value();
    else if (name == "save-input")
      options.saveInputPath = value();
    else if (name == "returnparameterfile")
      options.returnParameterFile = value();
    else if (name == "foreground-value")
    {
      options.foregroundValue = ParseInteger(name, value());
      if (!foregroundModeGiven)
      {
        options.foregroundMode = ForegroundMode::EqualTo;
      }
    }
    else if (name == "background-value")
      options.backgroundValue = ParseInteger(name, value());
    else if (name == "foreground-rule")
    {
      const std::string rule = value();
      if (rule == "not-background")
        options.foregroundMode = ForegroundMode::NotBackground;
      else if (rule == "equal")
        options.foregroundMode = ForegroundMode::EqualTo;
      else
        throw UsageError("--foreground-rule: expected not-background or equal, got '" + rule + "'");
      foregroundModeGiven = true;
    }
    else if (name == "fully-connected")
      options.fullyConnected = flag();
    else if (name == "backend")
    {
      options.backend = value();
      if (options.backend != "auto" && options.backend != "cuda" && options.backend != "cpu")
      {
        throw UsageError("--backend: expected auto, cuda or cpu, got '" + options.backend + "'");
      }
    }
    else if (name == "cuda-device")
      options.cudaDevice = static_cast<int>(ParseInteger(name, value()));
    else if (name == "perimeter")
      options.perimeter = flag();
    else if (name == "no-perimeter")
      options.perimeter = !flag();
    else if (name == "feret")
      options.feret = flag();
    else if (name == "oriented-bounding-box")
      options.orientedBoundingBox = flag();
    else if (name == "progress")
      options.progress = flag();
    else if (name == "quiet")
      options.quiet = flag();
    else if (name == "default-size")
      ParseSize(value(), options);
    else if (name == "density")
    {
      options.defaultDensity = ParseReal(name, value());
      if (!(options.defaultDensity >= 0.0 && options.defaultDensity <= 1.0))
      {
        throw UsageError("--density must be in [0, 1]");
      }
    }
    else if (name == "granularity")
    {
      const auto granularity = ParseInteger(name, value());
      if (granularity < 1 || granularity > 1 << 20)
      {
        throw UsageError("--granularity must be at least 1");
      }
      options.defaultGranularity = static_cast<int>(granularity);
    }
    else if (name == "seed")
      options.defaultSeed = static_cast<std::uint32_t>(ParseInteger(name, value()));
    else
      throw UsageError("unknown option --" + name);
  }
  return options;
}

std::string
UsageText(const char * programName)
{
  std::ostringstream text;
  text << "Usage: " << programName << " [INPUT] [options]\n"
       << "\n"
       << "Labels the connected components of a 2D or 3D image (any format ITK reads)\n"
       << "and measures each one (ITK's ShapeLabelObject attributes). With no INPUT it\n"
       << "runs on a generated random binary image and writes its outputs to the\n"
       << "current directory.\n"
       << "\n"
       << "Outputs:\n"
       << "  --labels FILE            write the label image (0 = background, 1..N)\n"
       << "  --csv FILE               write one row per component, every attribute a column\n"
       << "  --save-input FILE        also write the input image (useful with the default image)\n"
       << "  --returnparameterfile F  write 'numberOfComponents = N' (3D Slicer)\n"
       << "\n"
       << "Foreground:\n"
       << "  (default)                every pixel different from the background value (0)\n"
       << "  --background-value B     foreground = pixel != B\n"
       << "  --foreground-value V     foreground = pixel == V\n"
       << "  --foreground-rule R      not-background | equal (which of the two values is used)\n"
       << "\n"
       << "Analysis:\n"
       << "  --fully-connected        8 (2D) / 26 (3D) neighbours instead of 4 / 6\n"
       << "  --backend B              auto (default: CUDA if a GPU is usable) | cuda | cpu\n"
       << "  --cuda-device N          CUDA device ordinal (default: current device)\n"
       << "  --perimeter, --no-perimeter  compute Perimeter, Roundness, PerimeterOnBorderRatio (default on)\n"
       << "  --feret                  compute FeretDiameter (slow for large components)\n"
       << "  --oriented-bounding-box  compute OrientedBoundingBoxOrigin/Size\n"
       << "\n"
       << "Default image (no INPUT): MT19937 random binary image, g x g blocks share one draw:\n"
       << "  --default-size WxH[xD]   default 2048x2048\n"
       << "  --density D              foreground probability, default 0.45\n"
       << "  --granularity G          block size, default 4\n"
       << "  --seed S                 default 5489\n"
       << "\n"
       << "Other:\n"
       << "  --progress               print <filter-progress> lines (on with --returnparameterfile)\n"
       << "  --quiet                  no summary\n"
       << "  --xml                    print the 3D Slicer module description\n"
       << "  --version, --help\n";
  return text.str();
}

} // namespace ccaapp
