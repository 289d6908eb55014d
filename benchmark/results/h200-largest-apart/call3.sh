#!/usr/bin/env bash
# Call 3 (H200): the numbering's kernel held to five blocks an SM (48
# registers, counting or not); the engine's GPU tests, memcheck and
# racecheck on it; then one binary, --largest-apart never (n) against
# auto (a), n a a n, full table, summed, g = 1.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
G=/tmp/b/x/build-gpu
bash scripts/engine-gpu-tests.sh $G $OUT/tests
grep -E "vote orders" $OUT/tests/backend.log
B=$G/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "n a a n" \
  --variant n="$B --largest-apart never" --variant a="$B" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1"
echo "done at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
tar -C $OUT -czf $OUT/tests.tgz tests && rm -rf $OUT/tests
