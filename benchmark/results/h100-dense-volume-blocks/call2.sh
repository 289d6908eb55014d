#!/usr/bin/env bash
# Call 2 (H100): main 23c829b. A sweep of the benchmark's path switches
# against the defaults on the three unmet g = 1 sets (full table): each
# switch forced both ways, to see whether a density would take the other
# path on the H100 (the thresholds were measured on the H200); b first and
# last. Then ours and every labels-only peer in one command.
# Carry: .devcarry/gab1.tar.xz (r/cca_benchmark = main), .peers, .whl.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b/q/benchmark && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
ln -s /tmp/b/r/cca_benchmark /tmp/b/q/benchmark/cca_benchmark
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/r/cca_benchmark
V=(--variant b="$B")
n=0
for s in "--row-bit-links always" "--row-bit-links never" "--vote-order never" "--whole-components always" \
  "--whole-components never" "--largest-apart always" "--largest-apart never" "--largest-subtracted always" \
  "--largest-subtracted never" "--run-end-index always" "--run-end-index never" "--link-block-rows 32" \
  "--link-block-rows 256" "--shared-row-links never" "--queued-merges never" "--narrow-table host" \
  "--link-fan-in 64" "--full-pairs-after-labels" "--strip-row-bits image" "--planar-table never"; do
  n=$((n + 1)); V+=(--variant "s$n=$B $s"); echo "s$n: $s"
done
ORDER="b $(seq -f 's%g' -s ' ' 1 $n) b"
timeout 330 python3 benchmark/ab_compare.py --logs $L/sweep "${V[@]}" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1" \
  --set 3d6="--dimension 3 --size 512 --connectivity face" \
  --set 2d4="--dimension 2 --size 8192 --connectivity face" \
  --set 2d8="--dimension 2 --size 8192 --connectivity full" \
  --order "$ORDER" --per-image > $L/sweep.txt 2>&1
echo "sweep rc=$? at $SECONDS s"; grep -vE "rc=0 at" $L/sweep.txt | head -150
if [ $SECONDS -lt 250 ]; then
  PEERS_BUDGET_S=290 bash benchmark/ours_and_peers.sh /tmp/b/q $L/op $OUT/tables
fi
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
