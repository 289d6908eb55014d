#!/usr/bin/env bash
# Call 2 (H200): issue 10's table on the streaming stores' code: STEPS="e2e
# e2e-program e2e-large" of benchmark/run-on-gpu-machine.sh from the slim
# bundle of build-gpu (ITK's filter on 16 threads beside ours, every object
# checked; the program through its files; the 2.35 Gvox volume). Then
# whether the copy pieces' size (2 MiB) still suits now that the host
# streams (engine alone, --no-itk, 1, 2 and 4 MiB, two rounds), and the
# tests: the host-side ones on this CPU and the CUDA backend's.
set -u
xz -dc .devcarry/tests.tar.xz | tar -xf -
BUILD=build-gpu STEPS="e2e e2e-program e2e-large" bash benchmark/run-on-gpu-machine.sh 400
export LD_LIBRARY_PATH=/tmp/bench-bundle/lib
mkdir -p $OUT/logs
G=build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
for r in 1 2; do
  for p in 1048576 2097152 4194304; do
    timeout 60 $G/benchmark/cca_e2e_benchmark --no-itk --threads 16 --reps 5 --region-piece-bytes $p \
      --only ct-face,balls-60k,random2d-g4,random3d-g4,random2d-g1 > $OUT/logs/pieces-$r-$p.log 2>&1
    echo "round $r pieces $p rc=$? at $SECONDS s"
    grep -E "engine alone" $OUT/logs/pieces-$r-$p.log | sed 's/, kernels.*bound/; bound/'
  done
done
for t in ccaStreamingStoresTest ccaNarrowFeaturesTest; do
  timeout 60 $G/test/engine/$t > $OUT/logs/$t.log 2>&1; echo "$t rc=$? at $SECONDS s"; tail -n 3 $OUT/logs/$t.log
done
timeout 120 $G/test/gpu/ccaCudaBackendTest > $OUT/logs/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"
grep -E "^total|FAIL" $OUT/logs/backend.log | head -5
timeout 30 $G/test/engine/ccaEngineOracleTest large cuda > $OUT/logs/large.log 2>&1
echo "engine large cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/large.log)"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
ls -la $OUT
