#!/usr/bin/env bash
# Call 2 (H200): p's racecheck; where the faster placing pass moves the
# subtraction's break-even (p against p --largest-subtracted always, a, on
# the densities just outside today's bounds); ncu of p's kernels at 8192^2
# 4-conn. d = 0.8 and 512^3 6-conn. d = 0.7.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
G=/tmp/b/p/build-gpu
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 1 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY|vote orders" $L/racecheck.log
P=$G/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $L/ab --variant p="$P" --variant a="$P --largest-subtracted always" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 5 --outputs all --g 1" \
  --set 2d-face-d06="--dimension 2 --size 8192 --connectivity face --density 0.6" \
  --set 2d-face-d07="--dimension 2 --size 8192 --connectivity face --density 0.7" \
  --set 2d-full-d04="--dimension 2 --size 8192 --connectivity full --density 0.4" \
  --set 3d-face-d05="--dimension 3 --size 512 --connectivity face --density 0.5" \
  --set 3d-face-d06="--dimension 3 --size 512 --connectivity face --density 0.6" \
  --order "p a a p" --per-image
for v in m p; do
  TOP=8 bash benchmark/ncu_kernel_map.sh /tmp/b/$v/build-gpu/benchmark/cca_benchmark $L/ncu $v-2d-face-d08 --outputs all \
    --dimension 2 --size 8192 --connectivity face --g 1 --density 0.8
  TOP=8 bash benchmark/ncu_kernel_map.sh /tmp/b/$v/build-gpu/benchmark/cca_benchmark $L/ncu $v-3d-face-d07 --outputs all \
    --dimension 3 --size 512 --connectivity face --g 1 --density 0.7
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
