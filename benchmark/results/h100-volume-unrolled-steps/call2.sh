#!/usr/bin/env bash
# Call 2 (H100): m = main, g = the branch as measured in call 1 (both
# union-find kernels unrolled for volumes), w = the form kept (only the
# pair-counting kernel unrolled for volumes; LinkRunsKernel's cubin equals
# main's, the counting kernel's equals g's). m g w w g m on the sets where
# g differed from m: 8192^2 8-conn. g = 1 full table (g -0.8 %), 512^3
# 26-conn. g = 4 / 16 full table (g +8.4 % / +2.5 %), the all-on planes.
# Carry: .devcarry/gab2.tar.xz (r/cca_benchmark = m, r/g/, r/w/).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab2.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
AB="python3 benchmark/ab_compare.py --variant m=$R/cca_benchmark --variant g=$R/g/cca_benchmark --variant w=$R/w/cca_benchmark --per-image"
C="--labels-on-device --no-atomic-counts"
timeout 200 $AB --logs $L/ab --common "$C --warmup 1 --reps 5 --outputs all" \
  --set 2d8-g1-all="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d26-g4-all="--dimension 3 --size 512 --connectivity full --g 4" \
  --set 3d26-g16-all="--dimension 3 --size 512 --connectivity full --g 16" \
  --order "m g w w g m" > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/ab.txt | head -120
timeout 80 $AB --logs $L/allon --common "$C --warmup 2 --reps 11 --density 1 --outputs all" \
  --set 2d-all-on="--dimension 2 --size 8192 --connectivity both" --order "m g w w g m" > $L/allon.txt 2>&1
echo "allon rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/allon.txt | head -24
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
