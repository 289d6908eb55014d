#!/usr/bin/env bash
# Runs a build made on a CPU-only development machine on a lent GPU machine
# that has no ITK: the test suite (GPU tests and the ITK filter tests with the
# CUDA backend), compute-sanitizer on the GPU test subset, and the program on
# its default input; with PYTHON=1 also builds the Python package there (nvcc,
# sm_90) and runs its GPU tests (CuPy, PyTorch). Expects
# .devcarry/itk-bundle.tar.xz made by scripts/make-gpu-bundle.sh BUILD; writes
# logs to $OUT. Usage:
#   BUILD=build [PYTHON=1] bash scripts/gpu-machine-check.sh   (BUILD: the bundled build folder)
set -uo pipefail
out=${OUT:-/tmp/gpu-check}
build=${BUILD:-build}
mkdir -p "$out" /tmp/bundle
root=$PWD
xz -dc .devcarry/itk-bundle.tar.xz | tar -C /tmp/bundle -xf - && tar -C "$root" -xf /tmp/bundle/build.tar
# The carried build refers to its sources and itself by absolute path.
if [[ "$root" != /work/main ]]; then
  mkdir -p /work && ln -sfn "$root" /work/main
fi
export LD_LIBRARY_PATH=/tmp/bundle/lib
nvidia-smi -L | tee "$out/device.txt"
cd "/work/main/$build" || exit 1
# Left to CI: the install test and the emulations (CPU-only, not in the
# bundle), the checks of the kernels' sources and ptxas' resources (CPU
# work that names this development machine's python3 and cmake), and the
# benchmark's CPU-backend tests, whose cca_benchmark the bundle leaves out.
# So a clean run ends with rc 0, and "Not Run" means a bundle is missing a part.
ctest --output-on-failure -j 4 --timeout 400 \
  -E 'CudaLabelStatisticsInstall|Emulation|KernelsAwaitPreceding|KernelResources|BenchmarkRefusesGranularity|BenchmarkABCompare' \
  > "$out/ctest.log" 2>&1
echo "ctest rc=$?"
grep -E "tests passed|Passed|Failed|Skipped|Not Run" "$out/ctest.log" | tail -40
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 test/gpu/ccaCudaBackendTest --quick > "$out/memcheck.log" 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$out/memcheck.log" | tail -1)"
# Racecheck of every strategy takes about 5 minutes (2026-11-23: 240 s
# reached the eighth of twelve); the default strategy and an on-the-fly
# merge (the two kinds of union) fit in the time.
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > "$out/racecheck.log" 2>&1 &&
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 test/gpu/ccaCudaBackendTest --quick --cases 4 --algorithm HA_OTF >> "$out/racecheck.log" 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/racecheck.log" | tail -1)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 test/gpu/ccaDeviceMemoryTest > "$out/memcheck-device-memory.log" 2>&1
echo "memcheck (device memory) rc=$? $(grep -E 'ERROR SUMMARY' "$out/memcheck-device-memory.log" | tail -1)"
# The feature groups (issue 12): label images, intensity votes, selection.
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 test/engine/ccaFeatureGroupsTest selection cuda > "$out/memcheck-groups.log" 2>&1
echo "memcheck (feature groups, selection) rc=$? $(grep -E 'ERROR SUMMARY' "$out/memcheck-groups.log" | tail -1)"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 test/engine/ccaFeatureGroupsTest labels cuda > "$out/memcheck-labels.log" 2>&1
echo "memcheck (feature groups, labels) rc=$? $(grep -E 'ERROR SUMMARY' "$out/memcheck-labels.log" | tail -1)"
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 test/engine/ccaFeatureGroupsTest intensity cuda > "$out/racecheck-groups.log" 2>&1
echo "racecheck (feature groups, intensity) rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$out/racecheck-groups.log" | tail -1)"
(cd /tmp && "/work/main/$build/bin/CudaLabelStatistics") > "$out/demo.log" 2>&1
echo "demo rc=$?"
cat "$out/demo.log"
if [[ "${PYTHON:-0}" == 1 ]]; then
  cd "$root" || exit 1
  python3 -m pip install -q --no-build-isolation --no-deps -Cbuild-dir=/tmp/python-wheel \
    -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > "$out/python-build.log" 2>&1
  echo "python package build rc=$?"
  (cd /tmp && python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests") > "$out/python-gpu.log" 2>&1
  echo "python GPU tests rc=$?"
  tail -5 "$out/python-gpu.log"
fi
