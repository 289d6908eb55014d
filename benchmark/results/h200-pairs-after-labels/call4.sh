#!/usr/bin/env bash
# Call 4 (H200): the GPU tests of main 30390a5 (the engine of bd98f08, the
# vote-order checks' fix); then, in one binary, a 6-connected volume's
# table with its runs joined from the rows' foreground bits (r =
# --row-bit-links always) against the default (d: the search), full
# table, summed, d r r d, per image in the logs.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
X=/tmp/b/x
B=$X/build-gpu/benchmark/cca_benchmark
bash scripts/engine-gpu-tests.sh $X/build-gpu $OUT/tests
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "d r r d" \
  --variant d="$B" --variant r="$B --row-bit-links always" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
