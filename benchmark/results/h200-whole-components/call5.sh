#!/usr/bin/env bash
# Call 5 (H200): call 4's N2 (main 20970e1's code) again, labels only,
# 8192^2 8-conn. g = 1, three rounds, with BKE built and run in the same
# command: is 1.5x BKE met in a fresh call?
set -u
L=$OUT/logs; mkdir -p $L /tmp/b /tmp/pb
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
pids=()
for f in .peers/src/harness.cu .peers/peers/yacclab_BKE.cu; do
  nvcc -arch=sm_90 -O3 -DNDEBUG -std=c++17 -c $f -o /tmp/pb/$(basename $f .cu).o > /tmp/pb/$(basename $f .cu).log 2>&1 &
  pids+=($!)
done
X=/tmp/b/n/build-gpu/benchmark/cca_benchmark
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --connectivity full --g 1 --dimension 2 --size 8192"
for r in 1 2 3; do
  t=k2-full-n$r
  timeout 60 $X $P --json $L/$t.json > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
done
wait "${pids[@]}"; nvcc -arch=sm_90 -Xcompiler -pthread /tmp/pb/*.o -o /tmp/pb/peers_bench && echo "peers built at $SECONDS s"
timeout 40 /tmp/pb/peers_bench --dims 2 --size 8192 --peers BKE --json $L/native2d.json > $L/peers2d.log 2>&1; echo "peers 2D rc=$? at $SECONDS s"
python3 .peers/py/merge.py --native2 $L/native2d.json --out $L/peers.json > $L/merge.log 2>&1; echo "merge rc=$?"
for t in n1 n2 n3; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-full-$t.json > $OUT/table-$t.md 2> $L/table-$t.err; echo "table $t rc=$?"
  grep -E "^\| (ours|BKE)|best peer" $OUT/table-$t.md | head -3
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
