#!/usr/bin/env bash
# Call 4 (H200): the committed code (LinkByteRowsKernel in two parts a row,
# launch bounds of 8 / 6 blocks) and the labels-only peers that lead at
# g = 1 (Playne's block methods in 2D and 3D, BKE, BE_3D; from
# ../shared/peers-bench copied to .peers/, only those ports built) in one
# command: ours, the peers, the table; the GPU tests, memcheck and
# racecheck; then ours again. Carried: .devcarry/gpu.tar.xz (the
# stripped build-gpu binaries of this tree) and .peers/.
set -u
O=$OUT/c4; L=$O/logs; mkdir -p $L /tmp/b /tmp/pb
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu; Y=$G/benchmark/cca_benchmark
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
pids=()
for f in .peers/src/harness.cu .peers/peers/playne_block_2D.cu .peers/peers/playne_block_3D.cu .peers/peers/yacclab_BKE.cu .peers/peers/yacclab_BE_3D.cu; do
  nvcc -arch=sm_90 -O3 -DNDEBUG -std=c++17 -c $f -o /tmp/pb/$(basename $f .cu).o > /tmp/pb/$(basename $f .cu).log 2>&1 &
  pids+=($!)
done; wait "${pids[@]}"
nvcc -arch=sm_90 -Xcompiler -pthread /tmp/pb/*.o -o /tmp/pb/peers_bench && echo "peers built at $SECONDS s"
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1"
# As run, the loop's `set -- $c $1` took the round from $1, which the
# first family's `set` had replaced by its dimension: only 3D face carried
# the round's name, the other three families' files were named -3 and -2
# and round 2 overwrote round 1's (round 1's figures are in summary.txt).
# table-round2-all.md was made afterwards from round 2's files. Fixed here.
ours() { local round=$1; for c in "3 512 face" "3 512 full" "2 8192 face" "2 8192 full"; do set -- $c $round
  timeout 45 $Y $P --dimension $1 --size $2 --connectivity $3 --json $L/k$1-$3-$4.json > $L/$1d-$3-$4.log 2>&1; echo "ours $1d g1 $3 labels ($4) rc=$? at $SECONDS s: $(s $L/$1d-$3-$4.log)"; done; }
ours round1
timeout 110 /tmp/pb/peers_bench --dims 3 --size 512 --peers PLAYNE_BLOCK_3D,BE_3D --json $L/native3d.json > $L/peers3d.log 2>&1; echo "peers 3D rc=$? at $SECONDS s"
timeout 60 /tmp/pb/peers_bench --dims 2 --size 8192 --peers PLAYNE_BLOCK,BKE --json $L/native2d.json > $L/peers2d.log 2>&1; echo "peers 2D rc=$? at $SECONDS s"
python3 .peers/py/merge.py --native2 $L/native2d.json --native3 $L/native3d.json --out $L/peers.json > $L/merge.log 2>&1; echo "merge rc=$?"
table() { python3 benchmark/peers_table.py --peers $L/peers.json $L/k*-$1.json > $O/table-$1.md 2> $L/table-$1.err; echo "table $1 rc=$?"; }
table round1
grep -E "^\| (ours|PLAYNE|BKE|BE_3D)|best peer|^#" $O/table-round1.md
# As run, these steps were written out here; scripts/engine-gpu-tests.sh
# now holds them, the same commands.
bash scripts/engine-gpu-tests.sh $G $L
# The second round last, so that a short budget cuts it and not the tests.
ours round2
table round2
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
