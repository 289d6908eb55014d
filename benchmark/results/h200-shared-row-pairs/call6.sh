#!/usr/bin/env bash
# Call 6 (H200): the shared row blocks' merges queued too, a pair a lane
# (LinkRowBlocksInSharedKernel<..., Queued>, the helpers of
# cuda/QueuedMerges.cuh), binary x; o (CCA_SHARED_QUEUE=0: the row blocks'
# merges a run a thread, the later passes queued as in call 4) against q.
# ncu of the row blocks' pass at 512^3 6-conn. g = 1 d = 0.5; summed full
# table o q; then the GPU tests, memcheck and racecheck on x (the last of
# this session's device time).
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for v in 0 1; do
  echo "ncu 512^3 face d=0.5 CCA_SHARED_QUEUE=$v, the row blocks' pass"
  CCA_SHARED_QUEUE=$v ncu --clock-control none --kernel-name regex:"LinkRowBlocks" --launch-count 1 --metrics $M \
    $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
    --density 0.5 --dimension 3 --size 512 --connectivity face 2>&1 |
    grep -E "  void|gpu__time|inst_executed" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
done
python3 benchmark/ab_compare.py --logs $OUT/ab --variant o="env CCA_SHARED_QUEUE=0 $X" --variant q="$X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" --order "o q"
echo "tests at $SECONDS s"
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
grep -E "shared row-block" $OUT/tests/backend.log
tar -C $OUT -czf $OUT/logs.tgz ab tests && rm -rf $OUT/ab $OUT/tests
echo "done at $SECONDS s"
