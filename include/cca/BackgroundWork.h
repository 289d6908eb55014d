// Work that runs on a thread of its own while the caller does something
// else: the ITK filter's LabelMap and the Python package's shape attributes
// while Engine::Run copies the label image (Options::objectsReady), the
// program's CSV while it writes the label image.
#ifndef cca_BackgroundWork_h
#define cca_BackgroundWork_h

#include "cca/Types.h"

#include <functional>
#include <future>
#include <system_error>
#include <utility>

namespace cca
{

/** The work runs once: on a thread of its own from Start (or from the
 *  objectsReady call that StartWhenObjectsReady sets up), or, where it was
 *  not started or no thread could be had, on the caller's thread in Finish.
 *  A started work is waited for by Finish, Abandon or the destructor, so
 *  what it reads must outlive this object. */
class BackgroundWork
{
public:
  explicit BackgroundWork(std::function<void()> work)
    : m_Work(std::move(work))
  {}
  BackgroundWork(const BackgroundWork &) = delete;
  BackgroundWork &
  operator=(const BackgroundWork &) = delete;

  /** Starts the work on a thread of its own; where none can be had, Finish runs it. */
  void
  Start()
  {
    try
    {
      m_Started = std::async(std::launch::async, m_Work);
    }
    catch (const std::system_error &)
    {
      // No thread to be had: Finish runs the work instead.
    }
  }

  /** Starts the work from options.objectsReady: once Engine::Run's result
   *  holds the objects, beside its copy of the label image. */
  void
  StartWhenObjectsReady(Options & options)
  {
    options.objectsReady = [this] { Start(); };
  }

  /** Waits for the started work and rethrows its error, or runs the work
   *  here if it was not started. */
  void
  Finish()
  {
    if (m_Started.valid())
    {
      m_Started.get();
    }
    else
    {
      m_Work();
    }
  }

  /** Waits for the started work, if any, and drops its error: the caller
   *  has another one to report. */
  void
  Abandon()
  {
    if (m_Started.valid())
    {
      m_Started.wait();
    }
  }

private:
  std::function<void()> m_Work;
  std::future<void>     m_Started; ///< a future of std::async: its destructor waits
};

} // namespace cca

#endif
