#!/usr/bin/env bash
# Call 5 (H200): m = main 95ad309's cca_benchmark; x = call 4's change with
# blocks of rows that fill 92 % of the links (was 7/8) and the pass taken
# only where the run end index exists (not labels only). The levels that
# join the blocks: s8 the planes' fan-in of 8 (four launches at 8192^2),
# s64 (two), sA (--link-fan-in 100000: one launch for every border).
# ncu of the union-find launches at d = 0.5 / 0.7 for s8 and sA; summed,
# 8192^2 4-conn. g = 1 full table m s8 s64 sA sA s64 s8 m; labels only m x x m.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
MB=/tmp/b/m/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio
for d in 0.5 0.7; do
  for v in "$X" "$X --link-fan-in 100000"; do
    echo "== ncu 8192^2 face d=$d $v, the union-find launches of one run, and the numbering"
    ncu --clock-control none --kernel-name regex:"Link|NumberComponents" --launch-count 6 --metrics $M \
      $v --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
      --density $d --dimension 2 --size 8192 --connectivity face 2>&1 |
      grep -E "  void|gpu__time|inst_executed" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
done
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant m="$MB" --variant s8="$X" \
  --variant s64="$X --link-fan-in 64" --variant sA="$X --link-fan-in 100000" \
  --common "$C --outputs all" --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "m s8 s64 sA sA s64 s8 m"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-labels --variant m="$MB" --variant x="$X" \
  --common "$C --outputs labels" --set 2d-face-g1-labels="--dimension 2 --size 8192 --connectivity face --g 1" --order "m x x m"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
