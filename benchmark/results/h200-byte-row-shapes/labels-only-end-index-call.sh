#!/usr/bin/env bash
# Prepared for the next session, not run (the device time had run out):
# labels only with the runs' end index where a plane's rows are joined in
# byte row blocks in shared memory (x: labels-only-end-index-unmeasured.patch
# applied); m = main 9c8799b. Summed, 8192^2 4-conn. g = 1 labels only,
# m x x m; the backend's GPU test, memcheck (--quick) and racecheck
# (--quick --cases 1) on x.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
MB=/tmp/b/m/cca_benchmark
G=/tmp/b/x/build-gpu
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs labels"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant m="$MB" --variant x="$X" \
  --common "$C" --set 2d-face-g1-labels="--dimension 2 --size 8192 --connectivity face --g 1" --order "m x x m"
mkdir -p $OUT/logs/tests
timeout 90 $G/test/gpu/ccaCudaBackendTest > $OUT/logs/tests/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"
grep -E "^total|row-bit links" $OUT/logs/tests/backend.log
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $OUT/logs/tests/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $OUT/logs/tests/memcheck.log
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $OUT/logs/tests/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $OUT/logs/tests/racecheck.log
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
