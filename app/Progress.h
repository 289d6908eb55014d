// Progress lines in the form 3D Slicer reads from a command-line module's stdout.
#ifndef CudaLabelStatisticsApp_Progress_h
#define CudaLabelStatisticsApp_Progress_h

#include <string>

namespace itk
{
class ProcessObject;
}

namespace ccaapp
{

/** Prints <filter-start>, <filter-progress>, <filter-end> lines when enabled. */
class ProgressSink
{
public:
  explicit ProgressSink(bool enabled)
    : m_Enabled(enabled)
  {}

  bool
  Enabled() const
  {
    return m_Enabled;
  }
  void
  Begin(const std::string & name, const std::string & comment) const;
  /** fraction of the whole run, 0 to 1. */
  void
  Report(double fraction) const;
  void
  End(const std::string & name, double seconds) const;

private:
  bool m_Enabled;
};

/** Forwards the filter's ProgressEvents to sink, mapped onto [from, to] of the whole run. */
void
ObserveProgress(itk::ProcessObject & filter, const ProgressSink & sink, double from, double to);

} // namespace ccaapp

#endif
