#!/usr/bin/env bash
# Call 3 (H200): p against p --largest-subtracted always (a) on the
# volumes' densities below today's bound, and 26-conn. d = 0.1.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
P=/tmp/b/p/build-gpu/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $L/ab --variant p="$P" --variant a="$P --largest-subtracted always" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all --g 1" \
  --set 3d-face-d03="--dimension 3 --size 512 --connectivity face --density 0.3" \
  --set 3d-face-d04="--dimension 3 --size 512 --connectivity face --density 0.4" \
  --set 3d-full-d01="--dimension 3 --size 512 --connectivity full --density 0.1" \
  --set 2d-full-d03="--dimension 2 --size 8192 --connectivity full --density 0.3" \
  --order "p a a p" --per-image
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
