#!/usr/bin/env bash
# Call 1 (H200): the host's writes of large downloads by streaming stores
# (s) against main (m). cca_e2e_benchmark --no-itk, engine alone and
# Update(), m s s m on the e2e masks, 5 repetitions; the 2.35 Gvox volume
# with its 64-bit label image m s (first image into fresh memory, then
# the pool); the host-side unit tests on this CPU; s's engine GPU tests
# (oracle, large, backend, memcheck, racecheck one case a check).
set -u
mkdir -p /tmp/bundle $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/bundle -xf - && cp -r /tmp/bundle/m /tmp/bundle/s /tmp/
export LD_LIBRARY_PATH=/tmp/bundle/lib
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
G=/tmp/s/build-gpu
for t in ccaStreamingStoresTest ccaNarrowFeaturesTest; do
  timeout 60 $G/test/engine/$t > $OUT/logs/$t.log 2>&1; echo "$t rc=$? at $SECONDS s"; tail -n 4 $OUT/logs/$t.log
done
M=random2d-g16,random2d-g4,random2d-g1,random3d-g4,random3d-g1,ct-face,balls-60k
k=0
for v in m s s m; do
  k=$((k + 1))
  timeout 150 /tmp/$v/build-gpu/benchmark/cca_e2e_benchmark --no-itk --threads 16 --reps 5 --only $M > $OUT/logs/e2e-$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
  grep -E "engine alone" $OUT/logs/e2e-$k-$v.log | sed 's/, kernels.*bound/; bound/'
  grep -E "ours-cuda" $OUT/logs/e2e-$k-$v.log
done
for v in m s; do
  timeout 120 /tmp/$v/build-gpu/benchmark/cca_e2e_benchmark --no-itk --threads 16 --reps 3 --only large-labels > $OUT/logs/large-$v.log 2>&1
  echo "large $v rc=$? at $SECONDS s"
  grep -E "repetition|ours-cuda|engine alone" $OUT/logs/large-$v.log
done
bash scripts/engine-gpu-tests.sh --quick $G $OUT/logs/tests
timeout 30 $G/test/engine/ccaEngineOracleTest large cuda > $OUT/logs/tests/large.log 2>&1
echo "engine large cuda rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/tests/large.log)"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
