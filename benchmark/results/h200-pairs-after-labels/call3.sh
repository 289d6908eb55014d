#!/usr/bin/env bash
# Call 3 (H200): the default algorithm's votes fold a warp's votes for
# several components by reductions over each component's lanes
# (__reduce_*_sync with the mask __match_any_sync gives, GroupSumFeatures
# in cuda/FeatureUpdate.cuh: one instruction per 32 bits of the entry, three
# per 64-bit sum) instead of conflict detection's masked tree (a shuffle
# and a merge per word for each of up to five rounds). First the GPU tests
# of the change (the vote-order checks take both folds), then one binary,
# t = --vote-fold tree, g = the default, full table, summed, t g g t; then
# ncu of the votes at d = 0.5 (8192^2 4-conn.) and d = 0.3 (512^3 6-conn.).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
X=/tmp/b/x
B=$X/build-gpu/benchmark/cca_benchmark
bash scripts/engine-gpu-tests.sh $X/build-gpu $OUT/tests
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
V=(--variant t="$B --vote-fold tree" --variant g="$B")
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "t g g t" "${V[@]}" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "t g g t" "${V[@]}" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1"
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__bytes_write.sum
for c in "2 8192 face 0.5 t" "2 8192 face 0.5 g" "3 512 face 0.3 t" "3 512 face 0.3 g"; do
  set -- $c
  P=""; [ $5 = t ] && P="--vote-fold tree"
  Q="--labels-on-device --no-atomic-counts --outputs all --g 1 --dimension $1 --size $2 --connectivity $3 --density $4 --warmup 0 --reps 1 $P"
  timeout 60 ncu --clock-control none --print-units base --kernel-name regex:AccumulateFeatures --metrics $M $B $Q > $L/ncu-$1d-$5.txt 2>&1
  echo "== ncu ${1}D $3 d=$4 $5 (rc=$?): votes, each run of the image"
  grep -E "gpu__time|inst_executed|warps_active|bytes_write" $L/ncu-$1d-$5.txt
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
