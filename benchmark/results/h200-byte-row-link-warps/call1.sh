#!/usr/bin/env bash
# Call 1 (H200): 4dc7e6f (not yet run on a GPU) -- labels only at g = 1 in
# the four families, ncu of the 8-connected planes at g = 1 (d = 0.3, 0.5,
# 0.7, labels only) to see where their time goes, then the GPU tests,
# memcheck and racecheck.
set -u
O=$OUT/c1; L=$O/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu; Y=$G/benchmark/cca_benchmark
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5"
for c in "3 512 1 face labels" "3 512 1 full labels" "2 8192 1 face labels" "2 8192 1 full labels"; do
  set -- $c; n=$1d-g$3-$4-$5
  timeout 45 $Y $P --connectivity $4 --outputs $5 --dimension $1 --size $2 --g $3 > $L/$n.log 2>&1
  echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
done
M=gpu__time_duration.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
for d in 0.3 0.5 0.7; do
  timeout 60 ncu --clock-control none --metrics $M --csv --print-units base $Y --labels-on-device --no-atomic-counts --reps 1 --warmup 1 --dimension 2 --size 8192 --g 1 --connectivity full --outputs labels --density $d > $L/ncu-8c-$d.csv 2> $L/ncu-8c-$d.err; echo "ncu 8-conn d=$d rc=$? at $SECONDS s"
done
# As run, these steps were written out here; scripts/engine-gpu-tests.sh
# now holds them, the same commands.
bash scripts/engine-gpu-tests.sh $G $L
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
