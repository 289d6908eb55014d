#!/usr/bin/env bash
# Call 3 (H200): call 2's binary p, the engine's GPU tests with memcheck
# and racecheck (scripts/engine-gpu-tests.sh); then ncu of every kernel
# (benchmark/ncu_kernel_table.py), n against p, full table, g = 1: 512^3
# 6-conn. d = 0.4 (no component subtracted, where call 2 found p 1-2 %
# slower) and 26-conn. d = 0.5 (placed). Carry: .devcarry/gpu.tar.xz.
set -u
mkdir -p /tmp/b $OUT/logs/ncu
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
bash scripts/engine-gpu-tests.sh /tmp/b/p/build-gpu $OUT/logs/tests
kmap() { # variant, name, then cca_benchmark's image arguments
  local v=$1 name=$2; shift 2
  echo "== ncu all kernels, $v, $name, full table"
  timeout 90 ncu --clock-control none --print-units base --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    /tmp/b/$v/build-gpu/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 "$@" \
    > $OUT/logs/ncu/$v-$name.csv 2> $OUT/logs/ncu/$v-$name.err
  python3 benchmark/ncu_kernel_table.py $OUT/logs/ncu/$v-$name.csv --top 14
  echo "at $SECONDS s"
}
for v in n p; do
  kmap $v 3d-face-0.4 --dimension 3 --size 512 --connectivity face --density 0.4
  kmap $v 3d-full-0.5 --dimension 3 --size 512 --connectivity full --density 0.5
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
