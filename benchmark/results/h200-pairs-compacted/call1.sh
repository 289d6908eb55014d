#!/usr/bin/env bash
# Call 1 (H200): the stored pairs' count with a warp taking 4 x 32 runs a
# round, writing the one-run components' records at once and searching the
# linked runs 32 at a time (benchmark/results/h200-pairs-count-not-kept's
# prepared patch), plus detail::FinalizeIntercepts reading every slot
# before writing (FinalizeCrossingEntriesKernel now calls it). b: that
# change; m: main 9f2f9a9 (code of a7c3edb). The GPU tests, memcheck and
# racecheck on b; ncu of the count on both; then the full table at g = 1.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
M=/tmp/b/m/cca_benchmark
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
for v in M B; do
  for dim in "--dimension 3 --size 512" "--dimension 2 --size 8192"; do
    echo "ncu $v $dim"
    ncu --clock-control none --kernel-name regex:"CountPrecedingPairs|FinalizeCrossing" \
      --metrics gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio \
      ${!v} --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --density 0.3 \
      $dim --connectivity face 2>&1 | grep -E "gpu__time|thread_inst|^  [A-Za-z].*Kernel" | sed -E 's/\(RunArrays.*|\(unsigned.*//' | head -12
  done
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="$M" --variant b="$B" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "m b b m"
python3 benchmark/ab_compare.py --logs $OUT/ab2 \
  --variant m="$M" --variant b="$B" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "m b b m"
tar -C $OUT -czf $OUT/logs.tgz tests ab ab2 && rm -rf $OUT/tests $OUT/ab $OUT/ab2
echo "done at $SECONDS s"
