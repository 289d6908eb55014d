// A CUPTI injection library (CUDA_INJECTION64_PATH) that writes the GPU's
// timeline of a process: every kernel, copy and memset with its start and
// end, and the runtime API calls of the host, to $TIMELINE_OUT at exit.
// (The GPU machine has no Nsight Systems.)
// g++ -O2 -shared -fPIC timeline-injection.cpp -I$CUDA/include -L$CUDA/lib -lcupti -o libtimeline.so
#include <cupti.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace
{
struct Row
{
  int                kind; // 0 kernel, 1 memcpy, 2 memset, 3 runtime call
  unsigned long long start, end;
  unsigned           stream;
  unsigned           correlation;
  std::string        name;
};
std::mutex       mutex;
std::vector<Row> rows;

void CUPTIAPI
Requested(uint8_t ** buffer, size_t * size, size_t * maxRecords)
{
  *size = 8 << 20;
  *buffer = static_cast<uint8_t *>(aligned_alloc(8, *size));
  *maxRecords = 0;
}

void CUPTIAPI
Completed(CUcontext, uint32_t, uint8_t * buffer, size_t, size_t validSize)
{
  CUpti_Activity *            record = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  while (cuptiActivityGetNextRecord(buffer, validSize, &record) == CUPTI_SUCCESS)
  {
    switch (record->kind)
    {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        auto * k = reinterpret_cast<CUpti_ActivityKernel9 *>(record);
        rows.push_back({ 0, k->start, k->end, k->streamId, k->correlationId, k->name ? k->name : "?" });
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        auto * m = reinterpret_cast<CUpti_ActivityMemcpy6 *>(record);
        rows.push_back({ 1, m->start, m->end, m->streamId, m->correlationId, "memcpy " + std::to_string(m->bytes) });
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        auto * m = reinterpret_cast<CUpti_ActivityMemset4 *>(record);
        rows.push_back({ 2, m->start, m->end, m->streamId, m->correlationId, "memset " + std::to_string(m->bytes) });
        break;
      }
      case CUPTI_ACTIVITY_KIND_RUNTIME: {
        auto *       r = reinterpret_cast<CUpti_ActivityAPI *>(record);
        const char * name = nullptr;
        cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, r->cbid, &name);
        rows.push_back({ 3, r->start, r->end, 0, r->correlationId, name ? name : "?" });
        break;
      }
      default:
        break;
    }
  }
  free(buffer);
}

void
Write()
{
  cuptiActivityFlushAll(1);
  const char * path = std::getenv("TIMELINE_OUT");
  FILE *       out = std::fopen(path ? path : "timeline.tsv", "w");
  if (out == nullptr)
  {
    return;
  }
  std::lock_guard<std::mutex> lock(mutex);
  for (const Row & r : rows)
  {
    std::fprintf(out, "%d\t%llu\t%llu\t%u\t%u\t%s\n", r.kind, r.start, r.end, r.stream, r.correlation, r.name.c_str());
  }
  std::fclose(out);
}
} // namespace

extern "C" int
InitializeInjection()
{
  cuptiActivityRegisterCallbacks(Requested, Completed);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET);
  cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
  std::atexit(Write);
  return 1;
}
