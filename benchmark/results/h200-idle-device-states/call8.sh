#!/usr/bin/env bash
# Call 8 (H200): the device state destroyed by its own destructor (the
# review's simplification): the device memory test (idle states), the
# backend's test, memcheck on both (--quick for the backend's).
set -u
mkdir -p /tmp/t $OUT/logs
xz -dc .devcarry/pk4.tar.xz | tar -C /tmp/t -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
G=/tmp/t/test/gpu
timeout 60 $G/ccaDeviceMemoryTest > $OUT/logs/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/devmem.log)"
timeout 120 $G/ccaCudaBackendTest > $OUT/logs/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $OUT/logs/backend.log | head -5
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $G/ccaDeviceMemoryTest > $OUT/logs/devmem-memcheck.log 2>&1; echo "devmem memcheck rc=$? at $SECONDS s"; grep -E "device memory:|ERROR SUMMARY" $OUT/logs/devmem-memcheck.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $G/ccaCudaBackendTest --quick > $OUT/logs/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $OUT/logs/memcheck.log
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
