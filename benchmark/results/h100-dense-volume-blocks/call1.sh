#!/usr/bin/env bash
# Call 1 (H100): the component order by counting against CUB's radix sort
# (groupprobe.cu, labels of random images labelled on the host); m c c m
# of main 23c829b against c = the counting-pairs union-find's neighbour
# rows from an array again (512^3 26-conn. g = 1); ncu maps of 8192^2
# 8-conn. d = 0.4 and 4-conn. d = 0.5, full table.
# Carry: .devcarry/gab1.tar.xz (r/cca_benchmark = m, r/c/cca_benchmark, r/groupprobe).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
timeout 240 $R/groupprobe > $L/groupprobe.log 2>&1
echo "probe rc=$? at $SECONDS s"; cat $L/groupprobe.log
timeout 200 python3 benchmark/ab_compare.py --logs $L/ab --variant m="$R/cca_benchmark" --variant c="$R/c/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3" \
  --set 3d26-g1-all="--dimension 3 --size 512 --connectivity full --outputs all --g 1" \
  --order "m c c m" --per-image > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/ab.txt | head -40
M="bash benchmark/ncu_kernel_map.sh $R/cca_benchmark $L/ncu"
TOP=25 $M full2-d0.4 --dimension 2 --size 8192 --g 1 --density 0.4 --connectivity full --outputs all
TOP=25 $M face2-d0.5 --dimension 2 --size 8192 --g 1 --density 0.5 --connectivity face --outputs all
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
