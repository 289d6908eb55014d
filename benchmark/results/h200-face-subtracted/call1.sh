#!/usr/bin/env bash
# Call 1 (H200): the largest component's table entry as the foreground's
# totals less the others under face connectivity too (the pairs between
# components counted by the pairs' pass after the labels,
# cuda/PrecedingPairs.cuh's Straddling). One binary, n: n = --largest-
# subtracted never, a = always. Full table, n a a n, with each image's
# times: 8192^2 4-conn. and 512^3 6-conn. at g = 1 and 4, and 512^3
# 26-conn. g = 1 (the totals' kernel now reads the neighbour pixels with
# RunDetection.cuh's LeftForeground and RightForeground). Then n's full
# engine GPU tests with memcheck and racecheck.
# Carry: .devcarry/gpu.tar.xz (n's stripped build-gpu binaries).
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant n="$B --largest-subtracted never" --variant a="$B --largest-subtracted always" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 3d-face-g4="--dimension 3 --size 512 --connectivity face --g 4" \
  --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "n a a n" --per-image
echo "ab done at $SECONDS s"
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
