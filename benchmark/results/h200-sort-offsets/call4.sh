#!/usr/bin/env bash
# Call 4 (H200): the label image queued on the run's stream ahead of the
# sort where the stored pairs' count is side work in volumes (a: the new
# default), against beside the sort with the pairs (s: --label-image-beside
# always, as before) and ahead of it in planes too (n: never); the engine's
# GPU tests on this binary first, with memcheck and racecheck.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
G=/tmp/b/x/build-gpu
bash scripts/engine-gpu-tests.sh $G $OUT/tests
grep -E "^Default .*(launches|stream|counts|beside|ahead)" $OUT/tests/backend.log
tar -C $OUT -czf $OUT/tests.tgz tests && rm -rf $OUT/tests
B=$G/benchmark/cca_benchmark
C="--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all"
python3 benchmark/ab_compare.py --logs $L --common "$C" --order "a s n n s a" \
  --variant a="$B" --variant s="$B --label-image-beside always" --variant n="$B --label-image-beside never" \
  --set 3d-face-g1="--dimension 3 --size 512 --connectivity face --g 1" \
  --set 3d-face-g4="--dimension 3 --size 512 --connectivity face --g 4" \
  --set 3d-face-g16="--dimension 3 --size 512 --connectivity face --g 16" \
  --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
  --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4"
echo "done at $SECONDS s"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
