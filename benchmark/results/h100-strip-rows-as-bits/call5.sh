#!/usr/bin/env bash
# Call 5 (H100): o = 3c0465b, s = this record's change (main 38ddeac +
# strips and tubes reading rows as bits), r = s with the union-find's
# neighbour-row steps from an array again in LinkRuns and
# LinkRunsQueuedKernel (as in o), where e0b8b03 computed them
# (PrecedingRowStep). Call 4 found 512^3 26-conn. g = 4 full table 90.8
# -> 84.0 Gvox/s from o to main, on no path that the strip or block
# labeling or the row-bit links take. Order o s r r s o on every set.
# Carry: .devcarry/gabE.tar.xz (r/o/cca_benchmark, r/s/..., r/r/...).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gabE.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
AB="python3 benchmark/ab_compare.py --variant o=$R/o/cca_benchmark --variant s=$R/s/cca_benchmark --variant r=$R/r/cca_benchmark --per-image"
C="--labels-on-device --no-atomic-counts"
timeout 300 $AB --logs $L/ab --common "$C --warmup 1 --reps 3" \
  --set 3d26-g4-all="--dimension 3 --size 512 --connectivity full --g 4 --outputs all" \
  --set 3d26-g1-all="--dimension 3 --size 512 --connectivity full --g 1 --outputs all" \
  --set 3d26-g1-labels="--dimension 3 --size 512 --connectivity full --g 1 --outputs labels" \
  --set 3d26-g16-all="--dimension 3 --size 512 --connectivity full --g 16 --outputs all" \
  --set 3d6-g1-all="--dimension 3 --size 512 --connectivity face --g 1 --outputs all" \
  --set 3d6-g4-all="--dimension 3 --size 512 --connectivity face --g 4 --outputs all" \
  --set 2d4-g1-all="--dimension 2 --size 8192 --connectivity face --g 1 --outputs all" \
  --set 2d8-g1-all="--dimension 2 --size 8192 --connectivity full --g 1 --outputs all" \
  --set 2d8-g4-all="--dimension 2 --size 8192 --connectivity full --g 4 --outputs all" \
  --order "o s r r s o" > $L/ab.txt 2>&1
echo "ab rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/ab.txt | grep -v "^  .*d=0.0 " | head -150
timeout 100 $AB --logs $L/allon --common "$C --warmup 2 --reps 11 --density 1 --outputs all" \
  --set 2d-all-on="--dimension 2 --size 8192 --connectivity both" \
  --order "o s r r s o" > $L/allon.txt 2>&1
echo "allon rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/allon.txt | head -20
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
