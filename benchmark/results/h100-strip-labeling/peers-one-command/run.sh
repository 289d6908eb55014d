#!/usr/bin/env bash
# session 23, call 5: the strips code: a warm-up benchmark (discarded), labels only in 2D and 3D, then the labels-only peers, in one command
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/b && tar -C /tmp/b -xJf .devcarry/b23c.tar.xz
K=/tmp/b/b23/cca_benchmark
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
timeout 60 $K --dimension 2 --size 8192 --g 4 --connectivity both --reps 3 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts > $L/warmup.log 2>&1; echo "warm-up (not kept) rc=$? at $SECONDS s"
for d in 2 3; do sz=8192; [ $d = 3 ] && sz=512
  timeout 130 $K --dimension $d --size $sz --connectivity both --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts --json $L/k$d-auto.json > $L/k$d-auto.log 2>&1
  echo "labels ${d}D rc=$? at $SECONDS s: $(grep '^==' $L/k$d-auto.log | sed 's/.*kernel \([0-9.]*\) G.*/\1/' | tr '\n' ' ')"
done
PEERS_BUDGET_S=$((560 - SECONDS)) OUT=$L bash .peers/run.sh > $L/peers-run.log 2>&1; echo "peers rc=$? at $SECONDS s"; tail -3 $L/peers-run.log
python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-auto.json $L/k3-auto.json > $L/table.md 2> $L/table.err; echo "table rc=$?"
cp $L/table.md $OUT/
tar -C $OUT -czf $OUT/logs.tgz logs
