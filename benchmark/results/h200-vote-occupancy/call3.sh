#!/usr/bin/env bash
# Call 3 (H200): issue 10's end-to-end table and the large volume with this
# session's code (benchmark/run-on-gpu-machine.sh, STEPS="e2e e2e-large",
# from a slim bundle: stripped cca_e2e_benchmark and cca_benchmark of
# build-bench and their ITK libraries), then where the full table's
# kernels spend their time at g = 1 now (ncu, one run each, the method of
# h200-record-reads call 4: 512^3 6-conn. d = 0.3, 26-conn. d = 0.5,
# 8192^2 4-conn. d = 0.5).
set -u
ENGINE_COMMIT=${ENGINE_COMMIT:-see README} STEPS="e2e e2e-large" bash benchmark/run-on-gpu-machine.sh 440
exec > >(tee $OUT/ncu-summary.txt) 2>&1
L=$OUT/ncu; mkdir -p $L
export LD_LIBRARY_PATH=/tmp/bench-bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
B=build-bench/benchmark/cca_benchmark
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for c in "3 512 face 0.3" "3 512 full 0.5" "2 8192 face 0.5"; do
  set -- $c
  n=$1d-$3-d$4
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension $1 --size $2 --connectivity $3 --density $4 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --print-units base --metrics $M --csv $B $Q > $L/ncu-$n.csv 2> $L/ncu-$n.err
  echo "== $n (rc=$?, at $SECONDS s)"
  python3 benchmark/ncu_kernel_table.py $L/ncu-$n.csv
done
tar -C $OUT -czf $OUT/ncu.tgz ncu && rm -rf $L
