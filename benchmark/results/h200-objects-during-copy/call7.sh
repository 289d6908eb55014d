#!/usr/bin/env bash
# Call 7 (H200): after the review (Read's slot layout named once, a constant
# moved; no kernel changed): the device-memory test (the reads), the quick
# backend checks, and memcheck on the device-memory test.
set -u
mkdir -p /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
timeout 40 $G/test/gpu/ccaDeviceMemoryTest > $OUT/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -n 1 $OUT/devmem.log
timeout 60 $G/test/gpu/ccaCudaBackendTest --quick > $OUT/backend-quick.log 2>&1; echo "backend quick rc=$? at $SECONDS s"; grep -E '^total|FAIL' $OUT/backend-quick.log | head -5
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaDeviceMemoryTest > $OUT/devmem-memcheck.log 2>&1; echo "devmem memcheck rc=$? at $SECONDS s"; grep -E 'ERROR SUMMARY' $OUT/devmem-memcheck.log; tail -n 1 $OUT/devmem-memcheck.log
