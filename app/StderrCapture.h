// Keeps what libraries print on stderr (NIfTI, MetaIO and libtiff print
// diagnostics there themselves) out of the program's output: while a capture
// is alive, file descriptor 2 goes to a temporary file, and the text becomes
// part of the one-line error or warning the program prints.
#ifndef CudaLabelStatisticsApp_StderrCapture_h
#define CudaLabelStatisticsApp_StderrCapture_h

#include <string>

namespace ccaapp
{

class StderrCapture
{
public:
  StderrCapture();
  ~StderrCapture();
  StderrCapture(const StderrCapture &) = delete;
  StderrCapture &
  operator=(const StderrCapture &) = delete;

  /** What was printed so far, on one line (at most 300 characters). */
  std::string
  Text() const;

private:
  int m_Saved = -1;
  int m_File = -1;
};

/** Text on one line: runs of white space (newlines included) become one space, trimmed. */
std::string
OneLine(const std::string & text, std::size_t maximum = 400);

} // namespace ccaapp

#endif
