#!/usr/bin/env bash
# Call 1 (H100, main's code with streamed uploads on by default, and
# cca_e2e_benchmark's paired bounds: each repetition of the engine alone
# against the mask's read measured right after it):
#   1. CUDA's start-up with and without the streamed uploads' 32 MiB mapped
#      page-locked block, which Engine::StartCuda now takes: a process per
#      run, --streamed-uploads never (no block) and on (the default)
#      alternated six times, Engine::StartCuda's wall time;
#   2. issue 10's table through ITK in one run (the masks of
#      benchmark/run-on-gpu-machine.sh's e2e step, best of 3, ITK's
#      BinaryImageToShapeLabelMapFilter on 16 threads in the same process,
#      every object checked against ITK's), then the 2.35 Gvox volume with
#      a label image (CUDA against our CPU backend);
#   3. the masks below 1 M objects again beside ITK with 7 repetitions of
#      ours (ITK once), for the paired engine/bound medians.
set -u
mkdir -p /tmp/k $OUT && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; echo "CPU: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
xz -dc .devcarry/bench-bundle.tar.xz | tar -C /tmp/k -xf - && tar -C /tmp/k -xf /tmp/k/build.tar || exit 1
export LD_LIBRARY_PATH=/tmp/k/lib
B=/tmp/k/build-gpu/benchmark/cca_e2e_benchmark
for i in 1 2 3 4 5 6; do
  for v in never on; do
    line=$(timeout 30 $B --no-itk --only ct-face --reps 1 --streamed-uploads $v 2>&1 | grep -m1 -o 'start-up [0-9]* ms')
    echo "start-up $i $v: $line"
  done
done
echo "== table at $SECONDS s"
M=ct-face,ct-full,balls-60k,random3d-g4,random3d-g1,random2d-g16,random2d-g4,random2d-g1
timeout 270 $B --threads 16 --only $M --json $OUT/e2e.json > $OUT/e2e.log 2>&1
echo "table rc=$? at $SECONDS s"
grep -E "ours-cuda|engine alone [0-9]|with that read|a repetition at a time|MISMATCH|pinned bandwidth|^uploads" $OUT/e2e.log | sed 's/  */ /g'
timeout 130 $B --threads 16 --only large-labels --json $OUT/e2e-large.json > $OUT/e2e-large.log 2>&1
echo "large rc=$? at $SECONDS s"
grep -E "ours-c|repetition|engine alone [0-9]|a repetition at a time|MISMATCH" $OUT/e2e-large.log | sed 's/  */ /g' | head -20
left=$((575 - SECONDS))
if [[ $left -gt 40 ]]; then
  M=ct-face,ct-full,balls-60k,random3d-g4,random2d-g16,random2d-g4
  timeout $left $B --threads 16 --reps 7 --itk-reps 1 --only $M --json $OUT/e2e-reps7.json > $OUT/e2e-reps7.log 2>&1
  echo "reps 7 rc=$? at $SECONDS s"
  grep -E "ours-cuda|engine alone [0-9]|with that read|a repetition at a time|MISMATCH" $OUT/e2e-reps7.log | sed 's/  */ /g'
fi
echo "done at $SECONDS s"
