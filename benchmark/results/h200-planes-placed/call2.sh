#!/usr/bin/env bash
# Call 2 (H200): q = the kept form: call 1's p with the default choosing
# planes too (LargestSubtractedFor: the largest component's runs at least
# 0.08 a pixel, as in volumes, and the components at most 0.02 a run in
# planes, 0.01 in volumes). q's engine GPU suite with memcheck and
# racecheck (scripts/engine-gpu-tests.sh), v q q v against main (8e1b518)
# on the g = 1 sets and 8192^2 8-conn. g = 4 (the default leaves g = 4
# alone), then ncu of every kernel of two placed planes. Carry:
# .devcarry/gpu.tar.xz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
B=/tmp/b/q/build-gpu
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
bash scripts/engine-gpu-tests.sh $B $L/tests
python3 benchmark/ab_compare.py --logs $L/ab --variant v="/tmp/b/v/build-gpu/benchmark/cca_benchmark" \
  --variant q="$B/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g4="--dimension 2 --size 8192 --connectivity full --g 4" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --order "v q q v" --per-image
echo "ab done at $SECONDS s"
TOP=14 bash benchmark/ncu_kernel_map.sh $B/benchmark/cca_benchmark $L/ncu 2d-full-d0.6 --outputs all \
  --dimension 2 --size 8192 --connectivity full --g 1 --density 0.6
TOP=14 bash benchmark/ncu_kernel_map.sh $B/benchmark/cca_benchmark $L/ncu 2d-face-d0.8 --outputs all \
  --dimension 2 --size 8192 --connectivity face --g 1 --density 0.8
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
