// The command line of the emulation tests, [--cases N] [--seed S] and a
// test's own switches: shared by the tests of the whole host sequence
// (EmulatedBackend.h) and those that run a kernel or a device helper alone
// on the fibres, which do not compile the sequence.
#ifndef cca_emulation_CasesAndSeed_h
#define cca_emulation_CasesAndSeed_h

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <iostream>
#include <string>

namespace emulation
{

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
