#include "MemoryBudget.h"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/resource.h>
#include <unistd.h>

namespace ccaapp
{
namespace
{

std::string
Bytes(std::uint64_t bytes)
{
  std::ostringstream text;
  text.precision(3);
  if (bytes >= (std::uint64_t{ 1 } << 30))
    text << static_cast<double>(bytes) / (1 << 30) << " GiB";
  else
    text << static_cast<double>(bytes) / (1 << 20) << " MiB";
  return text.str();
}

/** Bytes of address space in use now (/proc/self/statm), 0 when unknown. */
std::uint64_t
AddressSpaceInUse()
{
  std::ifstream statm("/proc/self/statm");
  std::uint64_t pages = 0;
  statm >> pages;
  return pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

std::uint64_t
SwapBytes()
{
  std::ifstream meminfo("/proc/meminfo");
  std::string   line;
  while (std::getline(meminfo, line))
  {
    if (line.compare(0, 10, "SwapTotal:") == 0)
    {
      return std::stoull(line.substr(10)) * 1024;
    }
  }
  return 0;
}

} // namespace

std::uint64_t
SaturatingProduct(std::uint64_t a, std::uint64_t b)
{
  std::uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

void
RequireMemory(std::uint64_t bytes, const std::string & what)
{
  const std::uint64_t physical =
    static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  std::uint64_t available = physical + SwapBytes();
  std::string   limit = "physical memory and swap";
  rlimit        addressSpace{};
  if (::getrlimit(RLIMIT_AS, &addressSpace) == 0 && addressSpace.rlim_cur != RLIM_INFINITY)
  {
    const std::uint64_t inUse = AddressSpaceInUse();
    const std::uint64_t left = addressSpace.rlim_cur > inUse ? addressSpace.rlim_cur - inUse : 0;
    if (left < available)
    {
      available = left;
      limit = "the address-space limit (ulimit -v)";
    }
  }
  if (bytes > available)
  {
    throw std::runtime_error(what + " needs about " + Bytes(bytes) + " of memory, more than " + limit + " leaves (" +
                             Bytes(available) + ")");
  }
}

} // namespace ccaapp
