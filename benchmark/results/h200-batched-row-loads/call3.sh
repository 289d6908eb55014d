#!/usr/bin/env bash
# Call 3 (H200): Y (the run count taking rows of one stretch four a warp;
# the numbering's ranks from root bits and a scan of the words' counts)
# against N (main, ffa879d), N Y N Y: labels only at g = 1 in the four
# families, the full table at 8192^2 g = 1, 512^3 g = 4 and all foreground; ncu of Y on
# 512^3 g = 1 d = 0.5 labels only; then Y's GPU tests, memcheck, racecheck.
set -u
O=$OUT/c3; L=$O/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu
xz -dc .devcarry/bench-n.xz > /tmp/b/N && chmod +x /tmp/b/N && cp $G/benchmark/cca_benchmark /tmp/b/Y
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
/tmp/b/Y --labels-on-device --outputs all --reps 3 --warmup 1 --dimension 3 --size 512 --g 4 > /dev/null 2>&1
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5"
for v in N1 Y1 N2 Y2; do
  for c in "3 512 1 face labels" "3 512 1 full labels" "2 8192 1 face labels" "2 8192 1 full labels" "2 8192 1 full all" "3 512 4 full all" "3 512 0 face all"; do
    set -- $c; n=$1d-g$3-$4-$5-$v
    timeout 45 /tmp/b/${v:0:1} $P --connectivity $4 --outputs $5 --dimension $1 --size $2 --g $3 > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
M=gpu__time_duration.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed
timeout 60 ncu --clock-control none --metrics $M --csv --print-units base /tmp/b/Y --labels-on-device --no-atomic-counts --reps 1 --warmup 1 --dimension 3 --size 512 --g 1 --connectivity face --outputs labels --density 0.5 > $L/ncu-Y.csv 2> $L/ncu-Y.err; echo "ncu rc=$? at $SECONDS s"
# As run, these steps were written out here; scripts/engine-gpu-tests.sh
# now holds them, the same commands.
bash scripts/engine-gpu-tests.sh $G $L
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
