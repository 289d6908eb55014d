#!/usr/bin/env bash
# Call 2 (H200): the union-find's slice levels without path halving
# (CCA_SLICE_WALKS=1), without pointing each run at the root its merges
# met (2), or both (3), in a diagnostic build whose LinkPass carries the
# two switches (the other code as main with RootMet). ncu of the
# union-find and numbering launches at d = 0.5, then the full table A/B
# in one binary: 512^3 6-conn. g = 1 (LinkRunsKernel's slice levels)
# 0 1 2 3 3 2 1 0, 26-conn. g = 1 (LinkByteRowsKernel's over the tubes)
# 0 3 3 0.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum
for c in face full; do
  for v in 0 1 2 3; do
    echo "ncu 512^3 $c d=0.5 CCA_SLICE_WALKS=$v: union-find and numbering launches of one run"
    CCA_SLICE_WALKS=$v ncu --clock-control none --kernel-name regex:"Link|Number" --launch-count 6 --metrics $M \
      $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
      --density 0.5 --dimension 3 --size 512 --connectivity $c 2>&1 |
      grep -E "  void|gpu__time|inst_executed" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant w0="$X" --variant w1="env CCA_SLICE_WALKS=1 $X" \
  --variant w2="env CCA_SLICE_WALKS=2 $X" --variant w3="env CCA_SLICE_WALKS=3 $X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "w0 w1 w2 w3 w3 w2 w1 w0"
python3 benchmark/ab_compare.py --logs $OUT/ab-full \
  --variant w0="$X" --variant w3="env CCA_SLICE_WALKS=3 $X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "w0 w3 w3 w0"
tar -C $OUT -czf $OUT/logs.tgz ab ab-full && rm -rf $OUT/ab $OUT/ab-full
echo "done at $SECONDS s"
