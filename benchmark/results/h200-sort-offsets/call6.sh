#!/usr/bin/env bash
# Call 6 (H200): the votes' staging area with an odd stride (21 words a
# NarrowFeatures record, 13 a PlanarFeatures one), so that the leaders'
# stores of their records fall in different shared memory banks (call 5:
# 43 % of the votes' shared wavefronts excessive). The engine's GPU tests
# on it with memcheck and racecheck; then main (m, e950b40) against it
# (p), two binaries, m p p m, full table, summed.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
G=/tmp/b/x/build-gpu
bash scripts/engine-gpu-tests.sh $G $OUT/tests
tar -C $OUT -czf $OUT/tests.tgz tests && rm -rf $OUT/tests
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "m p p m" \
  --variant m="/tmp/b/x/main/cca_benchmark" --variant p="$G/benchmark/cca_benchmark" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-face-g4="--dimension 3 --size 512 --connectivity face --g 4"
echo "done at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
