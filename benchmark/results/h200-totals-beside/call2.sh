#!/usr/bin/env bash
# Call 2 (H200): q (call 1's winner: the totals in 32-bit task counts,
# 64 registers, on the run's stream) against r = q with the label image
# also on the run's stream where the pairs' pass places the largest
# component's runs (beside the pass, with the totals and the sort's
# split, instead of before the pass on the side stream). n = main
# (a3bbd70); full table, 512^3 g = 1, 26- and 6-conn., n q r r q n, each
# image's times. Then r's engine GPU tests with memcheck and racecheck
# (scripts/engine-gpu-tests.sh). Carry: .devcarry/gpu.tar.xz.
set -u
mkdir -p /tmp/b $OUT/logs
xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
  --variant q="/tmp/b/q/build-gpu/benchmark/cca_benchmark" \
  --variant r="/tmp/b/r/build-gpu/benchmark/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-full-g1="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "n q r r q n" --per-image
echo "ab done at $SECONDS s"
bash scripts/engine-gpu-tests.sh /tmp/b/r/build-gpu $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
