#!/usr/bin/env bash
# Call 3 (H200): n2's engine GPU tests in full (oracle, large, backend,
# feature groups, device memory, memcheck, racecheck), the staging and
# host image pool tests; then cca_e2e_benchmark --no-itk m n2 n2 m again
# (call 2's host was slow: the mask's read at half call 1's speed).
set -u
mkdir -p /tmp/m /tmp/t $OUT/logs
tar -C /tmp/m -xJf .devcarry/m.tar.xz
tar -C /tmp/t -xJf .devcarry/n2tests.tar.xz
B=/tmp/bench-bundle; mkdir -p $B
xz -dc .devcarry/bench-bundle.tar.xz | tar -C $B -xf - && tar -C /tmp/m -xf $B/build.tar
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
G=/tmp/t/n2/build-gpu
for t in ccaHostStagingTest ccaHostImagePoolTest; do
  timeout 120 $G/test/gpu/$t > $OUT/logs/$t.log 2>&1; echo "$t rc=$? at $SECONDS s"; grep -E "^FAIL|total|ok" $OUT/logs/$t.log | head -5
done
bash scripts/engine-gpu-tests.sh $G $OUT/logs/tests
EM=/tmp/m/m/cca_e2e_benchmark
EN=/tmp/m/build-gpu/benchmark/cca_e2e_benchmark
M=random2d-g16,random2d-g4,random2d-g1,random3d-g4,random3d-g1,balls-60k,ct-face,ct-full
k=0
for v in m n2 n2 m; do
  k=$((k + 1)); E=$EM; [ $v = n2 ] && E=$EN
  timeout 100 $E --no-itk --threads 16 --reps 7 --only $M > $OUT/logs/e2e-$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
  grep -E "engine alone|mask read" $OUT/logs/e2e-$k-$v.log | sed 's/, kernels.*bound/; bound/'
  grep -E "ours-cuda" $OUT/logs/e2e-$k-$v.log
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
