// What the emulation tests share: the CUDA backend's host sequence
// (cuda/HostSequence.cuh) compiled for the emulated device, an emulated
// backend that keeps its buffers across runs as an engine does, the view of
// a dense uint8 test image and the command line. Include it instead of the
// .cuh headers.
#ifndef cca_emulation_EmulatedBackend_h
#define cca_emulation_EmulatedBackend_h

#include "EmulatedDevice.h"

// The kernels live in their own namespace here: the engine library linked
// for the CPU reference holds the real ones under the same names.
#define cuda cudaemulated
#include "HostSequence.cuh"
#undef cuda

#include "cca/Types.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <string>
#include <vector>

namespace emulation
{

using Sequence = cca::cudaemulated::HostSequence<Device>;

/** One device and host sequence, kept across runs. The runs are compiled
 *  once, in EmulatedBackend.cpp (the library ccaEmulatedHostSequence), not
 *  in every test that emulates them: the sequence with every strategy,
 *  compaction and kernel was most of the tests' build time. */
struct Backend
{
  Device   device;
  Sequence sequence;

  /** The strategy of options.algorithm, as the CUDA backend runs it. */
  void
  Run(const cca::ImageView & image, const cca::Options & options, cca::Result & result);

  /** DLP (Cabaret 2017) without the optional regularization of its tile step,
   *  a strategy outside the table, with 64-bit unit indices. */
  void
  RunUnregularizedDlp(const cca::ImageView & image, const cca::Options & options, cca::Result & result);
};

/** A dense uint8 image of size[0] x size[1] x size[2]. */
inline cca::ImageView
ByteImageView(const std::vector<std::uint8_t> & image, int dimension, const std::int64_t (&size)[3])
{
  cca::ImageView view;
  view.data = image.data();
  view.pixelType = cca::PixelType::UInt8;
  view.dimension = dimension;
  for (int i = 0; i < 3; ++i)
  {
    view.size[i] = size[i];
  }
  return view;
}

/** A switch a test adds to ParseCasesAndSeed's command line: --name clears
 *  *on (the switches leave out parts of a run). */
struct LeaveOutSwitch
{
  const char * name;
  const char * what; ///< for the usage line
  bool *       on;
};

/** The tests' command line, [--cases N] [--seed S] and the test's switches:
 *  false (after printing the usage) when it is not that. */
inline bool
ParseCasesAndSeed(int                                   argc,
                  char *                                argv[],
                  int &                                 cases,
                  std::uint32_t &                       seed,
                  std::initializer_list<LeaveOutSwitch> switches = {})
{
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    const auto        leaveOut =
      std::find_if(switches.begin(), switches.end(), [&](const LeaveOutSwitch & s) { return arg == s.name; });
    if (arg == "--cases" && i + 1 < argc)
    {
      cases = std::atoi(argv[++i]);
    }
    else if (arg == "--seed" && i + 1 < argc)
    {
      seed = static_cast<std::uint32_t>(std::strtoul(argv[++i], nullptr, 10));
    }
    else if (leaveOut != switches.end())
    {
      *leaveOut->on = false;
    }
    else
    {
      std::cerr << "usage: " << argv[0] << " [--cases N] [--seed S]";
      for (const LeaveOutSwitch & s : switches)
      {
        std::cerr << " [" << s.name << "]";
      }
      std::cerr << std::endl;
      for (const LeaveOutSwitch & s : switches)
      {
        std::cerr << "  " << s.name << ": " << s.what << std::endl;
      }
      return false;
    }
  }
  return true;
}

} // namespace emulation

#endif
