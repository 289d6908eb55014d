#!/usr/bin/env bash
# Call 2 (H200): p = WriteByteRunsKernel on a resident grid, each warp's
# lanes reading the row offsets (and spans) of its next 32 rows together
# and writing the runs of rows of one run or none a lane each, against
# n = main (ad99e37, call 1's binary). First p's engine GPU tests with
# memcheck and racecheck (scripts/engine-gpu-tests.sh), then n p p n: the
# all-on images (3D both connectivities, 2D 4-conn.), 512^3 face g = 16
# and g = 1, 8192^2 4-conn. g = 1, full table, each image's times.
# Carry: .devcarry/gpu.tar.xz.
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
bash scripts/engine-gpu-tests.sh /tmp/b/p/build-gpu $OUT/logs/tests
echo "tests done at $SECONDS s"
ab() { # logs, common arguments, then the sets
  local logs=$1 common=$2; shift 2
  python3 benchmark/ab_compare.py --logs $OUT/logs/$logs --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
    --variant p="/tmp/b/p/build-gpu/benchmark/cca_benchmark" --common "$common" "$@" --order "n p p n" --per-image
  echo "$logs done at $SECONDS s"
}
ab on "--labels-on-device --no-atomic-counts --warmup 2 --reps 20 --outputs all --g 0" \
  --set 3d-face-on="--dimension 3 --size 512 --connectivity face" \
  --set 3d-full-on="--dimension 3 --size 512 --connectivity full" \
  --set 2d-face-on="--dimension 2 --size 8192 --connectivity face"
ab grains "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g16="--dimension 3 --size 512 --connectivity face --g 16" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
