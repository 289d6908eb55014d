#!/usr/bin/env bash
# Call 4 (H200), with what device time was left: B = main b2893b8 (call 3's
# N), N = branch next/votes-group-runs: the dense table's votes, in the
# runs' grouping order, write the runs grouped by component from the
# records they read (the run gathering kernel left out). Full table, g = 1:
# 512^3 6-conn., 8192^2 4-conn., 512^3 26-conn., B N once each; ncu of N
# at 512^3 6-conn. d = 0.3. No GPU tests: N is not on main.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bin() { case $1 in b) echo /tmp/b/b/cca_benchmark;; n) echo /tmp/b/n/cca_benchmark;; esac; }
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
run() { # dims size g connectivity version round
  t=$1d-g$3-$4-$5$6
  timeout 60 $(bin $5) $P --g $3 --dimension $1 --size $2 --connectivity $4 --json $L/$t.json > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
}
for v in b n; do run 3 512 1 face $v 1; done
for v in b n; do run 2 8192 1 face $v 1; done
for v in b n; do run 3 512 1 full $v 1; done
for v in n; do
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density 0.3 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $(bin $v) $Q > $L/ncu-$v.csv 2> $L/ncu-$v.err
  echo "ncu 3D 6-conn. d=0.3 $v (rc=$?, at $SECONDS s):"
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
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
