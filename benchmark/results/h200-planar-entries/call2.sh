#!/usr/bin/env bash
# Call 2 (H200): issue 10's end-to-end table with planar entries
# (benchmark/run-on-gpu-machine.sh, STEPS="e2e e2e-large", from a slim
# bundle of build-bench), then the full table's kernels on 8192^2 at g = 1,
# d = 0.5, 4- and 8-connected, planar entries (p) and 160-byte ones
# (--planar-table never, n): ncu, one run each, the method of
# h200-vote-occupancy call 3.
set -u
ENGINE_COMMIT=${ENGINE_COMMIT:-see README} STEPS="e2e e2e-large" bash benchmark/run-on-gpu-machine.sh 440
exec > >(tee $OUT/ncu-summary.txt) 2>&1
L=$OUT/ncu; mkdir -p $L
export LD_LIBRARY_PATH=/tmp/bench-bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
B=build-bench/benchmark/cca_benchmark
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for c in "face p" "face n" "full p" "full n"; do
  set -- $c
  n=2d-$1-d0.5-$2
  P=""; [ $2 = n ] && P="--planar-table never"
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension 2 --size 8192 --connectivity $1 --density 0.5 --warmup 0 --reps 1 $P"
  timeout 60 ncu --clock-control none --print-units base --metrics $M --csv $B $Q > $L/ncu-$n.csv 2> $L/ncu-$n.err
  echo "== $n (rc=$?, at $SECONDS s)"
  python3 benchmark/ncu_kernel_table.py $L/ncu-$n.csv
done
tar -C $OUT -czf $OUT/ncu.tgz ncu && rm -rf $L
