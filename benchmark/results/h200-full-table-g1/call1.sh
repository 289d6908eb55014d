#!/usr/bin/env bash
# Call 1 (H200): the full table (labels + runs + table) at g = 1, where it
# is about 3x short of issue 13's targets. Per image the kernels' times and
# DRAM bytes by ncu (caches kept, clocks free; a warm-up run and one run).
# Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
K="$B/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --outputs all"
img() { case $1 in
  2d4) echo "--dimension 2 --size 8192 --connectivity face";; 2d8) echo "--dimension 2 --size 8192 --connectivity full";;
  3d6) echo "--dimension 3 --size 512 --connectivity face";; 3d26) echo "--dimension 3 --size 512 --connectivity full";; esac; }
for c in "2d4 0.3" "2d4 0.5" "2d4 0.6" "2d8 0.3" "3d6 0.3" "3d6 0.6" "3d26 0.3"; do
  set -- $c; n=$1-d$2
  timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum,dram__bytes.sum --csv --print-units base \
    $K --reps 1 --warmup 1 $(img $1) --g 1 --density $2 > $L/ncu-$n.csv 2> $L/ncu-$n.err
  echo "ncu $n rc=$? at $SECONDS s"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
