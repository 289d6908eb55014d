#!/usr/bin/env bash
# Call 1 (H200): the largest component's runs placed by the pairs' pass in
# planes too (PlacedLargest.cuh; before, volumes only), where its entry is
# the foreground's totals less the others (LargestBySubtraction.cuh).
# v = main 8e1b518; p = the change, whose default still subtracts in
# volumes only: a = p --largest-subtracted always (subtracted and placed in
# every plane), e = p --largest-subtracted never. p's backend test, then
# v a e e a v on 8192^2 g = 1 and g = 4, both connectivities, full table,
# per image, to choose where planes take it. Carry: .devcarry/gpu.tar.xz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
timeout 150 /tmp/b/p/build-gpu/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|largest" $L/backend.log | head -12
P=/tmp/b/p/build-gpu/benchmark/cca_benchmark
python3 benchmark/ab_compare.py --logs $L/ab --variant v="/tmp/b/v/build-gpu/benchmark/cca_benchmark" \
  --variant a="$P --largest-subtracted always" --variant e="$P --largest-subtracted never" \
  --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-full-g1="--dimension 2 --size 8192 --connectivity full --g 1" \
  --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4" \
  --set 2d-full-g4="--dimension 2 --size 8192 --connectivity full --g 4" \
  --order "v a e e a v" --per-image
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"
