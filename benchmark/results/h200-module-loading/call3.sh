#!/usr/bin/env bash
# Call 3: CUDA's teardown at the exit (exitprobe.cpp, built on the development
# machine with the engine library): each mode in fresh processes, interleaved.
set -uo pipefail
mkdir -p $OUT/call3 && exec > >(tee $OUT/call3/log.txt) 2>&1
nvidia-smi -L; nvidia-smi --query-gpu=persistence_mode,driver_version --format=csv
P=.devcarry/exitprobe
for round in 1 2 3 4; do
  for mode in context start run release reset beside; do
    b=$(date +%s%N)
    $P $mode > /tmp/probe.txt
    e=$(date +%s%N)
    s=$(grep '^stamp' /tmp/probe.txt | cut -d' ' -f2)
    echo "== $mode: $(grep -v '^stamp' /tmp/probe.txt | tr '\n' ';') process $(((e-b)/1000000)) ms, exit $(((e-s)/1000000)) ms"
  done
done
echo done
