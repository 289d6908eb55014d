#!/usr/bin/env bash
# Call 6 (H200): the committed change, binary x (call 5's, with the plane's
# byte row blocks joined in one level: fan-in as many as its blocks);
# m = main 95ad309. ncu of the union-find launches and the numbering at
# 8192^2 4-conn. g = 1 d = 0.5 / 0.7, full table; summed, 4-conn. full
# table m x x m, 8-conn. full table m x; the GPU tests, memcheck and
# racecheck on x.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
MB=/tmp/b/m/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for d in 0.5 0.7; do
  echo "== ncu 8192^2 face d=$d x, the union-find launches of one run, and the numbering"
  ncu --clock-control none --kernel-name regex:"Link|NumberComponents" --launch-count 3 --metrics $M \
    $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
    --density $d --dimension 2 --size 8192 --connectivity face 2>&1 |
    grep -E "  void|gpu__time|inst_executed" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
done
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant m="$MB" --variant x="$X" \
  --common "$C" --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" --order "m x x m"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-full --variant m="$MB" --variant x="$X" \
  --common "$C" --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" --order "m x"
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/logs/tests
grep -E "row-bit links" $OUT/logs/tests/backend.log
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
