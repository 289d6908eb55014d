#!/usr/bin/env bash
# Call 4 (H200): the GPU tests on 9e15c75 (the pool's Prepare, the program's
# use of it; kernels as 66f72b9): the host image pool on the GPU, device
# memory, the engine oracle and large images on CUDA, the feature groups'
# labels suite, the host-side pool and streaming tests, then the backend's
# test with memcheck and racecheck (scripts/engine-gpu-tests.sh --quick).
set -u
xz -dc .devcarry/tests.tar.xz | tar -xf -
G=build-gpu
mkdir -p $OUT/logs
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
for t in engine/ccaHostImageMemoryTest engine/ccaStreamingStoresTest gpu/ccaHostImagePoolTest gpu/ccaDeviceMemoryTest; do
  timeout 60 $G/test/$t > $OUT/logs/$(basename $t).log 2>&1; echo "$t rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/$(basename $t).log)"
done
timeout 30 $G/test/engine/ccaEngineOracleTest oracle cuda > $OUT/logs/oracle.log 2>&1; echo "oracle cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/oracle.log)"
timeout 30 $G/test/engine/ccaEngineOracleTest large cuda > $OUT/logs/large.log 2>&1; echo "large cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/large.log)"
timeout 30 $G/test/engine/ccaFeatureGroupsTest labels cuda > $OUT/logs/groups.log 2>&1; echo "groups labels cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/groups.log)"
bash scripts/engine-gpu-tests.sh --quick $G $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
