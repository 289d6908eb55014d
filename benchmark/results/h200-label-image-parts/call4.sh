#!/usr/bin/env bash
# Call 4 (H200): the CUDA backend test with the strip labeling's first
# pixel shapes (test/gpu/ccaStripFirstPixelShapes.h) added to its strip
# checks, whole and under compute-sanitizer memcheck (--quick).
# Carried: .devcarry/gpu.tar.xz (the stripped ccaCudaBackendTest).
set -u
O=$OUT/c4; L=$O/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
T=/tmp/b/build-gpu/test/gpu/ccaCudaBackendTest
exec > >(tee $O/summary.txt) 2>&1
timeout 120 $T > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"
grep -E "strip|^total|FAIL" $L/backend.log | head -20
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"
grep -E "strip|^total|ERROR SUMMARY" $L/memcheck.log | head
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
