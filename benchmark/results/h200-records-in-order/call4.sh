#!/usr/bin/env bash
# Call 4 (H200): the GPU tests on the final code (the crossing entries'
# loads out of the warps' loops, the pairs' count compiled apart for
# planes and volumes, held to eight blocks), memcheck and racecheck, then
# the full table at g = 1 once more against main 0e6e9be (m), f = final,
# m f f m.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="/tmp/b/m/cca_benchmark" --variant f="/tmp/b/x/build-gpu/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4" \
  --order "m f f m"
tar -C $OUT -czf $OUT/logs.tgz tests ab && rm -rf $OUT/tests $OUT/ab
echo "done at $SECONDS s"
