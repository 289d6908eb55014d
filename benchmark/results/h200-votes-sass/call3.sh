#!/usr/bin/env bash
# Call 3 (H200): the votes that store whole components, each run's own
# features computed once for every lane and the fold in component order
# (WarpFoldOrderedRunVotes), n, against main 7f663dd, m: full table,
# summed, g = 1, m n n m, two binaries.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
G=/tmp/b/x/build-gpu/benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "m n n m" \
  --variant m="$G/cca_benchmark_main" --variant n="$G/cca_benchmark" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
