#!/usr/bin/env bash
# Probe (not for main): the votes store only the first 32 bytes of each
# whole entry (p), against main (m): an upper bound of what an entry three
# times smaller would gain the full table at g = 1.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L/ab --variant m="/tmp/b/m/build-gpu/benchmark/cca_benchmark" \
  --variant p="/tmp/b/p/build-gpu/benchmark/cca_benchmark" --common "$C" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "m p p m" --per-image
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
