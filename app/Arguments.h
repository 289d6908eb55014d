// Command-line options of the CudaLabelStatistics program.
#ifndef CudaLabelStatisticsApp_Arguments_h
#define CudaLabelStatisticsApp_Arguments_h

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ccaapp
{

enum class ForegroundMode
{
  NotBackground, ///< foreground = pixel != background value (default: every non-zero pixel)
  EqualTo        ///< foreground = pixel == foreground value
};

struct AppOptions
{
  std::string input; ///< empty: run on the generated default image

  std::string labelsPath;          ///< label image to write (empty: none)
  std::string csvPath;             ///< component table to write (empty: none)
  std::string saveInputPath;       ///< write the (read or generated) input image here
  std::string returnParameterFile; ///< Slicer: `name = value` lines

  ForegroundMode foregroundMode = ForegroundMode::NotBackground;
  std::int64_t   foregroundValue = 1;
  std::int64_t   backgroundValue = 0;

  bool        fullyConnected = false;
  std::string backend = "auto"; ///< auto | cuda | cpu
  int         cudaDevice = -1;
  bool        perimeter = true;
  bool        feret = false;
  bool        orientedBoundingBox = false;

  // The generated default image (used when no input is given).
  std::int64_t defaultSize[3] = { 2048, 2048, 1 };
  int          defaultDimension = 2;
  double       defaultDensity = 0.45;
  int          defaultGranularity = 4;
  std::uint32_t defaultSeed = 5489; // MT19937's reference seed

  bool xml = false;
  bool help = false;
  bool version = false;
  bool progress = false; ///< <filter-progress> lines on stdout (on by default under Slicer)
  bool quiet = false;
};

/** Thrown for unusable command lines; main prints the message and the usage. */
class UsageError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/** Parses argv. Accepts `--name value` and `--name=value`; one positional argument (the input). */
AppOptions
ParseArguments(int argc, char * argv[]);

/** The --help text. */
std::string
UsageText(const char * programName);

} // namespace ccaapp

#endif
