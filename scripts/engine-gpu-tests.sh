#!/usr/bin/env bash
# The ITK-free engine's GPU tests on the lent GPU machine, from the stripped
# build-gpu binaries that the call scripts of benchmark/results carry
# (.devcarry/gpu.tar.xz): the engine oracle and large images on CUDA, the
# CUDA backend against the CPU backend, the feature groups on CUDA, device
# memory, then compute-sanitizer memcheck (--quick) and racecheck (the
# default strategy, 4 cases a check: about 110 s on an H200). Prints a line
# per step; logs go to LOGS. --quick, for a changed build measured beside
# others in one call, runs only the backend's test, memcheck and racecheck
# with one case a check: about 4 minutes on an H200 (racecheck alone
# 110-124 s, benchmark/results/h200-face-subtracted calls 3 and 4). Usage:
#   bash scripts/engine-gpu-tests.sh [--quick] BUILD LOGS   (BUILD: the unpacked build-gpu)
set -u
QUICK=0
if [ "${1:-}" = --quick ]; then
  QUICK=1
  shift
fi
G=$1
L=$2
mkdir -p "$L"

backend_test() {
  timeout 120 "$G/test/gpu/ccaCudaBackendTest" > "$L/backend.log" 2>&1
  echo "backend rc=$? at $SECONDS s"
  grep -E "^total|FAIL" "$L/backend.log" | head -10
}

sanitizers() { # racecheck's cases a check, its time limit
  timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 "$G/test/gpu/ccaCudaBackendTest" --quick > "$L/memcheck.log" 2>&1
  echo "memcheck rc=$? at $SECONDS s"
  grep -E "^total|ERROR SUMMARY" "$L/memcheck.log"
  timeout "$2" compute-sanitizer --tool racecheck --error-exitcode 3 "$G/test/gpu/ccaCudaBackendTest" --quick --cases "$1" --algorithm Default > "$L/racecheck.log" 2>&1
  echo "racecheck rc=$? at $SECONDS s"
  grep -E "^total|RACECHECK SUMMARY" "$L/racecheck.log"
}

if [ $QUICK = 1 ]; then
  backend_test
  sanitizers 1 200
  exit 0
fi
timeout 30 "$G/test/engine/ccaEngineOracleTest" oracle cuda > "$L/oracle.log" 2>&1
echo "engine oracle cuda rc=$? at $SECONDS s: $(tail -n 1 "$L/oracle.log")"
timeout 15 "$G/test/engine/ccaEngineOracleTest" large cuda > "$L/large.log" 2>&1
echo "engine large cuda rc=$? at $SECONDS s: $(tail -n 1 "$L/large.log")"
backend_test
for suite in labels intensity selection; do
  timeout 20 "$G/test/engine/ccaFeatureGroupsTest" $suite cuda > "$L/groups-$suite.log" 2>&1
  echo "groups $suite cuda rc=$? at $SECONDS s"
  tail -n 1 "$L/groups-$suite.log"
done
timeout 20 "$G/test/gpu/ccaDeviceMemoryTest" > "$L/devmem.log" 2>&1
echo "devmem rc=$? at $SECONDS s"
tail -n 1 "$L/devmem.log"
sanitizers 4 160
