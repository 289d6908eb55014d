#!/usr/bin/env bash
# Call 5 (H200): the votes' whole components (cuda/WholeComponents.cuh),
# which the engine takes where components are at least 0.1 a run
# (HostSequence::WholeComponentsLeastShare), always (w) and never (n)
# against the default (d), one binary (main 30390a5's engine), full table,
# summed, d w n n w d, per image in the logs: data for the threshold.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "d w n n w d" \
  --variant d="$B" --variant w="$B --whole-components always" --variant n="$B --whole-components never" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
