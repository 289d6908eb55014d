#!/usr/bin/env bash
# Call 4 (H200): 64-bit labels into a page-locked block of the host image
# pool widened on the host from staging (p) against on the device and
# copied by DMA (m = 86d4939). p's host image pool test (both widenings)
# and queued-download test; cca_e2e_benchmark --no-itk --only large-labels
# --reps 5, m p p m (the filter's repetitions 4-5 and the engine alone find
# the block page-locked); p's CUDA backend tests (--quick: backend,
# memcheck, racecheck one case a check).
set -u
mkdir -p /tmp/m /tmp/p $OUT/logs
tar -C /tmp/m -xJf .devcarry/bench-bundle.tar.xz && tar -C /tmp/m -xf /tmp/m/build.tar
tar -C /tmp/p -xJf .devcarry/p.tar.xz
export LD_LIBRARY_PATH=/tmp/m/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
G=/tmp/p/build-gpu
for t in ccaHostImagePoolTest ccaHostStagingTest; do
  timeout 120 $G/test/gpu/$t > $OUT/logs/$t.log 2>&1; echo "$t rc=$? at $SECONDS s"; grep -E "FAIL|total|ok" $OUT/logs/$t.log | head -12
done
EM=$(find /tmp/m -name cca_e2e_benchmark -type f | head -1)
k=0
for v in m p p m; do
  k=$((k + 1)); E=$EM; [ $v = p ] && E=$G/benchmark/cca_e2e_benchmark
  timeout 150 $E --no-itk --threads 16 --reps 5 --only large-labels > $OUT/logs/large-$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
  grep -E "repetition|engine alone" $OUT/logs/large-$k-$v.log
done
bash scripts/engine-gpu-tests.sh --quick $G $OUT/logs/tests
timeout 30 $G/test/engine/ccaEngineOracleTest large cuda > $OUT/logs/tests/large.log 2>&1
echo "engine large cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/tests/large.log)"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
