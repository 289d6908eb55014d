#!/usr/bin/env bash
# Call 6 (H200): the foreground's totals (ForegroundTotalsKernel,
# cuda/LargestBySubtraction.cuh) with each row's loads issued a row ahead,
# against main. Call 5 showed the kernel at 226 us for 135 MB at
# 512^3 26-conn. d = 0.5 (597 GB/s, 24 % of the warps active at 100
# registers), waiting on each row's loads, on the side stream. n = main
# (call 2's binary), t = the change; full table, 512^3 26-conn. g = 1
# (the subtraction's images), n t t n; then t's backend GPU test and
# memcheck (--quick). Carry: .devcarry/gpu.tar.xz.
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
  --variant t="/tmp/b/t/build-gpu/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "n t t n" --per-image
echo "ab done at $SECONDS s"
G=/tmp/b/t/build-gpu
timeout 100 $G/test/gpu/ccaCudaBackendTest > $OUT/logs/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $OUT/logs/backend.log | head -10
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $OUT/logs/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $OUT/logs/memcheck.log
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
