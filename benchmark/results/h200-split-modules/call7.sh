#!/usr/bin/env bash
# Call 7: the GPU tests on main 8b51802 (the eighty-seventh session's CUDA
# changes: NaN skipped by the feature range and the extreme-index kernels;
# d2cc9c3's ResizeForOverwrite), carried as scripts/make-gpu-bundle.sh
# build-gpu packs it: the whole ctest suite on the H200 (the engine's GPU
# tests, the ITK filter's and the program's tests on CUDA), compute-sanitizer
# memcheck and racecheck on the CUDA backend's test (the default strategy)
# and on the feature groups' intensity suite (its NaN cases), memcheck on
# the device memory test, then the Python package built there (sm_90,
# beside the tests) and its GPU tests (CuPy, PyTorch). The logs come back
# in one archive (at most 8 files come back from a call).
set -uo pipefail
mkdir -p $OUT/call7 && exec > >(tee $OUT/call7/log.txt) 2>&1
nvidia-smi -L; nproc
root=$PWD
L=/tmp/call7-logs && mkdir -p $L
(python3 -m pip install -q --no-build-isolation --no-deps -Cbuild-dir=/tmp/python-wheel \
  -Ccmake.define.CMAKE_CUDA_ARCHITECTURES=90 . > $L/python-build.log 2>&1
 echo "python package build rc=$?" > /tmp/python-build.rc) &
mkdir -p /tmp/bundle && xz -dc .devcarry/itk-bundle.tar.xz | tar -C /tmp/bundle -xf - && tar -C "$root" -xf /tmp/bundle/build.tar || exit 1
[[ $root == /work/main ]] || { mkdir -p /work && ln -sfn "$root" /work/main; }
export LD_LIBRARY_PATH=/tmp/bundle/lib
cd /work/main/build-gpu || exit 1
SECONDS=0
ctest --output-on-failure -E 'CudaLabelStatisticsInstall|Emulation' -j 6 --timeout 300 > $L/ctest.log 2>&1
echo "ctest rc=$? at $SECONDS s"
grep -E "tests passed|\((Failed|Timeout|Not Run)\)|Skipped" $L/ctest.log | tail -30
san() { # log tool limit command...
  local log=$1 tool=$2 limit=$3
  shift 3
  timeout $limit compute-sanitizer --tool $tool --error-exitcode 9 "$@" > $L/$log.log 2>&1
  echo "$log rc=$? at $SECONDS s: $(grep -E '^total|failing|ERROR SUMMARY|RACECHECK SUMMARY' $L/$log.log | tail -3 | tr '\n' ' ')"
}
san memcheck-backend memcheck 60 test/gpu/ccaCudaBackendTest --quick
san racecheck-backend racecheck 170 test/gpu/ccaCudaBackendTest --quick --cases 4 --algorithm Default
san memcheck-intensity memcheck 80 test/engine/ccaFeatureGroupsTest intensity cuda
san racecheck-intensity racecheck 90 test/engine/ccaFeatureGroupsTest intensity cuda
san memcheck-devmem memcheck 50 test/gpu/ccaDeviceMemoryTest
wait
cat /tmp/python-build.rc
cd /tmp && timeout 100 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests" > $L/python-gpu.log 2>&1
echo "python GPU tests rc=$? at $SECONDS s"
tail -4 $L/python-gpu.log
tar -C $L -czf $OUT/call7/logs.tar.gz .
echo done
