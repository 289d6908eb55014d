#!/usr/bin/env bash
# The final code's GPU tests and memcheck (after a refactor of the run search helpers)
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/ab && tar -C /tmp/ab -xJf .devcarry/check18.tar.xz
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
B=/tmp/ab/bin
s=$SECONDS; timeout 150 $B/ccaCudaBackendTest > $L/gpu-all.log 2>&1; echo "gpu test rc=$? $((SECONDS-s))s: $(tail -1 $L/gpu-all.log)"
s=$SECONDS; timeout 60 $B/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? $((SECONDS-s))s: $(tail -1 $L/devmem.log)"
s=$SECONDS; timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $B/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? $((SECONDS-s))s $(grep 'ERROR SUMMARY' $L/memcheck.log | tail -1)"
grep -h "ERROR SUMMARY" $L/memcheck.log > $L/sanitizers.txt; tail -5 $L/memcheck.log > $L/memcheck-tail.txt; grep "passed" $L/gpu-all.log > $L/gpu-all-summary.txt; rm -f $L/memcheck.log $L/gpu-all.log
