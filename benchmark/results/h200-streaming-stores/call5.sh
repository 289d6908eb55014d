#!/usr/bin/env bash
# Call 5 (H200): the GPU tests on 810716b (review: host code and a comment).
set -u
xz -dc .devcarry/tests.tar.xz | tar -xf -
G=build-gpu
mkdir -p $OUT/logs
exec > >(tee $OUT/summary.txt) 2>&1
for t in gpu/ccaHostImagePoolTest gpu/ccaDeviceMemoryTest; do
  timeout 60 $G/test/$t > $OUT/logs/$(basename $t).log 2>&1; echo "$t rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/$(basename $t).log)"
done
timeout 30 $G/test/engine/ccaEngineOracleTest large cuda > $OUT/logs/large.log 2>&1; echo "large cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/large.log)"
bash scripts/engine-gpu-tests.sh --quick $G $OUT/logs/tests
