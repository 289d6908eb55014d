#!/usr/bin/env bash
# Call 3 (H200): main's GPU tests (ccb0d80, the review refactor of the
# runs' end index, not yet run on a GPU): engine oracle and large images on
# CUDA, the CUDA backend against the CPU backend, feature groups, device
# memory, compute-sanitizer memcheck and racecheck.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
grep -E "row-bit links|strip joins|wide rows|large image" $L/backend.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
