// Command-line options of the CudaLabelStatistics program.
#ifndef CudaLabelStatisticsApp_Arguments_h
#define CudaLabelStatisticsApp_Arguments_h

#include "ImageFormats.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace ccaapp
{

/** Holds every int64 and every uint64 value (pixel values of any integer type). */
using WideInteger = __int128;

/** Decimal text of a WideInteger. */
std::string
ToString(WideInteger value);

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
  /** Of the image outputs. None by default, as ITK's and SimpleITK's
   *  writers: on the H100 machine a raw 537 MB label image is written in
   *  0.16 s, zlib's level 1 (25 times smaller) takes 2.4 s on one thread,
   *  six times the analysis (docs/results-history.md). */
  Compression compression = Compression::Auto; ///< resolved for each output by CompressionOf

  ForegroundMode foregroundMode = ForegroundMode::NotBackground;
  /** Unset: the largest value of the pixel type, as ITK's BinaryImageToShapeLabelMapFilter. */
  std::optional<WideInteger> foregroundValue;
  WideInteger                backgroundValue = 0;

  bool        fullyConnected = false;
  std::string backend = "auto"; ///< auto | cuda | cpu
  int         cudaDevice = -1;
  bool        perimeter = true;
  bool        feret = false;
  bool        orientedBoundingBox = false;

  /** A second image whose values are measured in each object (empty: none). */
  std::string featureImage;
  /** Each value of the (integer) input is one object; with splitLabels, each
   *  connected component of a value (implies labelInput). */
  bool labelInput = false;
  bool splitLabels = false;
  /** Objects outside these sizes are left out; 0 leaves the bound out. */
  std::int64_t minimumSize = 0;
  std::int64_t maximumSize = 0;
  double       minimumPhysicalSize = 0;
  double       maximumPhysicalSize = 0;
  std::int64_t keepLargest = 0;    ///< > 0: only the keepLargest largest objects
  bool         sortBySize = false; ///< objects numbered 1, 2, ... by decreasing size

  // The generated default image (used when no input is given).
  std::int64_t  defaultSize[3] = { 2048, 2048, 1 };
  int           defaultDimension = 2;
  double        defaultDensity = 0.45;
  int           defaultGranularity = 4;
  std::uint32_t defaultSeed = 5489; // MT19937's reference seed

  bool xml = false;
  bool help = false;
  bool version = false;
  bool progress = false; ///< <filter-progress> lines on stdout (on by default under Slicer)
  bool quiet = false;
};

/** Thrown for unusable command lines; main prints the message and exits with 2. */
class UsageError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/** Parses argv: `--name value` and `--name=value`, every number in decimal, one
 *  positional argument (the input). Each option is accepted under its Slicer
 *  name (camelCase, as in --xml) and under its dashed alias (--fully-connected). */
AppOptions
ParseArguments(int argc, char * argv[]);

/** The --help text. */
std::string
UsageText(const char * programName);

} // namespace ccaapp

#endif
