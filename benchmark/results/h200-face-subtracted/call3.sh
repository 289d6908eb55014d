#!/usr/bin/env bash
# Call 3 (H200): call 2's quick racecheck ran past its 120 s limit; the
# same binary's racecheck alone, with room.
set -u
mkdir -p /tmp/b $OUT && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/n/build-gpu
timeout 400 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $OUT/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"
grep -E "^total|RACECHECK SUMMARY" $OUT/racecheck.log
