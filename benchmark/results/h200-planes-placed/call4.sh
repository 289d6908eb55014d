#!/usr/bin/env bash
# Call 4 (H200): r = q (calls 2 and 3) with the placing variants of planes
# compiled for 32-bit run indices in 32-bit row arithmetic only
# (PlacedLargest.cuh's PlacesLargestRuns; the others cost CI's build about
# a minute): its backend test and memcheck, then q r on 8192^2 8-conn.
# g = 1, full table (the same kernels run). Carry: .devcarry/gpu.tar.xz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
B=/tmp/b/r/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 120 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
python3 benchmark/ab_compare.py --logs $L/ab --variant q="/tmp/b/q/build-gpu/benchmark/cca_benchmark" \
  --variant r="$B/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" --order "q r" --per-image
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
