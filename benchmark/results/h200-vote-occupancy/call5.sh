#!/usr/bin/env bash
# Call 5 (H200): ccaCudaBackendTest as committed (the update-counting
# check's merges per vote block computed once, narrow and wide entries;
# call 2 ran the same checks before that refactor), in full, and under
# compute-sanitizer memcheck --quick.
set -u
mkdir -p /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
T=/tmp/b/x/build-gpu/test/gpu/ccaCudaBackendTest
timeout 120 $T > $OUT/backend.log 2>&1
echo "backend rc=$?"; grep -E "^total|FAIL|Default update counting" $OUT/backend.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $OUT/memcheck.log 2>&1
echo "memcheck rc=$?"; grep -E "^total|ERROR SUMMARY" $OUT/memcheck.log
