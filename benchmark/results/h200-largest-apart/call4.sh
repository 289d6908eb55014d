#!/usr/bin/env bash
# Call 4 (H200): ncu kernel tables, one run each, --largest-apart never (n)
# and auto (a): 512^3 26-conn. d = 0.6 (one component: nothing left out,
# where auto was 0.08-0.10 ms slower), 6-conn. d = 0.5 and 8192^2 4-conn.
# d = 0.7 (the largest component left out).
set -u
L=$OUT/ncu; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for c in "3 512 full 0.6" "3 512 face 0.5" "2 8192 face 0.7"; do
  for v in never auto; do
    set -- $c
    n=${1}d-$3-d$4-$v
    timeout 90 ncu --clock-control none --print-units base --metrics $M --csv $B $C --largest-apart $v --dimension $1 --size $2 --connectivity $3 --density $4 > $L/k-$n.csv 2> $L/k-$n.err
    echo "== $n (rc=$?, at $SECONDS s)"
    python3 benchmark/ncu_kernel_table.py $L/k-$n.csv --top 24
  done
done
tar -C $OUT -czf $OUT/ncu.tgz ncu && rm -rf $L
