#!/usr/bin/env bash
# Call 3 (H200): one binary, the runs' end index for the searches of
# neighbour rows (--run-end-index auto, A) against binary searches (never,
# V). Full table, g = 1 in the four connectivities, V A A V; g = 4 V A A V;
# labels only g = 1 in 4-connected planes and 6-connected volumes, V A;
# ncu per kernel at 512^3 6-conn. d = 0.3 both ways.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
run() { # name outputs g dim size conn use
  timeout 60 $B $P --outputs $2 --g $3 --dimension $4 --size $5 --connectivity $6 --run-end-index $7 --json $L/$1.json > $L/$1.log 2>&1
  echo "$1 rc=$? at $SECONDS s: $(s $L/$1.log)"
}
for c in "1 2 8192 face" "1 2 8192 full" "1 3 512 face" "1 3 512 full" "4 2 8192 face" "4 2 8192 full" "4 3 512 face" "4 3 512 full"; do
  set -- $c
  for v in v1 a1 a2 v2; do
    run $3d-$4-g$1-all-$v all $1 $2 $3 $4 $([ ${v:0:1} = a ] && echo auto || echo never)
  done
done
for c in "2 8192 face" "3 512 face"; do
  set -- $c
  for v in v1 a1; do
    run $1d-$3-g1-labels-$v labels 1 $1 $2 $3 $([ ${v:0:1} = a ] && echo auto || echo never)
  done
done
python3 - $L <<'PY'
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*-v1.json")):
    b = json.load(open(f))["measurements"]
    for v in ["a1", "a2", "v2"]:
        g = f.replace("-v1.json", "-%s.json" % v)
        if os.path.exists(g):
            n = json.load(open(g))["measurements"]
            same = [(m["components"], m["runs"]) for m in b] == [(m["components"], m["runs"]) for m in n]
            print(os.path.basename(g), "same objects as v1" if same else "OBJECTS DIFFER from v1",
                  "summed ms %.2f -> %.2f" % (sum(m["kernelMs"] for m in b), sum(m["kernelMs"] for m in n)))
PY
for v in never auto; do
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density 0.3 --warmup 0 --reps 1 --run-end-index $v"
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum,smsp__inst_executed.sum --csv $B $Q > $L/ncu-$v.csv 2> $L/ncu-$v.err
  echo "ncu $v 3D face d=0.3 (rc=$?, at $SECONDS s): us (M instructions)"
  python3 - "$L/ncu-$v.csv" <<'PY'
import csv, sys, re
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[-3] in ("gpu__time_duration.sum", "smsp__inst_executed.sum")]
name = lambda r: re.sub(r"<.*", "", re.sub(r"\(.*", "", r[4])).replace("void ", "").replace("cca::", "").replace("cub::", "")
t, i = {}, {}
for r in rows:
    d = t if r[-3] == "gpu__time_duration.sum" else i
    d[name(r)] = d.get(name(r), 0) + float(r[-1].replace(",", ""))
runs = max(1, sum(1 for r in rows if r[-3] == "gpu__time_duration.sum" and name(r) == "AccumulateFeaturesKernel"))
print("  a run: %.0f us: " % (sum(t.values()) / 1000 / runs) + ", ".join("%s %.0f (%.1f)" % (k, v / 1000 / runs, i.get(k, 0) / 1e6 / runs) for k, v in sorted(t.items(), key=lambda kv: -kv[1])[:10]))
PY
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
