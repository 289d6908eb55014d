#!/usr/bin/env bash
# Call 1: main c524638 (c) through the full engine GPU tests (its review
# refactor had not run on a GPU), then a volume's events queued below the
# sampled density 0.45 (v: ../h200-prepared-patches/
# volume-queued-events-unmeasured.patch on c524638) against c, c v v c,
# 512^3 g = 1 labels only, 26- and 6-connected. Pack: c's build-gpu test and
# benchmark binaries under /tmp/b/c/build-gpu, v's cca_benchmark under
# /tmp/b/v/build-gpu.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
echo "== c: GPU tests"
bash scripts/engine-gpu-tests.sh /tmp/b/c/build-gpu $OUT/logs/tests-c
C=/tmp/b/c/build-gpu/benchmark/cca_benchmark
V=/tmp/b/v/build-gpu/benchmark/cca_benchmark
C2="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab --variant c="$C" --variant v="$V" --common "$C2 --outputs labels" \
  --set 3d-full-g1-labels="--dimension 3 --size 512 --connectivity full --g 1" \
  --set 3d-face-g1-labels="--dimension 3 --size 512 --connectivity face --g 1" --order "c v v c"
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
