#!/usr/bin/env bash
# Call 4 (H200): the pairs' search with each neighbour row's first
# candidate (its place and whether it is the run's component) loaded for
# all rows together before any visit (RunNeighbours.cuh's
# ForEachRunInRangesWithKeys). p8: the count held to 8 blocks a
# multiprocessor (32 registers, 56 bytes of spills in face-connected
# volumes); p6: to 6 (40 registers, none). The GPU tests, memcheck and
# racecheck on p8, then the full table at g = 1 against main a7c3edb (m)
# (26-connected volumes left out: the call's time).
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
M=/tmp/b/m/cca_benchmark
P8=/tmp/b/x/build-gpu/benchmark/cca_benchmark
P6=/tmp/b/p6/cca_benchmark
ncu --clock-control none --kernel-name regex:"CountPrecedingPairs" --metrics gpu__time_duration.sum \
  $P8 --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density 0.3 --dimension 3 --size 512 --connectivity face 2>&1 | grep gpu__time | head -2
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="$M" --variant p8="$P8" --variant p6="$P6" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "m p8 p6 p6 p8 m"
python3 benchmark/ab_compare.py --logs $OUT/ab2 \
  --variant m="$M" --variant p8="$P8" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "m p8 p8 m"
tar -C $OUT -czf $OUT/logs.tgz tests ab ab2 && rm -rf $OUT/tests $OUT/ab $OUT/ab2
echo "done at $SECONDS s"
