// The disk's writes of the outputs started while the writers still write
// them. Linux keeps written pages in memory until a flusher takes them (after
// 30 s, or once a tenth of the memory is dirty), so the fsync of the commit
// (OutputFiles.h) waited for a whole label image to cross to the disk after
// it had been written: on the H200 machine 246 ms of sync for a 537 MB label
// image after 155 ms of writing. A thread here asks the kernel every few
// milliseconds to start writing what the outputs hold so far, but their last
// MiB, which a writer may still be appending to (sync_file_range,
// SYNC_FILE_RANGE_WRITE: it starts the writes and waits for none), so that
// the disk works beside the writers and the commit's fsync waits for the
// tail only. Advice only: a failure here changes nothing, the fsync still
// checks every byte. Elsewhere than on Linux it does nothing.
#ifndef CudaLabelStatisticsApp_EarlyWriteback_h
#define CudaLabelStatisticsApp_EarlyWriteback_h

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ccaapp
{

class EarlyWriteback
{
public:
  /** Starts the thread for `paths`, files that may not exist yet (a writer
   *  creates them later; each is looked for again every `period`). No paths:
   *  no thread. */
  explicit EarlyWriteback(std::vector<std::string>  paths,
                          std::chrono::milliseconds period = std::chrono::milliseconds(10));
  /** Stop(). */
  ~EarlyWriteback();
  EarlyWriteback(const EarlyWriteback &) = delete;
  EarlyWriteback &
  operator=(const EarlyWriteback &) = delete;

  /** Starts the writes of what the files hold now, once more, and ends the
   *  thread. Call when the writers are done; later calls do nothing. */
  void
  Stop();

  /** How many of the paths had their writes started at least once (a
   *  successful sync_file_range; for the tests). */
  std::size_t
  FilesStarted() const;

private:
  struct File
  {
    std::string        path;
    int                descriptor = -1;
    unsigned long long inode = 0;       ///< of the open descriptor: a writer that replaced the file is followed
    std::uint64_t      startedUpTo = 0; ///< the bytes before it were started
    bool               started = false;
  };

  void
  Loop();
  /** Starts the writes of each file's new part; the `last` time, of the
   *  whole of every file. */
  void
  StartWrites(bool last);

  std::vector<File>         m_Files; ///< the thread's alone
  std::chrono::milliseconds m_Period;
  std::atomic<std::size_t>  m_Started{ 0 };
  std::mutex                m_Mutex;
  std::condition_variable   m_Wake;
  bool                      m_Stopping = false;
  std::thread               m_Thread;
};

} // namespace ccaapp

#endif
