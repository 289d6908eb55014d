#!/usr/bin/env bash
# Call 4 (H200): where the 26-conn. g = 1 images below and at the
# subtraction's start spend their time, for the next step of issue 13:
# ncu of every kernel (benchmark/ncu_kernel_table.py) of call 3's binary q,
# full table, 512^3 26-conn. d = 0.1 (3.1 ms, the set's slowest image, 0.14
# components a run, no subtraction) and d = 0.2 (subtracted, placed), and
# 6-conn. d = 0.2 (4.2 ms). Carry: .devcarry/gpu.tar.xz.
set -u
mkdir -p /tmp/b $OUT/logs/ncu
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
kmap() { # name, then cca_benchmark's image arguments
  local name=$1; shift
  echo "== ncu all kernels, q, $name, full table"
  timeout 60 ncu --clock-control none --print-units base --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    /tmp/b/q/build-gpu/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 "$@" \
    > $OUT/logs/ncu/$name.csv 2> $OUT/logs/ncu/$name.err
  python3 benchmark/ncu_kernel_table.py $OUT/logs/ncu/$name.csv --top 16
  echo "at $SECONDS s"
}
kmap 3d-full-0.1 --dimension 3 --size 512 --connectivity full --density 0.1
kmap 3d-full-0.2 --dimension 3 --size 512 --connectivity full --density 0.2
kmap 3d-face-0.2 --dimension 3 --size 512 --connectivity face --density 0.2
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
