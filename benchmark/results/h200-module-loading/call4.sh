#!/usr/bin/env bash
# Call 4: where StartCuda's time goes beyond the context (exitprobe.cpp, mode
# phased: cudaFree(0), then StartCuda, then a first 512^3 run and two later
# ones with new engines), lazy against eager module loading, fresh processes
# interleaved; then one CUPTI timeline of the runtime calls (normal exit).
set -uo pipefail
mkdir -p $OUT/call4 && exec > >(tee $OUT/call4/log.txt) 2>&1
nvidia-smi -L
P=.devcarry/exitprobe
for round in 1 2 3 4; do
  for loading in LAZY EAGER; do
    echo "== $loading: $(CUDA_MODULE_LOADING=$loading $P phased | grep -v '^stamp' | tr '\n' ';')"
  done
done
PROBE_NORMAL_EXIT=1 CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so TIMELINE_OUT=$OUT/call4/timeline-phased.tsv $P phased
python3 - $OUT/call4/timeline-phased.tsv <<'PY' > $OUT/call4/api-summary.txt
import sys, collections
rows=[l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
rows=[(int(k),int(s),int(e),int(st),int(c),n) for k,s,e,st,c,n in rows]
api=sorted([r for r in rows if r[0]==3], key=lambda r: r[1])
t0=api[0][1]
tot=collections.defaultdict(lambda:[0,0,0])
for r in api:
    d=r[2]-r[1]; t=tot[r[5]]; t[0]+=1; t[1]+=d; t[2]=max(t[2],d)
print("runtime calls by total time (ms): name count total max")
for n,(c,s,m) in sorted(tot.items(), key=lambda x:-x[1][1])[:25]:
    print(f"{n[:60]:60s} {c:6d} {s/1e6:9.2f} {m/1e6:8.2f}")
print("calls over 2 ms, in order (ms since the first call):")
for r in api:
    if r[2]-r[1] > 2e6: print(f"{(r[1]-t0)/1e6:9.1f} {(r[2]-r[1])/1e6:8.2f} {r[5][:70]}")
PY
cat $OUT/call4/api-summary.txt
xz -9 $OUT/call4/timeline-phased.tsv
echo done
