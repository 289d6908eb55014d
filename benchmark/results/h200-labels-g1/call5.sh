#!/usr/bin/env bash
# Call 5 (H200): the final code under compute-sanitizer, memcheck and
# racecheck, on the representative subsets of earlier sessions. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY|row-bit" $L/memcheck.log
timeout 300 compute-sanitizer --tool racecheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
