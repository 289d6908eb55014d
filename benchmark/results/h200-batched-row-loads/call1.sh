#!/usr/bin/env bash
# Call 1 (H200), after ../h200-pairs-in-union-find/call6.sh in the same
# command (which unpacks the binaries): ncu per kernel of main (N =
# ffa879d) on the images where the per-pixel kernels weigh most: the full
# table of the all-foreground images (face), and labels only at g = 1,
# d = 0.5 (6-connected volumes, 8-connected planes).
set -u
O=$OUT/c1; L=$O/logs; mkdir -p $L
exec > >(tee $O/summary.txt) 2>&1
P="--labels-on-device --no-atomic-counts --reps 1 --warmup 1"
M=gpu__time_duration.sum,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed
for c in "3 512 0 face all 1" "2 8192 0 face all 1" "3 512 1 face labels 0.5" "2 8192 1 full labels 0.5"; do
  set -- $c; n=ncu-$1d-g$3-$4-$5-d$6
  timeout 90 ncu --clock-control none --metrics $M --csv --print-units base /tmp/b/N $P --dimension $1 --size $2 --g $3 --connectivity $4 --outputs $5 --density $6 > $L/$n.csv 2> $L/$n.err
  echo "$n rc=$? at $SECONDS s"
done
tar -C $O -czf $O/ncu.tgz logs && rm -rf $L
