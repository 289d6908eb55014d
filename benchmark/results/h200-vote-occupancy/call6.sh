#!/usr/bin/env bash
# Call 6 (H200): the union-find over runs (LinkRunsKernel: face
# connectivity, and labels only where runs are joined one by one) held to
# eight blocks an SM, 32 registers (28 and 34 unbounded; the 34-register
# form, which searches a volume's two preceding rows together, then
# spills 12 bytes): m = main (b5c848f), u = bounded. Full table at g = 1
# in 4-connected planes and 6-connected volumes, labels only in 4-connected
# planes, m u u m; then u's backend test and memcheck.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
X=/tmp/b/x
V=(--variant m="$X/main/cca_benchmark" --variant u="$X/build-gpu/benchmark/cca_benchmark")
python3 benchmark/ab_compare.py --logs $L "${V[@]}" --order "m u u m" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1 --connectivity face" \
  --set 2d-face-g1="--dimension 2 --size 8192" --set 3d-face-g1="--dimension 3 --size 512"
python3 benchmark/ab_compare.py --logs $L "${V[@]}" --order "m u u m" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1 --connectivity face" \
  --set 2d-face-g1-labels="--dimension 2 --size 8192"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
T=$X/build-gpu/test/gpu/ccaCudaBackendTest
timeout 100 $T > $OUT/backend.log 2>&1
echo "u backend rc=$?"; grep -E "^total|FAIL" $OUT/backend.log | head
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $OUT/memcheck.log 2>&1
echo "u memcheck rc=$?"; grep -E "^total|ERROR SUMMARY" $OUT/memcheck.log
