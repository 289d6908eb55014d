#!/usr/bin/env bash
# Call 1 (H200): the foreground bits unpacked a 16-byte store a thread, each
# copy lane ordering the run's stream itself, the copy workers' caller
# spinning before it sleeps (n) against main cb67c65 (m): cca_e2e_benchmark
# --no-itk m n n m on the e2e masks (engine alone and Update()); a CUPTI
# timeline of n on the 60000 balls; n's engine GPU tests in full (oracle,
# large, backend, feature groups, device memory, memcheck, racecheck), the
# staging and host image pool tests.
set -u
mkdir -p /tmp/k $OUT/logs
tar -C /tmp/k -xJf .devcarry/pk.tar.xz
export LD_LIBRARY_PATH=/tmp/k/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
G=/tmp/k/n/build-gpu
EM=/tmp/k/m/cca_e2e_benchmark
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
CUDA_INJECTION64_PATH=/tmp/k/libtimeline.so TIMELINE_OUT=$OUT/timeline-n-balls-60k.tsv timeout 120 $EN --no-itk --threads 16 --reps 3 --only balls-60k > $OUT/logs/timeline.log 2>&1
echo "timeline rc=$? at $SECONDS s"; xz -9 $OUT/timeline-n-balls-60k.tsv
for t in ccaHostStagingTest ccaHostImagePoolTest; do
  timeout 120 $G/test/gpu/$t > $OUT/logs/$t.log 2>&1; echo "$t rc=$? at $SECONDS s"; grep -E "^FAIL|total|ok" $OUT/logs/$t.log | head -5
done
bash scripts/engine-gpu-tests.sh $G $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
