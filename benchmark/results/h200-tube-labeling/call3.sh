#!/usr/bin/env bash
# Call 3 (H200): the final rule (tubes below 32 pixels a run): 3D labels only,
# both connectivities, then the labels-only peers on the same images in the
# same command; the 2D strips always / never per density (a lead for planes),
# the quick GPU tests. Everything packed in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader >> $L/device.txt
K="$B/benchmark/cca_benchmark --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts"
$K --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
timeout 100 $K --dimension 3 --size 512 --connectivity both --json $L/k3-auto.json > $L/k3-auto.log 2>&1
echo "labels 3D rc=$? at $SECONDS s: $(s $L/k3-auto.log)"
for m in always never; do
  timeout 40 $K --dimension 2 --size 8192 --connectivity full --strip-labeling $m --json $L/k2-$m.json > $L/k2-$m.log 2>&1
  echo "2D 8 $m rc=$? at $SECONDS s: $(s $L/k2-$m.log)"
done
timeout 60 $B/test/gpu/ccaCudaBackendTest --quick > $L/backend-quick.log 2>&1; echo "backend --quick rc=$? at $SECONDS s"; grep -E "strip labeling|^total|FAIL" $L/backend-quick.log | head -5
PEERS_BUDGET_S=$((420 - SECONDS)) OUT=$L bash .peers/run.sh > $L/peers-run.log 2>&1; echo "peers rc=$? at $SECONDS s"; tail -3 $L/peers-run.log
python3 benchmark/peers_table.py --peers $L/peers.json $L/k3-auto.json > $L/table.md 2> $L/table.err; echo "table rc=$?"
cp $L/table.md $OUT/; tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
grep -E "^\| ours|best peer" $OUT/table.md
