#!/usr/bin/env bash
# Call 1 (H200): a 2D image's dense table in planar entries (PlanarFeatures,
# 96 bytes, votes at eight 128-thread blocks an SM, 64 registers) against
# 160-byte NarrowFeatures (five blocks an SM, main's entries), one binary:
# n = --planar-table never, p = planar entries (the default). First the
# GPU tests of the change, then full table, summed, n p p n
# (benchmark/ab_compare.py).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
X=/tmp/b/x
B=$X/build-gpu/benchmark/cca_benchmark
V=(--variant n="$B --planar-table never" --variant p="$B")
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L "${V[@]}" --common "$C" --order "n p p n" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4" \
  --set 2d-full-g4="--dimension 2 --size 8192 --connectivity full --g 4"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
bash scripts/engine-gpu-tests.sh $X/build-gpu $OUT/tests
