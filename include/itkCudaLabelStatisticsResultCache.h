/*=========================================================================
 *
 *  Licensed under the Apache License, Version 2.0 (the "License");
 *  you may not use this file except in compliance with the License.
 *  You may obtain a copy of the License at
 *
 *         http://www.apache.org/licenses/LICENSE-2.0.txt
 *
 *  Unless required by applicable law or agreed to in writing, software
 *  distributed under the License is distributed on an "AS IS" BASIS,
 *  WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 *  See the License for the specific language governing permissions and
 *  limitations under the License.
 *
 *=========================================================================*/
// The engine results that the module's filters reuse from one update to the
// next, whichever filter of the process ran last.
#ifndef itkCudaLabelStatisticsResultCache_h
#define itkCudaLabelStatisticsResultCache_h

#include "cca/Types.h"

#include <memory>
#include <mutex>

namespace itk
{
namespace CudaLabelStatisticsDetail
{

/** Engine results kept between updates, for any filter of the process: the
 *  feature table and the runs of millions of components are gigabytes, and
 *  fresh pages cost more to touch than the copy into them; a reused result
 *  only grows. One result is kept idle (ReleaseCachedMemory frees it). */
class ResultCache
{
public:
  static std::unique_ptr<cca::Result>
  Take()
  {
    std::lock_guard<std::mutex>  lock(Mutex());
    std::unique_ptr<cca::Result> result = std::move(Idle());
    return result ? std::move(result) : std::make_unique<cca::Result>();
  }

  static void
  Give(std::unique_ptr<cca::Result> result)
  {
    std::lock_guard<std::mutex> lock(Mutex());
    Idle() = std::move(result);
  }

  static void
  Clear()
  {
    std::unique_ptr<cca::Result> idle;
    {
      std::lock_guard<std::mutex> lock(Mutex());
      idle = std::move(Idle());
    }
  }

private:
  static std::mutex &
  Mutex()
  {
    static std::mutex mutex;
    return mutex;
  }
  static std::unique_ptr<cca::Result> &
  Idle()
  {
    static std::unique_ptr<cca::Result> idle;
    return idle;
  }
};

/** A result taken from the cache for one update and given back after it. */
class CachedResult
{
public:
  CachedResult()
    : m_Result(ResultCache::Take())
  {}
  ~CachedResult() { ResultCache::Give(std::move(m_Result)); }
  CachedResult(const CachedResult &) = delete;
  CachedResult &
  operator=(const CachedResult &) = delete;
  cca::Result &
  operator*()
  {
    return *m_Result;
  }

private:
  std::unique_ptr<cca::Result> m_Result;
};

} // namespace CudaLabelStatisticsDetail
} // namespace itk

#endif
