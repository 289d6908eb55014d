#!/usr/bin/env bash
# Call 4 (H200): m = main 95ad309's cca_benchmark; x = the byte rows'
# parts that find the runs before them from the run end index
# (RowPairLinks.cuh: no count of the stretches before), with the plane's
# row blocks in shared memory (ByteRowBlocksInShared.cuh) by default (s)
# or not (n: --shared-row-links never). ncu of the union-find launches and
# the numbering at 8192^2 4-conn. g = 1 d = 0.5 / 0.7, full table; summed,
# 4-conn. full table and labels only m n s s n m, 8-conn. full table (its
# strips' rows from the bits) m n n m.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
MB=/tmp/b/m/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for d in 0.5 0.7; do
  for v in "$MB" "$X --shared-row-links never" "$X"; do
    echo "== ncu 8192^2 face d=$d $v, the union-find launches of one run, and the numbering"
    ncu --clock-control none --kernel-name regex:"Link|NumberComponents" --launch-count 6 --metrics $M \
      $v --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
      --density $d --dimension 2 --size 8192 --connectivity face 2>&1 |
      grep -E "  void|gpu__time|inst_executed" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
done
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant m="$MB" --variant n="$X --shared-row-links never" --variant s="$X" \
  --common "$C --outputs all" --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" --order "m n s s n m"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-labels --variant m="$MB" --variant n="$X --shared-row-links never" --variant s="$X" \
  --common "$C --outputs labels" --set 2d-face-g1-labels="--dimension 2 --size 8192 --connectivity face --g 1" --order "m n s s n m"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-full --variant m="$MB" --variant n="$X" \
  --common "$C --outputs all" --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" --order "m n n m"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
