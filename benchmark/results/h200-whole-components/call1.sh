#!/usr/bin/env bash
# Call 1 (H200): N = main (df80755) with the components of few runs built
# whole by one thread of PrepareTableKernel (GroupedUnits,
# --whole-component-units, default 16) instead of voting; W = 1 in the
# same binary is the previous path (only one-run components written
# whole). The GPU tests, memcheck and racecheck on N; then the full table
# (labels + runs + table), W = 1 against W = 16, two rounds, at g = 1 in
# planes and volumes under both connectivities; a sweep of W at 3D 6-conn.
# and 2D 4-conn. g = 1; ncu of the table's kernels at 3D 6-conn. d = 0.3.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/n/build-gpu/benchmark/cca_benchmark
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
run() { # dims size g conn W tag
  t=$1d-g$3-$4-w$5-$6
  timeout 60 $X $P --g $3 --dimension $1 --size $2 --connectivity $4 --whole-component-units $5 > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
}
for c in "2 8192 1 face" "2 8192 1 full" "3 512 1 face" "3 512 1 full"; do set -- $c
  for r in 1 2; do for w in 1 16; do run $1 $2 $3 $4 $w r$r; done; done
done
for c in "3 512 1 face" "2 8192 1 face"; do set -- $c
  for w in 4 64; do [[ $SECONDS -lt 470 ]] && run $1 $2 $3 $4 $w sweep; done
done
for w in 1 16; do
  [[ $SECONDS -gt 520 ]] && break
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 3 --size 512 --connectivity face --density 0.3 --warmup 0 --reps 1 --whole-component-units $w"
  timeout 40 ncu --clock-control none -k regex:"PrepareTable|AccumulateFeatures|FinalizeTable|GroupStarts" --metrics gpu__time_duration.sum,launch__registers_per_thread --csv $X $Q > $L/ncu-w$w.csv 2> $L/ncu-w$w.err
  echo "ncu 3D 6-conn. d=0.3 w=$w: $(grep '^"' $L/ncu-w$w.csv | grep duration | awk -F'","' '{printf "%s %s; ", $5, $NF}' | sed 's/(.*)//g;s/<[^>]*>//g' | tr -d '"')"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
