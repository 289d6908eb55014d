#!/usr/bin/env bash
# Call 3 (H200): the byte row blocks in shared memory taken by a plane's
# strip image too (x); m = main 9c8799b. ncu of the union-find launches and
# the numbering, 8192^2 8-conn. g = 1 d = 0.5 / 0.7, full table, m and x;
# summed, 8-conn. full table m x x m, 4-conn. full table m x; the GPU
# tests, memcheck and racecheck on x.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
MB=/tmp/b/m/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for d in 0.5 0.7; do
  for v in m x; do
    B=$X; [ $v = m ] && B=$MB
    echo "== ncu $v 8192^2 full d=$d: the union-find launches of one run, and the numbering"
    ncu --clock-control none --kernel-name regex:"Link|NumberComponents|CoveringStripRoots" --launch-count 4 --metrics $M \
      $B --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
      --density $d --dimension 2 --size 8192 --connectivity full 2>&1 |
      grep -E "  void|gpu__time|inst_executed|rror" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
done
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab8 --variant m="$MB" --variant x="$X" \
  --common "$C" --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" --order "m x x m"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab4 --variant m="$MB" --variant x="$X" \
  --common "$C" --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" --order "m x"
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/logs/tests
grep -E "row-bit links" $OUT/logs/tests/backend.log
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
