#!/usr/bin/env bash
# Ours and the labels-only peers on the same images in one command, on the
# lent GPU machine (issue 13's tables): cca_benchmark of BUILD (a build-gpu
# folder, as the call scripts of benchmark/results unpack it) with labels
# only and with the full table, 8192^2 and 512^3, both connectivities,
# every granularity (5 repetitions after a warm-up, image and label image
# in device memory), then ../shared/peers-bench copied to .peers/ (budget
# PEERS_BUDGET_S, default 300 s; it regenerates the same images and checks
# them), then benchmark/peers_table.py: TABLES/table-labels.md and
# table-all.md. Logs and JSON go to LOGS. Prints a line a step; about 4
# minutes on an H200 (the peers about 150 s of it). Usage:
#   bash benchmark/ours_and_peers.sh BUILD LOGS TABLES
set -u
B=$1
L=$2
T=$3
mkdir -p "$L" "$T"
K="$B/benchmark/cca_benchmark --reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
summed() { grep '^==' "$1" | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for outputs in labels all; do
  timeout 60 $K --outputs $outputs --dimension 2 --size 8192 --connectivity both --json "$L/k2-$outputs.json" > "$L/k2-$outputs.log" 2>&1
  echo "ours $outputs 2D rc=$? at $SECONDS s: $(summed "$L/k2-$outputs.log")"
  timeout 90 $K --outputs $outputs --dimension 3 --size 512 --connectivity both --json "$L/k3-$outputs.json" > "$L/k3-$outputs.log" 2>&1
  echo "ours $outputs 3D rc=$? at $SECONDS s: $(summed "$L/k3-$outputs.log")"
done
PEERS_BUDGET_S=${PEERS_BUDGET_S:-300} OUT="$L" bash .peers/run.sh > "$L/peers-run.log" 2>&1
echo "peers rc=$? at $SECONDS s"
tail -n 2 "$L/peers-run.log"
for outputs in labels all; do
  python3 benchmark/peers_table.py --peers "$L/peers.json" "$L/k2-$outputs.json" "$L/k3-$outputs.json" \
    > "$T/table-$outputs.md" 2> "$L/table-$outputs.err"
  echo "table $outputs rc=$?"
done
grep -E "^\| ours|best peer" "$T"/table-*.md
