#!/usr/bin/env bash
# Call 3 (H200): the filter builds its LabelMap while the engine copies the
# label image (Options::objectsReady). The 2.35 Gvox volume with its label
# image (cca_e2e_benchmark --only large-labels, 6 repetitions), N against B
# = N with the filter's old order (the LabelMap after Run returns; the
# same engine), B N B N. Then the engine's oracle on CUDA (every other case
# announces its objects), the GPU tests, memcheck and racecheck on N. (The
# ITK test driver and its libraries did not fit the call's 64 MiB beside
# the GPU tests; the ITK tests ran on the CPU here and in CI.)
set -u
L=$OUT/logs; mkdir -p $L /tmp/b /tmp/i
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz && tar -C /tmp/i -xJf .devcarry/e2e-bundle.tar.xz
G=/tmp/b/build-gpu; I=/tmp/i/bin
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
for v in B1 N1 B2 N2; do
  X=$I/cca_e2e_benchmark; [[ $v == B* ]] && X=$I/cca_e2e_benchmark.B
  timeout 120 $X --threads 16 --reps 6 --only large-labels > $L/large-$v.log 2>&1; echo "large-labels $v rc=$? at $SECONDS s"
  grep -E 'repetition|ours-' $L/large-$v.log | grep -v 'engine alone' | sed 's/^large-labels *//'
done
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
