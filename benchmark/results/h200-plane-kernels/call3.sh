#!/usr/bin/env bash
# Call 3 (H200): a plane's rows joined from their bits in blocks of rows in
# shared memory (cuda/ByteRowBlocksInShared.cuh), binary x; n
# (--shared-row-links never: main's one pass over all rows in global
# memory) against s (the default). ncu of the union-find launches at
# 8192^2 4-conn. g = 1 d = 0.3 / 0.5 / 0.7 with the full table; summed, n s
# s n: 4-conn. full table and labels only, 8-conn. labels only; then the
# CUDA backend's tests on x.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,sm__warps_active.avg.pct_of_peak_sustained_active
for d in 0.3 0.5 0.7; do
  for v in never auto; do
    echo "== ncu 8192^2 face d=$d --shared-row-links $v, the union-find launches of one run, and the numbering"
    ncu --clock-control none --kernel-name regex:"Link|NumberComponents" --launch-count 8 --metrics $M \
      $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --shared-row-links $v \
      --density $d --dimension 2 --size 8192 --connectivity face 2>&1 |
      grep -E "  void|gpu__time|inst_executed|warps_active" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
done
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant n="$X --shared-row-links never" --variant s="$X" \
  --common "$C --outputs all" --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" --order "n s s n"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-labels --variant n="$X --shared-row-links never" --variant s="$X" \
  --common "$C --outputs labels" --set 2d-face-g1-labels="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1-labels="--dimension 2 --size 8192 --connectivity full --g 1" --order "n s s n"
timeout 120 /tmp/b/x/build-gpu/test/gpu/ccaCudaBackendTest > $OUT/logs/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"
grep -E "^total|FAIL|row-bit" $OUT/logs/backend.log | head -12
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
