#!/usr/bin/env bash
# Call 2 (H200): the final binary (main with the straddling pass held to
# six blocks a multiprocessor, call 1's s6) and the labels-only peers of
# ../shared/peers-bench (copied to .peers/) on the same images in one
# command: labels only and the full table (labels + runs + table), 2D and
# 3D, both connectivities, every granularity; the peers with a budget of
# 440 s so that Playne's 2D kernels are reached (290 s in the last one-
# command call left them out). No second round and no tests: call 3 runs
# the tests on the same binary. Pack: the stripped build-gpu binaries
# under /tmp/b/n/build-gpu.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/n/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader >> $L/device.txt
K="$B/benchmark/cca_benchmark --reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
$K --outputs labels --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
ours() { # outputs
  timeout 60 $K --outputs $1 --dimension 2 --size 8192 --connectivity both --json $L/k2-$1.json > $L/k2-$1.log 2>&1
  echo "$1 2D rc=$? at $SECONDS s: $(s $L/k2-$1.log)"
  timeout 90 $K --outputs $1 --dimension 3 --size 512 --connectivity both --json $L/k3-$1.json > $L/k3-$1.log 2>&1
  echo "$1 3D rc=$? at $SECONDS s: $(s $L/k3-$1.log)"
}
ours labels
ours all
PEERS_BUDGET_S=440 OUT=$L bash .peers/run.sh > $L/peers-run.log 2>&1; echo "peers rc=$? at $SECONDS s"; tail -2 $L/peers-run.log
for o in labels all; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-$o.json $L/k3-$o.json > $OUT/table-$o.md 2> $L/table-$o.err; echo "table $o rc=$?"
done
grep -E "^\| ours|best peer" $OUT/table-*.md
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
