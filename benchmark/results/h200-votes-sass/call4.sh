#!/usr/bin/env bash
# Call 4 (H200): the GPU tests, memcheck and racecheck
# (scripts/engine-gpu-tests.sh) on the votes of call 3 (n), then n at
# g = 4, full table, one round each set (the g = 4 targets hold).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $L/tests
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 4"
for s in "2 8192 face" "2 8192 full" "3 512 face" "3 512 full"; do
  set -- $s
  timeout 60 $B $C --dimension $1 --size $2 --connectivity $3 > $L/${1}d-$3-g4.log 2>&1
  echo "${1}d-$3-g4 rc=$? at $SECONDS s: $(grep '^==' $L/${1}d-$3-g4.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
