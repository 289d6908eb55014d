#!/usr/bin/env bash
# Session 22, call 1: plane block labeling (BKE-like plain links + flatten + flagged unions) against the runs and the old plane blocks
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/b && tar -C /tmp/b -xJf .devcarry/b22a.tar.xz
N=/tmp/b/new; O=/tmp/b/old
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
sumline() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
timeout 60 $N/cca_benchmark --dimension 2 --size 8192 --g 4 --connectivity full --reps 3 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts > $L/warmup.log 2>&1
b() { local bin=$1 tag=$2 mode=$3 extra=$4; local f=$L/k2-$tag-$mode
  [ $SECONDS -gt 470 ] && { echo "skip $f" >> $L/summary.txt; return; }
  timeout 100 $bin --dimension 2 --size 8192 --connectivity full --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts --block-labeling ${mode%2} $extra --json $f.json > $f.log 2>&1
  echo "$tag $mode rc=$? at $SECONDS s: $(sumline $f.log)" >> $L/summary.txt; }
b $N new always ""; b $N new never ""; b $O old always "--g 1"; b $N new always2 ""
for d in 0.3 0.5 0.7; do
  [ $SECONDS -gt 500 ] && break
  timeout 60 $NCU --metrics gpu__time_duration.sum --csv $N/cca_benchmark --dimension 2 --size 8192 --g 1 --density $d --connectivity full --reps 1 --warmup 0 --outputs labels --labels-on-device --no-atomic-counts --block-labeling always > $L/ncu-$d.csv 2> $L/ncu-$d.err
  echo "=== blocks d=$d" >> $L/prof.txt; python3 /tmp/b/ncusum.py $L/ncu-$d.csv >> $L/prof.txt 2>&1
done
left=$((575 - SECONDS)); [ $left -gt 240 ] && left=240
( timeout $left $N/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s" ) >> $L/summary.txt
tail -3 $L/backend.log >> $L/summary.txt
cd $OUT && tar czf logs.tgz logs && cp logs/summary.txt logs/prof.txt . 2>/dev/null; true
