#!/usr/bin/env bash
# Call 6 (H200): the tests that set the links now take the shared-memory
# pass in every volume it can join (blocks of 8 rows where the rows hold
# too few runs for the default), and the GPU suite's middle capacity is
# the default's 3,072 instead of 400. ccaCudaBackendTest and memcheck
# (--quick) on that build (x: 316949c plus the test hooks' change).
set -u
mkdir -p /tmp/b $OUT/tests
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
G=/tmp/b/x/build-gpu
timeout 100 $G/test/gpu/ccaCudaBackendTest > $OUT/tests/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"
grep -E "^total|FAIL|shared row-block" $OUT/tests/backend.log | head -10
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $OUT/tests/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"
grep -E "^total|ERROR SUMMARY" $OUT/tests/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz tests && rm -rf $OUT/tests
echo "done at $SECONDS s"
