#!/usr/bin/env bash
# Call 4 (H200): the volumes with the committed code (98b4004), whose
# feature formulas now loop over each record's extents: full table,
# summed, 512^3 g = 1, 6- and 26-connected, twice each, to set beside
# h200-vote-occupancy call 1 (another call: the spread from call to call
# is 1-2 %).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --variant c="$B" --common "$C" --order "c c" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
