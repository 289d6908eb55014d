#!/usr/bin/env bash
# Call 7 (H200): a short GPU check of main after a cleanup of the byte row
# scan (WriteByteRunsKernel takes the run end index's words a row from
# RunArrays::endWordsPerRow instead of computing them again): the engine
# oracle on CUDA, the CUDA backend against the CPU backend, memcheck
# --quick. The full tests ran on the code before it (call 5).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
G=/tmp/b/x/build-gpu
timeout 30 $G/test/engine/ccaEngineOracleTest oracle cuda > $L/oracle.log 2>&1
echo "engine oracle cuda rc=$? at $SECONDS s: $(tail -n 1 $L/oracle.log)"
timeout 90 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"
grep -E "^total|FAIL" $L/backend.log | head -10
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"
grep -E "^total|ERROR SUMMARY" $L/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
