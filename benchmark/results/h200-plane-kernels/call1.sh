#!/usr/bin/env bash
# Call 1 (H200): where 8192^2 g = 1 planes spend their kernels with the
# full table, 4- and 8-connected, main 95ad309 (ncu of every kernel of one
# benchmark process at d = 0.3 / 0.5 / 0.7; each kernel launches twice,
# benchmark/ncu_kernel_table.py), and the summed g = 1 tables of main, one
# round each, as this call's baseline.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
for c in full face; do
  for d in 0.3 0.5 0.7; do
    echo "== ncu all kernels, 8192^2 $c d=$d, full table"
    ncu --clock-control none --print-units base --csv \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
      $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
      --density $d --dimension 2 --size 8192 --connectivity $c > $OUT/kernels-$c-$d.csv 2> $OUT/kernels-$c-$d.err
    python3 benchmark/ncu_kernel_table.py $OUT/kernels-$c-$d.csv --top 16
  done
done
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
for s in "--dimension 2 --size 8192 --connectivity full" "--dimension 2 --size 8192 --connectivity face" "--dimension 3 --size 512 --connectivity face"; do
  echo "== summed, g = 1, full table: $s"
  $X $C --outputs all --g 1 $s 2>&1 | tail -n 16
done
(cd $OUT && tar -czf logs.tgz kernels-* && rm -f kernels-*)
echo "done at $SECONDS s"
