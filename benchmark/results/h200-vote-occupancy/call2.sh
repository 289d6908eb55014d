#!/usr/bin/env bash
# Call 2 (H200): the engine's GPU tests and compute-sanitizer on the landed
# code (b: narrow votes in 128-thread blocks at five an SM, the tests
# expecting a merge a vote block), then six blocks an SM (q: 80 registers,
# 116-144 bytes of spills; votes-128x5.patch built with
# -DCCA_NARROW_VOTE_BLOCKS=6) against b, b q q b, full table, summed.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
X=/tmp/b/x
bash scripts/engine-gpu-tests.sh $X/build-gpu $OUT/tests
grep -E "update counting" $OUT/tests/backend.log
python3 benchmark/ab_compare.py --logs $L --variant b="$X/build-gpu/benchmark/cca_benchmark" \
  --variant q="$X/build-p6/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" --order "b q q b" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
