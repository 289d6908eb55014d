// Output made in parallel and written in order: the TIFF writer's strips,
// the CSV's chunks of rows. The file is the same whatever the number of
// threads.
#ifndef CudaLabelStatisticsApp_ParallelInOrder_h
#define CudaLabelStatisticsApp_ParallelInOrder_h

#include "itkMultiThreaderBase.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>

namespace ccaapp
{

/** For jobs 0 .. jobs - 1, a batch of about four a thread at a time (the
 *  memory of one batch, not of all jobs; uneven jobs even out over the
 *  threads): make(job, buffer) on ITK's threads, then write(job, buffer)
 *  on this thread in job order. Each Buffer keeps its capacity from batch
 *  to batch; make finds it as the last batch left it. It grows in a
 *  variable of the making thread, not in the vector's element:
 *  neighbouring elements share cache lines, and a growing buffer changes
 *  its size at every append. An exception of make is rethrown here once
 *  its batch is done. */
template <class Buffer, class Make, class Write>
void
MakeInParallelWriteInOrder(std::uint64_t jobs, Make && make, Write && write)
{
  const std::uint64_t threads = std::max<std::uint64_t>(1, itk::MultiThreaderBase::GetGlobalDefaultNumberOfThreads());
  const std::uint64_t batch = 4 * threads;
  std::vector<Buffer> buffers(static_cast<std::size_t>(std::min(batch, jobs)));
  const auto          threader = itk::MultiThreaderBase::New();
  for (std::uint64_t first = 0; first < jobs; first += batch)
  {
    const std::uint64_t count = std::min(batch, jobs - first);
    std::mutex          errorMutex;
    std::exception_ptr  error;
    auto                makeOne = [&](itk::SizeValueType i) {
      try
      {
        Buffer buffer = std::move(buffers[i]);
        make(first + i, buffer);
        buffers[i] = std::move(buffer);
      }
      catch (...)
      {
        const std::lock_guard<std::mutex> lock(errorMutex);
        if (!error)
        {
          error = std::current_exception();
        }
      }
    };
    if (count > 1 && threads > 1)
    {
      threader->SetNumberOfWorkUnits(static_cast<itk::ThreadIdType>(count));
      threader->ParallelizeArray(0, count, makeOne, nullptr);
    }
    else
    {
      for (std::uint64_t i = 0; i < count; ++i)
      {
        makeOne(i);
      }
    }
    if (error)
    {
      std::rethrow_exception(error);
    }
    for (std::uint64_t i = 0; i < count; ++i)
    {
      write(first + i, buffers[i]);
    }
  }
}

} // namespace ccaapp

#endif
