#!/usr/bin/env bash
# Call 7 (H200): the side work on the sets calls 3-5 left out. One binary
# (call 5's), --no-side-stream (n) against the default (s), s n n s, full
# table, summed: 8-conn. and 26-conn. g = 4, 4- and 6-conn. g = 16.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "s n n s" \
  --variant s="$B" --variant n="$B --no-side-stream" \
  --set 2d-full-g4="--dimension 2 --size 8192 --connectivity full --g 4" \
  --set 3d-full-g4="--dimension 3 --size 512 --connectivity full --g 4" \
  --set 2d-face-g16="--dimension 2 --size 8192 --connectivity face --g 16" \
  --set 3d-face-g16="--dimension 3 --size 512 --connectivity face --g 16"
echo "done at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
