#!/usr/bin/env bash
# Call 1 (H200): full connectivity's perimeter pairs counted after the
# labels from the preceding rows' pixels (cuda/PrecedingPairs.cuh's
# TallyForegroundPairs) instead of their runs. One binary n: r =
# --pass-pair-pixels never (the runs, as before), p = the default (the
# pixels). Full table, r p p r, with each image's times: 8192^2 8-conn.
# and 512^3 26-conn. at g = 1 (the rows' bits and the tubes join their
# runs, so the pass counts their pairs). Then the straddling pass held to
# 5 or 6 blocks a multiprocessor instead of 8 (s5: 48 registers, no
# spills; s6: 40 registers, 44 bytes; n: 32 registers, 116 bytes), 512^3
# 6-conn. g = 1, where the largest component is subtracted at d = 0.7-0.9.
# Then n's full engine GPU tests with memcheck and racecheck.
# Carry: .devcarry/gpu.tar.xz (n's stripped build-gpu binaries, s5's and
# s6's cca_benchmark).
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant r="$B --pass-pair-pixels never" --variant p="$B" \
  --common "$C" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --order "r p p r" --per-image
echo "ab done at $SECONDS s"
python3 benchmark/ab_compare.py --logs $OUT/logs/straddling --variant n="$B" \
  --variant s5="/tmp/b/s5/build-gpu/benchmark/cca_benchmark" --variant s6="/tmp/b/s6/build-gpu/benchmark/cca_benchmark" \
  --common "$C" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "n s5 s6 s6 s5 n" --per-image
echo "straddling done at $SECONDS s"
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
