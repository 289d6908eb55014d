#!/usr/bin/env bash
# Call 1: what the perimeter's pairs cost the full table at g = 1. One
# binary (main 00073f0 with the probe patch h100-no-pairs-probe/no-pairs-probe.patch), the
# default (d) against CCA_PROBE_NO_PAIRS=1 (p: no pairs counted by the
# union-find, no pairs' pass after the labels, the votes add none, so no
# placing of the largest component either; the intercepts are wrong),
# d p p d per set, full table, the per-image table printed.
set -u
mkdir -p $OUT/logs /tmp/b && exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; nproc
xz -dc .devcarry/cca_benchmark-probe.xz > /tmp/b/cca_benchmark && chmod +x /tmp/b/cca_benchmark
B=/tmp/b/cca_benchmark
SECONDS=0
run() { # set name, set args
  local set=$1 args=$2
  timeout 200 python3 benchmark/ab_compare.py --logs $OUT/logs/$set \
    --variant "d=$B" --variant "p=env CCA_PROBE_NO_PAIRS=1 $B" \
    --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all --g 1" \
    --set "$set=$args" --order "d p p d" --per-image --timeout 60 > $OUT/logs/$set.txt 2>&1
  echo "$set rc=$? at $SECONDS s"
}
run 3d-face "--dimension 3 --size 512 --connectivity face"
run 2d-face "--dimension 2 --size 8192 --connectivity face"
run 2d-full "--dimension 2 --size 8192 --connectivity full"
run 3d-full "--dimension 3 --size 512 --connectivity full"
for s in 3d-face 2d-face 2d-full 3d-full; do echo "== $s"; cat $OUT/logs/$s.txt; done
rm -rf $OUT/logs
echo "done at $SECONDS s"
