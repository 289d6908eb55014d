#!/usr/bin/env bash
# Call 4 (H200): N = the strip runs' labels before the image (as call 1's
# N, with StripRows.cuh's row places tidied: StripRowAt), against B =
# main (b86fc2f). The GPU tests, memcheck and racecheck on N; then labels
# only, B N B N, 8192^2 8-conn. g = 1, 512^3 26-conn. g = 1 and 4, with
# BKE and BE_3D (../shared/peers-bench, in .peers/) built and run in the
# same command.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b /tmp/pb
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
pids=()
for f in .peers/src/harness.cu .peers/peers/yacclab_BKE.cu .peers/peers/yacclab_BE_3D.cu; do
  nvcc -arch=sm_90 -O3 -DNDEBUG -std=c++17 -c $f -o /tmp/pb/$(basename $f .cu).o > /tmp/pb/$(basename $f .cu).log 2>&1 &
  pids+=($!)
done
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $L
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs labels"
for c in "2 8192 1 k2" "3 512 1 k3" "3 512 4 k3g4"; do set -- $c
  for r in 1 2; do for v in b n; do
    X=/tmp/b/b/cca_benchmark; [[ $v == n ]] && X=/tmp/b/n/build-gpu/benchmark/cca_benchmark
    t=$4-full-$v$r
    timeout 60 $X $P --g $3 --dimension $1 --size $2 --connectivity full --json $L/$t.json > $L/$t.log 2>&1
    echo "$t rc=$? at $SECONDS s: $(s $L/$t.log)"
    grep "^Default" $L/$t.log | awk '{printf "%s:%s ", $4, $10} END {print ""}'
  done; done
done
wait "${pids[@]}"; nvcc -arch=sm_90 -Xcompiler -pthread /tmp/pb/*.o -o /tmp/pb/peers_bench && echo "peers built at $SECONDS s"
timeout 40 /tmp/pb/peers_bench --dims 2 --size 8192 --peers BKE --json $L/native2d.json > $L/peers2d.log 2>&1; echo "peers 2D rc=$? at $SECONDS s"
timeout 90 /tmp/pb/peers_bench --dims 3 --size 512 --peers BE_3D --json $L/native3d.json > $L/peers3d.log 2>&1; echo "peers 3D rc=$? at $SECONDS s"
python3 .peers/py/merge.py --native2 $L/native2d.json --native3 $L/native3d.json --out $L/peers.json > $L/merge.log 2>&1; echo "merge rc=$?"
for t in n1 n2; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-full-$t.json $L/k3-full-$t.json > $OUT/table-$t.md 2> $L/table-$t.err; echo "table $t rc=$?"
  grep -E "^\| (ours|BKE|BE_3D)|best peer|^### [23]D, (8|26)" $OUT/table-$t.md
done
grep -h "BKE\|BE_3D" $L/peers2d.log $L/peers3d.log | tail -n 6
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
