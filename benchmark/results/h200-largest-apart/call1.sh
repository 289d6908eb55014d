#!/usr/bin/env bash
# Call 1 (H200): the component order with the largest component's units
# left out of the radix sort (cuda/LargestComponent.cuh). First the CUDA
# backend's quick checks (the new largest-component cases among them),
# then one binary, --largest-apart never (n) against auto (a), n a a n,
# full table, summed, g = 1; then always (w) once per set, for the
# per-image effect below the default's share.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
G=/tmp/b/x/build-gpu
timeout 60 $G/test/gpu/ccaCudaBackendTest --quick --algorithm Default > $L/backend-quick.log 2>&1
echo "backend quick rc=$? at $SECONDS s"; grep -E "^total|FAIL|vote orders" $L/backend-quick.log | head -12
B=$G/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "n a a n w" \
  --variant n="$B --largest-apart never" --variant a="$B" --variant w="$B --largest-apart always" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1"
echo "done at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
