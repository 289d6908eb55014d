#!/usr/bin/env bash
# Call 3 (H200): call 2's B (main) and N (FacingRowsOf from StripRowAt),
# labels only, 8192^2 8-conn. g = 1, B N three times, with BKE
# (../shared/peers-bench, in .peers/) built and run in the same command;
# ncu of the strips' links (LinkByteRowsKernel) at d = 0.4, B and N.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b /tmp/pb
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
pids=()
for f in .peers/src/harness.cu .peers/peers/yacclab_BKE.cu; do
  nvcc -arch=sm_90 -O3 -DNDEBUG -std=c++17 -c $f -o /tmp/pb/$(basename $f .cu).o > /tmp/pb/$(basename $f .cu).log 2>&1 &
  pids+=($!)
done
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --connectivity full --g 1 --dimension 2 --size 8192"
for r in 1 2 3; do for v in b n; do
  X=/tmp/b/b/cca_benchmark; [[ $v == n ]] && X=/tmp/b/n/build-gpu/benchmark/cca_benchmark
  t=k2-full-$v$r
  timeout 60 $X $P --json $L/$t.json > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
done; done
for v in b n; do
  X=/tmp/b/b/cca_benchmark; [[ $v == n ]] && X=/tmp/b/n/build-gpu/benchmark/cca_benchmark
  Q="--labels-on-device --no-atomic-counts --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full --density 0.4 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --cache-control none -k regex:"LinkByteRows" --metrics gpu__time_duration.sum,launch__registers_per_thread --csv $X $Q > $L/ncu-$v.csv 2> $L/ncu-$v.err
  echo "ncu d=0.4 $v: $(grep '^"' $L/ncu-$v.csv | awk -F'","' '{printf "%s %s; ", $(NF-2), $NF}' | tr -d '"')"
done
wait "${pids[@]}"; nvcc -arch=sm_90 -Xcompiler -pthread /tmp/pb/*.o -o /tmp/pb/peers_bench && echo "peers built at $SECONDS s"
timeout 40 /tmp/pb/peers_bench --dims 2 --size 8192 --peers BKE --json $L/native2d.json > $L/peers2d.log 2>&1; echo "peers 2D rc=$? at $SECONDS s"
python3 .peers/py/merge.py --native2 $L/native2d.json --out $L/peers.json > $L/merge.log 2>&1; echo "merge rc=$?"
for t in b1 n1 b2 n2 b3 n3; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-full-$t.json > $OUT/table-$t.md 2> $L/table-$t.err; echo "table $t rc=$?"
  grep -E "^\| (ours|BKE)|best peer" $OUT/table-$t.md | grep -v "mean" | head -3
done
grep -h "BKE" $L/peers2d.log | tail -n 3
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
