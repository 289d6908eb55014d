#!/usr/bin/env bash
# Call 5: the 2D 4-connected cells of call 4's table in one command: ours
# (843ac32, 4-conn. full table and labels only) and the 4-connected native
# peers that call 4's shortened budget skipped (Playne block and direct,
# HA4, KE4; ../shared/peers-bench's harness, built on the development
# machine with nvcc -arch=sm_90 -O3 as its run.sh builds it), then
# benchmark/peers_table.py. Carry: .devcarry/gab5.tar.xz (ours and peers_bench).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab5.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
K="/tmp/b/q/build-gpu/benchmark/cca_benchmark --reps 5 --warmup 1 --labels-on-device --no-atomic-counts --dimension 2 --size 8192 --connectivity face"
for o in labels all; do
  timeout 60 $K --outputs $o --json $L/k2-$o.json > $L/k2-$o.log 2>&1
  echo "ours $o rc=$? at $SECONDS s: $(grep '^==' $L/k2-$o.log)"
done
timeout 130 /tmp/b/peers_bench --dims 2 --size 8192 --peers PLAYNE_BLOCK,HA4,KE4,PLAYNE_DIRECT \
  --json $L/native2d.json --deadline 120 --peer-timeout 40 > $L/native2d.log 2>&1
echo "peers rc=$? at $SECONDS s"; grep -E "^[A-Z_0-9]+ +c4 " $L/native2d.log | tail -8
python3 .peers/py/merge.py --native2 $L/native2d.json --out $L/peers.json > $L/merge.log 2>&1
echo "merge rc=$?"
for o in labels all; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-$o.json > $OUT/table-$o.md 2> $L/table-$o.err
  echo "table $o rc=$?"
done
grep -A8 "4-connectivity" $OUT/table-all.md $OUT/table-labels.md | grep -E "^\S*\| (ours|PLAYNE|HA4)|best peer"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
