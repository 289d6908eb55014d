#!/usr/bin/env bash
# Call 4 (H200): the full table's union-find choices again, now that a
# plane's rows from their bits are joined in blocks in shared memory with
# queued events and a sparse volume's queue too. One binary (main
# 2268ba8, /tmp/b/m/build-gpu): 8192^2 8-conn. g = 1, the default (the
# union-find counts the perimeter's pairs below the strips' 0.45) against
# r = --full-pairs-after-labels --row-bit-links always (the rows' bits,
# the pairs counted after the labels), d r r d; 512^3 6-conn. g = 1, the
# default against b = --row-bit-links always, d b b d.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
M=/tmp/b/m/build-gpu/benchmark/cca_benchmark
C2="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-2d --variant d="$M" \
  --variant r="$M --full-pairs-after-labels --row-bit-links always" --common "$C2" \
  --set 2d-full-g1-all="--dimension 2 --size 8192 --connectivity full --g 1" --order "d r r d"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-3d --variant d="$M" \
  --variant b="$M --row-bit-links always" --common "$C2" \
  --set 3d-face-g1-all="--dimension 3 --size 512 --connectivity face --g 1" --order "d b b d"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
