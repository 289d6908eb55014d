#!/usr/bin/env bash
# Call 8 (H200): racecheck on call 7's N again (in call 7 the racecheck
# process ended by a host-side fault after its first group of checks).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/n/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 4 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"
grep -E "^total|RACECHECK SUMMARY|passed" $L/racecheck.log | tail -n 30
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
