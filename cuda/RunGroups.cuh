// The runs grouped by component, as the LabelMap's lines need them: where
// they go and how one is put there, shared by the run gathering
// (Compaction.cuh) and the feature votes, which group them where they take
// the runs in the same order (OutputStage::GroupRunsInVotes).
#ifndef cca_cuda_RunGroups_cuh
#define cca_cuda_RunGroups_cuh

#include "cca/Types.h"

#include <cstdint>

namespace cca
{
namespace cuda
{

/** Where the runs grouped by component go: the runs in component order,
 *  and per component the position of its first run, then the run count
 *  (components + 1 entries). Null runs: not asked here. */
struct RunGroups
{
  cca::Run *     runs = nullptr;
  std::int64_t * offsets = nullptr;
  std::int64_t   components = 0; ///< the label of removed objects' runs, which sort last
};

/** Puts run, k-th in component order of count runs, of component c
 *  (first: the first run of c in that order), into groups. */
template <class Index>
__device__ __forceinline__ void
GroupRunAt(const RunGroups & groups, Index k, Index count, Index c, bool first, const cca::Run & run)
{
  groups.runs[k] = run;
  // Runs of removed objects (label components) sort last: the first of
  // them ends the last group.
  if (first)
  {
    groups.offsets[c] = static_cast<std::int64_t>(k);
  }
  if (k == count - 1 && static_cast<std::int64_t>(c) != groups.components)
  {
    groups.offsets[groups.components] = static_cast<std::int64_t>(count);
  }
}

/** GroupRunAt with the component from sortedLabel, the runs' components
 *  in that order. */
template <class Index>
__device__ __forceinline__ void
GroupRun(const RunGroups & groups, Index k, Index count, const Index * sortedLabel, const cca::Run & run)
{
  const Index c = sortedLabel[k];
  GroupRunAt(groups, k, count, c, k == 0 || sortedLabel[k - 1] != c, run);
}

} // namespace cuda
} // namespace cca

#endif
