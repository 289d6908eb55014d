#!/usr/bin/env bash
# Call 5 (H200): the GPU tests on the session's last code (7921763: the
# queued downloads, host widening into page-locked blocks, the tests'
# shared tally, DropUnfinished): the queued-download test and the host
# image pool test, device memory, then scripts/engine-gpu-tests.sh --quick
# (backend, memcheck, racecheck one case a check), the engine oracle,
# large images and the feature groups on CUDA.
set -u
mkdir -p /tmp/f $OUT/logs/tests
tar -C /tmp/f -xJf .devcarry/f.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
G=/tmp/f/build-gpu
for t in ccaHostStagingTest ccaHostImagePoolTest ccaDeviceMemoryTest; do
  timeout 120 $G/test/gpu/$t > $OUT/logs/$t.log 2>&1; echo "$t rc=$? at $SECONDS s"; grep -E "FAIL|total|ok|passed" $OUT/logs/$t.log | tail -3
done
for what in oracle large; do
  timeout 30 $G/test/engine/ccaEngineOracleTest $what cuda > $OUT/logs/tests/$what.log 2>&1
  echo "engine $what cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/tests/$what.log)"
done
for suite in labels intensity selection; do
  timeout 20 $G/test/engine/ccaFeatureGroupsTest $suite cuda > $OUT/logs/tests/groups-$suite.log 2>&1
  echo "groups $suite rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/tests/groups-$suite.log)"
done
bash scripts/engine-gpu-tests.sh --quick $G $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
