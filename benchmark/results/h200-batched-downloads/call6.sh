#!/usr/bin/env bash
# Call 6 (H200): each lane's last piece of a download by regions in
# quarters (t) against fad8742's (m: 0572988's download code). t's
# queued-download test; cca_e2e_benchmark --no-itk --reps 7 m t t m on the
# middle masks; t's CUDA backend tests (--quick: backend, memcheck,
# racecheck one case a check).
set -u
mkdir -p /tmp/t $OUT/logs
tar -C /tmp/t -xJf .devcarry/t.tar.xz
export LD_LIBRARY_PATH=/tmp/t/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
G=/tmp/t/build-gpu
timeout 60 $G/test/gpu/ccaHostStagingTest > $OUT/logs/staging.log 2>&1; echo "staging rc=$? at $SECONDS s: $(tail -n 1 $OUT/logs/staging.log)"
M=random2d-g16,random2d-g4,random3d-g4,balls-60k,random2d-g1
k=0
for v in m t t m; do
  k=$((k + 1)); E=$G/benchmark/cca_e2e_benchmark; [ $v = m ] && E=$G/benchmark/cca_e2e_benchmark_m
  timeout 100 $E --no-itk --threads 16 --reps 7 --only $M > $OUT/logs/e2e-$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
  grep -E "engine alone|mask read" $OUT/logs/e2e-$k-$v.log | sed 's/, kernels.*bound/; bound/'
done
bash scripts/engine-gpu-tests.sh --quick $G $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
