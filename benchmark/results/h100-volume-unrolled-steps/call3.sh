#!/usr/bin/env bash
# Call 3 (H100): the GPU tests of the form kept (w: only the pair-counting
# union-find unrolled for volumes), built from the working tree.
# Carry: .devcarry/gab3.tar.xz (r/w/ccaCudaBackendTest).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab3.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
T=/tmp/b/r/w/ccaCudaBackendTest
timeout 90 $T > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -12
timeout 50 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $T --quick --cases 12 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
