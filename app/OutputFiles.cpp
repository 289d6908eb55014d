#include "OutputFiles.h"

#include "ImageFormats.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ccaapp
{
namespace
{

std::string
ErrorText(int error)
{
  std::string text = std::strerror(error);
  if (error == ENOSPC || error == EDQUOT || error == EFBIG)
  {
    text += " (the disk, the quota or the file size limit is full)";
  }
  return text;
}

std::string
BaseName(const std::string & path)
{
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string
DirectoryName(const std::string & path)
{
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos)
  {
    return "./";
  }
  return path.substr(0, slash + 1);
}

std::vector<std::string>
FilesIn(const std::string & directory)
{
  std::vector<std::string> names;
  if (DIR * dir = ::opendir(directory.c_str()))
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

void
RemoveFolder(const std::string & folder)
{
  for (const auto & name : FilesIn(folder))
  {
    ::unlink((folder + "/" + name).c_str());
  }
  ::rmdir(folder.c_str());
}

// ---- cleanup on interrupt ------------------------------------------------------------

// Paths of the files and folders to remove, read by the signal handler. They
// change only with the handled signals blocked.
std::vector<std::string> g_CleanupFiles;
std::vector<std::string> g_CleanupFolders;
const int                HandledSignals[] = { SIGINT, SIGTERM, SIGHUP };

class SignalsBlocked
{
public:
  SignalsBlocked()
  {
    sigset_t set;
    sigemptyset(&set);
    for (const int signal : HandledSignals)
    {
      sigaddset(&set, signal);
    }
    ::pthread_sigmask(SIG_BLOCK, &set, &m_Previous);
  }
  ~SignalsBlocked() { ::pthread_sigmask(SIG_SETMASK, &m_Previous, nullptr); }

private:
  sigset_t m_Previous;
};

extern "C" void
RemoveTemporariesAndDie(int signal)
{
  for (const auto & file : g_CleanupFiles)
  {
    ::unlink(file.c_str());
  }
  for (const auto & folder : g_CleanupFolders)
  {
    ::rmdir(folder.c_str());
  }
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

void
Forget(const std::string & folder)
{
  SignalsBlocked blocked;
  g_CleanupFolders.erase(std::remove(g_CleanupFolders.begin(), g_CleanupFolders.end(), folder), g_CleanupFolders.end());
  g_CleanupFiles.erase(std::remove_if(g_CleanupFiles.begin(),
                                      g_CleanupFiles.end(),
                                      [&folder](const std::string & file) {
                                        return file.compare(0, folder.size() + 1, folder + "/") == 0;
                                      }),
                       g_CleanupFiles.end());
}

} // namespace

void
InstallInterruptCleanup()
{
  for (const int signal : HandledSignals)
  {
    struct sigaction action
    {};
    action.sa_handler = RemoveTemporariesAndDie;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

// ---- CheckedFile -------------------------------------------------------------------

CheckedFile::CheckedFile(const std::string & path, const std::string & displayPath)
  : m_DisplayPath(displayPath)
{
  m_Descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (m_Descriptor < 0)
  {
    Fail("cannot create it", errno);
  }
}

CheckedFile::~CheckedFile()
{
  if (m_Descriptor >= 0)
  {
    ::close(m_Descriptor);
  }
}

void
CheckedFile::Fail(const std::string & what, int error) const
{
  FailWriting(m_DisplayPath, what + ": " + ErrorText(error));
}

void
CheckedFile::Write(const void * data, std::size_t count)
{
  constexpr std::size_t capacity = 1 << 20;
  if (m_Buffer.size() + count > capacity)
  {
    Flush();
  }
  m_Position += count;
  if (count >= capacity)
  {
    // A large block (a raw image) goes to the file as it is, not copied through the buffer.
    WriteAll(static_cast<const char *>(data), count);
    return;
  }
  m_Buffer.append(static_cast<const char *>(data), count);
  if (m_Buffer.size() >= capacity)
  {
    Flush();
  }
}

void
CheckedFile::WriteAll(const char * data, std::size_t count)
{
  while (count > 0)
  {
    // Linux writes at most about 2 GiB a call.
    const ssize_t written = ::write(m_Descriptor, data, std::min<std::size_t>(count, std::size_t{ 1 } << 30));
    if (written < 0 && errno == EINTR)
    {
      continue;
    }
    if (written <= 0)
    {
      Fail("write error", written < 0 ? errno : ENOSPC);
    }
    data += written;
    count -= static_cast<std::size_t>(written);
  }
}

void
CheckedFile::Flush()
{
  WriteAll(m_Buffer.data(), m_Buffer.size());
  m_Buffer.clear();
}

void
CheckedFile::WriteAt(std::uint64_t offset, const void * data, std::size_t count)
{
  Flush();
  const char * bytes = static_cast<const char *>(data);
  while (count > 0)
  {
    const ssize_t written = ::pwrite(m_Descriptor, bytes, count, static_cast<off_t>(offset));
    if (written < 0 && errno == EINTR)
    {
      continue;
    }
    if (written <= 0)
    {
      Fail("write error", written < 0 ? errno : ENOSPC);
    }
    bytes += written;
    offset += static_cast<std::uint64_t>(written);
    count -= static_cast<std::size_t>(written);
  }
}

void
CheckedFile::Finish()
{
  Flush();
  const int descriptor = m_Descriptor;
  m_Descriptor = -1;
  if (::close(descriptor) != 0)
  {
    Fail("error when closing it", errno);
  }
}

// ---- OutputTransaction ---------------------------------------------------------------

OutputTransaction::~OutputTransaction()
{
  if (!m_Committed)
  {
    Abandon();
  }
}

std::string
OutputTransaction::Add(const std::string &              target,
                       const std::vector<std::string> & companions,
                       bool                             inPlaceAllowed,
                       const std::string &              role)
{
  if (target.empty())
  {
    FailWriting(target, "the file name is empty");
  }
  // Where the file goes: through a symbolic link to the file it names.
  std::string resolved = target;
  struct stat status;
  if (::lstat(target.c_str(), &status) == 0 && S_ISLNK(status.st_mode))
  {
    if (char * real = ::realpath(target.c_str(), nullptr))
    {
      resolved = real;
      std::free(real);
    }
  }
  if (::stat(resolved.c_str(), &status) == 0)
  {
    if (S_ISDIR(status.st_mode))
    {
      FailWriting(target, "it is a directory");
    }
    if (!S_ISREG(status.st_mode))
    {
      if (!inPlaceAllowed)
      {
        FailWriting(target, "it exists and is not a regular file");
      }
      // Devices and pipes are written as they are: there is nothing to replace atomically.
      for (const auto & output : m_Outputs)
      {
        if (output.target == target)
        {
          FailWriting(target, "it is given for two outputs, " + output.role + " and " + role);
        }
      }
      m_Outputs.push_back(Output{ target, role, "", { target }, "" });
      return target;
    }
  }

  Output output;
  output.target = target;
  output.role = role;
  const std::string directory = DirectoryName(resolved);
  char *            real = ::realpath(directory.c_str(), nullptr);
  if (real == nullptr)
  {
    FailWriting(target, "its folder " + directory + " cannot be used: " + ErrorText(errno));
  }
  output.directory = std::string(real) + "/";
  std::free(real);
  output.names.push_back(BaseName(resolved));
  for (const auto & companion : companions)
  {
    output.names.push_back(BaseName(companion));
  }
  // No two outputs (or an output and its data file) may be the same file.
  for (const auto & other : m_Outputs)
  {
    for (const auto & name : output.names)
    {
      for (const auto & otherName : other.names)
      {
        if (output.directory + name == other.directory + otherName || (other.directory.empty() && otherName == target))
        {
          if (name == output.names.front() && otherName == other.names.front())
          {
            FailWriting(target, "it is given for two outputs, " + other.role + " and " + role);
          }
          FailWriting(
            target, "the " + role + " output would overwrite the " + other.role + " output: both write '" + name + "'");
        }
      }
    }
  }
  for (const auto & name : output.names)
  {
    if (::lstat((output.directory + name).c_str(), &status) == 0 && S_ISDIR(status.st_mode))
    {
      FailWriting(target, output.directory + name + " is a directory");
    }
  }

  std::string folder = output.directory + ".CudaLabelStatistics-XXXXXX";
  {
    SignalsBlocked blocked;
    if (::mkdtemp(&folder[0]) == nullptr)
    {
      FailWriting(target, "cannot create a file in " + output.directory + ": " + ErrorText(errno));
    }
    g_CleanupFolders.push_back(folder);
    for (const auto & name : output.names)
    {
      g_CleanupFiles.push_back(folder + "/" + name);
    }
  }
  output.temporary = folder;
  m_Outputs.push_back(output);
  return folder + "/" + output.names.front();
}

std::vector<std::string>
OutputTransaction::TemporaryFiles() const
{
  std::vector<std::string> paths;
  for (const auto & output : m_Outputs)
  {
    for (const auto & name : output.temporary.empty() ? std::vector<std::string>() : output.names)
    {
      paths.push_back(output.temporary + "/" + name);
    }
  }
  return paths;
}

bool
OutputTransaction::Replaces(const std::string & existingPath) const
{
  struct stat existing;
  if (::stat(existingPath.c_str(), &existing) != 0)
  {
    return false;
  }
  for (const auto & output : m_Outputs)
  {
    for (const auto & name : output.names)
    {
      struct stat       target;
      const std::string path = output.temporary.empty() ? name : output.directory + name;
      if (::stat(path.c_str(), &target) == 0 && target.st_dev == existing.st_dev && target.st_ino == existing.st_ino)
      {
        return true;
      }
    }
  }
  return false;
}

void
OutputTransaction::Commit()
{
  // Every expected file, nothing else, each flushed to disk.
  for (const auto & output : m_Outputs)
  {
    if (output.temporary.empty())
    {
      continue;
    }
    std::vector<std::string> expected = output.names;
    std::sort(expected.begin(), expected.end());
    const auto found = FilesIn(output.temporary);
    if (found != expected)
    {
      FailWriting(output.target,
                  "the writer produced " + std::to_string(found.size()) + " file(s) where " +
                    std::to_string(expected.size()) + " were expected");
    }
    for (const auto & name : output.names)
    {
      const int descriptor = ::open((output.temporary + "/" + name).c_str(), O_RDONLY | O_CLOEXEC);
      if (descriptor < 0 || ::fsync(descriptor) != 0)
      {
        const int error = errno;
        if (descriptor >= 0)
        {
          ::close(descriptor);
        }
        FailWriting(output.target, "cannot flush it to disk: " + ErrorText(error));
      }
      ::close(descriptor);
    }
  }

  // Lock the target folders (in a fixed order, so concurrent runs cannot
  // deadlock), move every file in, flush the folders, unlock.
  std::map<std::string, int> folders;
  for (const auto & output : m_Outputs)
  {
    if (!output.temporary.empty())
    {
      folders.emplace(output.directory, -1);
    }
  }
  auto unlockAll = [&folders]() {
    for (auto & folder : folders)
    {
      if (folder.second >= 0)
      {
        ::flock(folder.second, LOCK_UN);
        ::close(folder.second);
        folder.second = -1;
      }
    }
  };
  for (auto & folder : folders)
  {
    folder.second = ::open(folder.first.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder.second >= 0)
    {
      while (::flock(folder.second, LOCK_EX) != 0 && errno == EINTR)
      {}
    }
  }
  // Each file moved in is undone if a later one cannot be: the file it
  // replaced comes back from a hard link kept in the private folder (made
  // before the move; where the file system has no hard links the old file
  // cannot come back), a file that was not there goes again.
  struct Moved
  {
    std::string target;
    std::string previous; ///< the hard link to the replaced file, or ""
  };
  std::vector<Moved> moved;
  const auto         undo = [&moved]() {
    for (auto m = moved.rbegin(); m != moved.rend(); ++m)
    {
      if (m->previous.empty())
      {
        ::unlink(m->target.c_str());
      }
      else
      {
        ::rename(m->previous.c_str(), m->target.c_str());
      }
    }
  };
  for (const auto & output : m_Outputs)
  {
    for (const auto & name : output.temporary.empty() ? std::vector<std::string>() : output.names)
    {
      const std::string target = output.directory + name;
      std::string       previous = output.temporary + "/.previous-" + name;
      if (::link(target.c_str(), previous.c_str()) != 0)
      {
        previous.clear(); // nothing there (or no hard links here)
      }
      const bool existed = !previous.empty() || ::access(target.c_str(), F_OK) == 0;
      if (::rename((output.temporary + "/" + name).c_str(), target.c_str()) != 0)
      {
        const int error = errno;
        if (!previous.empty())
        {
          ::unlink(previous.c_str());
        }
        undo();
        unlockAll();
        FailWriting(output.target, "cannot move it into place: " + ErrorText(error));
      }
      if (!existed || !previous.empty())
      {
        moved.push_back(Moved{ target, previous }); // else replaced with no way back
      }
    }
  }
  for (const auto & folder : folders)
  {
    if (folder.second >= 0)
    {
      ::fsync(folder.second);
    }
  }
  unlockAll();
  m_Committed = true;
  for (const auto & m : moved)
  {
    if (!m.previous.empty())
    {
      ::unlink(m.previous.c_str());
    }
  }
  for (const auto & output : m_Outputs)
  {
    if (!output.temporary.empty())
    {
      RemoveFolder(output.temporary); // empty by now; what an unlink above left goes with it
      Forget(output.temporary);
    }
  }
}

void
OutputTransaction::Abandon()
{
  for (auto & output : m_Outputs)
  {
    if (!output.temporary.empty())
    {
      RemoveFolder(output.temporary);
      Forget(output.temporary);
      output.temporary.clear();
    }
  }
}

ScratchFile::ScratchFile(std::string path)
  : m_Path(std::move(path))
{
  SignalsBlocked blocked;
  g_CleanupFiles.push_back(m_Path);
}

ScratchFile::~ScratchFile()
{
  ::unlink(m_Path.c_str());
  SignalsBlocked blocked;
  g_CleanupFiles.erase(std::remove(g_CleanupFiles.begin(), g_CleanupFiles.end(), m_Path), g_CleanupFiles.end());
}

} // namespace ccaapp
