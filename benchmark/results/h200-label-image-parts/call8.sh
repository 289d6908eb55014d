#!/usr/bin/env bash
# Call 8 (H200): B = d223e1a (x/) against N = strips from a sampled
# foreground fraction of 0.35 instead of 0.25 (n/), 8192^2 8-connected,
# labels only, g = 1, B N B N, with BKE (from ../shared/peers-bench in
# .peers/) in the same command. Carried: .devcarry/gpu.tar.xz, .peers/.
set -u
O=$OUT/c8; L=$O/logs; mkdir -p $L /tmp/b /tmp/pb
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $O/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
pids=()
for f in .peers/src/harness.cu .peers/peers/yacclab_BKE.cu; do
  nvcc -arch=sm_90 -O3 -DNDEBUG -std=c++17 -c $f -o /tmp/pb/$(basename $f .cu).o > /tmp/pb/$(basename $f .cu).log 2>&1 &
  pids+=($!)
done
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full"
for r in 1 2; do for v in x n; do
  timeout 30 /tmp/b/$v/cca_benchmark $P --json $L/k2-full-$v$r.json > $L/2d-full-$v$r.log 2>&1
  echo "2d full $v$r rc=$? at $SECONDS s: $(s $L/2d-full-$v$r.log)"
  grep "^Default" $L/2d-full-$v$r.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
done; done
wait "${pids[@]}"; nvcc -arch=sm_90 -Xcompiler -pthread /tmp/pb/*.o -o /tmp/pb/peers_bench && echo "peers built at $SECONDS s"
timeout 40 /tmp/pb/peers_bench --dims 2 --size 8192 --peers BKE --json $L/native2d.json > $L/peers2d.log 2>&1; echo "peers 2D rc=$? at $SECONDS s"
python3 .peers/py/merge.py --native2 $L/native2d.json --out $L/peers.json > $L/merge.log 2>&1; echo "merge rc=$?"
for t in n1 n2; do python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-full-$t.json > $O/table-$t.md 2> $L/table-$t.err; echo "table $t rc=$?"
  grep -E "^\| (ours|BKE)|best peer|^### 2D, 8" $O/table-$t.md; done
tar -C $O -czf $O/logs.tgz logs && rm -rf $L
