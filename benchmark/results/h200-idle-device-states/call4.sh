#!/usr/bin/env bash
# Call 4 (H200): n's engine GPU tests in full (oracle, large, backend,
# feature groups, device memory with the idle device states, memcheck,
# racecheck), and compute-sanitizer memcheck on the device memory test,
# whose idle-state cases make and destroy engines on four threads.
set -u
mkdir -p /tmp/t $OUT/logs
xz -dc .devcarry/pk2.tar.xz | tar -C /tmp/t -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
G=/tmp/t/n
bash scripts/engine-gpu-tests.sh $G $OUT/logs/tests
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaDeviceMemoryTest > $OUT/logs/devmem-memcheck.log 2>&1
echo "devmem memcheck rc=$? at $SECONDS s"; grep -E "device memory:|ERROR SUMMARY" $OUT/logs/devmem-memcheck.log
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
