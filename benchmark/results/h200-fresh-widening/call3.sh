#!/usr/bin/env bash
# Call 3: the GPU tests on this session's build (the engine writing a never
# written label image's pages before the copy, the process's first CUDA
# run beside CUDA's start-up; ccaHostImagePoolTest's new first check of
# both against the CPU backend), carried as
# scripts/make-gpu-bundle.sh build-gpu packs it: ctest on the H200 (every
# test but the install and emulation ones), compute-sanitizer memcheck and
# racecheck on the CUDA backend's test (default strategy) and memcheck on
# the host image pool's test (the first run's path among them), then the
# Python package (a cp312 sm_90 wheel built here) and its GPU tests. The
# logs come back in one archive.
set -uo pipefail
mkdir -p $OUT/call3 && exec > >(tee $OUT/call3/log.txt) 2>&1
nvidia-smi -L; nproc
root=$PWD
L=/tmp/call3-logs && mkdir -p $L
mkdir -p /tmp/bundle && xz -dc .devcarry/itk-bundle.tar.xz | tar -C /tmp/bundle -xf - && tar -C "$root" -xf /tmp/bundle/build.tar || exit 1
[[ $root == /work/main ]] || { mkdir -p /work && ln -sfn "$root" /work/main; }
(python3 -m pip install -q --no-deps .devcarry/cuda_label_statistics-*.whl > $L/python-install.log 2>&1; echo "wheel install rc=$?" > /tmp/python-install.rc) &
export LD_LIBRARY_PATH=/tmp/bundle/lib
cd /work/main/build-gpu || exit 1
SECONDS=0
ctest --output-on-failure -E 'CudaLabelStatisticsInstall|Emulation' -j 6 --timeout 300 > $L/ctest.log 2>&1
echo "ctest rc=$? at $SECONDS s"
grep -E "tests passed|\((Failed|Timeout|Not Run)\)|Skipped" $L/ctest.log | tail -30
grep -h "CUDA run into a new block" -r Testing/Temporary/LastTest.log | head -3
san() { # log tool limit command...
  local log=$1 tool=$2 limit=$3
  shift 3
  timeout $limit compute-sanitizer --tool $tool --error-exitcode 9 "$@" > $L/$log.log 2>&1
  echo "$log rc=$? at $SECONDS s: $(grep -E '^total|failing|ERROR SUMMARY|RACECHECK SUMMARY' $L/$log.log | tail -3 | tr '\n' ' ')"
}
san memcheck-pool memcheck 90 test/gpu/ccaHostImagePoolTest
san memcheck-backend memcheck 60 test/gpu/ccaCudaBackendTest --quick
san racecheck-backend racecheck 170 test/gpu/ccaCudaBackendTest --quick --cases 4 --algorithm Default
wait
cat /tmp/python-install.rc
cd /tmp && timeout 100 python3 -m pytest -q -m gpu -rs -p no:cacheprovider "$root/python/tests" > $L/python-gpu.log 2>&1
echo "python GPU tests rc=$? at $SECONDS s"
tail -4 $L/python-gpu.log
tar -C $L -czf $OUT/call3/logs.tar.gz .
echo done
