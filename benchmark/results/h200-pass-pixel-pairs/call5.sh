#!/usr/bin/env bash
# Call 5 (H200): where the full table's time goes at g = 1 on the
# committed code (call 2's binary), for the next design: ncu of every
# kernel of one process (each launching twice; benchmark/ncu_kernel_table.py),
# full table, g = 1: 8192^2 4-conn. d = 0.4 and 0.6, 8-conn. d = 0.4,
# 512^3 6-conn. d = 0.3 and 0.5, 26-conn. d = 0.5.
set -u
mkdir -p /tmp/b $OUT/logs/ncu
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
N=/tmp/b/n/build-gpu/benchmark/cca_benchmark
kmap() { # name, then cca_benchmark's image arguments
  local name=$1; shift
  echo "== ncu all kernels, $name, full table"
  timeout 90 ncu --clock-control none --print-units base --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    $N --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 "$@" \
    > $OUT/logs/ncu/$name.csv 2> $OUT/logs/ncu/$name.err
  python3 benchmark/ncu_kernel_table.py $OUT/logs/ncu/$name.csv --top 12
  echo "at $SECONDS s"
}
kmap 2d-face-0.4 --dimension 2 --size 8192 --connectivity face --density 0.4
kmap 2d-face-0.6 --dimension 2 --size 8192 --connectivity face --density 0.6
kmap 2d-full-0.4 --dimension 2 --size 8192 --connectivity full --density 0.4
kmap 3d-face-0.3 --dimension 3 --size 512 --connectivity face --density 0.3
kmap 3d-face-0.5 --dimension 3 --size 512 --connectivity face --density 0.5
kmap 3d-full-0.5 --dimension 3 --size 512 --connectivity full --density 0.5
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
