#!/usr/bin/env bash
# Call 2 (H200): downloads queued together (n) against main (m, accd699).
# n's queued-download test and host image pool test; cca_e2e_benchmark
# --no-itk m n n m on the e2e masks (engine alone and Update()); a CUPTI
# timeline of n on 8192^2 g = 4; n's engine GPU tests in full (oracle,
# large, backend, feature groups incl. intensity, device memory, memcheck,
# racecheck 4 cases a check).
set -u
mkdir -p /tmp/m /tmp/n $OUT/logs
tar -C /tmp/m -xJf .devcarry/bench-bundle.tar.xz && tar -C /tmp/m -xf /tmp/m/build.tar
tar -C /tmp/n -xJf .devcarry/n.tar.xz
export LD_LIBRARY_PATH=/tmp/m/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
G=/tmp/n/build-gpu
for t in ccaHostStagingTest ccaHostImagePoolTest; do
  timeout 120 $G/test/gpu/$t > $OUT/logs/$t.log 2>&1; echo "$t rc=$? at $SECONDS s"; grep -E "^FAIL|total|ok" $OUT/logs/$t.log | head -5
done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaHostStagingTest > $OUT/logs/staging-memcheck.log 2>&1
echo "staging memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $OUT/logs/staging-memcheck.log
EM=$(find /tmp/m -name cca_e2e_benchmark -type f | head -1)
EN=$G/benchmark/cca_e2e_benchmark
M=random2d-g16,random2d-g4,random2d-g1,random3d-g4,random3d-g1,balls-60k,ct-face,ct-full
k=0
for v in m n n m; do
  k=$((k + 1)); E=$EM; [ $v = n ] && E=$EN
  timeout 150 $E --no-itk --threads 16 --reps 7 --only $M > $OUT/logs/e2e-$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
  grep -E "engine alone|mask read" $OUT/logs/e2e-$k-$v.log | sed 's/, kernels.*bound/; bound/'
  grep -E "ours-cuda" $OUT/logs/e2e-$k-$v.log
done
CUDA_INJECTION64_PATH=$PWD/.devcarry/libtimeline.so TIMELINE_OUT=$OUT/timeline-n-random2d-g4.tsv timeout 120 $EN --no-itk --threads 16 --reps 3 --only random2d-g4 > $OUT/logs/timeline.log 2>&1
echo "timeline rc=$? at $SECONDS s"; xz -9 $OUT/timeline-n-random2d-g4.tsv
bash scripts/engine-gpu-tests.sh $G $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
