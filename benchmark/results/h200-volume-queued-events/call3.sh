#!/usr/bin/env bash
# Call 3 (H200): the committed code (main with a sparse volume's events
# queued). Labels only and the full table (labels + runs + table), 2D
# and 3D, both connectivities, every granularity; the labels-only peers
# of ../shared/peers-bench (copied to .peers/) on the same images in the
# same command; the backend's GPU test and memcheck --quick. Pack: the
# stripped build-gpu binaries under /tmp/b/m/build-gpu.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/m/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader >> $L/device.txt
K="$B/benchmark/cca_benchmark --reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
$K --outputs labels --dimension 2 --size 8192 --g 4 --connectivity full > /dev/null 2>&1 # warm-up, not kept
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for o in labels all; do
  timeout 60 $K --outputs $o --dimension 2 --size 8192 --connectivity both --json $L/k2-$o.json > $L/k2-$o.log 2>&1
  echo "$o 2D rc=$? at $SECONDS s: $(s $L/k2-$o.log)"
  timeout 90 $K --outputs $o --dimension 3 --size 512 --connectivity both --json $L/k3-$o.json > $L/k3-$o.log 2>&1
  echo "$o 3D rc=$? at $SECONDS s: $(s $L/k3-$o.log)"
done
PEERS_BUDGET_S=$((420 - SECONDS)) OUT=$L bash .peers/run.sh > $L/peers-run.log 2>&1; echo "peers rc=$? at $SECONDS s"; tail -2 $L/peers-run.log
for o in labels all; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-$o.json $L/k3-$o.json > $OUT/table-$o.md 2> $L/table-$o.err; echo "table $o rc=$?"
done
timeout 90 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
timeout 50 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
grep -E "^\| ours|best peer" $OUT/table-*.md
echo "done at $SECONDS s"
