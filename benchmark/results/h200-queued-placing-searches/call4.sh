#!/usr/bin/env bash
# Call 4 (H200): q = p with the subtraction's new bounds (components at
# most 0.12 a run in volumes, 0.05 in planes): its backend test, memcheck
# and racecheck, then q and every labels-only peer in one command
# (benchmark/ours_and_peers.sh). Carry: .devcarry/gpu.tar.xz, .peers.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
G=/tmp/b/q/build-gpu
timeout 150 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|vote orders" $L/backend.log | head -12
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
bash benchmark/ours_and_peers.sh $G $L/peers $OUT/call4
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
