// The engine's own test hook (the CUDA backend's are in
// cuda/CudaBackendTesting.h): for benchmarks that compare with the engine
// as it was before a change.
#ifndef cca_EngineTesting_h
#define cca_EngineTesting_h

namespace cca
{

/** When a CUDA run writes the pages of a host label image that looks never
 *  written (FirstWrites.h) before the GPU's copy fills it: Never (the copy
 *  maps them, as before 2026-12-05), FirstRun (only in a process's first
 *  CUDA run, beside CUDA's start-up), Always (the default: every such run;
 *  the first one beside the start-up). Engine.cpp, PrepareCudaRun. */
enum class LabelPagesWritten
{
  Never,
  FirstRun,
  Always
};
void
SetLabelPagesWritten(LabelPagesWritten when);

} // namespace cca

#endif
