#!/usr/bin/env bash
# Call 2 (H200): the GPU tests on b (the stored pairs counted in bands of
# rows from the neighbour rows' labels laid out in shared memory,
# cuda/PrecedingPairsInBands.cuh), memcheck and racecheck, then the full
# table against main a7c3edb (m): g = 1 face and full connectivity, 2D and
# 3D, and 2D face g = 4 (below the bands' threshold on most images), m b b m.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="/tmp/b/m/cca_benchmark" --variant b="/tmp/b/x/build-gpu/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4" \
  --order "m b b m"
tar -C $OUT -czf $OUT/logs.tgz tests ab && rm -rf $OUT/tests $OUT/ab
echo "done at $SECONDS s"
