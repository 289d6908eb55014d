#!/usr/bin/env bash
# Call 2: w = the volume patch with the tubes judged by the image rows'
# sampled density (the strips' union-find had taken the strip image's own,
# about 1 - (1 - d)^4, so call 1's tubes never queued), against main
# c524638 (c), c w w c: 512^3 g = 1 26-conn. labels only; w's quick GPU
# tests; then the full table (--outputs all), 26- and 6-connected, as time
# allows. Pack: c's cca_benchmark under /tmp/b/c/build-gpu, w's
# cca_benchmark and ccaCudaBackendTest under /tmp/b/w/build-gpu.
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
C=/tmp/b/c/build-gpu/benchmark/cca_benchmark
W=/tmp/b/w/build-gpu/benchmark/cca_benchmark
C2="--labels-on-device --no-atomic-counts --warmup 1 --reps 3"
python3 benchmark/ab_compare.py --logs $OUT/logs/ab-labels --variant c="$C" --variant w="$W" --common "$C2 --outputs labels" \
  --set 3d-full-g1-labels="--dimension 3 --size 512 --connectivity full --g 1" --order "c w w c"
echo "== w: GPU tests (--quick)"
bash scripts/engine-gpu-tests.sh --quick /tmp/b/w/build-gpu $OUT/logs/tests-w
for conn in full face; do
  if [ $SECONDS -lt 400 ]; then
    python3 benchmark/ab_compare.py --logs $OUT/logs/ab-all-$conn --variant c="$C" --variant w="$W" --common "$C2 --outputs all" \
      --set 3d-$conn-g1-all="--dimension 3 --size 512 --connectivity $conn --g 1" --order "c w w c"
  fi
done
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
