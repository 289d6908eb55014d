#!/usr/bin/env bash
# ncu of the votes, main (m) against the probe (p), 8192^2 4-conn. g = 1.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
for v in m p; do for d in 0.1 0.3; do
  TOP=3 bash benchmark/ncu_kernel_map.sh /tmp/b/$v/build-gpu/benchmark/cca_benchmark $L $v-d$d --outputs all \
    --dimension 2 --size 8192 --connectivity face --g 1 --density $d
done; done
echo "done at $SECONDS s"
