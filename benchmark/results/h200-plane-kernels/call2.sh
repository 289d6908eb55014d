#!/usr/bin/env bash
# Call 2 (H200): main 95ad309. Where 8192^2 8-connected g = 1 planes spend
# their kernels with the full table at d = 0.4 / 0.5 / 0.7 (call 1 lost
# them); the union-find's launches of 4-connected planes at d = 0.5 / 0.7
# with labels only against the full table (LinkByteRowsKernel took 489 /
# 706 us a run with the table); ncu's full set with source counters of
# the pass over all runs at 4-conn. d = 0.7 with the table.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
mkdir -p $OUT/logs
for d in 0.4 0.5 0.7; do
  echo "== ncu all kernels, 8192^2 full d=$d, full table"
  ncu --clock-control none --print-units base --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
    --density $d --dimension 2 --size 8192 --connectivity full > $OUT/logs/kernels-full-$d.csv 2> $OUT/logs/kernels-full-$d.err
  python3 benchmark/ncu_kernel_table.py $OUT/logs/kernels-full-$d.csv --top 16
done
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum
for d in 0.5 0.7; do
  for o in labels all; do
    echo "== ncu 8192^2 face d=$d --outputs $o, the union-find launches of one run"
    ncu --clock-control none --kernel-name regex:"Link" --launch-count 6 --metrics $M \
      $X --labels-on-device --no-atomic-counts --outputs $o --g 1 --warmup 0 --reps 1 \
      --density $d --dimension 2 --size 8192 --connectivity face 2>&1 |
      grep -E "  void|gpu__time|inst_executed|lts__" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
done
ncu --clock-control none --set full --import-source yes --kernel-name regex:"LinkByteRowsKernel" --launch-count 1 \
  -o $OUT/rows-face-07 $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
  --density 0.7 --dimension 2 --size 8192 --connectivity face > $OUT/logs/ncu-source.log 2>&1
echo "source rc=$? at $SECONDS s"
ncu -i $OUT/rows-face-07.ncu-rep --page details 2>&1 | grep -vE "^    -+|^ *$" | head -120
ncu -i $OUT/rows-face-07.ncu-rep --page source --csv --print-source sass > $OUT/rows-face-07-sass.csv 2> $OUT/logs/sass.err
xz -T4 $OUT/rows-face-07-sass.csv
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
