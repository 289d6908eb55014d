// All-or-nothing outputs. Each output is written into a private temporary
// folder beside its target (same file system), every write and the final
// flush, fsync and close are checked, and only when every output of the run is
// complete are they renamed into place, under a lock on the target folder so
// that concurrent runs never mix their files. A failed run leaves no file
// behind and changes none.
#ifndef CudaLabelStatisticsApp_OutputFiles_h
#define CudaLabelStatisticsApp_OutputFiles_h

#include <cstdint>
#include <string>
#include <vector>

namespace ccaapp
{

/** A file written with checked writes (buffered). Errors are FileError naming
 *  `displayPath` (the target the user gave), e.g. "No space left on device". */
class CheckedFile
{
public:
  CheckedFile(const std::string & path, const std::string & displayPath);
  ~CheckedFile();
  CheckedFile(const CheckedFile &) = delete;
  CheckedFile &
  operator=(const CheckedFile &) = delete;

  void
  Write(const void * data, std::size_t count);
  void
  Write(const std::string & text)
  {
    Write(text.data(), text.size());
  }
  /** Overwrites earlier bytes (flushes first); the position stays at the end. */
  void
  WriteAt(std::uint64_t offset, const void * data, std::size_t count);
  std::uint64_t
  Position() const
  {
    return m_Position;
  }
  /** Flush and close, both checked. No fsync: a regular file is an
   *  OutputTransaction's temporary, which Commit fsyncs (once, after every
   *  writer, while EarlyWriteback has had the disk write it meanwhile). */
  void
  Finish();

private:
  void
  Flush();
  void
  WriteAll(const char * data, std::size_t count);
  [[noreturn]] void
  Fail(const std::string & what, int error) const;

  std::string   m_DisplayPath;
  int           m_Descriptor = -1;
  std::string   m_Buffer;
  std::uint64_t m_Position = 0;
};

/** The outputs of one run. */
class OutputTransaction
{
public:
  OutputTransaction() = default;
  ~OutputTransaction();
  OutputTransaction(const OutputTransaction &) = delete;
  OutputTransaction &
  operator=(const OutputTransaction &) = delete;

  /** Reserves `target` and the `companions` a writer puts beside it (the data
   *  file of .mhd, .nhdr, .hdr). Creates the temporary folder now, so an
   *  unwritable or missing folder is reported before any work. Returns the
   *  path to write instead of `target`. `inPlaceAllowed`: a target that exists
   *  and is not a regular file (/dev/null, /dev/full, a FIFO) is written
   *  directly (only CSV and text outputs; image targets must be files).
   *  `role` names the output in messages ("--labels").
   *  Throws FileError when a file is reserved twice or cannot be written. */
  std::string
  Add(const std::string &              target,
      const std::vector<std::string> & companions,
      bool                             inPlaceAllowed,
      const std::string &              role);

  /** The temporary files the writers write (outputs written in place left
   *  out): what EarlyWriteback starts writing to disk. */
  std::vector<std::string>
  TemporaryFiles() const;

  /** True when `existingPath` is one of the files this transaction will replace. */
  bool
  Replaces(const std::string & existingPath) const;

  /** Checks, after the writers ran, that each temporary folder holds exactly
   *  the files expected, and fsyncs them; then renames every file into place
   *  (each target folder locked while its files move) and fsyncs the folders. */
  void
  Commit();

  /** Removes the temporary folders and what is in them (the destructor does it too). */
  void
  Abandon();

private:
  struct Output
  {
    std::string              target;    ///< the path the user gave
    std::string              role;      ///< the option that asked for it, for messages
    std::string              directory; ///< the (resolved) folder it goes to, with a trailing '/'
    std::vector<std::string> names;     ///< file names: target's, then companions'
    std::string              temporary; ///< the private folder, or "" when written in place
  };
  std::vector<Output> m_Outputs;
  bool                m_Committed = false;
};

/** A file a writer needs for a moment beside its output (ITK's NIfTI header
 *  for a .nii.gz): removed when this object goes, and by the interrupt
 *  cleanup before its folder. */
class ScratchFile
{
public:
  explicit ScratchFile(std::string path);
  ~ScratchFile();
  ScratchFile(const ScratchFile &) = delete;
  ScratchFile &
  operator=(const ScratchFile &) = delete;
  const std::string &
  Path() const
  {
    return m_Path;
  }

private:
  std::string m_Path;
};

/** Removes every temporary folder of live transactions on SIGINT, SIGTERM and
 *  SIGHUP before the signal ends the program, so an interrupted run leaves nothing. */
void
InstallInterruptCleanup();

} // namespace ccaapp

#endif
