#!/usr/bin/env bash
# Call 2 (H200): N = main with the feature table's runs joined through the
# strips under full connectivity (cuda/StripJoin.cuh). One binary, full
# table, full connectivity: --strip-labeling never (V: the union-find over
# the runs) against always (A) and auto (U, the first rule), g = 1 and 4,
# 2D and 3D; ncu of A and V at 512^3 26-conn. g = 1 d = 0.3; then the GPU
# tests, memcheck and racecheck on N.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
flags() { case $1 in v) echo --strip-labeling never;; a) echo --strip-labeling always;; u) echo --strip-labeling auto;; esac; }
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
run() { # dims size g connectivity version round
  t=$1d-g$3-$4-$5$6
  timeout 60 $B $P $(flags $5) --g $3 --dimension $1 --size $2 --connectivity $4 --json $L/$t.json > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  grep "^Default" $L/$t.log | awk '{printf "%s:%s+%s ", $4, $7, $8} END {print ""}'
}
for v in v a u; do run 2 8192 1 full $v 1; run 3 512 1 full $v 1; done
for v in v a u; do run 2 8192 4 full $v 1; run 3 512 4 full $v 1; done
for v in v a; do
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity full --density 0.3 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $B $(flags $v) $Q > $L/ncu-$v.csv 2> $L/ncu-$v.err
  echo "ncu 3D 26-conn. d=0.3 $v (rc=$?, at $SECONDS s):"
  python3 - "$L/ncu-$v.csv" <<'PY'
import csv, sys, collections, re
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[-3] == "gpu__time_duration.sum"]
name = lambda r: re.sub(r"<.*", "", re.sub(r"\(.*", "", r[4])).replace("void ", "").replace("cca::", "").replace("cub::", "")
runs = max(1, sum(1 for r in rows if name(r) == name(rows[0]))) if rows else 1
t = collections.OrderedDict()
for r in rows:
    t[name(r)] = t.get(name(r), 0) + float(r[-1].replace(",", "")) / 1000 / runs
print("  %d runs; a run: %.0f us over %d launches: " % (runs, sum(t.values()), len(rows) // runs) + ", ".join("%s %.0f" % kv for kv in sorted(t.items(), key=lambda kv: -kv[1])))
PY
done
python3 - $L <<'PY'
import json, sys, glob, os
def objects(path):
    return [(m["density"], m["components"], m["runs"]) for m in json.load(open(path))["measurements"]]
for f in sorted(glob.glob(sys.argv[1] + "/*-v1.json")):
    for v in "au":
        g = f.replace("-v1.json", "-%s1.json" % v)
        if os.path.exists(g):
            print(os.path.basename(g), "components and runs", "same as v" if objects(f) == objects(g) else "DIFFER from v")
PY
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
