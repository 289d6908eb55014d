#!/usr/bin/env bash
# Call 1 (H200): a backend's device state (streams, events, buffers) kept
# idle for the next engine (n) against main eab26f7 (m): the device memory
# test (with the idle states' cases), then cca_e2e_benchmark --no-itk
# m n n m on the e2e masks (engine alone: a new engine a repetition;
# Update(): a new filter a repetition).
set -u
mkdir -p /tmp/k $OUT/logs
xz -dc .devcarry/pk1.tar.xz | tar -C /tmp/k -xf -
export LD_LIBRARY_PATH=/tmp/k/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
timeout 60 /tmp/k/n/ccaDeviceMemoryTest > $OUT/logs/devmem.log 2>&1
echo "devmem rc=$? at $SECONDS s"; grep -E "FAIL|idle device|device memory:" $OUT/logs/devmem.log | head -20
M=random2d-g16,random2d-g4,random2d-g1,random3d-g4,random3d-g1,balls-60k,ct-face,ct-full
k=0
for v in m n n m; do
  k=$((k + 1)); E=/tmp/k/$v/cca_e2e_benchmark
  timeout 110 $E --no-itk --threads 16 --reps 7 --only $M > $OUT/logs/e2e-$k-$v.log 2>&1
  echo "$k $v rc=$? at $SECONDS s"
  grep -E "engine alone|mask read" $OUT/logs/e2e-$k-$v.log | sed 's/, kernels.*bound/; bound/'
  grep -E "ours-cuda" $OUT/logs/e2e-$k-$v.log
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
