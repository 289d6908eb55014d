#!/usr/bin/env bash
# Call 4 (H200): why call 1's pixel pairs gained nothing. Call 1's patch
# (pass-pixel-pairs-not-kept.patch) built again as p; ncu of its pairs'
# pass (CountPrecedingPairsKernel, each launch) from the runs (r =
# --pass-pair-pixels never) and from the pixels (p), full table, g = 1:
# 512^3 26-conn. d = 0.3 and 0.5, 8192^2 8-conn. d = 0.4.
set -u
mkdir -p /tmp/b $OUT/logs/ncu
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
P=/tmp/b/p/build-gpu/benchmark/cca_benchmark
pass() { # name, variant flags, then cca_benchmark's image arguments
  local name=$1 flags=$2; shift 2
  echo "== ncu pairs' pass, $name"
  timeout 120 ncu --clock-control none --print-units base --csv --kernel-name regex:CountPrecedingPairs \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    $P $flags --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 "$@" \
    > $OUT/logs/ncu/$name.csv 2> $OUT/logs/ncu/$name.err
  python3 benchmark/ncu_kernel_table.py $OUT/logs/ncu/$name.csv --top 4
}
for v in r p; do
  F=""; [ $v = r ] && F="--pass-pair-pixels never"
  pass 3d-full-0.3-$v "$F" --dimension 3 --size 512 --connectivity full --density 0.3
  pass 3d-full-0.5-$v "$F" --dimension 3 --size 512 --connectivity full --density 0.5
  pass 2d-full-0.4-$v "$F" --dimension 2 --size 8192 --connectivity full --density 0.4
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
