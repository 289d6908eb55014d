#!/usr/bin/env bash
# Call 3 (H200): the foreground's totals read each row once (a warp walks
# 32 rows of a slice, keeping the bits of the preceding rows: n) instead of
# five times (o, call 2's binary). 512^3 26-conn. g = 1 with the default,
# o n n o; then where the totals' cost shows alone (g = 4, where the
# default leaves the largest component in the votes) with
# --largest-subtracted always, O N N O, 3D and 2D. Then n's quick GPU
# tests (ccaCudaBackendTest, memcheck, racecheck). Carry:
# .devcarry/gpu.tar.xz (n's cca_benchmark and ccaCudaBackendTest, o's
# cca_benchmark).
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
N=/tmp/b/n/build-gpu/benchmark/cca_benchmark
O=/tmp/b/o/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab1 --variant o="$O" --variant n="$N" --common "$C" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" --order "o n n o" --per-image
python3 benchmark/ab_compare.py --logs $OUT/logs/ab2 --variant O="$O --largest-subtracted always" \
  --variant N="$N --largest-subtracted always" --common "$C" \
  --set 3d-full-g4="--dimension 3 --size 512 --connectivity full --g 4" \
  --set 2d-full-g4="--dimension 2 --size 8192 --connectivity full --g 4" --order "O N N O" --per-image
echo "ab done at $SECONDS s"
bash scripts/engine-gpu-tests.sh --quick /tmp/b/n/build-gpu $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
