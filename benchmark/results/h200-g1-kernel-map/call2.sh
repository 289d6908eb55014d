#!/usr/bin/env bash
# Call 2 (H200): a volume's first union-find pass with its links in shared
# memory (cuda/RowBlocksInShared.cuh), one binary x built from main
# dc43449 with that change: --shared-row-links auto (s) against never (g,
# main's pass in global memory). ncu of the union-find launches at 512^3
# 6-conn. g = 1 d = 0.3 / 0.7; full table and labels only, g s s g; then
# the GPU tests, memcheck and racecheck on x.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
for v in never auto; do
  for d in 0.3 0.7; do
    echo "ncu $v 512^3 face d=$d, the union-find launches of one run"
    ncu --clock-control none --kernel-name regex:"Link" --launch-count 5 \
      --metrics gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes_read.sum \
      $X --shared-row-links $v --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
      --density $d --dimension 3 --size 512 --connectivity face 2>&1 |
      grep -E "  void|gpu__time|inst_executed|bytes_read" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
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
python3 benchmark/ab_compare.py --logs $OUT/ab-g4 \
  --variant g="$X --shared-row-links never" --variant s="$X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g4="--dimension 3 --size 512 --connectivity face --g 4" \
  --order "g s"
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
grep -E "shared row-block" $OUT/tests/backend.log
tar -C $OUT -czf $OUT/logs.tgz ab ab-labels ab-g4 tests && rm -rf $OUT/ab $OUT/ab-labels $OUT/ab-g4 $OUT/tests
echo "done at $SECONDS s"
