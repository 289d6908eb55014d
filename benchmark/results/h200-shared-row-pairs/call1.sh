#!/usr/bin/env bash
# Call 1 (H200): the shared-memory row blocks (cuda/RowBlocksInShared.cuh)
# also where the union-find counts the perimeter's pixel pairs (full
# connectivity, full table), binary x. ncu of the union-find launches at
# 512^3 26-conn. g = 1 d = 0.3 / 0.7, main's global pass
# (--shared-row-links never, which is main's choice under full
# connectivity) against the default; then g (never) against s (default),
# full table, g s s g, 26-conn.; ncu of all kernels of 26-conn. g = 1;
# the GPU tests, memcheck and racecheck on x.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
X=/tmp/b/x/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
for d in 0.3 0.7; do
  for v in never auto; do
    echo "ncu 512^3 full d=$d --shared-row-links $v, the union-find launches of one run"
    ncu --clock-control none --kernel-name regex:"Link" --launch-count 4 --metrics $M \
      $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 --shared-row-links $v \
      --density $d --dimension 3 --size 512 --connectivity full 2>&1 |
      grep -E "  void|gpu__time|inst_executed|warps_active" | sed -E 's/^  void ([A-Za-z]+)<.*\) (\([0-9, ]+\)x\([0-9, ]+\)).*/  \1 \2/'
  done
done
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant g="$X --shared-row-links never" --variant s="$X" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "g s s g"
# Where the full table of 26-connected g = 1 volumes spends its kernels
# now (x's default; each kernel launches twice, benchmark/ncu_kernel_table.py).
for d in 0.3 0.5 0.7; do
  echo "== ncu all kernels, 512^3 full d=$d, default"
  ncu --clock-control none --print-units base --csv \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    $X --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
    --density $d --dimension 3 --size 512 --connectivity full > $OUT/kernels-$d.csv 2> $OUT/kernels-$d.err
  python3 benchmark/ncu_kernel_table.py $OUT/kernels-$d.csv --top 14
done
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
grep -E "shared row-block" $OUT/tests/backend.log
tar -C $OUT -czf $OUT/logs.tgz ab tests kernels-*.csv && rm -rf $OUT/ab $OUT/tests $OUT/kernels-*.csv
echo "done at $SECONDS s"
