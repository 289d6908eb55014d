#!/usr/bin/env bash
# Call 4 (H200): the shared-memory row blocks joined a row after another
# (binary x: 128 threads and 3,072 links a block, each row's runs merged
# with the row before once that row's runs point at their roots; taken
# where a row holds at least 64 runs). ncu of the union-find launches at
# 512^3 6-conn. g = 1 d = 0.3 / 0.7; then g (--shared-row-links never)
# against s (the default), full table and labels only, g s s g; the GPU
# tests, memcheck and racecheck on x.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for d in 0.3 0.7; do
  echo "ncu 512^3 face d=$d, the union-find launches of one run"
  ncu --clock-control none --kernel-name regex:"Link" --launch-count 4 --metrics $M \
    $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
    --density $d --dimension 3 --size 512 --connectivity face 2>&1 |
    grep -E "  void|gpu__time|inst_executed|warps_active" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant g="$X --shared-row-links never" --variant s="$X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "g s s g"
python3 benchmark/ab_compare.py --logs $OUT/ab-labels \
  --variant g="$X --shared-row-links never" --variant s="$X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs labels" \
  --set 3d-face-g1-labels="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "g s s g"
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
grep -E "shared row-block" $OUT/tests/backend.log
tar -C $OUT -czf $OUT/logs.tgz ab ab-labels tests && rm -rf $OUT/ab $OUT/ab-labels $OUT/tests
echo "done at $SECONDS s"
