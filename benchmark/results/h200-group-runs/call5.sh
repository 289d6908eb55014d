#!/usr/bin/env bash
# Call 5 (H200), with the device time left: B = main's code (call 3's N),
# N = branch next/full-pairs-without-labels: under full connectivity on a
# mask CountPrecedingPairsKernel reads no labels. Full table, 512^3
# 26-conn. g = 1, B N once; ncu of N at d = 0.3; then ccaCudaBackendTest
# and memcheck --quick on N (no racecheck: no time left, and the change
# touches no shared memory).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bin() { case $1 in b) echo /tmp/b/c/cca_benchmark;; *) echo /tmp/b/n/build-gpu/benchmark/cca_benchmark;; esac; }
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
run() { # dims size g connectivity version round
  t=$1d-g$3-$4-$5$6
  timeout 40 $(bin $5) $P --g $3 --dimension $1 --size $2 --connectivity $4 --json $L/$t.json > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  grep "^Default" $L/$t.log | awk '{printf "%s:%s+%s ", $4, $7, $8} END {print ""}'
}
for v in b n; do run 3 512 1 full $v 1; done
Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity full --density 0.3 --warmup 0 --reps 1"
timeout 30 ncu --clock-control none --metrics gpu__time_duration.sum --csv $(bin n) $Q > $L/ncu-n.csv 2> $L/ncu-n.err
echo "ncu 3D 26-conn. d=0.3 n (rc=$?, at $SECONDS s):"
python3 - "$L/ncu-n.csv" <<'PY'
import csv, sys, collections, re
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[-3] == "gpu__time_duration.sum"]
name = lambda r: re.sub(r"<.*", "", re.sub(r"\(.*", "", r[4])).replace("void ", "").replace("cca::", "").replace("cub::", "")
runs = max(1, sum(1 for r in rows if name(r) == "FinalizeTableKernel"))
t = collections.OrderedDict()
for r in rows:
    t[name(r)] = t.get(name(r), 0) + float(r[-1].replace(",", "")) / 1000 / runs
print("  %d runs; a run: %.0f us over %d launches: " % (runs, sum(t.values()), len(rows) // runs) + ", ".join("%s %.0f" % kv for kv in sorted(t.items(), key=lambda kv: -kv[1])))
PY
G=/tmp/b/n/build-gpu
timeout 70 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
