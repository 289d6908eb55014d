#!/usr/bin/env bash
# Call 9 (H200): the GPU tests, memcheck and racecheck on call 8's N (the
# objects' downloads gathered, StreamDevice::DownloadLater).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
for s in oracle large exactness; do
  timeout 120 $G/test/engine/ccaEngineOracleTest $s cuda > $L/oracle-$s.log 2>&1; echo "engine $s cuda rc=$? at $SECONDS s: $(tail -n 1 $L/oracle-$s.log)"
done
timeout 150 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
for suite in labels intensity selection large; do
  timeout 60 $G/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 30 $G/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -n 1 $L/devmem.log
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/engine/ccaEngineOracleTest oracle cuda > $L/oracle-memcheck.log 2>&1; echo "oracle memcheck rc=$? at $SECONDS s"; grep -E "ERROR SUMMARY" $L/oracle-memcheck.log; tail -n 1 $L/oracle-memcheck.log
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
