#!/usr/bin/env bash
# Call 4 (H200): compute-sanitizer on the call-3 binary: memcheck on the
# quick GPU test, racecheck on its default algorithm. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
timeout 80 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY|fan-in" $L/memcheck.log
timeout 180 compute-sanitizer --tool racecheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY|fan-in" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
