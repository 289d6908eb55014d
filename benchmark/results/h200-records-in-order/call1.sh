#!/usr/bin/env bash
# Call 1 (H200): the GPU tests on main 0e6e9be (StreamDevice::RunCub, not
# yet run on a GPU), then the records copied into component order before
# the votes (cuda/RecordsInComponentOrder.cuh): the patched build's
# backend test, and one A/B of main (m) against the patch (g: the gather,
# as users get it; b: the probe's bound, records flagged as in order but
# not gathered, wrong features, same loads as the votes after a free
# gather), full table, g = 1, m g b g m.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
bash scripts/engine-gpu-tests.sh /tmp/b/x/build-gpu $OUT/tests-main
timeout 100 /tmp/b/p/build-gpu/test/gpu/ccaCudaBackendTest > $OUT/backend-patch.log 2>&1
echo "patched backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|records in raster" $OUT/backend-patch.log | head
M=/tmp/b/x/build-gpu/benchmark/cca_benchmark
P=/tmp/b/p/build-gpu/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $OUT/ab \
  --variant m="$M" --variant g="$P" --variant b="env CCA_PROBE_BOUND=1 $P" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --order "m g b g m"
echo "done at $SECONDS s"
