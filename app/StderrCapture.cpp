#include "StderrCapture.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace ccaapp
{

std::string
OneLine(const std::string & text, std::size_t maximum)
{
  std::string line;
  bool        space = false;
  for (const char c : text)
  {
    if (std::isspace(static_cast<unsigned char>(c)) || !std::isprint(static_cast<unsigned char>(c)))
    {
      space = !line.empty();
      continue;
    }
    if (space)
    {
      line += ' ';
      space = false;
    }
    line += c;
  }
  if (line.size() > maximum)
  {
    line = line.substr(0, maximum) + "...";
  }
  return line;
}

StderrCapture::StderrCapture()
{
  std::cerr.flush();
  std::fflush(stderr);
  std::FILE * file = std::tmpfile();
  if (file == nullptr)
  {
    return; // nothing captured: the libraries print as they would
  }
  m_File = ::dup(::fileno(file));
  std::fclose(file);
  m_Saved = ::dup(2);
  if (m_File < 0 || m_Saved < 0 || ::dup2(m_File, 2) < 0)
  {
    if (m_Saved >= 0)
    {
      ::close(m_Saved);
    }
    if (m_File >= 0)
    {
      ::close(m_File);
    }
    m_Saved = m_File = -1;
  }
}

StderrCapture::~StderrCapture()
{
  if (m_Saved >= 0)
  {
    std::cerr.flush();
    std::fflush(stderr);
    ::dup2(m_Saved, 2);
    ::close(m_Saved);
    ::close(m_File);
  }
  // A library's write may have failed on the capture file (a file size
  // limit counts it too), leaving std::cerr in a failed state that would
  // swallow the program's own error line.
  std::cerr.clear();
  std::clearerr(stderr);
}

std::string
StderrCapture::Text() const
{
  if (m_File < 0)
  {
    return std::string();
  }
  std::cerr.flush();
  std::fflush(stderr);
  std::string text;
  char        buffer[4096];
  off_t       offset = 0;
  ssize_t     got = 0;
  while (text.size() < 4096 && (got = ::pread(m_File, buffer, sizeof(buffer), offset)) > 0)
  {
    text.append(buffer, static_cast<std::size_t>(got));
    offset += got;
  }
  return OneLine(text, 300);
}

} // namespace ccaapp
