#!/usr/bin/env bash
# Call 2: main (39b2071, the last session's commit, which moved
# AdviseHugePages and had not run on a device) from the build made here
# (build-gpu, sm_90):
#   1. the GPU tests from scripts/make-gpu-bundle.sh's bundle: ctest (GPU
#      tests and the ITK filter's tests with the CUDA backend), then
#      compute-sanitizer memcheck on the host image pool's test and the
#      CUDA backend's quick test;
#   2. issue 10's table in one run on this host: STEPS="e2e e2e-large"
#      from benchmark/make-bench-bundle.sh --slim's bundle (ITK 5.2.1's
#      filter on 16 threads in the same process, a new filter of ours a
#      repetition; the 2.35 Gvox volume with a label image, CUDA against
#      our CPU backend);
#   3. racecheck on the CUDA backend's quick test if time is left.
# The tree travelled without benchmark/results (a sparse checkout here):
# beside its 52 MB the two bundles were over what a call carries.
set -uo pipefail
mkdir -p $OUT/call2 && exec > >(tee $OUT/call2/log.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
SECONDS=0
L=/tmp/call2-logs && mkdir -p $L
root=$PWD
mkdir -p /tmp/bundle && xz -dc .devcarry/itk-bundle.tar.xz | tar -C /tmp/bundle -xf - && tar -C $root -xf /tmp/bundle/build.tar || exit 1
[[ $root != /work/main ]] && mkdir -p /work && ln -sfn $root /work/main
cd /work/main/build-gpu || exit 1
LD_LIBRARY_PATH=/tmp/bundle/lib timeout 240 ctest --output-on-failure -E 'CudaLabelStatisticsInstall|Emulation' -j 6 --timeout 230 > $L/ctest.log 2>&1
echo "ctest rc=$? at $SECONDS s"; grep -E "tests passed|\((Failed|Timeout|Not Run)\)" $L/ctest.log | tail -12
LD_LIBRARY_PATH=/tmp/bundle/lib timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 test/gpu/ccaHostImagePoolTest > $L/memcheck-pool.log 2>&1
echo "memcheck pool rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck-pool.log | tail -1) at $SECONDS s"
LD_LIBRARY_PATH=/tmp/bundle/lib timeout 70 compute-sanitizer --tool memcheck --error-exitcode 9 test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck backend rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.log | tail -1) at $SECONDS s"
cd $root
deadline=$((560 - SECONDS))
OUT=/tmp/e2e-out BUILD=build-gpu STEPS="e2e e2e-large" bash benchmark/run-on-gpu-machine.sh $deadline > $L/e2e-run.log 2>&1
echo "table rc=$? at $SECONDS s"
cp /tmp/e2e-out/bench-results.tar.gz /tmp/e2e-out/e2e-table.md $OUT/call2/ 2>/dev/null
cat /tmp/e2e-out/e2e-table.md 2>/dev/null | head -30
grep -E "repetition|ours-c|mask read|engine alone" /tmp/e2e-out/e2e-large.log 2>/dev/null | head -16
left=$((585 - SECONDS))
if [[ $left -gt 40 ]]; then
  LD_LIBRARY_PATH=/tmp/bundle/lib timeout $left compute-sanitizer --tool racecheck --error-exitcode 9 /work/main/build-gpu/test/gpu/ccaCudaBackendTest --quick --cases 2 --algorithm Default > $L/racecheck.log 2>&1
  echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $L/racecheck.log | tail -1) at $SECONDS s"
fi
tar -C $L -czf $OUT/call2/test-logs.tgz .
echo "done at $SECONDS s"
