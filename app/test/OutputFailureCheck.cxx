// Output failures of every output format, concurrent runs, and a memory bound.
//
// unwritable: targets in missing folders, below a file, that are folders, in
//   /proc, outputs that are one file, an output that is the input: each run
//   fails at once with one error line and writes nothing.
// disk-full: each output format (label image in every format, --saveInput,
//   CSV, return parameters) under a file size limit (RLIMIT_FSIZE, as
//   ulimit -f) and under a write-failure shim (LD_PRELOAD: ENOSPC after N
//   bytes, or fsync failing): the run fails cleanly, existing target files
//   keep their content, no temporary folder is left; /dev/full targets fail too.
// concurrent: runs of two different inputs writing the same paths at once:
//   every file afterwards is one complete run's output, and a .mhd header
//   and its .zraw data come from the same run.
// memory: under an address-space limit (RLIMIT_AS, as ulimit -v) a large
//   image is analysed within input + 4 bytes/pixel (+ a fixed allowance), and
//   refused cleanly, before allocating, when the limit is smaller.
//
// Usage: OutputFailureCheck PROGRAM SHIM WORKDIR unwritable|disk-full|concurrent|memory
#include "AppTestSupport.h"

#include <set>

namespace
{

using namespace ccaapptest;

std::string g_Program;
std::string g_Shim;
std::string g_Dir;

RunOptions
Options(const std::string & workDir, std::vector<std::string> arguments)
{
  RunOptions options;
  options.argv = { g_Program };
  options.argv.insert(options.argv.end(), arguments.begin(), arguments.end());
  options.workDir = workDir;
  return options;
}

/** Temporary folders the program leaves in `dir` (must be none). */
std::vector<std::string>
LeftoverTemporaries(const std::string & dir)
{
  std::vector<std::string> left;
  for (const auto & name : ListDirectory(dir))
  {
    if (name.find(".CudaLabelStatistics-") == 0)
    {
      left.push_back(name);
    }
  }
  return left;
}

/** One kind of output: the arguments that request it and the files it produces. */
struct OutputCase
{
  std::string              name;
  std::vector<std::string> arguments;
  std::vector<std::string> files;
};

std::vector<OutputCase>
OutputCases()
{
  std::vector<OutputCase>                     cases;
  const std::vector<std::vector<std::string>> labelFormats = {
    // (the data files as the default --compression auto, which compresses, names them)
    { "out.nrrd" }, { "out.nhdr", "out.raw.gz" }, { "out.nii" }, { "out.nii.gz" }, { "out.hdr", "out.img" },
    { "out.mha" },  { "out.mhd", "out.zraw" },    { "out.vtk" }, { "out.tif" },    { "out.png" }
  };
  for (const auto & files : labelFormats)
  {
    cases.push_back({ "--labels " + files[0], { "--labels", files[0] }, files });
  }
  for (const auto & file : { "in-copy.nrrd", "in-copy.nii.gz", "in-copy.mha", "in-copy.png", "in-copy.tif" })
  {
    cases.push_back({ std::string("--saveInput ") + file, { "--saveInput", file }, { file } });
  }
  cases.push_back({ "--csv", { "--csv", "out.csv" }, { "out.csv" } });
  cases.push_back({ "--returnparameterfile", { "--returnparameterfile", "out.params" }, { "out.params" } });
  return cases;
}

/** The input all output checks run on: 2D (PNG holds 2D only), hundreds of components. */
void
MakeInput(const std::string & dir)
{
  MakeImage<unsigned char, 2>(dir + "/in.nrrd", itk::Size<2>{ { 160, 120 } }, { 0, 0, 1 }, 41);
}

// ---- unwritable targets ------------------------------------------------------------

int
CheckUnwritable()
{
  const std::string dir = g_Dir + "/unwritable";
  FreshDirectory(dir);
  MakeInput(dir);
  WriteText(dir + "/a-file.txt", "a file, not a folder\n");
  int  runs = 0;
  auto refused = [&](const std::vector<std::string> & arguments, const std::string & what) {
    std::vector<std::string> all = { "in.nrrd" };
    all.insert(all.end(), arguments.begin(), arguments.end());
    const auto before = ListDirectory(dir);
    const auto result = Run(Options(dir, all));
    RequireCleanFailure(result, what);
    Require(ListDirectory(dir) == before, what + ": the folder changed");
    std::cout << "refused " << what << ": " << OneLineForLog(result.err) << "\n";
    ++runs;
  };
  for (const auto & output : OutputCases())
  {
    const std::string option = output.arguments[0];
    const std::string file = output.arguments[1];
    refused({ option, "no-such-folder/" + file }, output.name + " in a missing folder");
    refused({ option, "a-file.txt/" + file }, output.name + " below a file");
    MakeDirectory(dir + "/" + file);
    refused({ option, file }, output.name + " onto a folder");
    RemoveTree(dir + "/" + file);
    refused({ option, "/proc/" + file }, output.name + " in /proc");
  }
  refused({ "--labels", "same.nrrd", "--saveInput", "same.nrrd" }, "--labels and --saveInput one file");
  refused({ "--labels", "same.csv.nrrd", "--csv", "same.csv.nrrd" }, "--labels and --csv one file");
  // (.zraw: the data file of a compressed MetaImage.)
  refused({ "--labels", "pair.mhd", "--compression", "fast", "--saveInput", "pair.zraw.nrrd", "--csv", "pair.zraw" },
          "--csv onto the data file of --labels");
  refused({ "--labels", "in.nrrd" }, "--labels onto the input");
  refused({ "--labels", "out.jpg" }, "--labels as JPEG");
  refused({ "--labels", "out.bmp" }, "--labels as BMP");
  refused({ "--labels", "out.gipl" }, "--labels as GIPL");
  std::cout << runs << " unwritable targets refused\n";
  return 0;
}

// ---- full disks --------------------------------------------------------------------

int
CheckDiskFull()
{
  const std::string dir = g_Dir + "/disk-full";
  FreshDirectory(dir);
  MakeInput(dir);
  int runs = 0;
  for (const auto & output : OutputCases())
  {
    // The complete output first, to know its size.
    std::vector<std::string> arguments = { "in.nrrd", "--quiet" };
    arguments.insert(arguments.end(), output.arguments.begin(), output.arguments.end());
    const auto reference = Run(Options(dir, arguments));
    Require(reference.exitCode == 0, output.name + ": the run without limits failed: " + reference.err);
    std::uint64_t largest = 0;
    for (const auto & file : output.files)
    {
      largest = std::max<std::uint64_t>(largest, ReadText(dir + "/" + file).size());
    }

    struct Limit
    {
      std::string              what;
      rlim_t                   fileSize;
      std::vector<std::string> environment;
    };
    std::vector<Limit> limits;
    for (const std::uint64_t bytes : { std::uint64_t{ 0 }, std::uint64_t{ 1 }, largest / 3, largest - 1 })
    {
      limits.push_back({ "file size limit " + std::to_string(bytes), static_cast<rlim_t>(bytes), {} });
    }
    for (const std::uint64_t bytes : { std::uint64_t{ 0 }, std::uint64_t{ 100 }, largest / 3 })
    {
      if (bytes >= largest)
      {
        continue; // the whole output fits
      }
      limits.push_back({ "disk full after " + std::to_string(bytes) + " bytes",
                         RLIM_INFINITY,
                         { "LD_PRELOAD=" + g_Shim, "CCA_SHIM_WRITE_LIMIT=" + std::to_string(bytes) } });
    }
    limits.push_back({ "fsync failing", RLIM_INFINITY, { "LD_PRELOAD=" + g_Shim, "CCA_SHIM_FAIL_FSYNC=1" } });

    for (const auto & limit : limits)
    {
      // Existing targets must keep their content.
      for (const auto & file : output.files)
      {
        WriteText(dir + "/" + file, "old " + file + "\n");
      }
      const auto before = ListDirectory(dir);
      RunOptions options = Options(dir, arguments);
      options.fileSizeLimit = limit.fileSize;
      options.environment = limit.environment;
      const auto what = output.name + ", " + limit.what;
      const auto result = Run(options);
      RequireCleanFailure(result, what);
      for (const auto & file : output.files)
      {
        Require(ReadText(dir + "/" + file) == "old " + file + "\n", what + ": " + file + " was changed");
      }
      Require(ListDirectory(dir) == before,
              what + ": files were added or removed (" + std::to_string(LeftoverTemporaries(dir).size()) +
                " temporary folders left)");
      std::cout << "refused " << what << ": " << OneLineForLog(result.err) << "\n";
      ++runs;
    }
    for (const auto & file : output.files)
    {
      ::unlink((dir + "/" + file).c_str());
    }
  }

  // Devices: /dev/full fails; the other outputs of the run are not written.
  for (const auto & option : { "--csv", "--returnparameterfile" })
  {
    const auto result = Run(Options(dir, { "in.nrrd", "--labels", "device-run.nrrd", option, "/dev/full" }));
    RequireCleanFailure(result, std::string(option) + " /dev/full");
    Require(!Exists(dir + "/device-run.nrrd"), std::string(option) + " /dev/full: the label image was written");
    std::cout << "refused " << option << " /dev/full: " << OneLineForLog(result.err) << "\n";
    ++runs;
  }
  const auto toNull = Run(Options(dir, { "in.nrrd", "--quiet", "--csv", "/dev/null", "--labels", "with-null.nrrd" }));
  Require(toNull.exitCode == 0 && Exists(dir + "/with-null.nrrd"), "--csv /dev/null must work: " + toNull.err);

  // One failing output of several: none is written (a failing table keeps the labels out).
  {
    RunOptions options = Options(dir,
                                 { "in.nrrd",
                                   "--labels",
                                   "many.nrrd",
                                   "--saveInput",
                                   "many-in.nrrd",
                                   "--csv",
                                   "many.csv",
                                   "--returnparameterfile",
                                   "many.params" });
    options.environment = { "LD_PRELOAD=" + g_Shim, "CCA_SHIM_WRITE_LIMIT=3000" };
    const auto result = Run(options);
    RequireCleanFailure(result, "four outputs, disk full after 3000 bytes");
    for (const auto & file : { "many.nrrd", "many-in.nrrd", "many.csv", "many.params" })
    {
      Require(!Exists(dir + "/" + file), std::string("four outputs, disk full: ") + file + " was written");
    }
    ++runs;
  }
  // A target that cannot be replaced (a bind-mounted file, EBUSY) after
  // another was moved in: the one moved in is undone, both keep their old
  // bytes, and a target that was not there before is not left behind.
  for (const bool existing : { true, false })
  {
    for (const std::string failing : { "busy.csv", "busy.nrrd" })
    {
      for (const auto * file : { "busy.nrrd", "busy.csv" })
      {
        ::unlink((dir + "/" + file).c_str());
        if (existing)
        {
          WriteText(dir + "/" + file, std::string("old ") + file + "\n");
        }
      }
      const auto before = ListDirectory(dir);
      RunOptions options = Options(dir, { "in.nrrd", "--labels", "busy.nrrd", "--csv", "busy.csv" });
      options.environment = { "LD_PRELOAD=" + g_Shim, "CCA_SHIM_FAIL_RENAME_TO=" + failing };
      const auto what = std::string(existing ? "old outputs" : "no outputs before") + ", " + failing + " busy";
      RequireCleanFailure(Run(options), what);
      for (const auto * file : { "busy.nrrd", "busy.csv" })
      {
        Require(existing ? ReadText(dir + "/" + file) == std::string("old ") + file + "\n" : !Exists(dir + "/" + file),
                what + ": " + file + " was changed");
      }
      Require(ListDirectory(dir) == before, what + ": files were added or removed");
      ++runs;
    }
  }
  Require(LeftoverTemporaries(dir).empty(), "temporary folders were left");
  std::cout << runs << " failing writes refused cleanly\n";
  return 0;
}

// ---- concurrent runs -----------------------------------------------------------------

int
CheckConcurrent()
{
  const std::string dir = g_Dir + "/concurrent";
  FreshDirectory(dir);
  const std::vector<std::string> inputs = { "a.nrrd", "b.nrrd" };
  MakeImage<unsigned char, 3>(dir + "/a.nrrd", itk::Size<3>{ { 64, 48, 24 } }, { 0, 0, 1 }, 51);
  MakeImage<unsigned char, 3>(dir + "/b.nrrd", itk::Size<3>{ { 64, 48, 24 } }, { 0, 1, 1 }, 52);
  const std::vector<std::string> outputs = { "x.mhd", "x.zraw", "x.csv", "y.nii.gz", "x.params" };
  auto                           arguments = [](const std::string & input) {
    return std::vector<std::string>{
      input,   "--quiet", "--labels",    "x.mhd",    "--compression",         "fast",
      "--csv", "x.csv",   "--saveInput", "y.nii.gz", "--returnparameterfile", "x.params"
    };
  };
  // What each input's run writes, alone.
  std::map<std::string, std::map<std::string, std::string>> reference;
  for (const auto & input : inputs)
  {
    const auto result = Run(Options(dir, arguments(input)));
    Require(result.exitCode == 0, "reference run failed: " + result.err);
    for (const auto & file : outputs)
    {
      reference[input][file] = ReadText(dir + "/" + file);
    }
  }
  Require(reference["a.nrrd"]["x.zraw"] != reference["b.nrrd"]["x.zraw"], "the two inputs give the same labels");

  const int rounds = 6;
  for (int round = 0; round < rounds; ++round)
  {
    std::vector<Child> children;
    for (int run = 0; run < 4; ++run)
    {
      children.push_back(Spawn(Options(dir, arguments(inputs[(run + round) % 2]))));
    }
    for (const auto & child : children)
    {
      const auto result = Wait(child);
      Require(!result.Signalled() && result.exitCode == 0, "a concurrent run failed: " + result.err);
    }
    const std::string labelsHeader = ReadText(dir + "/x.mhd");
    for (const auto & file : outputs)
    {
      const std::string bytes = ReadText(dir + "/" + file);
      Require(bytes == reference["a.nrrd"][file] || bytes == reference["b.nrrd"][file],
              "round " + std::to_string(round) + ": " + file + " is no single run's output");
    }
    const std::string & from = labelsHeader == reference["a.nrrd"]["x.mhd"] ? "a.nrrd" : "b.nrrd";
    Require(ReadText(dir + "/x.zraw") == reference[from]["x.zraw"],
            "round " + std::to_string(round) + ": x.mhd and x.zraw come from different runs");
    Require(LeftoverTemporaries(dir).empty(), "temporary folders were left");
  }
  std::cout << rounds << " rounds of 4 concurrent runs: every output is one run's, the .mhd pair consistent\n";
  return 0;
}

// ---- a memory bound ------------------------------------------------------------------

/** Runs with the address space limited to `limit` bytes; the CPU backend, two threads. */
RunResult
RunLimited(const std::string & dir, const std::vector<std::string> & arguments, rlim_t limit)
{
  RunOptions options = Options(dir, arguments);
  options.addressSpaceLimit = limit;
  options.environment = { "ITK_GLOBAL_DEFAULT_NUMBER_OF_THREADS=2", "MALLOC_ARENA_MAX=2" };
  return Run(options);
}

int
CheckMemory()
{
  const std::string dir = g_Dir + "/memory";
  FreshDirectory(dir);
  constexpr rlim_t MiB = 1 << 20;
  // The program's own footprint: the smallest limit under which a tiny run works.
  const std::vector<std::string> tiny = { "--defaultSize", "64x64",  "--backend", "cpu",  "--quiet",
                                          "--labels",      "t.nrrd", "--csv",     "t.csv" };
  // Below it the run fails, but never by a signal and never leaving files
  // (or the dynamic loader cannot map the libraries: exit 127).
  rlim_t low = 16 * MiB;
  rlim_t high = 8192 * MiB;
  Require(RunLimited(dir, tiny, high).exitCode == 0, "the tiny run fails even with 8 GiB of address space");
  while (high - low > 4 * MiB)
  {
    const rlim_t middle = (low + high) / 2;
    const auto   result = RunLimited(dir, tiny, middle);
    Require(!result.Signalled(),
            "a run under " + std::to_string(middle / MiB) + " MiB ended by signal " + std::to_string(result.signal) +
              " (" + result.command + ")");
    Require(result.exitCode == 0 || result.exitCode == 127 || Lines(result.err).size() == 1,
            "a failing run must print one line: " + result.err);
    Require(LeftoverTemporaries(dir).empty(), "a run under " + std::to_string(middle / MiB) + " MiB left files");
    (result.exitCode == 0 ? high : low) = middle;
  }
  const rlim_t baseline = high;
  std::cout << "baseline address space of a tiny run: " << baseline / MiB << " MiB\n";

  // 8192 x 8192 (64 Mi pixels): the uint8 input 64 MiB, uint32 labels 256 MiB.
  // Input + 4 bytes/pixel, plus a fixed allowance for threads, the label map
  // and compression: 256 MiB (here the run needs about 100 MiB of it). A label
  // image of 8 bytes/pixel, or a second copy of it, would not fit.
  const std::vector<std::string> large = { "--defaultSize", "8192x8192", "--granularity", "64",
                                           "--density",     "0.5",       "--seed",        "3",
                                           "--backend",     "cpu",       "--labels",      "large.nrrd",
                                           "--csv",         "large.csv" };
  const rlim_t                   pixels = 8192 * 8192;
  const rlim_t                   bound = baseline + pixels * (1 + 4) + 256 * MiB;
  const auto                     fits = RunLimited(dir, large, bound);
  std::cout << "under " << bound / MiB << " MiB: exit " << fits.exitCode << "\n" << fits.err;
  Require(!fits.Signalled() && fits.exitCode == 0,
          "the 8192 x 8192 run must fit in input + 4 bytes/pixel + 256 MiB (" + fits.command + ")");
  Require(Exists(dir + "/large.nrrd") && Exists(dir + "/large.csv"), "the large run's outputs are missing");
  ::unlink((dir + "/large.nrrd").c_str());
  ::unlink((dir + "/large.csv").c_str());

  // With room for the input but not for the labels: refused before allocating, nothing written.
  const rlim_t small = baseline + pixels * 2;
  const auto   refused = RunLimited(dir, large, small);
  RequireCleanFailure(refused, "the large run under " + std::to_string(small / MiB) + " MiB");
  Require(refused.err.find("memory") != std::string::npos, "the refusal must say memory ran short: " + refused.err);
  Require(!Exists(dir + "/large.nrrd") && !Exists(dir + "/large.csv") && LeftoverTemporaries(dir).empty(),
          "the refused run left files");
  std::cout << "under " << small / MiB << " MiB: " << refused.err;
  return 0;
}

} // namespace

int
main(int argc, char * argv[])
{
  if (argc != 5)
  {
    std::cerr << "Usage: " << argv[0] << " PROGRAM SHIM WORKDIR unwritable|disk-full|concurrent|memory\n";
    return 2;
  }
  g_Program = argv[1];
  g_Shim = argv[2];
  g_Dir = argv[3];
  const std::string mode = argv[4];
  try
  {
    MakeDirectory(g_Dir);
    if (mode == "unwritable")
      return CheckUnwritable();
    if (mode == "disk-full")
      return CheckDiskFull();
    if (mode == "concurrent")
      return CheckConcurrent();
    if (mode == "memory")
      return CheckMemory();
    std::cerr << "unknown mode " << mode << "\n";
    return 2;
  }
  catch (const std::exception & error)
  {
    std::cerr << "FAILED (" << mode << ", files kept in " << g_Dir << "): " << error.what() << "\n";
    return 1;
  }
}
