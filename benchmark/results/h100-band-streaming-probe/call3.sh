#!/usr/bin/env bash
# Call 3: band-folded-probe.cu (built here), call 2's probe with each
# warp's runs of one component folded before their record's atomics, on
# the same 8192^2 g = 1 planes, tiles and bands as call 2, with the same
# checks.
set -uo pipefail
mkdir -p $OUT/call3 && exec > >(tee $OUT/call3/log.txt) 2>&1
nvidia-smi -L
D=benchmark/results/h100-band-streaming-probe
SECONDS=0
nvcc -O3 -std=c++17 -arch=sm_90 -I include -Xptxas -v $D/band-folded-probe.cu -o /tmp/probe 2>&1 | grep -E "error|registers" | head -12
echo "probe built at $SECONDS s"
timeout 400 /tmp/probe --reps 5 --rows 16,32,64
echo "probe rc=$? at $SECONDS s"
