// Where a run lies, from the run arrays (UnitPlace) or from its record: its
// place and its pairs with the previous row of its slice, packed in 16
// bytes, what the feature votes and the run gathering read of a run in
// component order, where runs lie all over memory. One aligned load then
// replaces three or four (the run arrays' start, end and row, and the
// stored pairs), each a sector of its own.
#ifndef cca_cuda_RunRecord_cuh
#define cca_cuda_RunRecord_cuh

#include "DeviceGeometry.cuh"

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

struct alignas(16) RunRecord
{
  std::int32_t  x;
  std::int32_t  length;
  std::uint32_t row;      ///< z height + y (RunRecordsFit)
  std::uint32_t rowPairs; ///< PairTally::PackedRow (PrecedingPairs.cuh); 0 for single-run components
};

/** Whether a geometry's rows fit RunRecord::row. */
__host__ __device__ inline bool
RunRecordsFit(const Geometry & geometry)
{
  return geometry.rows <= 0xffffffffll;
}

/** Where unit a lies: x, y and z of its first pixel, and its length. */
template <class Index>
__device__ __forceinline__ cca::Run
                           UnitPlace(const RunArrays<Index> & runs, const Geometry & geometry, Index a)
{
  const std::int64_t r = runs.row[a];
  cca::Run           place;
  place.x = runs.x[a];
  place.y = static_cast<std::int32_t>(r % geometry.height);
  place.z = static_cast<std::int32_t>(r / geometry.height);
  place.length = runs.end[a] - place.x;
  return place;
}

/** Where a record's run lies: x, y and z of its first pixel, and its length. */
__device__ __forceinline__ cca::Run
                           RecordPlace(const RunRecord & record, const Geometry & geometry)
{
  const std::int64_t r = record.row;
  return cca::Run{ record.x,
                   static_cast<std::int32_t>(r % geometry.height),
                   static_cast<std::int32_t>(r / geometry.height),
                   record.length };
}

} // namespace cuda
} // namespace cca

#endif
