#!/usr/bin/env bash
# Call 5 (H200): a slice level's blocks taking their slices in raster order
# (LinkRuns: line = block / chunks) where they took every slice's chunk k
# together (line = block % lines). x: main a5c5b95; r: that change. The
# full table and labels only at 512^3 6-conn. g = 1, then the GPU tests on
# r without racecheck (the change maps blocks to runs; no shared memory),
# within the device time left.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x; R=/tmp/b/r/build-gpu/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $OUT/ab --variant x="$X" --variant r="$R" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" --order "x r r x"
python3 benchmark/ab_compare.py --logs $OUT/ab2 --variant x="$X" --variant r="$R" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs labels" \
  --set 3d-face-g1-labels="--dimension 3 --size 512 --connectivity face --g 1" --order "x r"
G=/tmp/b/r/build-gpu; L=$OUT/tests; mkdir -p $L
timeout 30 $G/test/engine/ccaEngineOracleTest oracle cuda > $L/oracle.log 2>&1; echo "oracle rc=$?: $(tail -n 1 $L/oracle.log)"
timeout 15 $G/test/engine/ccaEngineOracleTest large cuda > $L/large.log 2>&1; echo "large rc=$?: $(tail -n 1 $L/large.log)"
timeout 90 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$?"; grep -E "^total|FAIL" $L/backend.log | head -5
for s in labels intensity selection; do timeout 20 $G/test/engine/ccaFeatureGroupsTest $s cuda > $L/g-$s.log 2>&1; echo "groups $s rc=$?: $(tail -n 1 $L/g-$s.log)"; done
timeout 20 $G/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$?: $(tail -n 1 $L/devmem.log)"
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$?"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz ab ab2 tests && rm -rf $OUT/ab $OUT/ab2 $OUT/tests
echo "done at $SECONDS s"
