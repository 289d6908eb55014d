#!/usr/bin/env bash
# Call 1 (H100): main 3c0465b. ncu kernel maps of the hard images (512^3
# 26-conn. g = 1 d = 0.3 and 0.5 with the rows as bits and d = 0.5 as
# bytes; 512^3 6-conn. d = 0.3; 8192^2 4-conn. d = 0.4 and all on), then
# ours and every labels-only peer in one command (benchmark/ours_and_peers.sh).
# Carry: .devcarry/gab1.tar.xz (r/cca_benchmark, r/ccaCudaBackendTest), .peers, .whl.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b/q/benchmark && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
ln -s /tmp/b/r/cca_benchmark /tmp/b/q/benchmark/cca_benchmark
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/r/cca_benchmark
M="bash benchmark/ncu_kernel_map.sh $B $L/ncu"
for d in 0.3 0.5; do
  TOP=12 $M full-d$d-auto --dimension 3 --size 512 --g 1 --density $d --connectivity full --outputs all
done
TOP=12 $M full-d0.5-never --dimension 3 --size 512 --g 1 --density 0.5 --connectivity full --outputs all --strip-row-bits never
TOP=12 $M face3-d0.3 --dimension 3 --size 512 --g 1 --density 0.3 --connectivity face --outputs all
TOP=12 $M face2-d0.4 --dimension 2 --size 8192 --g 1 --density 0.4 --connectivity face --outputs all
TOP=12 $M face2-allon --dimension 2 --size 8192 --g 1 --density 1 --connectivity face --outputs all
echo "maps done at $SECONDS s"
PEERS_BUDGET_S=330 bash benchmark/ours_and_peers.sh /tmp/b/q $L/op $OUT/tables
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
