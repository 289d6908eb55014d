#!/usr/bin/env bash
# Session 22: pinned staging registered instead of cudaHostAlloc'd (B) against 7cbb4fd's engine (A): start-up in fresh processes; GPU checks of B
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/b && tar -C /tmp/b -xJf .devcarry/b22d.tar.xz
nvidia-smi -L > $L/device.txt
for i in 1 2 3 4 5 6; do /tmp/b/startprobe-A engine | sed 's/^/A /' >> $L/start.log 2>&1; /tmp/b/B/startprobe-B engine | sed 's/^/B /' >> $L/start.log 2>&1; done
( timeout 120 /tmp/b/B/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$?"; tail -1 $L/devmem.log ) >> $L/summary.txt
( timeout 150 /tmp/b/B/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; tail -1 $L/backend.log ) >> $L/summary.txt
( timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/B/ccaDeviceMemoryTest > $L/memcheck-devmem.log 2>&1; echo "memcheck devmem rc=$? at $SECONDS s"; tail -1 $L/memcheck-devmem.log ) >> $L/summary.txt
( timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/b/B/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck quick rc=$? at $SECONDS s"; tail -1 $L/memcheck.log ) >> $L/summary.txt
( timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 /tmp/b/B/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; tail -1 $L/racecheck.log ) >> $L/summary.txt
cp $L/start.log $L/summary.txt $OUT/; tar -C $OUT -czf $OUT/logs.tgz logs
