#!/usr/bin/env bash
# Call 2 (H200): call 1's change with the default narrowed from its
# measurements (HostSequence::LargestSubtractedFor: volumes only, the
# largest component's runs at least 0.08 a voxel, at most 0.01 components
# a run). One binary: a = --largest-subtracted never, s = the default.
# Full table, a s s a, each image's times: 512^3 26-conn. g = 1 and 4,
# 8192^2 8-conn. g = 1 (the default no longer subtracts in planes). Then
# the binary's ccaCudaBackendTest (its kernels are call 1's, whose full
# GPU tests, memcheck and racecheck passed). Carry: .devcarry/gpu.tar.xz.
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant a="$B --largest-subtracted never" --variant s="$B" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 3d-full-g4="--dimension 3 --size 512 --connectivity full --g 4" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --order "a s s a" --per-image
echo "ab done at $SECONDS s"
timeout 120 /tmp/b/n/build-gpu/test/gpu/ccaCudaBackendTest > $OUT/logs/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"
grep -E "^total|FAIL" $OUT/logs/backend.log | head -10
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
