#!/usr/bin/env bash
# Call 2 (H200): the largest component's root sampled before the numbering
# and its units counted by the numbering kernel (no pass of their own),
# and left out of the sort only with more than 256 components. The CUDA
# backend's quick checks, then one binary, --largest-apart never (n)
# against auto (a), n a a n, full table, summed, g = 1 and (faces) g = 4.
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
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "n a a n" \
  --variant n="$B --largest-apart never" --variant a="$B" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4" \
  --set 3d-face-g4="--dimension 3 --size 512 --connectivity face --g 4"
echo "done at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
