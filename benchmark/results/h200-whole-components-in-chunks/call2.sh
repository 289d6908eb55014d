#!/usr/bin/env bash
# Call 2 (H200): B = main a1680be, N = the votes store the components of a
# chunk whole (cuda/WholeComponents.cuh). Full table, g = 1 and g = 4, the
# four connectivities, B then N once each; ncu of N at 512^3 6-conn.
# d = 0.3; GPU tests, memcheck and racecheck on N.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bin() { case $1 in b) echo /tmp/b/b/cca_benchmark;; *) echo /tmp/b/n/build-gpu/benchmark/cca_benchmark;; esac; }
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
for g in 1 4; do
  for c in "2 8192 face" "2 8192 full" "3 512 face" "3 512 full"; do
    set -- $c
    for v in b n; do
      t=$1d-$3-g$g-$v
      timeout 60 $(bin $v) $P --g $g --dimension $1 --size $2 --connectivity $3 --json $L/$t.json > $L/$t.log 2>&1
      echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
      grep "^Default" $L/$t.log | awk '{printf "%s:%s+%s ", $4, $7, $8} END {print ""}'
    done
  done
done
python3 - $L <<'PY'
import json, sys, glob, os
def objects(path):
    return [(m["density"], m["components"], m["runs"]) for m in json.load(open(path))["measurements"]]
for f in sorted(glob.glob(sys.argv[1] + "/*-b.json")):
    g = f.replace("-b.json", "-n.json")
    print(os.path.basename(g), "components and runs", "same as b" if objects(f) == objects(g) else "DIFFER from b")
PY
for v in b n; do
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density 0.3 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $(bin $v) $Q > $L/ncu-$v.csv 2> $L/ncu-$v.err
  echo "ncu 3D 6-conn. d=0.3 $v (rc=$?, at $SECONDS s):"
  python3 - "$L/ncu-$v.csv" <<'PY'
import csv, sys, re
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[-3] == "gpu__time_duration.sum"]
name = lambda r: re.sub(r"<.*", "", re.sub(r"\(.*", "", r[4])).replace("void ", "").replace("cca::", "").replace("cub::", "")
runs = max(1, sum(1 for r in rows if name(r) == "AccumulateFeaturesKernel"))
t = {}
for r in rows:
    t[name(r)] = t.get(name(r), 0) + float(r[-1].replace(",", "")) / 1000 / runs
print("  %d runs; a run: %.0f us over %d launches: " % (runs, sum(t.values()), len(rows) // runs) + ", ".join("%s %.0f" % kv for kv in sorted(t.items(), key=lambda kv: -kv[1])))
PY
done
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
