#!/usr/bin/env bash
# Call 4 (H200): the parents flattened before the union-find's first level
# of slices in volumes of short runs. x: main a5c5b95 (flattened only where
# runs are long, FlattenBelowRunsPerRow); f1: also before the first slice
# level in every volume; f2: every volume flattened as long-run ones are
# (before the row blocks' level too). Call 3's ncu: the slice level took
# 836 us (513 M instructions) where the rows' pass took 447 us (280 M),
# with the same DRAM traffic, at 512^3 6-conn. g = 1 d = 0.3.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x; F1=/tmp/b/f1; F2=/tmp/b/f2
echo "ncu f1 512^3 face d=0.3"
ncu --clock-control none --kernel-name regex:"LinkRuns|Flatten" --launch-count 5 \
  --metrics gpu__time_duration.sum,smsp__inst_executed.sum \
  $F1 --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density 0.3 \
  --dimension 3 --size 512 --connectivity face 2>&1 | grep -E "  void|gpu__time|inst_exec" |
  sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
python3 benchmark/ab_compare.py --logs $OUT/ab --variant x="$X" --variant f1="$F1" --variant f2="$F2" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" --order "x f1 f2 f1 x"
python3 benchmark/ab_compare.py --logs $OUT/ab2 --variant x="$X" --variant f1="$F1" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 3d-face-g4="--dimension 3 --size 512 --connectivity face --g 4" --order "x f1 f1 x"
python3 benchmark/ab_compare.py --logs $OUT/ab3 --variant x="$X" --variant f1="$F1" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs labels" \
  --set 3d-face-g1-labels="--dimension 3 --size 512 --connectivity face --g 1" --order "x f1 f1 x"
tar -C $OUT -czf $OUT/logs.tgz ab ab2 ab3 && rm -rf $OUT/ab $OUT/ab2 $OUT/ab3
echo "done at $SECONDS s"
