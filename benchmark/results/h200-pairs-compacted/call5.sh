#!/usr/bin/env bash
# Call 5 (H200): the stored pairs' count of an image below 2^31 pixels
# finding a run's row, its neighbour rows and their end index words in
# 32-bit arithmetic (SmallImage, NeighbourRowOf<std::int32_t>). s: that
# change on f075a00; m: main 9f2f9a9's code (a7c3edb). The GPU tests,
# memcheck and racecheck on s; ncu of the count on both; the full table
# at g = 1 in 6-connected volumes (planes left out: the device time left).
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
M=/tmp/b/m/cca_benchmark
S=/tmp/b/x/build-gpu/benchmark/cca_benchmark
for v in M S; do
  for dim in "--dimension 3 --size 512" "--dimension 2 --size 8192"; do
    echo "ncu $v $dim"
    ncu --clock-control none --kernel-name regex:"CountPrecedingPairs" --launch-count 1 \
      --metrics gpu__time_duration.sum,smsp__inst_executed.sum \
      ${!v} --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density 0.3 \
      $dim --connectivity face 2>&1 | grep -E "gpu__time|inst_executed" | head -2
  done
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="$M" --variant s="$S" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "m s s m"
tar -C $OUT -czf $OUT/logs.tgz tests ab && rm -rf $OUT/tests $OUT/ab
echo "done at $SECONDS s"
