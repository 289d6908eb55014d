#!/usr/bin/env bash
# Call 2: the band-sort probe (band_sort_probe.cu here, built on the
# development machine with nvcc -O3 -std=c++17 -arch=sm_90 into
# x-probe/band_sort_probe; 4- and 8-conn.),
# then main (de97d0a) and every labels-only peer in one command
# (benchmark/ours_and_peers.sh). Carry: .devcarry/gab.tar.xz, .peers, .whl.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 100 ./x-probe/band_sort_probe 4 7
timeout 60 ./x-probe/band_sort_probe 8 5
echo "probe done at $SECONDS s"
bash benchmark/ours_and_peers.sh /tmp/b/q/build-gpu $L $OUT/call2
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
