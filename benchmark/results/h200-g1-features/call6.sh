#!/usr/bin/env bash
# Call 6 (H200): ccaCudaBackendTest of the committed code, whose random
# cases with a default turned off (ordinary launches, one stream) now share
# one helper; memcheck of its quick run.
set -u
mkdir -p /tmp/b $OUT/tests
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
T=/tmp/b/x/build-gpu/test/gpu/ccaCudaBackendTest
timeout 90 $T > $OUT/tests/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"
grep -E "^total|FAIL|one stream|ordinary launches" $OUT/tests/backend.log | head -30
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $OUT/tests/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"
grep -E "^total|ERROR SUMMARY" $OUT/tests/memcheck.log
tar -C $OUT -czf $OUT/tests.tgz tests && rm -rf $OUT/tests
