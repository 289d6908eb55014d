#!/usr/bin/env bash
# Call 2 (a few minutes after call 1, the same bench bundle): whether call
# 1 repeats. Issue 10's table through ITK once more (as call 1's step 2),
# then the 2.35 Gvox volume with its label image in three processes of
# their own (each a process's first image: CUDA against our CPU backend).
set -u
mkdir -p /tmp/k $OUT && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
[[ -x /tmp/k/build-gpu/benchmark/cca_e2e_benchmark ]] ||
  { xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/k -xf - && tar -C /tmp/k -xf /tmp/k/build.tar; } || exit 1
export LD_LIBRARY_PATH=/tmp/k/lib
B=/tmp/k/build-gpu/benchmark/cca_e2e_benchmark
M=ct-face,ct-full,balls-60k,random3d-g4,random3d-g1,random2d-g16,random2d-g4,random2d-g1
timeout 270 $B --threads 16 --only $M --json $OUT/e2e.json > $OUT/e2e.log 2>&1
echo "table rc=$? at $SECONDS s"
grep -E "ours-cuda|engine alone [0-9]|with that read|a repetition at a time|MISMATCH|pinned bandwidth" $OUT/e2e.log | sed 's/  */ /g'
for k in 1 2 3; do
  timeout 100 $B --threads 16 --only large-labels --json $OUT/e2e-large-$k.json > $OUT/e2e-large-$k.log 2>&1
  echo "large $k rc=$? at $SECONDS s"
  grep -E "repetition 1:|ours-c|a repetition at a time" $OUT/e2e-large-$k.log | grep -v "engine alone" | sed 's/  */ /g'
done
echo "done at $SECONDS s"
