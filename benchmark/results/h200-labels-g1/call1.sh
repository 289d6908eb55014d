#!/usr/bin/env bash
# Call 1 (H200): labels only at g = 1, where the 1.5x over the peers is
# short. Per density the benchmark's times (median of 10), then per image
# the kernels' times by ncu (caches kept, clocks free). Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
K="$B/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --outputs labels"
$K --reps 3 --warmup 1 --dimension 2 --size 8192 --g 4 --connectivity face > /dev/null 2>&1
img() { case $1 in
  2d4) echo "--dimension 2 --size 8192 --connectivity face";; 2d8) echo "--dimension 2 --size 8192 --connectivity full";;
  3d6) echo "--dimension 3 --size 512 --connectivity face";; 3d26) echo "--dimension 3 --size 512 --connectivity full";; esac; }
for c in 2d4 2d8 3d6; do
  timeout 60 $K --reps 10 --warmup 2 $(img $c) --g 1 > $L/g1-$c.log 2>&1; echo "$c rc=$? at $SECONDS s"; grep -E "^Default|^==" $L/g1-$c.log
done
for c in "2d4 0.3" "2d4 0.5" "2d4 0.6" "2d8 0.4" "2d8 0.5" "2d8 0.6" "3d6 0.3" "3d6 0.5" "3d6 0.6"; do
  set -- $c; n=$1-d$2
  timeout 60 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum,dram__bytes.sum --csv --print-units base \
    $K --reps 1 --warmup 1 $(img $1) --g 1 --density $2 > $L/ncu-$n.csv 2> $L/ncu-$n.err
  echo "ncu $n rc=$? at $SECONDS s"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
