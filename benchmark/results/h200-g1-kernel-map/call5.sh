#!/usr/bin/env bash
# Call 5 (H200): call 4's binary x on the sets it could change besides
# 6-connected g = 1: 26-connected volumes labels only (whose runs, where
# the block labeling does not take them, are joined by LinkRunsKernel,
# now within row blocks in shared memory where a row holds 64 runs) and
# 6-connected g = 4 with the full table (rows of about 30 runs: not
# taken), g s each.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant g="$X --shared-row-links never" --variant s="$X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3" \
  --set 3d-full-g1-labels="--dimension 3 --size 512 --connectivity full --g 1 --outputs labels" \
  --set 3d-face-g4="--dimension 3 --size 512 --connectivity face --g 4 --outputs all" \
  --order "g s"
tar -C $OUT -czf $OUT/logs.tgz ab && rm -rf $OUT/ab
echo "done at $SECONDS s"
