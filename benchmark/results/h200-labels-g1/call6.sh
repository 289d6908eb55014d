#!/usr/bin/env bash
# Call 6 (H200): the GPU test after its review fix (the row-bit links'
# cases counted in its totals); the engine is call 4's. The full test and
# memcheck on --quick. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
timeout 140 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|row-bit|^Default:" $L/backend.log | head -10
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY|row-bit" $L/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
