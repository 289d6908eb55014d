#!/usr/bin/env bash
# Call 3 (H200): the final code (CUB given 32-bit counts where they fit):
# the engine's GPU tests with memcheck and racecheck, the 64-bit-count
# cases among them.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
G=/tmp/b/x/build-gpu
bash scripts/engine-gpu-tests.sh $G $OUT/tests
grep -E "one stream|ordinary launches|64-bit CUB counts" $OUT/tests/backend.log
tar -C $OUT -czf $OUT/tests.tgz tests && rm -rf $OUT/tests
echo "done at $SECONDS s"
