#!/usr/bin/env bash
# Call 7 (H200): N3 = main (6e4b9b1) with the run count keeping the span
# of each row of one run (CountByteRunsKernel, RowSpan) and the runs'
# writing skipping rows without runs and writing rows of one run from
# their span, without reading them again (WriteByteRunsKernel); B = main
# (call 4's binary). The GPU tests, memcheck and racecheck on N3; then B
# N3 B N3: labels only, 8192^2 8-conn. g = 1 and 16, 512^3 26-conn. g = 1;
# the all-foreground images (d = 1) with the full table; ncu of the runs'
# writing on the all-foreground plane and volume.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5"
for c in "2 8192 1 full labels" "2 8192 16 full labels" "3 512 1 full labels" "2 8192 1 face all --density 1.0" "2 8192 1 full all --density 1.0" "3 512 1 face all --density 1.0" "3 512 1 full all --density 1.0"; do
  set -- $c
  for r in 1 2; do for v in b n; do
    X=/tmp/b/b/cca_benchmark; [[ $v == n ]] && X=/tmp/b/n/build-gpu/benchmark/cca_benchmark
    t=$1d-g$3-$4-$5${7:-}-$v$r
    timeout 60 $X $P --g $3 --dimension $1 --size $2 --connectivity $4 --outputs $5 ${6:-} ${7:-} > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
    grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
  done; done
done
for c in "2 8192" "3 512"; do set -- $c; for v in b n; do
  X=/tmp/b/b/cca_benchmark; [[ $v == n ]] && X=/tmp/b/n/build-gpu/benchmark/cca_benchmark
  Q="--labels-on-device --no-atomic-counts --outputs labels --g 1 --dimension $1 --size $2 --connectivity full --density 1.0 --warmup 1 --reps 1"
  timeout 60 ncu --clock-control none --cache-control none -k regex:"WriteByteRuns|CountByteRuns" --metrics gpu__time_duration.sum --csv $X $Q > $L/ncu-$1d-$v.csv 2> $L/ncu-$1d-$v.err
  echo "ncu $1D d=1 $v: $(grep '^"' $L/ncu-$1d-$v.csv | tail -n 2 | awk -F'","' '{printf "%s %s; ", $5, $NF}' | sed 's/(.*)//g' | tr -d '"')"
done; done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
