#!/usr/bin/env bash
# Call 3 (H200): B = main a1680be, N = call 2's N with the automatic rule
# (whole components where components >= 0.3 of the runs) and the crossing
# entries seeded and finished a warp an entry. Full table, g = 1, the four
# connectivities, B N then N B; ncu of N (always) at 512^3 6-conn. d = 0.3
# and 8192^2 4-conn. d = 0.3; GPU tests, memcheck and racecheck on N.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bin() { case $1 in b) echo /tmp/b/b/cca_benchmark;; *) echo /tmp/b/n/build-gpu/benchmark/cca_benchmark;; esac; }
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1"
for c in "2 8192 face" "2 8192 full" "3 512 face" "3 512 full"; do
  set -- $c
  for v in b1 n1 n2 b2; do
    t=$1d-$3-$v
    timeout 60 $(bin ${v:0:1}) $P --dimension $1 --size $2 --connectivity $3 --json $L/$t.json > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
    grep "^Default" $L/$t.log | awk '{printf "%s:%s+%s ", $4, $7, $8} END {print ""}'
  done
done
python3 - $L <<'PY'
import json, sys, glob, os
def objects(path):
    return [(m["density"], m["components"], m["runs"]) for m in json.load(open(path))["measurements"]]
for f in sorted(glob.glob(sys.argv[1] + "/*-b1.json")):
    for v in ["n1", "n2", "b2"]:
        g = f.replace("-b1.json", "-%s.json" % v)
        print(os.path.basename(g), "components and runs", "same as b1" if objects(f) == objects(g) else "DIFFER from b1")
PY
for c in "3 512 face" "2 8192 face"; do
  set -- $c
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension $1 --size $2 --connectivity $3 --density 0.3 --warmup 0 --reps 1 --whole-components always"
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $(bin n) $Q > $L/ncu-$1d.csv 2> $L/ncu-$1d.err
  echo "ncu ${1}D $3 d=0.3 n always (rc=$?, at $SECONDS s):"
  python3 - "$L/ncu-$1d.csv" <<'PY'
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
