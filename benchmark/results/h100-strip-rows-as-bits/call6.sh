#!/usr/bin/env bash
# Call 6 (H100): where 512^3 26-conn. g = 4 d = 0.5 (full table) lost from
# o = 3c0465b to s: ncu kernel maps of both, then of d = 0.3.
# Carry: .devcarry/gabE.tar.xz (r/o/cca_benchmark, r/s/..., r/r/...).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gabE.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
R=/tmp/b/r
for d in 0.5 0.3; do
  for v in o s; do
    TOP=14 bash benchmark/ncu_kernel_map.sh $R/$v/cca_benchmark $L/ncu $v-d$d --dimension 3 --size 512 --g 4 --density $d --connectivity full --outputs all
  done
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
