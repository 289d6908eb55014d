#!/usr/bin/env bash
# Call 4 (H200): the final binary p (call 2's, with the votes' skip in a
# variant of their own, AccumulateFeaturesKernel's Skipping: call 3's ncu
# found the votes 4.8 % slower at 512^3 6-conn. d = 0.4, where nothing is
# placed) against main n, as call 2: full table, 512^3 g = 1, 26- and
# 6-conn., n p p n, each image's times; then p's backend GPU test and
# memcheck (--quick): racecheck ran on call 2's binary (call 3), and the
# change since touches no shared memory. Carry: .devcarry/gpu.tar.xz.
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
G=/tmp/b/p/build-gpu
timeout 120 $G/test/gpu/ccaCudaBackendTest > $OUT/logs/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $OUT/logs/backend.log | head -10
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $OUT/logs/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $OUT/logs/memcheck.log
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
