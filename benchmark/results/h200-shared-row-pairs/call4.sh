#!/usr/bin/env bash
# Call 4 (H200): each warp's merges queued, a pair a lane
# (cuda/QueuedMerges.cuh, LinkRunsQueuedKernel), in the union-find's passes
# over a mask's whole runs that LinkRunsKernel took, binary x; n
# (--queued-merges never: main's LinkRunsKernel) against q (the default).
# ncu of the union-find launches at 512^3 6-conn. g = 1 d = 0.5 / 0.7;
# summed, 512^3 6-conn. g = 1 full table and labels only n q q n, 8192^2
# 4-conn. g = 1 full table n q q n.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for d in 0.5 0.7; do
  for v in never auto; do
    echo "ncu 512^3 face d=$d --queued-merges $v, the union-find launches of one run"
    ncu --clock-control none --kernel-name regex:"Link" --launch-count 4 --metrics $M \
      $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --queued-merges $v \
      --density $d --dimension 3 --size 512 --connectivity face 2>&1 |
      grep -E "  void|gpu__time|inst_executed" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
done
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
python3 benchmark/ab_compare.py --logs $OUT/ab --variant n="$X --queued-merges never" --variant q="$X" \
  --common "$C --outputs all" --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" --order "n q q n"
python3 benchmark/ab_compare.py --logs $OUT/ab-labels --variant n="$X --queued-merges never" --variant q="$X" \
  --common "$C --outputs labels" --set 3d-face-g1-labels="--dimension 3 --size 512 --connectivity face --g 1" --order "n q q n"
python3 benchmark/ab_compare.py --logs $OUT/ab-2d --variant n="$X --queued-merges never" --variant q="$X" \
  --common "$C --outputs all" --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" --order "n q q n"
tar -C $OUT -czf $OUT/logs.tgz ab ab-labels ab-2d && rm -rf $OUT/ab $OUT/ab-labels $OUT/ab-2d
echo "done at $SECONDS s"
