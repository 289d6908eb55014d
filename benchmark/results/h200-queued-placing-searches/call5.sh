#!/usr/bin/env bash
# Call 5 (H200), a probe not landed: r = every variant of the pairs' pass
# after the labels in tiles of 2,048 runs with the searches queued (not
# only the placing ones), against q (main's device code), q r r q, full
# table, g = 1, per image. No GPU tests of r: the session's device time
# was nearly spent.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
python3 benchmark/ab_compare.py --logs $L/ab --variant q="/tmp/b/q/build-gpu/benchmark/cca_benchmark" \
  --variant r="/tmp/b/r/build-gpu/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "q r r q" --per-image
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
