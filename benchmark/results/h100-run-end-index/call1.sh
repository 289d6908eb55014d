#!/usr/bin/env bash
# Call 1 (main 77d0106): the run end index and the union-find's levels on
# images of few runs a row. One binary; variants by its switches:
# a default; n --run-end-index never; nf n + --link-fan-in 512;
# nrf nf + --link-block-rows 512. Full table.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/m/cca_benchmark
timeout 480 python3 benchmark/ab_compare.py --logs $L/ab --variant a="$B" \
  --variant n="$B --run-end-index never" \
  --variant nf="$B --run-end-index never --link-fan-in 512" \
  --variant nrf="$B --run-end-index never --link-fan-in 512 --link-block-rows 512" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 11 --outputs all" \
  --set 2d-all-on="--dimension 2 --size 8192 --connectivity both --g 0" \
  --set 3d-all-on="--dimension 3 --size 512 --connectivity both --g 0" \
  --set 3d-face-g16="--dimension 3 --size 512 --connectivity face --g 16 --reps 3" \
  --set 3d-full-g16="--dimension 3 --size 512 --connectivity full --g 16 --reps 3" \
  --set 2d-face-g16="--dimension 2 --size 8192 --connectivity face --g 16 --reps 5" \
  --order "a n nf nrf nrf nf n a" --per-image
echo "ab rc=$? at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
