#!/usr/bin/env bash
# Call 3 (H200): B = main (84b058d) against X = the first pixel offers that
# mark their own keys (OfferStripFirstPixelsKernel toggles the bitmap's
# bits; no marking kernel; runs that cannot win skip their offer), labels
# only at g = 1, B X B X, where the strips label: 8192^2 8-connected and
# 512^3 26-connected. The labels-only peers leading there at g = 1 (BKE,
# BE_3D; from ../shared/peers-bench copied to .peers/) in the same command,
# then the GPU tests, memcheck and racecheck on X, then round 2.
# Carried: .devcarry/gpu.tar.xz (X's stripped build-gpu, B's benchmark in b/).
set -u
O=$OUT/c3; L=$O/logs; mkdir -p $L /tmp/b /tmp/pb
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu; X=$G/benchmark/cca_benchmark; B=/tmp/b/b/cca_benchmark
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
pids=()
for f in .peers/src/harness.cu .peers/peers/yacclab_BKE.cu .peers/peers/yacclab_BE_3D.cu; do
  nvcc -arch=sm_90 -O3 -DNDEBUG -std=c++17 -c $f -o /tmp/pb/$(basename $f .cu).o > /tmp/pb/$(basename $f .cu).log 2>&1 &
  pids+=($!)
done
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1"
ours() { local bin=$1 tag=$2; for c in "2 8192" "3 512"; do set -- $c
  timeout 45 $bin $P --dimension $1 --size $2 --connectivity full --json $L/k$1-full-$tag.json > $L/$1d-full-$tag.log 2>&1
  echo "$1d full $tag rc=$? at $SECONDS s: $(s $L/$1d-full-$tag.log)"; done; }
ours $B B1; ours $X X1
wait "${pids[@]}"; nvcc -arch=sm_90 -Xcompiler -pthread /tmp/pb/*.o -o /tmp/pb/peers_bench && echo "peers built at $SECONDS s"
timeout 60 /tmp/pb/peers_bench --dims 3 --size 512 --peers BE_3D --json $L/native3d.json > $L/peers3d.log 2>&1; echo "peers 3D rc=$? at $SECONDS s"
timeout 40 /tmp/pb/peers_bench --dims 2 --size 8192 --peers BKE --json $L/native2d.json > $L/peers2d.log 2>&1; echo "peers 2D rc=$? at $SECONDS s"
python3 .peers/py/merge.py --native2 $L/native2d.json --native3 $L/native3d.json --out $L/peers.json > $L/merge.log 2>&1; echo "merge rc=$?"
table() { python3 benchmark/peers_table.py --peers $L/peers.json $L/k*-$1.json > $O/table-$1.md 2> $L/table-$1.err; echo "table $1 rc=$?"; }
table X1; grep -E "^\| (ours|BKE|BE_3D)|best peer|^#" $O/table-X1.md
bash scripts/engine-gpu-tests.sh $G $L
ours $B B2; ours $X X2
table X2; grep -E "^\| (ours|BKE|BE_3D)|best peer|^#" $O/table-X2.md
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
