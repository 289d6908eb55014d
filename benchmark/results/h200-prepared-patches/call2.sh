#!/usr/bin/env bash
# Both patches of call 1 together (c: the change as committed), against
# main c9a7f49 (m), m c c m: 8192^2 4-conn. g = 1 and 4, full table and
# labels only; then the engine's GPU tests on c (scripts/engine-gpu-tests.sh).
set -u
mkdir -p /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
MB=/tmp/b/m/cca_benchmark
C=/tmp/b/c/build-gpu/benchmark/cca_benchmark
for outputs in all labels; do
  echo "== --outputs $outputs: m c c m"
  python3 benchmark/ab_compare.py --logs $OUT/logs/ab-$outputs --variant m="$MB" --variant c="$C" \
    --common "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs $outputs" \
    --set 2d-face-g1="--dimension 2 --size 8192 --connectivity face --g 1" \
    --set 2d-face-g4="--dimension 2 --size 8192 --connectivity face --g 4" --order "m c c m"
done
echo "== c: GPU tests"
bash scripts/engine-gpu-tests.sh /tmp/b/c/build-gpu $OUT/logs/tests
(cd $OUT && tar -czf logs.tgz logs && rm -rf logs)
echo "done at $SECONDS s"
