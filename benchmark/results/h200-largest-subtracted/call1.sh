#!/usr/bin/env bash
# Call 1 (H200): the largest component's table entry as the foreground's
# totals less the other entries (cuda/LargestBySubtraction.cuh). One
# binary, n: a = --largest-subtracted never (every run votes, as main), s =
# the default (where the largest component holds 0.3 of the runs, under
# full connectivity on a byte mask). Full table, a s s a, with each image's
# times; 8192^2 8-conn. and 512^3 26-conn. at g = 1 and 4 (the sets it
# touches; face connectivity never subtracts). Then n's full engine GPU
# tests with memcheck and racecheck.
# Carry: .devcarry/gpu.tar.xz (n's stripped build-gpu binaries).
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant a="$B --largest-subtracted never" --variant s="$B" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-full-g4="--dimension 2 --size 8192 --connectivity full --g 4" \
  --set 3d-full-g4="--dimension 3 --size 512 --connectivity full --g 4" \
  --order "a s s a" --per-image
echo "ab done at $SECONDS s"
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
