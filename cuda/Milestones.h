// The points of a run that the CUDA backend's host sequence times
// (Result::times): a device records each when the work enqueued before it is
// done. In namespace cca, not cca::cuda: the emulated device of the tests
// shares it with the sequence it runs.
#ifndef cca_Milestones_h
#define cca_Milestones_h

namespace cca
{

enum class Milestone
{
  Start,
  ImageUploaded,
  UnitsLabeled,         ///< units detected and joined, full runs detected
  OutputsComputed,      ///< components numbered, feature table, label image, grouped runs
  ObjectsDownloaded,    ///< the table, the runs and the values on the host
  LabelImageCopyBegins, ///< after the host finished the objects, before the label image's copy
  OutputsDownloaded     ///< all on the host
};
constexpr int NumberOfMilestones = 7;

} // namespace cca

#endif
