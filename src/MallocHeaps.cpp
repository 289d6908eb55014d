#include "cca/MallocHeaps.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#if defined(__GLIBC__)
#  include <malloc.h>
#endif

namespace cca
{

namespace
{

#if defined(__GLIBC__)
/** glibc's own M_TOP_PAD (DEFAULT_TOP_PAD). */
constexpr int GlibcDefaultTopPad = 128 * 1024;

std::mutex scopeMutex;
int        liveScopes = 0; ///< MallocHeapSteps objects that took effect, alive

/** Read once: the environment of the process at its first map. */
bool
EnvironmentKeepsMallocSettings()
{
  static const bool keep = [] {
    const char * keepVariable = std::getenv("CCA_KEEP_MALLOC_SETTINGS");
    if (keepVariable != nullptr && *keepVariable != '\0')
    {
      return true;
    }
    const char * tunables = std::getenv("GLIBC_TUNABLES");
    return tunables != nullptr && std::strstr(tunables, "glibc.malloc.") != nullptr;
  }();
  return keep;
}
#endif

} // namespace

MallocHeapSteps::MallocHeapSteps()
{
#if defined(__GLIBC__)
  if (EnvironmentKeepsMallocSettings())
  {
    return;
  }
  std::lock_guard<std::mutex> lock(scopeMutex);
  // The first live one sets the step; mallopt returns 1 on success.
  if (liveScopes > 0 || mallopt(M_TOP_PAD, static_cast<int>(MallocHeapStepBytes)) == 1)
  {
    ++liveScopes;
    m_Active = true;
  }
#endif
}

MallocHeapSteps::~MallocHeapSteps()
{
#if defined(__GLIBC__)
  if (m_Active)
  {
    std::lock_guard<std::mutex> lock(scopeMutex);
    if (--liveScopes == 0)
    {
      mallopt(M_TOP_PAD, GlibcDefaultTopPad);
    }
  }
#endif
}

} // namespace cca
