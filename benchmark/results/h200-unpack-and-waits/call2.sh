#!/usr/bin/env bash
# Call 2 (H200): n2 = call 1's n plus the narrow table widened a warp of
# entries at a time (WidenTableKernel), against main cb67c65 (m):
# cca_e2e_benchmark --no-itk m n2 n2 m on the e2e masks (engine alone and
# Update()); a CUPTI timeline of n2 on the 60000 balls; then issue 10's
# table on n2 (STEPS="e2e e2e-program e2e-large", ITK in the same process).
set -u
mkdir -p /tmp/m $OUT/logs
tar -C /tmp/m -xJf .devcarry/m.tar.xz
B=/tmp/bench-bundle; mkdir -p $B
xz -dc .devcarry/bench-bundle.tar.xz | tar -C $B -xf - && tar -C /tmp/m -xf $B/build.tar
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
EM=/tmp/m/m/cca_e2e_benchmark
EN=/tmp/m/build-gpu/benchmark/cca_e2e_benchmark
M=random2d-g16,random2d-g4,random2d-g1,random3d-g4,random3d-g1,balls-60k,ct-face,ct-full
k=0
for v in m n2 n2 m; do
  k=$((k + 1)); E=$EM; [ $v = n2 ] && E=$EN
  timeout 150 $E --no-itk --threads 16 --reps 7 --only $M > $OUT/logs/e2e-$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
  grep -E "engine alone|mask read" $OUT/logs/e2e-$k-$v.log | sed 's/, kernels.*bound/; bound/'
  grep -E "ours-cuda" $OUT/logs/e2e-$k-$v.log
done
CUDA_INJECTION64_PATH=/tmp/m/libtimeline.so TIMELINE_OUT=$OUT/timeline-n2-balls-60k.tsv timeout 120 $EN --no-itk --threads 16 --reps 3 --only balls-60k > $OUT/logs/timeline.log 2>&1
echo "timeline rc=$? at $SECONDS s"; xz -9 $OUT/timeline-n2-balls-60k.tsv
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
OUT=$OUT/table BUILD=build-gpu STEPS="e2e e2e-program e2e-large" bash benchmark/run-on-gpu-machine.sh 330 > /dev/null 2>&1
echo "table rc=$? at $SECONDS s"
cat $OUT/table/e2e-table.md 2>/dev/null | head -30
grep -E "total|read|write|analysis|waiting" $OUT/table/e2e-program.log 2>/dev/null | head -12
grep -E "repetition|ours-c" $OUT/table/e2e-large.log 2>/dev/null | head -12
echo "done at $SECONDS s"
