#!/usr/bin/env bash
# Call 1 (H200): the foreground's totals (ForegroundTotalsKernel) counting
# in 32 bits a task and folding each task into its warp's words in shared
# memory (was: 24 64-bit words in each thread's registers, 100 registers),
# and queued on the run's stream beside the side work instead of on the
# side stream between the label image and the pairs' pass. n = main
# (a3bbd70), p = the change (77 registers, 3 blocks a multiprocessor),
# q = p with __launch_bounds__(256, 4) (64 registers, 20/44 bytes of
# spills); full table, 512^3 g = 1, 26- and 6-conn. (the subtraction's
# images: 26-conn. d = 0.2-0.9, 6-conn. d = 0.7-0.9), n p q q p n, each
# image's times. Then ncu of the totals kernel alone at 26-conn. d = 0.5.
# Carry: .devcarry/gpu.tar.xz.
set -u
mkdir -p /tmp/b $OUT/logs/ncu
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
  --variant p="/tmp/b/p/build-gpu/benchmark/cca_benchmark" \
  --variant q="/tmp/b/q/build-gpu/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "n p q q p n" --per-image
echo "ab done at $SECONDS s"
for v in n p q; do
  echo "== ncu totals kernel, $v, 3d-full-0.5"
  timeout 60 ncu --clock-control none --print-units base --csv -k regex:ForegroundTotals \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    /tmp/b/$v/build-gpu/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --outputs all --g 1 --warmup 0 --reps 1 \
    --dimension 3 --size 512 --connectivity full --density 0.5 > $OUT/logs/ncu/$v.csv 2> $OUT/logs/ncu/$v.err
  python3 benchmark/ncu_kernel_table.py $OUT/logs/ncu/$v.csv --top 3
  echo "at $SECONDS s"
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
