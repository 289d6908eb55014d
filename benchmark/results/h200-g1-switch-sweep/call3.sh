#!/usr/bin/env bash
# Call 3: the image generator made 624 words at a time (cca::Mt19937Blocks)
# and cca_benchmark's wall-time line: the old binary (bc6079d, engine as
# 39b2071) and the new one (this session's change; no device code changed)
# on the same 512^3 6-conn. g = 1 set, old new old new, for the wall time a
# run costs; then the new build's GPU tests (scripts/make-gpu-bundle.sh):
# ctest, compute-sanitizer memcheck and racecheck on a subset.
set -u
mkdir -p $OUT/call3 /tmp/b && exec > >(tee $OUT/call3/log.txt) 2>&1
nvidia-smi -L; nproc
SECONDS=0
for v in old new; do xz -dc .devcarry/cca_benchmark-$v.xz > /tmp/b/$v && chmod +x /tmp/b/$v; done
for v in old new old new; do
  start=$SECONDS
  timeout 60 /tmp/b/$v --dimension 3 --size 512 --connectivity face --g 1 --labels-on-device --no-atomic-counts \
    --warmup 1 --reps 5 --outputs all > $OUT/call3/bench-$v.log 2>&1
  echo "$v rc=$? in $((SECONDS - start)) s: $(grep '^==' $OUT/call3/bench-$v.log) $(grep '^wall' $OUT/call3/bench-$v.log)"
done
mkdir -p /tmp/bundle && xz -dc .devcarry/itk-bundle.tar.xz | tar -C /tmp/bundle -xf - && tar -C $PWD -xf /tmp/bundle/build.tar
[[ $PWD != /work/main ]] && mkdir -p /work && ln -sfn $PWD /work/main
export LD_LIBRARY_PATH=/tmp/bundle/lib
(cd /work/main/build-gpu && timeout 200 ctest --output-on-failure -E 'CudaLabelStatisticsInstall|Emulation' -j 6 --timeout 190 > $OUT/call3/ctest.log 2>&1)
echo "ctest rc=$? at $SECONDS s"; grep -E "tests passed|Not Run|Failed" $OUT/call3/ctest.log | tail -10
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 /work/main/build-gpu/test/gpu/ccaCudaBackendTest --quick > $OUT/call3/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $OUT/call3/memcheck.log | tail -1) at $SECONDS s"
left=$((400 - SECONDS)); if [[ $left -gt 60 ]]; then
  timeout $left compute-sanitizer --tool racecheck --error-exitcode 9 /work/main/build-gpu/test/gpu/ccaCudaBackendTest --quick --cases 2 --algorithm Default > $OUT/call3/racecheck.log 2>&1
  echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $OUT/call3/racecheck.log | tail -1) at $SECONDS s"
fi
tar -C $OUT/call3 -czf $OUT/call3/test-logs.tgz ctest.log memcheck.log racecheck.log && rm -f $OUT/call3/{ctest,memcheck,racecheck}.log
echo "done at $SECONDS s"
