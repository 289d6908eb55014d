#!/usr/bin/env bash
# Call 2 (H200): the GPU tests of the narrow table, first form (narrow only
# from 65,536 components; copies by regions narrow always):
# engine oracle and large images on CUDA, the CUDA backend against the CPU
# backend (votes-order cases now narrow or wide, copies by regions with
# narrow entries widened in pieces), feature groups, device memory,
# compute-sanitizer memcheck and racecheck.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $L
grep -E "narrow|votes in|copies by regions|large" $L/backend.log | grep -v '^ok' | tail -8
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
