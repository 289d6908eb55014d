#!/usr/bin/env bash
# Call 3 (H100): issue 13's one-command table, ours and the labels-only
# peers on the same images, with the kept form's cca_benchmark (the label
# image queued before the component count's read, on a side lane of its
# own).
# Carry: .devcarry/gab3.tar.xz (sb/benchmark/cca_benchmark), .peers, .whl.
set -u
mkdir -p /tmp/b && xz -dc .devcarry/gab3.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
PEERS_BUDGET_S=300 bash benchmark/ours_and_peers.sh /tmp/b/sb $OUT/logs $OUT/tables
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $OUT/logs
echo "done at $SECONDS s"
