#!/usr/bin/env bash
# Call 2 (H200): the final binary p (the pass's placing in a variant of
# its own, in volumes only, each thread's box in shared memory) against
# main n, as call 1: full table, 512^3 g = 1, 26- and 6-conn., n p p n,
# each image's times. Then p and the labels-only peers of
# ../shared/peers-bench (copied to .peers/) on the same images in one
# command: labels only and the full table, 2D and 3D, both
# connectivities, every granularity, the peers with a budget of 440 s.
# Call 3 runs the tests on the same binary. Carry: .devcarry/gpu.tar.xz
# (n's cca_benchmark, p's stripped build-gpu binaries).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
B=/tmp/b/p/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader >> $L/device.txt
cat $L/device.txt
python3 benchmark/ab_compare.py --logs $L/ab --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
  --variant p="$B/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "n p p n" --per-image
echo "ab done at $SECONDS s"
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
PEERS_BUDGET_S=440 OUT=$L bash .peers/run.sh > $L/peers-run.log 2>&1; echo "peers rc=$? at $SECONDS s"; tail -2 $L/peers-run.log
for o in labels all; do
  python3 benchmark/peers_table.py --peers $L/peers.json $L/k2-$o.json $L/k3-$o.json > $OUT/table-$o.md 2> $L/table-$o.err; echo "table $o rc=$?"
done
grep -E "^\| ours|best peer" $OUT/table-*.md
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
