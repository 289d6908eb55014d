#include "EarlyWriteback.h"

#include <cstdint>
#include <fcntl.h>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace ccaapp
{
namespace
{

constexpr std::uint64_t PageBytes = 4096;
constexpr std::uint64_t TailMargin = std::uint64_t{ 1 } << 20; ///< left to the writer
constexpr std::uint64_t StepBytes = std::uint64_t{ 4 } << 20;  ///< the least a kick starts

} // namespace

EarlyWriteback::EarlyWriteback(std::vector<std::string> paths, std::chrono::milliseconds period)
  : m_Period(period)
{
#ifdef __linux__
  for (auto & path : paths)
  {
    File file;
    file.path = std::move(path);
    m_Files.push_back(std::move(file));
  }
  if (m_Files.empty())
  {
    return;
  }
  try
  {
    m_Thread = std::thread([this] { Loop(); });
  }
  catch (const std::system_error &)
  {
    // No thread: the commit's fsync writes everything, as without this.
  }
#else
  (void)paths;
#endif
}

EarlyWriteback::~EarlyWriteback()
{
  Stop();
}

void
EarlyWriteback::Stop()
{
  if (!m_Thread.joinable())
  {
    return;
  }
  {
    const std::lock_guard<std::mutex> lock(m_Mutex);
    m_Stopping = true;
  }
  m_Wake.notify_one();
  m_Thread.join();
}

std::size_t
EarlyWriteback::FilesStarted() const
{
  return m_Started.load();
}

void
EarlyWriteback::Loop()
{
  std::unique_lock<std::mutex> lock(m_Mutex);
  while (true)
  {
    const bool stopping = m_Wake.wait_for(lock, m_Period, [this] { return m_Stopping; });
    lock.unlock();
    StartWrites(stopping);
    lock.lock();
    if (stopping)
    {
      break;
    }
  }
  lock.unlock();
  for (auto & file : m_Files)
  {
    if (file.descriptor >= 0)
    {
      ::close(file.descriptor);
      file.descriptor = -1;
    }
  }
}

void
EarlyWriteback::StartWrites(bool last)
{
#ifdef __linux__
  for (auto & file : m_Files)
  {
    struct stat status;
    if (::stat(file.path.c_str(), &status) != 0 || !S_ISREG(status.st_mode))
    {
      continue; // not written yet
    }
    if (file.descriptor >= 0 && file.inode != static_cast<unsigned long long>(status.st_ino))
    {
      ::close(file.descriptor); // the writer replaced the file: follow the new one
      file.descriptor = -1;
      file.startedUpTo = 0;
    }
    if (file.descriptor < 0)
    {
      file.descriptor = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
      if (file.descriptor < 0)
      {
        continue;
      }
      file.inode = static_cast<unsigned long long>(status.st_ino);
    }
    // While the writers write, only what lies a margin behind the file's end
    // and at least a step past what was started before: a page under
    // writeback that a writer appends to makes the writer wait for the disk
    // (one wait a kick made a compressed NRRD, written in small pieces, 3 %
    // slower). The last pass starts the whole file (offset 0, length 0).
    std::uint64_t begin = 0;
    std::uint64_t length = 0;
    if (!last)
    {
      const auto size = static_cast<std::uint64_t>(status.st_size);
      const auto end = size > TailMargin ? (size - TailMargin) / PageBytes * PageBytes : 0;
      if (end < file.startedUpTo + StepBytes)
      {
        continue;
      }
      begin = file.startedUpTo;
      length = end - begin;
    }
    if (::sync_file_range(
          file.descriptor, static_cast<off_t>(begin), static_cast<off_t>(length), SYNC_FILE_RANGE_WRITE) == 0)
    {
      file.startedUpTo = begin + length;
      if (!file.started)
      {
        file.started = true;
        ++m_Started;
      }
    }
  }
#else
  (void)last;
#endif
}

} // namespace ccaapp
