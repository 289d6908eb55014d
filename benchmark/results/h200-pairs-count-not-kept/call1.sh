#!/usr/bin/env bash
# Call 1 (H200): the GPU tests on r (the side work queues the stored
# pairs' count before the label image; the votes wait for the pairs only),
# memcheck and racecheck, then the full table at g = 1 against main
# a7c3edb (m) and r with the table's preparation queued before the pairs'
# join (p): m r p p r m.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="/tmp/b/m/cca_benchmark" --variant r="/tmp/b/x/build-gpu/benchmark/cca_benchmark" \
  --variant p="/tmp/b/p/cca_benchmark" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --order "m r p p r m"
tar -C $OUT -czf $OUT/logs.tgz tests ab && rm -rf $OUT/tests $OUT/ab
echo "done at $SECONDS s"
