#!/usr/bin/env bash
# Call 7 (H200): the review's changes (one consumer for the staged
# downloads, StreamDevice::CopyingInto; the skipped-run test of the pairs'
# pass in one function; the host image pool's idle bookkeeping in one
# function): scripts/engine-gpu-tests.sh --quick (the backend's test,
# memcheck, racecheck) and the host image pool test.
set -u
mkdir -p /tmp/t $OUT/logs
xz -dc .devcarry/pk3.tar.xz | tar -C /tmp/t -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
G=/tmp/t/r
timeout 120 $G/test/gpu/ccaHostImagePoolTest > $OUT/logs/hostpool.log 2>&1
echo "host image pool rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/hostpool.log)"
bash scripts/engine-gpu-tests.sh --quick $G $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
