#!/usr/bin/env bash
# Call 1 (experiment, binary of experiment.patch on 7d9b914): the
# union-find's parents kept in the L2's persisting part (CCA_L2_PERSIST_MB
# set aside, clipped to the device's most; SCOPE 1: a window during the
# union-find, then demoted; 2: to the run's end) against none (x), full
# table, 512^3 and 8192^2 g = 1, both connectivities, x p1 p2 x.
# Carry: .devcarry/gab1.tar.xz (x/cca_benchmark).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/x/cca_benchmark
CCA_L2_PERSIST_MB=100 CCA_L2_PERSIST_SCOPE=1 $B --labels-on-device --no-atomic-counts --outputs all --dimension 3 --size 512 --g 1 --density 0.3 --connectivity full --reps 3 2>&1 | grep -E "L2|==|full"
timeout 220 python3 benchmark/ab_compare.py --logs $L/ab --variant x="$B" \
  --variant p1="env CCA_L2_PERSIST_MB=100 CCA_L2_PERSIST_SCOPE=1 $B" \
  --variant p2="env CCA_L2_PERSIST_MB=100 CCA_L2_PERSIST_SCOPE=2 $B" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --outputs all --connectivity both" \
  --set 3d-g1="--dimension 3 --size 512 --g 1 --reps 3" \
  --set 2d-g1="--dimension 2 --size 8192 --g 1 --reps 3" \
  --order "x p1 p2 x" --per-image
echo "ab rc=$? at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
