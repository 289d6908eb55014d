#!/usr/bin/env bash
# Call 4 (H200): N2 = N1 (call 2's FacingRowsOf from StripRowAt) with the
# strips of a plane linked by a kernel that knows they face their
# neighbours with one row a side (LinkByteRowsKernel<Index, 1, false>);
# B = main (N1 did not fit in the carry beside them: calls 2 and 3 have
# it). The GPU tests, memcheck and racecheck on N2; labels only, 8192^2
# 8-conn. g = 1, B N2 three times, with BKE built and run in the same
# command; 512^3 26-conn. g = 1, B N2 once; ncu of the strips' links at
# d = 0.4, B and N2.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b /tmp/pb
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
pids=()
for f in .peers/src/harness.cu .peers/peers/yacclab_BKE.cu; do
  nvcc -arch=sm_90 -O3 -DNDEBUG -std=c++17 -c $f -o /tmp/pb/$(basename $f .cu).o > /tmp/pb/$(basename $f .cu).log 2>&1 &
  pids+=($!)
done
bin() { case $1 in b) echo /tmp/b/b/cca_benchmark;; n2) echo /tmp/b/n/build-gpu/benchmark/cca_benchmark;; esac; }
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels --connectivity full --g 1"
for r in 1 2 3; do for v in b n2; do
  t=k2-full-$v$r
  timeout 60 $(bin $v) $P --dimension 2 --size 8192 --json $L/$t.json > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
  grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
done; done
for v in b n2; do
  t=k3-full-$v
  timeout 60 $(bin $v) $P --dimension 3 --size 512 > $L/$t.log 2>&1
  echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
done
for v in b n2; do
  Q="--labels-on-device --no-atomic-counts --outputs labels --g 1 --dimension 2 --size 8192 --connectivity full --density 0.4 --warmup 0 --reps 1"
  timeout 60 ncu --clock-control none --cache-control none -k regex:"LinkByteRows" --metrics gpu__time_duration.sum,launch__registers_per_thread --csv $(bin $v) $Q > $L/ncu-$v.csv 2> $L/ncu-$v.err
  echo "ncu d=0.4 $v: $(grep '^"' $L/ncu-$v.csv | awk -F'","' '{printf "%s %s; ", $(NF-2), $NF}' | tr -d '"')"
done
wait "${pids[@]}"; nvcc -arch=sm_90 -Xcompiler -pthread /tmp/pb/*.o -o /tmp/pb/peers_bench && echo "peers built at $SECONDS s"
timeout 40 /tmp/pb/peers_bench --dims 2 --size 8192 --peers BKE --json $L/native2d.json > $L/peers2d.log 2>&1; echo "peers 2D rc=$? at $SECONDS s"
python3 .peers/py/merge.py --native2 $L/native2d.json --out $L/peers.json > $L/merge.log 2>&1; echo "merge rc=$?"
for t in b1 n21 b2 n22 b3 n23; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-full-$t.json > $OUT/table-$t.md 2> $L/table-$t.err; echo "table $t rc=$?"
  grep -E "^\| (ours|BKE)|best peer" $OUT/table-$t.md | head -3
done
grep -h "BKE" $L/peers2d.log | tail -n 3
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
