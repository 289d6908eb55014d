#!/usr/bin/env bash
# Call 3 (H200): the pairs' count of volumes visiting the runs of its four
# preceding rows in one loop (ForEachRunInRangesInOneLoop: a run or a move
# to the next row an iteration), so that a warp waits for the lane with
# the most touching runs in all rows, not in each row in turn. o: that
# change on f075a00; m: main 9f2f9a9's code (a7c3edb). The GPU tests,
# memcheck and racecheck on o; ncu of the count on both; the full table
# at g = 1 in 6- and 26-connected volumes.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
M=/tmp/b/m/cca_benchmark
O=/tmp/b/x/build-gpu/benchmark/cca_benchmark
for v in M O; do
  echo "ncu $v"
  ncu --clock-control none --kernel-name regex:"CountPrecedingPairs" \
    --metrics gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum \
    ${!v} --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density 0.3 \
    --dimension 3 --size 512 --connectivity face 2>&1 | grep -E "gpu__time|thread_inst|inst_executed.sum" | head -6
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="$M" --variant o="$O" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "m o o m"
tar -C $OUT -czf $OUT/logs.tgz tests ab && rm -rf $OUT/tests $OUT/ab
echo "done at $SECONDS s"
