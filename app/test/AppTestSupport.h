// Shared by the program's end-to-end checks: running the program (argv exactly,
// no shell, optional resource limits and environment), making input images,
// and checking a label image and table against ITK's ConnectedComponentImageFilter.
#ifndef CudaLabelStatisticsApp_AppTestSupport_h
#define CudaLabelStatisticsApp_AppTestSupport_h

#include "itkConnectedComponentImageFilter.h"
#include "itkImageFileReader.h"
#include "itkImageFileWriter.h"
#include "itkImageIOFactory.h"
#include "itkImageRegionConstIterator.h"
#include "itkImageRegionIterator.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ccaapptest
{

struct Failure : std::runtime_error
{
  using std::runtime_error::runtime_error;
};

inline void
Require(bool condition, const std::string & message)
{
  if (!condition)
  {
    throw Failure(message);
  }
}

inline std::string
ReadText(const std::string & path)
{
  std::ifstream      in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void
WriteText(const std::string & path, const std::string & text)
{
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  Require(static_cast<bool>(out), "cannot write " + path);
}

inline bool
Exists(const std::string & path)
{
  struct stat status;
  return ::lstat(path.c_str(), &status) == 0;
}

/** Names in a directory, without . and .. (sorted). */
inline std::vector<std::string>
ListDirectory(const std::string & path)
{
  std::vector<std::string> names;
  if (DIR * dir = ::opendir(path.c_str()))
  {
    while (const dirent * entry = ::readdir(dir))
    {
      const std::string name = entry->d_name;
      if (name != "." && name != "..")
      {
        names.push_back(name);
      }
    }
    ::closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

/** rm -rf, for test folders only. */
inline void
RemoveTree(const std::string & path)
{
  struct stat status;
  if (::lstat(path.c_str(), &status) != 0)
  {
    return;
  }
  if (S_ISDIR(status.st_mode))
  {
    ::chmod(path.c_str(), 0755);
    for (const auto & name : ListDirectory(path))
    {
      RemoveTree(path + "/" + name);
    }
    ::rmdir(path.c_str());
  }
  else
  {
    ::unlink(path.c_str());
  }
}

inline void
MakeDirectory(const std::string & path)
{
  Require(::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST, "cannot create " + path);
}

/** A fresh, empty directory. */
inline void
FreshDirectory(const std::string & path)
{
  RemoveTree(path);
  MakeDirectory(path);
}

struct RunOptions
{
  std::vector<std::string> argv;                              ///< argv[0] is the program
  std::string              workDir;                           ///< the program runs here
  std::vector<std::string> environment;                       ///< extra NAME=value entries
  rlim_t                   addressSpaceLimit = RLIM_INFINITY; ///< RLIMIT_AS (ulimit -v), bytes
  rlim_t                   fileSizeLimit = RLIM_INFINITY;     ///< RLIMIT_FSIZE (ulimit -f), bytes
  unsigned                 timeoutSeconds = 120;              ///< SIGALRM ends a hung run
};

struct RunResult
{
  int         exitCode = -1; ///< -1 when a signal ended the program
  int         signal = 0;
  std::string out;
  std::string err;
  std::string command; ///< for messages: how to reproduce the run

  bool
  Signalled() const
  {
    return signal != 0;
  }
};

inline std::string
QuotedCommand(const RunOptions & options)
{
  std::string command = "cd '" + options.workDir + "' &&";
  for (const auto & variable : options.environment)
  {
    command += " " + variable;
  }
  if (options.addressSpaceLimit != RLIM_INFINITY)
  {
    command = "ulimit -v " + std::to_string(options.addressSpaceLimit / 1024) + " && " + command;
  }
  if (options.fileSizeLimit != RLIM_INFINITY)
  {
    command = "ulimit -f " + std::to_string((options.fileSizeLimit + 1023) / 1024) + " && " + command;
  }
  for (const auto & argument : options.argv)
  {
    command += " '" + argument + "'";
  }
  return command;
}

/** A started program; Wait() collects it. Its stdout and stderr are pipes:
 *  files would count against the file size limit a test may set. */
struct Child
{
  pid_t       pid = -1;
  int         out = -1;
  int         err = -1;
  std::string command;
};

inline Child
Spawn(const RunOptions & options)
{
  Child child;
  child.command = QuotedCommand(options);
  std::vector<char *> argv;
  for (const auto & argument : options.argv)
  {
    argv.push_back(const_cast<char *>(argument.c_str()));
  }
  argv.push_back(nullptr);
  int outPipe[2];
  int errPipe[2];
  Require(::pipe2(outPipe, O_CLOEXEC) == 0 && ::pipe2(errPipe, O_CLOEXEC) == 0, "pipe failed");
  std::cout.flush();
  std::cerr.flush();
  child.pid = ::fork();
  Require(child.pid >= 0, "fork failed");
  if (child.pid == 0)
  {
    if (::chdir(options.workDir.c_str()) != 0)
    {
      ::_exit(125);
    }
    ::dup2(outPipe[1], 1);
    ::dup2(errPipe[1], 2);
    for (const auto & variable : options.environment)
    {
      ::putenv(const_cast<char *>(variable.c_str()));
    }
    rlimit limit{};
    if (options.addressSpaceLimit != RLIM_INFINITY)
    {
      limit.rlim_cur = limit.rlim_max = options.addressSpaceLimit;
      ::setrlimit(RLIMIT_AS, &limit);
    }
    if (options.fileSizeLimit != RLIM_INFINITY)
    {
      limit.rlim_cur = limit.rlim_max = options.fileSizeLimit;
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    ::alarm(options.timeoutSeconds);
    ::execv(argv[0], argv.data());
    ::_exit(126);
  }
  ::close(outPipe[1]);
  ::close(errPipe[1]);
  child.out = outPipe[0];
  child.err = errPipe[0];
  return child;
}

inline RunResult
Wait(const Child & child)
{
  RunResult result;
  result.command = child.command;
  // Both pipes to their end, then the exit status.
  pollfd        pipes[2] = { { child.out, POLLIN, 0 }, { child.err, POLLIN, 0 } };
  std::string * texts[2] = { &result.out, &result.err };
  int           open = 2;
  while (open > 0)
  {
    if (::poll(pipes, 2, -1) < 0)
    {
      if (errno == EINTR)
        continue;
      break;
    }
    for (int i = 0; i < 2; ++i)
    {
      if (pipes[i].fd >= 0 && (pipes[i].revents & (POLLIN | POLLHUP | POLLERR)))
      {
        char          buffer[4096];
        const ssize_t got = ::read(pipes[i].fd, buffer, sizeof(buffer));
        if (got > 0)
        {
          texts[i]->append(buffer, static_cast<size_t>(got));
        }
        else if (got == 0 || errno != EINTR)
        {
          ::close(pipes[i].fd);
          pipes[i].fd = -1;
          --open;
        }
      }
    }
  }
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR)
  {}
  if (WIFEXITED(status))
  {
    result.exitCode = WEXITSTATUS(status);
  }
  else if (WIFSIGNALED(status))
  {
    result.signal = WTERMSIG(status);
  }
  return result;
}

inline RunResult
Run(const RunOptions & options)
{
  return Wait(Spawn(options));
}

/** Runs and prints the command and its output (the log ctest shows on failure). */
inline RunResult
RunAndShow(const RunOptions & options)
{
  RunResult result = Run(options);
  std::cout << "ran: " << result.command << "\n" << result.out << result.err;
  if (result.Signalled())
  {
    std::cout << "(ended by signal " << result.signal << ")\n";
  }
  return result;
}

/** The lines of a text, without empty ones. */
inline std::vector<std::string>
Lines(const std::string & text)
{
  std::vector<std::string> lines;
  std::stringstream        stream(text);
  std::string              line;
  while (std::getline(stream, line))
  {
    if (!line.empty())
    {
      lines.push_back(line);
    }
  }
  return lines;
}

/** The first line of a text, for logs. */
inline std::string
OneLineForLog(const std::string & text)
{
  const auto end = text.find('\n');
  return text.substr(0, std::min<size_t>(end, 200));
}

/** A failed run: no signal, exit 1, exactly one stderr line "error: ...". */
inline void
RequireCleanFailure(const RunResult & result, const std::string & what)
{
  Require(!result.Signalled(),
          what + ": ended by signal " + std::to_string(result.signal) + " (" + result.command + ")");
  Require(result.exitCode == 1,
          what + ": exit code " + std::to_string(result.exitCode) + ", expected 1 (" + result.command +
            ")\nstderr: " + result.err);
  const auto lines = Lines(result.err);
  Require(lines.size() == 1 && lines[0].compare(0, 7, "error: ") == 0,
          what + ": stderr must be one line 'error: ...', got:\n" + result.err + "(" + result.command + ")");
}

/** Runs the program in `dir` with `arguments` and shows what it printed. */
inline RunResult
RunIn(const std::string & program, const std::string & dir, std::vector<std::string> arguments)
{
  RunOptions options;
  options.argv = { program };
  options.argv.insert(options.argv.end(), arguments.begin(), arguments.end());
  options.workDir = dir;
  return RunAndShow(options);
}

inline void
RequireSuccess(const RunResult & result)
{
  Require(!result.Signalled() && result.exitCode == 0, "program failed: " + result.command);
}

/** A usage error: exit 2, one line on stderr, nothing written in the folder. */
inline void
RequireUsageError(const std::string &              program,
                  const std::string &              dir,
                  const std::vector<std::string> & arguments,
                  const std::string &              expected)
{
  const auto before = ListDirectory(dir);
  const auto result = RunIn(program, dir, arguments);
  Require(!result.Signalled() && result.exitCode == 2,
          "exit code " + std::to_string(result.exitCode) + ", expected 2: " + result.command);
  Require(Lines(result.err).size() == 1 && result.err.find(expected) != std::string::npos,
          "the message must be one line naming '" + expected + "', got: " + result.err);
  Require(ListDirectory(dir) == before, "a refused command line wrote files: " + result.command);
}

// ---- input images ------------------------------------------------------------------

/** Random pixels drawn from `values`, spacing 0.5, 1.5, 2.5 (labels must not
 *  depend on it); fixed seed so failures reproduce. */
template <typename TPixel, unsigned int D>
typename itk::Image<TPixel, D>::Pointer
RandomImage(const itk::Size<D> & size, const std::vector<double> & values, unsigned seed)
{
  using ImageType = itk::Image<TPixel, D>;
  auto image = ImageType::New();
  image->SetRegions(size);
  image->Allocate();
  typename ImageType::SpacingType spacing;
  for (unsigned int d = 0; d < D; ++d)
  {
    spacing[d] = 0.5 + d;
  }
  image->SetSpacing(spacing);
  std::mt19937                          generator(seed);
  std::uniform_int_distribution<size_t> pick(0, values.size() - 1);
  for (itk::ImageRegionIterator<ImageType> it(image, image->GetLargestPossibleRegion()); !it.IsAtEnd(); ++it)
  {
    it.Set(static_cast<TPixel>(values[pick(generator)]));
  }
  return image;
}

template <typename TImage>
void
WriteImage(const TImage * image, const std::string & path, bool compress = false)
{
  auto writer = itk::ImageFileWriter<TImage>::New();
  writer->SetInput(image);
  writer->SetFileName(path);
  writer->SetUseCompression(compress);
  writer->Update();
}

template <typename TPixel, unsigned int D>
void
MakeImage(const std::string & path, const itk::Size<D> & size, const std::vector<double> & values, unsigned seed)
{
  WriteImage(RandomImage<TPixel, D>(size, values, seed).GetPointer(), path);
}

// ---- checking outputs ----------------------------------------------------------------

struct Expectation
{
  bool   fullyConnected = false;
  bool   equalRule = false; ///< foreground = (value == v), else value != v; NaN never
  double value = 0;
  bool   perimeterColumns = true;
  bool   feretColumn = false;
  bool   orientedBoxColumns = false;
};

inline std::vector<std::string>
SplitCsvLine(const std::string & line)
{
  std::vector<std::string> cells;
  std::stringstream        stream(line);
  std::string              cell;
  while (std::getline(stream, cell, ','))
  {
    cells.push_back(cell);
  }
  return cells;
}

/** The input's mask by the expectation's rule. */
template <unsigned int D>
typename itk::Image<unsigned char, D>::Pointer
ReadMask(const std::string & input, const Expectation & e)
{
  using RealImageType = itk::Image<double, D>;
  using MaskImageType = itk::Image<unsigned char, D>;
  auto reader = itk::ImageFileReader<RealImageType>::New();
  reader->SetFileName(input);
  reader->Update();
  auto real = reader->GetOutput();
  auto mask = MaskImageType::New();
  mask->CopyInformation(real);
  mask->SetRegions(real->GetLargestPossibleRegion());
  mask->Allocate();
  itk::ImageRegionConstIterator<RealImageType> in(real, real->GetLargestPossibleRegion());
  itk::ImageRegionIterator<MaskImageType>      out(mask, mask->GetLargestPossibleRegion());
  for (; !in.IsAtEnd(); ++in, ++out)
  {
    out.Set(!std::isnan(in.Get()) && (in.Get() == e.value) == e.equalRule ? 1 : 0);
  }
  return mask;
}

/** Checks a label image against ConnectedComponentImageFilter on the mask, and
 *  its geometry against the input's; returns the pixel count per label. */
template <unsigned int D>
std::map<unsigned int, size_t>
CheckLabelImage(const itk::Image<unsigned char, D> * mask,
                bool                                 fullyConnected,
                const std::string &                  labelsPath,
                size_t &                             expectedCount)
{
  using MaskImageType = itk::Image<unsigned char, D>;
  using LabelImageType = itk::Image<unsigned int, D>;
  auto reference = itk::ConnectedComponentImageFilter<MaskImageType, LabelImageType>::New();
  reference->SetInput(mask);
  reference->SetFullyConnected(fullyConnected);
  reference->Update();
  expectedCount = reference->GetObjectCount();

  auto labelsReader = itk::ImageFileReader<LabelImageType>::New();
  labelsReader->SetFileName(labelsPath);
  labelsReader->Update();
  auto labels = labelsReader->GetOutput();
  Require(labels->GetLargestPossibleRegion().GetSize() == mask->GetLargestPossibleRegion().GetSize(),
          "label image size differs from the input");
  // PNG (pHYs) and TIFF (XResolution, YResolution) store the x and y
  // spacing, no origin, no direction, no z spacing.
  const bool isTiff = labelsPath.size() > 4 && labelsPath.substr(labelsPath.size() - 4) == ".tif";
  const bool isPng = labelsPath.size() > 4 && labelsPath.substr(labelsPath.size() - 4) == ".png";
  const bool noGeometry = isTiff || isPng;
  for (unsigned int d = 0; d < D && d < 2 && noGeometry; ++d)
  {
    Require(std::abs(labels->GetSpacing()[d] - mask->GetSpacing()[d]) < 1e-6 * mask->GetSpacing()[d],
            std::string(isPng ? "PNG" : "TIFF") + " label image spacing differs from the input");
  }
  for (unsigned int d = 0; d < D && !noGeometry; ++d)
  {
    Require(std::abs(labels->GetSpacing()[d] - mask->GetSpacing()[d]) < 1e-6,
            "label image spacing differs from the input");
    Require(std::abs(labels->GetOrigin()[d] - mask->GetOrigin()[d]) < 1e-6,
            "label image origin differs from the input");
  }

  std::map<unsigned int, size_t>                counts;
  itk::ImageRegionConstIterator<LabelImageType> ours(labels, labels->GetLargestPossibleRegion());
  itk::ImageRegionConstIterator<LabelImageType> theirs(reference->GetOutput(), labels->GetLargestPossibleRegion());
  for (; !ours.IsAtEnd(); ++ours, ++theirs)
  {
    if (ours.Get() != theirs.Get())
    {
      std::ostringstream message;
      message << "label image differs from ConnectedComponentImageFilter at index " << ours.GetIndex() << ": "
              << ours.Get() << " vs " << theirs.Get();
      throw Failure(message.str());
    }
    if (ours.Get() != 0)
    {
      ++counts[ours.Get()];
    }
  }
  Require(counts.size() == expectedCount, "label image has a wrong number of labels");
  return counts;
}

/** The table: header, one row per component in label order, pixel counts equal to the label image's. */
template <unsigned int D>
void
CheckTable(const std::string &                    csvPath,
           const std::map<unsigned int, size_t> & counts,
           size_t                                 expectedCount,
           const Expectation &                    e)
{
  std::ifstream csv(csvPath);
  Require(csv.good(), "cannot read " + csvPath);
  std::string line;
  std::getline(csv, line);
  const auto header = SplitCsvLine(line);
  auto       column = [&header](const std::string & name) -> long {
    for (size_t i = 0; i < header.size(); ++i)
    {
      if (header[i] == name)
      {
        return static_cast<long>(i);
      }
    }
    return -1;
  };
  Require(column("Label") == 0 && column("NumberOfPixels") == 1, "CSV header must start with Label,NumberOfPixels");
  for (const char * name : { "PhysicalSize",
                             "Centroid_x",
                             "BoundingBoxIndex_x",
                             "BoundingBoxSize_x",
                             "NumberOfPixelsOnBorder",
                             "PerimeterOnBorder",
                             "PrincipalMoments_0",
                             "PrincipalAxes_0_x",
                             "Elongation",
                             "EquivalentSphericalRadius",
                             "EquivalentSphericalPerimeter",
                             "EquivalentEllipsoidDiameter_0",
                             "Flatness" })
  {
    Require(column(name) >= 0, std::string("CSV lacks column ") + name);
  }
  Require((column("Perimeter") >= 0) == e.perimeterColumns, "Perimeter column present iff perimeter computed");
  Require((column("Roundness") >= 0) == e.perimeterColumns, "Roundness column present iff perimeter computed");
  Require((column("FeretDiameter") >= 0) == e.feretColumn, "FeretDiameter column present iff requested");
  Require((column("OrientedBoundingBoxSize_0") >= 0) == e.orientedBoxColumns,
          "OrientedBoundingBox columns present iff requested");
  Require(column(D == 3 ? "Centroid_z" : "Centroid_y") >= 0 && (D == 3 || column("Centroid_z") == -1),
          "one Centroid column per dimension");

  size_t rows = 0;
  while (std::getline(csv, line))
  {
    if (line.empty())
    {
      continue;
    }
    ++rows;
    const auto cells = SplitCsvLine(line);
    Require(cells.size() == header.size(), "CSV row " + std::to_string(rows) + " has a wrong number of cells");
    const auto label = std::stoul(cells[0]);
    Require(label == rows, "CSV rows must be labels 1..N in order; row " + std::to_string(rows) + " is " + cells[0]);
    const auto count = counts.find(static_cast<unsigned int>(label));
    Require(count != counts.end() && std::stoul(cells[1]) == count->second,
            "NumberOfPixels of label " + cells[0] + " is " + cells[1] + ", not the label image's");
  }
  Require(rows == expectedCount,
          "CSV has " + std::to_string(rows) + " rows, ITK finds " + std::to_string(expectedCount) + " components");
}

template <unsigned int D>
size_t
CheckOutputs(const std::string & input,
             const std::string & labelsPath,
             const std::string & csvPath,
             const Expectation & e)
{
  const auto mask = ReadMask<D>(input, e);
  size_t     expectedCount = 0;
  const auto counts = CheckLabelImage<D>(mask, e.fullyConnected, labelsPath, expectedCount);
  CheckTable<D>(csvPath, counts, expectedCount, e);
  return expectedCount;
}

inline unsigned int
FileDimension(const std::string & path)
{
  auto io = itk::ImageIOFactory::CreateImageIO(path.c_str(), itk::IOFileModeEnum::ReadMode);
  Require(io != nullptr, "cannot read " + path);
  io->SetFileName(path);
  io->ReadImageInformation();
  unsigned int dimension = io->GetNumberOfDimensions();
  while (dimension > 3 && io->GetDimensions(dimension - 1) == 1)
  {
    --dimension;
  }
  return dimension;
}

/** Labels and CSV against ConnectedComponentImageFilter; returns the number of components. */
inline size_t
CheckOutputsAnyDimension(const std::string & input,
                         const std::string & labels,
                         const std::string & csv,
                         const Expectation & e)
{
  return FileDimension(input) == 3 ? CheckOutputs<3>(input, labels, csv, e) : CheckOutputs<2>(input, labels, csv, e);
}

/** Reads a return parameter file the way Slicer does (ModuleDescription::ReadParameterFile). */
inline std::map<std::string, std::string>
ReadReturnParameters(const std::string & path)
{
  std::map<std::string, std::string> values;
  std::stringstream                  text(ReadText(path));
  std::string                        line;
  auto                               trim = [](std::string s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    const auto last = s.find_last_not_of(" \t\r\n");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
  };
  while (std::getline(text, line))
  {
    const auto equals = line.find('=');
    if (equals != std::string::npos)
    {
      values[trim(line.substr(0, equals))] = trim(line.substr(equals + 1));
    }
  }
  return values;
}

inline void
CheckReturnFile(const std::string & path, size_t components)
{
  const auto values = ReadReturnParameters(path);
  const auto found = values.find("numberOfComponents");
  Require(found != values.end() && found->second == std::to_string(components),
          "return parameter file reads '" + ReadText(path) +
            "', expected numberOfComponents = " + std::to_string(components));
}

} // namespace ccaapptest

#endif
