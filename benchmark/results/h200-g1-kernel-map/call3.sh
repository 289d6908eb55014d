#!/usr/bin/env bash
# Call 3 (H200): the shared-memory row blocks' occupancy. Binary x: call
# 2's change plus a request for the largest shared-memory carveout before
# each launch of LinkRowBlocksInSharedKernel (cudaFuncSetAttribute;
# CCA_SHARED_CARVEOUT=0 leaves the driver's choice, as in call 2). ncu of
# the kernel's occupancy either way at 512^3 6-conn. g = 1 d = 0.3 / 0.7;
# then g (--shared-row-links never), d (the driver's carveout), c (the
# largest carveout) and c32 (c in blocks of 32 rows), full table and
# labels only.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__occupancy_limit_warps,launch__shared_mem_config_size,l1tex__t_sector_hit_rate.pct
for v in 0 1; do
  for d in 0.3 0.7; do
    echo "ncu carveout=$v 512^3 face d=$d, the shared row blocks"
    CCA_SHARED_CARVEOUT=$v ncu --clock-control none --kernel-name regex:"LinkRowBlocks" --launch-count 1 --metrics $M \
      $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
      --density $d --dimension 3 --size 512 --connectivity face 2>&1 |
      grep -E "  void|gpu__time|inst_executed|warps_active|occupancy_limit|config_size|hit_rate" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant g="$X --shared-row-links never" --variant c="$X" --variant c32="$X --link-block-rows 32" \
  --variant d="env CCA_SHARED_CARVEOUT=0 $X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "g c c32 d c g"
python3 benchmark/ab_compare.py --logs $OUT/ab-labels \
  --variant g="$X --shared-row-links never" --variant c="$X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs labels" \
  --set 3d-face-g1-labels="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "g c c g"
tar -C $OUT -czf $OUT/logs.tgz ab ab-labels && rm -rf $OUT/ab $OUT/ab-labels
echo "done at $SECONDS s"
