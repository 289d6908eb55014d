#!/usr/bin/env bash
# Call 1 (H200): N = the regions of a large upload handed on in order as
# their copies are queued, each slab's units counted while the later
# regions are still packed and copied (StreamDevice::Upload,
# HostStaging::UploadByRegions), against B = main (6370750).
# First the GPU tests, memcheck and racecheck on N; then cca_e2e_benchmark
# without ITK, 9 repetitions, B N alternated four times.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b /tmp/i
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
tar -C /tmp/i -xJf .devcarry/e2e-bundle.tar.xz
G=/tmp/b/build-gpu
I=/tmp/i/bin
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
for s in oracle large exactness; do
  timeout 120 $G/test/engine/ccaEngineOracleTest $s cuda > $L/oracle-$s.log 2>&1; echo "engine $s cuda rc=$? at $SECONDS s: $(tail -n 1 $L/oracle-$s.log)"
done
timeout 150 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|regions" $L/backend.log | head -12
for suite in labels intensity selection large; do
  timeout 60 $G/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 30 $G/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -n 1 $L/devmem.log
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 4 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
export LD_LIBRARY_PATH=/tmp/i/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for v in B1 N1 B2 N2 B3 N3 B4 N4; do
  X=$I/cca_e2e_benchmark; [[ $v == B* ]] && X=$I/cca_e2e_benchmark_before
  timeout 100 $X --threads 16 --no-itk --reps 9 --only ct-face,ct-full,balls-60k,random2d-g16,random2d-g4,random3d-g4 > $L/e2e-$v.log 2>&1
  echo "e2e $v rc=$? at $SECONDS s"
  grep -E '^== |engine alone|with that read' $L/e2e-$v.log | sed 's/^ *//; s/(made in.*//' | cut -c1-200
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
