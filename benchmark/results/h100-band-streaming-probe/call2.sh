#!/usr/bin/env bash
# Call 2: band-features-probe.cu (built here) on the protocol's 8192^2 g = 1
# planes, 4- and 8-connectivity: the streaming union-find alone in tiles
# 8192 and 4096 columns wide, and with each component's record kept in
# shared memory and stored once it ends, in tiles 4096 and 2048 wide;
# bands of 16, 32 and 64 rows. Every 8th tile's record count checked
# against a CPU union-find of the tile; the stored records' pixels against
# the foreground.
set -uo pipefail
mkdir -p $OUT/call2 && exec > >(tee $OUT/call2/log.txt) 2>&1
nvidia-smi -L
D=benchmark/results/h100-band-streaming-probe
SECONDS=0
nvcc -O3 -std=c++17 -arch=sm_90 -I include -Xptxas -v $D/band-features-probe.cu -o /tmp/probe 2>&1 | grep -E "error|registers" | head -12
echo "probe built at $SECONDS s"
timeout 400 /tmp/probe --reps 5 --rows 16,32,64
echo "probe rc=$? at $SECONDS s"
