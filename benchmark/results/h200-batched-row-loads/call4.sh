#!/usr/bin/env bash
# Call 4 (H200): Y (call 3's binary, the code committed) and the peers
# that lead at g = 1 under face connectivity, Playne's block methods (2D
# and 3D, from ../shared/peers-bench copied to .peers/, only those two
# ports built), in one command: ours, the peers, ours again. Needs, as
# carried ignored folders: .devcarry/gpu.tar.xz (the stripped build-gpu
# binaries of this tree) and .peers/ (a copy of ../shared/peers-bench).
set -u
O=$OUT/c4; L=$O/logs; mkdir -p $L /tmp/b /tmp/pb
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
Y=/tmp/b/build-gpu/benchmark/cca_benchmark
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
# As run, this loop ended in a plain `wait`, which in bash 5.2 also waits
# for the process substitution that tees the output: the call hung until
# its limit. The compilations take 7 s on the development VM. Now it
# waits for the compilers alone.
pids=()
for f in .peers/src/harness.cu .peers/peers/playne_block_2D.cu .peers/peers/playne_block_3D.cu; do
  nvcc -arch=sm_90 -O3 -DNDEBUG -std=c++17 -c $f -o /tmp/pb/$(basename $f .cu).o > /tmp/pb/$(basename $f .cu).log 2>&1 &
  pids+=($!)
done; wait "${pids[@]}"
nvcc -arch=sm_90 -Xcompiler -pthread /tmp/pb/*.o -o /tmp/pb/peers_bench && echo "peers built at $SECONDS s"
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --connectivity face"
ours() { for c in "3 512" "2 8192"; do set -- $c $1
  timeout 45 $Y $P --dimension $1 --size $2 --g 1 --json $L/k$1-$3.json > $L/$1d-$3.log 2>&1; echo "ours $1d g1 face labels ($3) rc=$? at $SECONDS s: $(s $L/$1d-$3.log)"; done; }
ours round1
timeout 90 /tmp/pb/peers_bench --dims 3 --size 512 --peers PLAYNE_BLOCK_3D --json $L/native3d.json > $L/peers3d.log 2>&1; echo "peers 3D rc=$? at $SECONDS s"
timeout 60 /tmp/pb/peers_bench --dims 2 --size 8192 --peers PLAYNE_BLOCK --json $L/native2d.json > $L/peers2d.log 2>&1; echo "peers 2D rc=$? at $SECONDS s"
python3 .peers/py/merge.py --native2 $L/native2d.json --native3 $L/native3d.json --out $L/peers.json > $L/merge.log 2>&1; echo "merge rc=$?"
ours round2
for r in round1 round2; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-$r.json $L/k3-$r.json > $O/table-$r.md 2> $L/table-$r.err; echo "table $r rc=$?"
done
grep -E "^\| (ours|PLAYNE)|best peer" $O/table-*.md
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
