#!/usr/bin/env bash
# Call 1 (H200): the subtracted largest component's runs placed by the
# pairs' pass after the labels (cuda/PlacedLargest.cuh): the pass writes
# them straight into their places among the grouped runs and folds their
# bounding box; the votes, the sort and the records leave them out.
# n = main (6a7dfaf), p = the change; full table, 512^3 g = 1, 26- and
# 6-conn. (the subtraction's images: 26-conn. d = 0.2-0.9, 6-conn.
# d = 0.7-0.9), n p p n, each image's times. Then p's engine GPU tests
# with memcheck and racecheck (scripts/engine-gpu-tests.sh).
# Carry: .devcarry/gpu.tar.xz (n's cca_benchmark, p's stripped build-gpu
# binaries).
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
  --variant p="/tmp/b/p/build-gpu/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "n p p n" --per-image
echo "ab done at $SECONDS s"
bash scripts/engine-gpu-tests.sh /tmp/b/p/build-gpu $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
