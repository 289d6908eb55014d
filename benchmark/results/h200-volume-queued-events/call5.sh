#!/usr/bin/env bash
# Run in the sixty-sixth session (prepared in the sixty-fifth): the automatic rule committed
# after call 4 (a plane's table under full connectivity joined from the
# rows' bits from a sampled density of 0.15, its pairs counted after the
# labels) as n, against main 2268ba8 (p), p n n p, 8192^2 8-conn. g = 1
# full table; 4-conn. too (it must not change); the full engine GPU tests
# on n; then, as time allows, the strips forced against n's default.
# About 560 s. Pack: p's cca_benchmark under /tmp/b/p/build-gpu,
# n's build-gpu test and benchmark binaries under /tmp/b/n/build-gpu.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
P=/tmp/b/p/build-gpu/benchmark/cca_benchmark
N=/tmp/b/n/build-gpu/benchmark/cca_benchmark
C2="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant p="$P" --variant n="$N" --common "$C2" \
  --set 2d-full-g1-all="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 2d-face-g1-all="--dimension 2 --size 8192 --connectivity face --g 1" --order "p n n p"
echo "== n: GPU tests"
bash scripts/engine-gpu-tests.sh /tmp/b/n/build-gpu $OUT/logs/tests-n
# The strips' thresholds (StripLeastDensity 0.35, JoinStripLeastDensityPlane
# 0.45, JoinStripLeastDensity 0.15) were set before the strips' and the
# tubes' passes queued their events: n's default against the strips
# forced (s) and refused (x), per image, as time allows.
for set in "2d-full-g1-labels:--dimension 2 --size 8192 --connectivity full --g 1 --outputs labels" \
           "2d-full-g1-all:--dimension 2 --size 8192 --connectivity full --g 1 --outputs all" \
           "3d-full-g1-all:--dimension 3 --size 512 --connectivity full --g 1 --outputs all"; do
  if [ $SECONDS -lt 480 ]; then
    python3 benchmark/ab_compare.py --logs $OUT/logs/strips --variant n="$N" --variant s="$N --strip-labeling always" --variant x="$N --strip-labeling never" \
      --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3" --set "${set%%:*}=${set#*:}" --order "n s x"
  fi
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
