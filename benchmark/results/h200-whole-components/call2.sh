#!/usr/bin/env bash
# Call 2 (H200): N = main (df80755) with FacingRowsOf (cuda/StripRows.cuh)
# taking its rows from StripRowAt (the previous review's leftover); B =
# main. The GPU tests, memcheck and racecheck on N; labels only, B N B N,
# 8192^2 8-conn. and 512^3 26-conn. g = 1 (the strips' and tubes' links
# call FacingRowsOf); then ncu of every kernel of the full table on N
# (the table's code is main's), g = 1: 512^3 6-conn. d = 0.3 and 8192^2
# 4-conn. d = 0.4, for the next attempt at the full table.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
N=/tmp/b/n/build-gpu/benchmark/cca_benchmark
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --connectivity full --g 1"
for c in "2 8192" "3 512"; do set -- $c
  for r in 1 2; do for v in b n; do
    X=/tmp/b/b/cca_benchmark; [[ $v == n ]] && X=$N
    t=$1d-labels-$v$r
    timeout 60 $X $P --dimension $1 --size $2 > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
    grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
  done; done
done
for c in "3 512 face 0.3" "2 8192 face 0.4"; do set -- $c
  [[ $SECONDS -gt 500 ]] && break
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension $1 --size $2 --connectivity $3 --density $4 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum --csv $N $Q > $L/ncu-$1d-$3-$4.csv 2> $L/ncu-$1d-$3-$4.err
  echo "ncu $1D $3 d=$4 (rc=$?, at $SECONDS s):"
  python3 - "$L/ncu-$1d-$3-$4.csv" <<'PY'
import csv, sys, collections, re
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[-3] == "gpu__time_duration.sum"]
name = lambda r: re.sub(r"<.*", "", re.sub(r"\(.*", "", r[4])).replace("void ", "").replace("cca::", "").replace("cub::", "")
# every run of the image launches the first kernel once: divide by the runs
runs = max(1, sum(1 for r in rows if name(r) == name(rows[0]))) if rows else 1
t = collections.OrderedDict()
for r in rows:
    t[name(r)] = t.get(name(r), 0) + float(r[-1].replace(",", "")) / 1000 / runs
print("  %d runs; a run: %.0f us over %d launches: " % (runs, sum(t.values()), len(rows) // runs) + ", ".join("%s %.0f" % kv for kv in sorted(t.items(), key=lambda kv: -kv[1])))
PY
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
