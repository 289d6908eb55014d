#include "Progress.h"

#include "itkProcessObject.h"

#include <algorithm>
#include <cstdio>

namespace ccaapp
{

void
ProgressSink::Begin(const std::string & name, const std::string & comment) const
{
  if (!m_Enabled)
    return;
  std::printf(
    "<filter-start>\n<filter-name>%s</filter-name>\n<filter-comment> \"%s\" </filter-comment>\n</filter-start>\n",
    name.c_str(),
    comment.c_str());
  std::fflush(stdout); // Slicer reads the pipe while the program runs
}

void
ProgressSink::Report(double fraction) const
{
  if (!m_Enabled)
    return;
  std::printf("<filter-progress>%.4f</filter-progress>\n", std::clamp(fraction, 0.0, 1.0));
  std::fflush(stdout);
}

void
ProgressSink::End(const std::string & name, double seconds) const
{
  if (!m_Enabled)
    return;
  std::printf("<filter-end>\n<filter-name>%s</filter-name>\n<filter-time>%.3f</filter-time>\n</filter-end>\n",
              name.c_str(),
              seconds);
  std::fflush(stdout);
}

void
ObserveProgress(itk::ProcessObject & filter, const ProgressSink & sink, double from, double to)
{
  if (!sink.Enabled())
    return;
  const itk::ProcessObject * observed = &filter;
  filter.AddObserver(itk::ProgressEvent(), [observed, &sink, from, to](const itk::EventObject &) {
    sink.Report(from + (to - from) * observed->GetProgress());
  });
}

} // namespace ccaapp
