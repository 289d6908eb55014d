#!/usr/bin/env bash
# Call 2 (H200): v = the kept form: a volume's rows loaded evict-first in
# LinkByteRowsKernel only (s of call 1 in volumes; planes as before, where
# s and t lost 0.5 % at 8-conn.). Its engine GPU tests, quick, with
# memcheck and racecheck (scripts/engine-gpu-tests.sh --quick), then n v v n
# on 512^3 26-conn. g = 1, full table. Carry: .devcarry/gpu.tar.xz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
bash scripts/engine-gpu-tests.sh --quick /tmp/b/v/build-gpu $L/tests
python3 benchmark/ab_compare.py --logs $L/ab --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
  --variant v="/tmp/b/v/build-gpu/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1" \
  --set 3d-full="--dimension 3 --size 512 --connectivity full" --order "n v v n" --per-image
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
