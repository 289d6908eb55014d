#!/usr/bin/env bash
# Call 5 (H200): the final code (side work, the run's stream one priority
# above the default): the engine's GPU tests, memcheck and racecheck; then
# one binary, --no-side-stream (n) against the default (s), s n n s, full
# table, summed, on the sets call 4 left out.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
G=/tmp/b/x/build-gpu
bash scripts/engine-gpu-tests.sh $G $OUT/tests
grep -E "one stream|ordinary launches" $OUT/tests/backend.log
tar -C $OUT -czf $OUT/tests.tgz tests && rm -rf $OUT/tests
B=$G/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "s n n s" \
  --variant s="$B" --variant n="$B --no-side-stream" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4" \
  --set 3d-face-g4="--dimension 3 --size 512 --connectivity face --g 4"
echo "done at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
