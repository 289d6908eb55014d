#!/usr/bin/env bash
# Call 1 (H200): the plane's byte row blocks in dynamic shared memory, their
# shape B x T (blocks a multiprocessor x threads, the links filling the
# share) chosen at run time (--byte-row-blocks); m = main 9c8799b. ncu of
# the union-find launches and the numbering at 8192^2 4-conn. g = 1, full
# table, per shape; summed, 4-conn. full table, main and five shapes there
# and back.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
MB=/tmp/b/m/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
ncu_shape() { # shape density
  echo "== ncu 8192^2 face d=$2 --byte-row-blocks $1: the union-find launches of one run, and the numbering"
  ncu --clock-control none --kernel-name regex:"Link|NumberComponents" --launch-count 3 --metrics $M \
    $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --byte-row-blocks $1 \
    --density $2 --dimension 2 --size 8192 --connectivity face 2>&1 |
    grep -E "  void|gpu__time|inst_executed|rror" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
}
for s in 5x256 3x256 2x512 1x512; do ncu_shape $s 0.5; done
for s in 5x256 2x512; do ncu_shape $s 0.7; done
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant m="$MB" \
  --variant a="$X --byte-row-blocks 5x256" --variant b="$X --byte-row-blocks 2x512" \
  --variant c="$X --byte-row-blocks 3x256" --variant d="$X --byte-row-blocks 1x512" \
  --variant e="$X --byte-row-blocks 2x256" \
  --common "$C" --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "m a b c d e e d c b a m"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
