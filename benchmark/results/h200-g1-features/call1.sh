#!/usr/bin/env bash
# Call 1 (H200): ncu kernel tables of main's full table at g = 1 where the
# features stage is largest: 8192^2 4-conn. d = 0.2 / 0.3 / 0.5, 8-conn.
# d = 0.3, 512^3 6-conn. d = 0.3, 26-conn. d = 0.2.
set -u
L=$OUT/ncu; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for c in "2 8192 face 0.3" "2 8192 face 0.2" "2 8192 face 0.5" "2 8192 full 0.3" "3 512 face 0.3" "3 512 full 0.2"; do
  set -- $c
  n=${1}d-$3-d$4
  timeout 100 ncu --clock-control none --print-units base --metrics $M --csv $B $C --dimension $1 --size $2 --connectivity $3 --density $4 > $L/k-$n.csv 2> $L/k-$n.err
  echo "== $n (rc=$?, at $SECONDS s)"
  python3 benchmark/ncu_kernel_table.py $L/k-$n.csv --top 22
done
tar -C $OUT -czf $OUT/ncu.tgz ncu && rm -rf $L
