#!/usr/bin/env bash
# Call 9: the engine's GPU tests on the build with cuda/UploadStage.cuh
# (3f955b5 and later; call 2 ran on 13e2521, before the move): the CUDA
# backend test, the engine's oracle and feature-group suites on CUDA, and
# memcheck of the backend test's quick set.
set -u
mkdir -p /tmp/t && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
for t in ccaCudaBackendTest ccaEngineOracleTest ccaFeatureGroupsTest; do
  xz -dc .devcarry/tests/$t.xz > /tmp/t/$t && chmod +x /tmp/t/$t
done
cd /tmp/t
SECONDS=0
timeout 100 ./ccaCudaBackendTest > $OUT/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; tail -2 $OUT/backend.log
for s in oracle exactness; do
  timeout 40 ./ccaEngineOracleTest $s cuda > $OUT/oracle-$s.log 2>&1; echo "oracle $s rc=$? at $SECONDS s"; tail -1 $OUT/oracle-$s.log
done
for s in labels intensity selection; do
  timeout 30 ./ccaFeatureGroupsTest $s cuda > $OUT/groups-$s.log 2>&1; echo "groups $s rc=$? at $SECONDS s"; tail -1 $OUT/groups-$s.log
done
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 ./ccaCudaBackendTest --quick > $OUT/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s $(grep -E 'ERROR SUMMARY' $OUT/memcheck.log | tail -1)"
