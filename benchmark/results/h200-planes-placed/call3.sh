#!/usr/bin/env bash
# Call 3 (H200): ours (q, the kept form of call 2) and every labels-only
# peer in one command (benchmark/ours_and_peers.sh). Carry:
# .devcarry/gpu.tar.xz, .peers (../shared/peers-bench).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
bash benchmark/ours_and_peers.sh /tmp/b/q/build-gpu $L/peers $OUT/call3
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
