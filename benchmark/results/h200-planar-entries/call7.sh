#!/usr/bin/env bash
# Call 7 (H200): the GPU tests on the review commit (one widening dispatch
# for both devices, the planar guards simplified; the votes kernels' code
# is byte-identical to before, compiled alone), memcheck and racecheck
# included.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
grep -E "bytesCopiedToHost|planar" $OUT/tests/backend.log | head -5
