// EarlyWriteback (app/EarlyWriteback.h): files that appear after it starts,
// files a writer replaces and missing files; its descriptors closed when it
// stops. Where the kernel reports a file's dirty pages (cachestat, Linux 6.5)
// and keeps a freshly written file's pages dirty (a control file written
// without it): while it runs, a file's head is written and its last MiB left
// to the writer; once it stopped, every page written is on its way to the
// disk or there. Elsewhere that part reports itself skipped.
// Usage: EarlyWritebackCheck WORKDIR (on a disk file system, not tmpfs)
#include "EarlyWriteback.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace
{

int g_Failures = 0;

void
Check(bool condition, const std::string & what)
{
  std::printf("%s: %s\n", condition ? "ok" : "FAILED", what.c_str());
  g_Failures += condition ? 0 : 1;
}

/** Writes `megabytes` MiB of a repeating pattern to `path` (created or truncated). */
bool
WriteFile(const std::string & path, int megabytes)
{
  const int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (descriptor < 0)
  {
    return false;
  }
  std::vector<unsigned char> chunk(1 << 20);
  for (std::size_t i = 0; i < chunk.size(); ++i)
  {
    chunk[i] = static_cast<unsigned char>(i * 131 + 7);
  }
  bool ok = true;
  for (int m = 0; m < megabytes && ok; ++m)
  {
    ok = ::write(descriptor, chunk.data(), chunk.size()) == static_cast<ssize_t>(chunk.size());
  }
  return ::close(descriptor) == 0 && ok;
}

int
OpenDescriptors()
{
  int count = 0;
  if (DIR * dir = ::opendir("/proc/self/fd"))
  {
    while (::readdir(dir) != nullptr)
    {
      ++count;
    }
    ::closedir(dir);
  }
  return count;
}

// cachestat(2) (Linux 6.5); the C library's headers may not have it yet.
struct CachestatRange
{
  std::uint64_t offset;
  std::uint64_t length;
};
struct Cachestat
{
  std::uint64_t cached;
  std::uint64_t dirty;
  std::uint64_t writeback;
  std::uint64_t evicted;
  std::uint64_t recentlyEvicted;
};
constexpr long CachestatSyscall = 451; // the same number on every architecture

/** Dirty pages of `path` (not yet under writeback) in [offset, offset +
 *  length), length 0: to the end; -1 where the kernel cannot say. */
long long
DirtyPages(const std::string & path, std::uint64_t offset = 0, std::uint64_t length = 0)
{
#ifdef __linux__
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0)
  {
    return -1;
  }
  CachestatRange range{ offset, length };
  Cachestat      stat{};
  const long     result = ::syscall(CachestatSyscall, descriptor, &range, &stat, 0);
  ::close(descriptor);
  return result == 0 ? static_cast<long long>(stat.dirty) : -1;
#else
  (void)path;
  (void)offset;
  (void)length;
  return -1;
#endif
}

/** Whether the dirty pages of `path` in [offset, offset + length) reach 0 within `seconds`. */
bool
DirtyPagesDrain(const std::string & path, double seconds, std::uint64_t offset = 0, std::uint64_t length = 0)
{
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (DirtyPages(path, offset, length) > 0 && std::chrono::steady_clock::now() < end)
  {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return DirtyPages(path, offset, length) == 0;
}

constexpr std::uint64_t MiB = std::uint64_t{ 1 } << 20;

} // namespace

int
main(int argc, char * argv[])
{
  if (argc != 2)
  {
    std::fprintf(stderr, "usage: %s WORKDIR\n", argv[0]);
    return 2;
  }
  const std::string work = argv[1];
  ::mkdir(work.c_str(), 0755);
  const std::string early = work + "/early.bin";
  const std::string late = work + "/late.bin";
  const std::string replaced = work + "/replaced.bin";
  const std::string missing = work + "/never-written.bin";
  const std::string control = work + "/control.bin";
  for (const auto & path : { early, late, replaced, missing, control })
  {
    ::unlink(path.c_str());
  }

  {
    ccaapp::EarlyWriteback none({});
    Check(none.FilesStarted() == 0, "no paths: nothing started");
    none.Stop();
  }

  // The control: a file written without the thread keeps dirty pages.
  Check(WriteFile(control, 32), "writing the control file");
  const long long controlDirty = DirtyPages(control);
  const bool      observable = controlDirty > 0;
  if (!observable)
  {
    std::printf("skipped: the kernel reports no dirty pages of a file just written here (%lld; cachestat missing, "
                "tmpfs, or a flusher that writes at once), so the writes started cannot be observed\n",
                controlDirty);
  }
  else
  {
    std::printf("the control file has %lld dirty pages just after it was written\n", controlDirty);
  }

  const int descriptorsBefore = OpenDescriptors();
  {
    ccaapp::EarlyWriteback writeback({ early, late, replaced, missing }, std::chrono::milliseconds(5));
    Check(WriteFile(early, 48), "writing a file that appears after the start");
    Check(WriteFile(replaced, 8), "writing a file that a writer will replace");
    // Wait for the thread to open both, then replace one by a new file.
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (writeback.FilesStarted() < 2 && std::chrono::steady_clock::now() < end)
    {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    Check(writeback.FilesStarted() == 2, "both files' writes started while the thread runs");
    if (observable)
    {
      // While it runs, the part a writer may still append to (the last MiB) is left alone.
      Check(DirtyPagesDrain(early, 10, 0, 40 * MiB), "the first 40 MiB of the 48 MiB file have no dirty page left");
      Check(DirtyPages(early, 47 * MiB, MiB) == static_cast<long long>(MiB / 4096),
            "its last MiB is left dirty while the thread runs (" + std::to_string(DirtyPages(early, 47 * MiB, MiB)) +
              " dirty pages)");
    }
    Check(::unlink(replaced.c_str()) == 0 && WriteFile(replaced, 40), "the file replaced by a new one");
    Check(WriteFile(late, 24), "writing a file just before the stop");
    writeback.Stop();
    Check(writeback.FilesStarted() == 3,
          "after the stop every written file started, the missing one not (" +
            std::to_string(writeback.FilesStarted()) + " of 3)");
    writeback.Stop(); // a second stop does nothing
  }
  Check(OpenDescriptors() == descriptorsBefore, "every descriptor closed");

  if (observable)
  {
    // The stop started the writes of everything written: nothing of it
    // stays dirty for the flusher's 30 s.
    Check(DirtyPagesDrain(early, 10), "the file written first has no dirty page left");
    Check(DirtyPagesDrain(late, 10), "the file written just before the stop has no dirty page left");
    Check(DirtyPagesDrain(replaced, 10), "the replacing file has no dirty page left");
    // Not a check: the system's flusher may have taken the control file
    // meanwhile (other processes' writes past the background threshold).
    std::printf("the control file has %lld dirty pages at the end\n", DirtyPages(control));
  }
  for (const auto & path : { early, late, replaced, control })
  {
    ::unlink(path.c_str());
  }
  std::printf("%d failure(s)\n", g_Failures);
  return g_Failures == 0 ? 0 : 1;
}
