#!/usr/bin/env bash
# Call 2 (main 77d0106, same binary as call 1): the run end index (a: auto,
# as main writes it everywhere; n: never) and the slice levels' fan-in
# (nf: n + --link-fan-in 512) at g = 1 and 4. Full table.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gab1.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/m/cca_benchmark
timeout 500 python3 benchmark/ab_compare.py --logs $L/ab --variant a="$B" \
  --variant n="$B --run-end-index never" \
  --variant nf="$B --run-end-index never --link-fan-in 512" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all" \
  --set 2d-g4="--dimension 2 --size 8192 --connectivity both --g 4" \
  --set 3d-g4="--dimension 3 --size 512 --connectivity both --g 4 --reps 3" \
  --set 2d-g1="--dimension 2 --size 8192 --connectivity both --g 1 --reps 3" \
  --set 3d-g1="--dimension 3 --size 512 --connectivity both --g 1 --reps 3" \
  --order "a n nf nf n a" --per-image
echo "ab rc=$? at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
