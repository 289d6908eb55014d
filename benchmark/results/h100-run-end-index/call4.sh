#!/usr/bin/env bash
# Call 4: ours (843ac32, the call 3 candidate) and every labels-only peer
# in one command on the H100 (benchmark/ours_and_peers.sh).
# Carry: .devcarry/gab4.tar.xz, .peers, .whl.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab4.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
PEERS_BUDGET_S=260 bash benchmark/ours_and_peers.sh /tmp/b/q/build-gpu $L $OUT/call4
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
