#!/usr/bin/env bash
# Call 1 (H200): B = main 0e2222f, N = branch next/combined: the dense
# table's votes write the runs grouped (next/votes-group-runs) and, asked
# with --full-pairs-after-labels, full connectivity's pairs counted once
# the labels exist (next/full-pairs-after-labels). Full table, g = 1, 2D
# and 3D: B N under both connectivities; under full connectivity N with
# --full-pairs-after-labels (F) and with --row-bit-links always too (R);
# ncu of N and R at 512^3 26-conn. d = 0.3; then the GPU tests, memcheck
# and racecheck on N (which holds main's untested review mends).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bin() { case $1 in b) echo /tmp/b/b/cca_benchmark;; *) echo /tmp/b/n/build-gpu/benchmark/cca_benchmark;; esac; }
flags() { case $1 in f) echo --full-pairs-after-labels;; r) echo --full-pairs-after-labels --row-bit-links always;; esac; }
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
run() { # dims size g connectivity version round
  t=$1d-g$3-$4-$5$6
  timeout 60 $(bin $5) $P $(flags $5) --g $3 --dimension $1 --size $2 --connectivity $4 --json $L/$t.json > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
}
for c in face full; do for v in b n; do run 2 8192 1 $c $v 1; run 3 512 1 $c $v 1; done; done
for v in f r; do run 2 8192 1 full $v 1; run 3 512 1 full $v 1; done
for v in n r; do
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity full --density 0.3 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $(bin $v) $(flags $v) $Q > $L/ncu-$v.csv 2> $L/ncu-$v.err
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
# The same components and runs from every variant (counts in the JSON).
python3 - $L <<'PY'
import json, sys, glob, os
def objects(path):
    return [(m["density"], m["components"], m["runs"]) for m in json.load(open(path))["measurements"]]
for f in sorted(glob.glob(sys.argv[1] + "/*-n1.json")):
    for v in "bfr":
        g = f.replace("-n1.json", "-%s1.json" % v)
        if os.path.exists(g):
            same = objects(f) == objects(g)
            print(os.path.basename(g), "components and runs", "same as n" if same else "DIFFER from n")
PY
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
