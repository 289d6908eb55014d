#!/usr/bin/env bash
# Call 3 (H200): the final binary q (the totals in 32-bit task counts, 64
# registers, on the run's stream beside the side work; call 2's r without
# the label image's move) and the labels-only peers of
# ../shared/peers-bench (copied to .peers/) on the same images in one
# command: labels only and the full table, 2D and 3D, both
# connectivities, every granularity, the peers with a budget of 300 s.
# Then q's backend GPU test and memcheck (--quick); call 2 ran the full
# suite with racecheck on r, which differs from q only in where the label
# image is queued when the largest component's runs are placed. Carry:
# .devcarry/gpu.tar.xz, .peers.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
B=/tmp/b/q/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader >> $L/device.txt
cat $L/device.txt
K="$B/benchmark/cca_benchmark --reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
ours() { # outputs
  timeout 60 $K --outputs $1 --dimension 2 --size 8192 --connectivity both --json $L/k2-$1.json > $L/k2-$1.log 2>&1
  echo "$1 2D rc=$? at $SECONDS s: $(s $L/k2-$1.log)"
  timeout 90 $K --outputs $1 --dimension 3 --size 512 --connectivity both --json $L/k3-$1.json > $L/k3-$1.log 2>&1
  echo "$1 3D rc=$? at $SECONDS s: $(s $L/k3-$1.log)"
}
ours labels
ours all
PEERS_BUDGET_S=300 OUT=$L bash .peers/run.sh > $L/peers-run.log 2>&1; echo "peers rc=$? at $SECONDS s"; tail -2 $L/peers-run.log
for o in labels all; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-$o.json $L/k3-$o.json > $OUT/table-$o.md 2> $L/table-$o.err; echo "table $o rc=$?"
done
grep -E "^\| ours|best peer" $OUT/table-*.md
timeout 120 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
timeout 45 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
